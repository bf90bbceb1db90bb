r"""Finding query terms in text: one regular expression, written in the syntax ripgrep and
Python share, so the ripgrep search, the pure-Python scan and snippet cutting count the
same occurrences.

The expression finds every word that holds a term's prefix, with the one character before
it when that is a letter or digit: `(?i)[^\W_]?(?:prefixes)[^\W_]*`. Whether the match
starts a word part (a word start, after `_`, after digits as in `25vw`, or a camelCase
boundary as in `dryRunPreview`) is told from that character, and what the word counts for
from its parts' stems and its compound key (`analyse_word`). Anchoring the expression
itself on word-part boundaries would cost ripgrep its literal search: several times slower.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from itertools import accumulate, islice
from operator import methodcaller

from .analysis import Term, analyse_word, split_identifier, stem
from .query_asks import query_names
from .stopwords import STOPWORDS

_WORD_CHAR = r"[^\W_]"
# Up to this many alternatives, Python searches text with one pattern per alternative
# (each found by the engine's quick literal search) rather than with their alternation,
# which it tries at every position holding one of their first letters: about three
# times faster for two terms, no faster from about five.
SEPARATE_SCANS_UP_TO = 4
# A text whose first SPLIT_AFTER matches lie within SPLIT_AFTER * SPLIT_DENSITY characters
# is dense with the query's words: the rest of it is split around the matches of one
# alternation (`re.split`, in C), not searched match by match in Python. Six 2 MB files of
# one word took 4 s to count; dense text counts over twice as fast split, while text with
# sparser matches counts faster with the separate scans (a 3.5 MB module with 13,000
# matches: 48 ms scanned, 64 ms split).
SPLIT_AFTER = 2_000
SPLIT_DENSITY = 64
# What Rust's regex::escape (ripgrep, ck) escapes.
_RUST_REGEX_META = frozenset("\\.+*?()|[]{}^$#&-~")


def regex_escape(text: str) -> str:
    """`text` as a literal in a Rust regex (ripgrep's and ck's syntax)."""
    return "".join(f"\\{ch}" if ch in _RUST_REGEX_META else ch for ch in text)


def _alternative_list(terms: Iterable[Term]) -> list[str]:
    """Compounds first (at one position the first alternative wins, and a compound match
    also counts its parts), then prefixes, longest first. Parts are letters and digits
    only (a prefix may end in `[iy]` or hold `(?:..|..)` spellings, a dotted number's is
    escaped), so no other term text needs escaping."""
    ordered = sorted(terms, key=lambda t: (not t.compound, -len(t.prefix)))
    return [
        (_OPTION_HYPHEN if t.option else _JOINER).join(t.parts) if t.compound else t.prefix
        for t in ordered
    ]


# What joins a compound's parts in the text: nothing, `_` or `-`, or roff's escaped hyphen
# (a manual page writes `escape\-time`, `\-\-no\-pager`); an option's parts, a hyphen.
_JOINER = r"[\\_-]*"
_OPTION_HYPHEN = r"\\?-"


def _alternatives(terms: Iterable[Term]) -> str:
    return "|".join(_alternative_list(terms))


def term_pattern(terms: Iterable[Term]) -> str:
    """One case-insensitive pattern for every term, valid in Rust's and Python's regex
    syntax alike."""
    return f"(?i){_WORD_CHAR}?(?:{_alternatives(terms)}){_WORD_CHAR}*"


def leftmost_first(scans: tuple[re.Pattern[str], ...], text: str) -> Iterator[re.Match[str]]:
    """The matches the alternation of `scans` (`(?:a|b)x` for `ax`, `bx`) finds in `text`
    with `finditer`: the leftmost match, the earlier pattern's where several start at one
    position, each search resuming where the last match ended."""
    if len(scans) == 1:
        yield from scans[0].finditer(text)
        return
    pending = [scan.search(text) for scan in scans]
    while True:
        best = None
        for match in pending:
            if match is not None and (best is None or match.start() < best.start()):
                best = match
        if best is None:
            return
        yield best
        end = best.end()
        for i, match in enumerate(pending):
            if match is not None and match.start() < end:
                pending[i] = scans[i].search(text, end)


_NEWLINES = methodcaller("count", "\n")


def solid_pairs(terms: Iterable[Term]) -> dict[str, list[str]]:
    """Each two words the query wrote next to each other, written solid and stemmed (`top
    level`: `toplevel`), with the two words' keys: a text writing them as one word (Magit's
    `magit-toplevel`, `filenames` for `file name`) holds both."""
    words = {
        term.position: term
        for term in terms
        if term.position >= 0 and term.word.isalpha() and not (term.compound or term.in_name)
    }
    return {
        stem(first.word + words[at + 1].word): [first.key, words[at + 1].key]
        for at, first in words.items()
        if at + 1 in words
    }


@dataclass(frozen=True)
class TermMatcher:
    """Counts a query's terms in text, by term key."""

    terms: tuple[Term, ...]
    pattern: str = field(init=False)  # for ripgrep: each match with the character before
    regex: re.Pattern[str] = field(init=False, repr=False)
    # For Python: the same matches without that character, which Python's engine would
    # try at every position of the text (ten times slower); see `matches`.
    _scan: tuple[re.Pattern[str], ...] = field(init=False, repr=False)
    _scan_any_case: tuple[re.Pattern[str], ...] = field(init=False, repr=False)
    # The alternation of every scan, captured, to split a text dense with matches.
    _splitter: re.Pattern[str] = field(init=False, repr=False)
    _splitter_any_case: re.Pattern[str] = field(init=False, repr=False)
    _starts: re.Pattern[str] = field(init=False, repr=False)
    _stems: frozenset[str] = field(init=False, repr=False)
    _compounds: frozenset[str] = field(init=False, repr=False)
    # A compound's key -> its parts' keys the query counts (`macos`: mac, os).
    _compound_parts: dict[str, tuple[str, ...]] = field(init=False, repr=False, compare=False)
    # The compounds the query wrote as options (`--check-status`): spelt with hyphens only.
    _options: frozenset[str] = field(init=False, repr=False)
    _literals: frozenset[str] = field(init=False, repr=False)
    # The stem of a word an abbreviation of the query stands for -> that term's key.
    _abbreviated: dict[str, str] = field(init=False, repr=False, compare=False)
    # The names the query spells whole, each with its term keys (query_asks.query_names).
    names: dict[str, tuple[str, ...]] = field(init=False, repr=False, compare=False)
    # The compounds and capitalised words as the query wrote them (`parseOptions`, `Strict`).
    spelt_names: frozenset[str] = field(init=False, repr=False, compare=False)
    # What each matched text counts for, as found: the same words recur in every file.
    _keys: dict[str, list[str]] = field(init=False, repr=False, compare=False)
    # Two query words written solid, stemmed (`toplevel`) -> the two words' keys.
    _solid: dict[str, list[str]] = field(init=False, repr=False, compare=False)
    # The stems that are stopwords of query words that are none (`can` of `canned`,
    # `under` of `underlying`): the stopword itself counts for nothing.
    _stopword_stems: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        pattern = term_pattern(self.terms)
        object.__setattr__(self, "pattern", pattern)
        object.__setattr__(self, "regex", re.compile(pattern))
        alternatives = _alternatives(self.terms)
        object.__setattr__(self, "_starts", re.compile(f"(?i){alternatives}"))
        listed = _alternative_list(self.terms)
        scanned = listed if len(listed) <= SEPARATE_SCANS_UP_TO else [alternatives]
        object.__setattr__(
            self, "_scan", tuple(re.compile(f"(?:{a}){_WORD_CHAR}*") for a in scanned)
        )
        object.__setattr__(
            self,
            "_scan_any_case",
            tuple(re.compile(f"(?i)(?:{a}){_WORD_CHAR}*") for a in scanned),
        )
        captured = f"((?:{alternatives}){_WORD_CHAR}*)"
        object.__setattr__(self, "_splitter", re.compile(captured))
        object.__setattr__(self, "_splitter_any_case", re.compile(f"(?i){captured}"))
        stems = frozenset(t.key for t in self.terms if not (t.compound or t.literal))
        compounds = frozenset(t.key for t in self.terms if t.compound)
        object.__setattr__(self, "_stems", stems)
        object.__setattr__(self, "_compounds", compounds)
        parts = {
            t.key: tuple(key for key in map(stem, t.parts) if key in stems)
            for t in self.terms
            if t.compound
        }
        object.__setattr__(self, "_compound_parts", parts)
        object.__setattr__(self, "_solid", solid_pairs(self.terms))
        stopword_stems = frozenset(
            t.key for t in self.terms if t.key in stems and t.key in STOPWORDS and t.word != t.key
        )
        object.__setattr__(self, "_stopword_stems", stopword_stems)
        options = frozenset(t.key for t in self.terms if t.compound and t.option)
        object.__setattr__(self, "_options", options)
        object.__setattr__(self, "names", query_names(self.terms))
        spelt = frozenset(t.spelt for t in self.terms if t.spelt)
        object.__setattr__(self, "spelt_names", spelt)
        object.__setattr__(self, "_literals", frozenset(t.key for t in self.terms if t.literal))
        object.__setattr__(self, "_keys", {})
        abbreviated = {
            stood: term.key
            for term in self.terms
            for stood in term.stands_for
            if stood not in stems  # the query spells the word too: counted once
        }
        object.__setattr__(self, "_abbreviated", abbreviated)

    def word_of(self, match: str) -> str | None:
        """The word part a match starts, without the character before it; None when the
        match starts inside a word part (`overview` holds `view` but not as a part)."""
        if self._starts.match(match):
            return match
        lead, rest = match[:1], match[1:]
        if lead.isdigit() and rest[:1].isalpha():
            return rest  # `25vw`: digits end a part, as in analysis.py
        if rest[:1].isupper() and (lead.islower() or (lead.isupper() and rest[1:2].islower())):
            return rest
        return None

    def keys_of(self, match: str) -> list[str]:
        """The term keys one match counts for (possibly none: `overview` is not `view`;
        `previewer` is). The list is shared: callers only read it."""
        keys = self._keys.get(match)
        if keys is None:
            keys = self._keys[match] = self._analysed_keys(match)
        return keys

    def _analysed_keys(self, match: str) -> list[str]:
        if self._literals:  # `0.28` as written, or `v0.28` (`0.28.1` holds it too)
            if "+" in match and match.lower() in self._literals:
                # A key (`ctrl+i`), and its words the query asks with (`ctrl`).
                words = (stem(part) for part in split_identifier(match) if len(part) >= 2)
                return [match.lower(), *(key for key in words if key in self._stems)]
            bare = match[1:] if match[:1] in "vV" else match
            if bare in self._literals:
                return [bare]
        word = self.word_of(match)
        if word is None:
            return []
        analysed = analyse_word(word)
        keys = [s for s in analysed.stems if s in self._stems]
        if self._stopword_stems and word.lower() in STOPWORDS:  # `can`, not `canned`
            keys = [key for key in keys if key not in self._stopword_stems]
        if self._solid and not keys and len(analysed.stems) == 1:
            keys = list(self._solid.get(analysed.stems[0], ()))  # `toplevel`: top, level
        if self._abbreviated:
            for s in analysed.stems:
                key = self._abbreviated.get(s)
                if key is not None and key not in keys:
                    keys.append(key)
        compound = analysed.compound
        if compound:
            if compound in self._compounds and (compound not in self._options or "-" in word):
                keys.append(compound)
            elif analysed.compound_stem in self._stems:
                keys.append(analysed.compound_stem)  # `TextArea` for the query `textarea`
            elif not keys:  # `WebSocketUpgrade` for `websocket`, when no part counts
                key = self._first_parts_key(word)
                if key is not None:
                    keys.append(key)
        elif len(analysed.stems) == 1:
            # A word in one case for the query's camelCase (`typescript` for `TypeScript`),
            # as `TextArea` is found for `textarea`; and for its parts, as the name
            # written in the query's case is (`macos` for `macOS`: Hatch's page on the
            # option counted macos alone, a page saying "macOS" in passing mac and os too).
            whole = word.lower()
            if whole in self._compounds and whole not in self._options and whole not in keys:
                keys.append(whole)
                keys += [key for key in self._compound_parts[whole] if key not in keys]
        return keys

    def _first_parts_key(self, word: str) -> str | None:
        """The query word an identifier's first parts spell joined (`WebSocket` of
        `WebSocketUpgrade`: mdBook's live reload handler counted nothing for
        "websocket"), by its stem; None if they spell none."""
        parts = split_identifier(word)
        joined = parts[0]
        for part in parts[1:-1]:
            joined += part
            key = stem(joined)
            if key in self._stems:
                return key
        return None

    def tally(self, words: Mapping[str, int]) -> dict[str, int]:
        """Term frequencies from matched words and how often each occurred."""
        counts: dict[str, int] = {}
        for word, occurrences in words.items():
            for key in self.keys_of(word):
                counts[key] = counts.get(key, 0) + occurrences
        return counts

    def matches(self, text: str) -> Iterator[tuple[int, str]]:
        """(offset, matched text) of each match in `text`, as `pattern` finds them: the
        match and the letter or digit before it. Searched in the lower-cased text, where
        Python's engine skips quickly to the letters a term can start with."""
        lowered = text.lower()
        if len(lowered) == len(text):
            found = leftmost_first(self._scan, lowered)
        else:  # a character whose lower case is longer: offsets would not line up
            found = leftmost_first(self._scan_any_case, text)
        for match in found:
            start, end = match.span()
            if start and text[start - 1].isalnum():
                start -= 1
            yield start, text[start:end]

    def found(self, text: str, newlines: list[int] | None = None) -> list[str]:
        """Each match's text, as `matches` finds them; with `newlines`, each match's
        newlines between its start and the start of the match before (or of the text) are
        added to it. A text dense with matches is split past its first SPLIT_AFTER: the
        same matches, found faster."""
        words: list[str] = []
        counted_to = 0
        for start, word in self.matches(text):
            words.append(word)
            if newlines is not None:
                # Newlines counted between matches (in C), not located across the text.
                newlines.append(text.count("\n", counted_to, start))
                counted_to = start
            if len(words) == SPLIT_AFTER and start < SPLIT_AFTER * SPLIT_DENSITY:
                self._split_rest(text, start + len(word), words, newlines)
                break
        return words

    def _split_rest(
        self, text: str, rest_from: int, words: list[str], newlines: list[int] | None
    ) -> None:
        """Adds the matches past `rest_from`, where a match has just ended its word part,
        found by splitting the rest around the alternation's matches (and, with
        `newlines`, their newlines)."""
        rest = text[rest_from:]
        lowered = rest.lower()
        if len(lowered) == len(rest):
            pieces = self._splitter.split(lowered)
        else:  # a character whose lower case is longer: offsets would not line up
            pieces = self._splitter_any_case.split(rest)
        # Where each piece ends in `rest`: a gap's end is the next match's start.
        ends = list(accumulate(map(len, pieces)))
        words += [
            rest[start - 1 : end] if start and rest[start - 1].isalnum() else rest[start:end]
            for start, end in zip(ends[0:-1:2], ends[1::2], strict=True)
        ]
        if newlines is not None:
            # A match holds no newline: those between two matches' starts are in their gap.
            newlines.extend(map(_NEWLINES, pieces[0:-1:2]))

    def count(self, text: str) -> dict[str, int]:
        """Term frequencies in a whole text."""
        return self.tally(Counter(self.found(text)))

    def lines(self, text: str) -> dict[int, dict[str, int]]:
        """Per 1-based line number, the terms on that line and how often."""
        newlines: list[int] = []
        words = self.found(text, newlines)
        found: dict[int, dict[str, int]] = {}
        line_numbers = islice(accumulate(newlines, initial=1), 1, None)
        on_lines = Counter(zip(line_numbers, words, strict=True))
        for (line, word), times in on_lines.items():
            keys = self.keys_of(word)
            if keys:
                on_line = found.setdefault(line, {})
                for key in keys:
                    on_line[key] = on_line.get(key, 0) + times
        return found

    def holds_any(self, text: str) -> bool:
        """A quick test: could `text` hold a term at all (a prefix occurs somewhere)?"""
        return any(scan.search(text) is not None for scan in self._scan_any_case)
