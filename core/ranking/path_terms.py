"""The query terms a file's path holds: its folders and name count as a field of their own
(bm25.PATH_WEIGHT), a term fully where a folder or the file is named for the query's words
(`tar.md`, `doc_comments.rs` for "doc comment"), less where a name holds it among other
words (`git-get-tar-commit-id.md`: bm25.INSIDE_NAME_SHARE)."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from itertools import accumulate

from . import bm25
from .analysis import analyse_word
from .matching import TermMatcher
from .stopwords import STOPWORDS


@dataclass(frozen=True, slots=True)
class PathTerms:
    """The query terms a path holds: `named`, those of a folder or file name made only of
    the query's words (numbers and stopwords aside: `03-$derived.md`, `is-stream.js`), or
    spelt whole as the query spells a compound; `inside`, the others (a name holding one
    among other words)."""

    named: frozenset[str] = frozenset()
    inside: frozenset[str] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.named or self.inside)

    def without(self, keys: frozenset[str]) -> PathTerms:
        """These terms but `keys`."""
        if not keys:
            return self
        return PathTerms(self.named - keys, self.inside - keys)


NO_TERMS = PathTerms()


# A match of a query term in a path: where it starts and ends, the keys it counts for, and
# whether its word is the query's words alone (`CircuitBreakerSyntax` is not: a match runs
# to the end of an identifier).
Match = tuple[int, int, list[str], bool]
# Per matched word: its keys, and whether every part of it is one of the query's.
Found = tuple[list[str], bool]
_WORD = re.compile(r"[^\W\d_]+")
_SHARED: dict[tuple[frozenset[str], frozenset[str]], PathTerms] = {}
_SHARED_MAX = 4096


def _bare(path: str, start: int, end: int) -> bool:
    """Whether a path's characters from `start` to `end` hold no word but stopwords (none
    at all, most often): Koa's `is-stream.js` is named for "stream" as `stream.js` is."""
    return all(word.lower() in STOPWORDS for word in _WORD.findall(path, start, end))


def _sorted_by_name(path: str, matches: list[Match]) -> PathTerms:
    """The query terms of a path's `matches`, told apart by the name each falls in: a
    folder's or the file's (up to its first dot) is named for the query's words when no
    letter of it is left outside its matches (digits, separators and stopwords may be)."""
    if len(matches) == 1:  # most paths: one word of the query
        start, stop, found, whole = matches[0]
        at = path.rfind("/", 0, start) + 1
        end = _name_end(path, at)
        whole = whole and _bare(path, at, start) and _bare(path, stop, end)
        return _shared(frozenset(found), whole)
    by_name: dict[int, list[Match]] = {}
    for match in matches:
        by_name.setdefault(path.rfind("/", 0, match[0]) + 1, []).append(match)
    named: set[str] = set()
    inside: set[str] = set()
    for at, in_name in by_name.items():
        end = _name_end(path, at)
        whole, keys = True, set()
        for start, stop, found, complete in sorted(in_name) if len(in_name) > 1 else in_name:
            whole = whole and complete and _bare(path, at, start)
            at = max(at, stop)
            keys.update(found)
        whole = whole and _bare(path, at, end)
        (named if whole else inside).update(keys)
    return _terms(frozenset(named), frozenset(inside - named))


def _name_end(path: str, at: int) -> int:
    """Where the name starting at `at` ends: at the next `/`, or for the file at its first
    dot (`tar.md`, `index.d.ts`)."""
    end = path.find("/", at)
    if end >= 0:
        return end
    dot = path.find(".", at + 1)
    return dot if dot > 0 else len(path)


def _shared(keys: frozenset[str], named: bool) -> PathTerms:
    return _terms(keys, frozenset()) if named else _terms(frozenset(), keys)


def _terms(named: frozenset[str], inside: frozenset[str]) -> PathTerms:
    """One PathTerms for each pair of sets: paths hold the same few terms again and again."""
    key = (named, inside)
    terms = _SHARED.get(key)
    if terms is None:
        if len(_SHARED) >= _SHARED_MAX:  # a long-lived process asks many queries
            _SHARED.clear()
        terms = _SHARED[key] = PathTerms(named, inside)
    return terms


def paths_terms(paths: Iterable[str], matcher: TermMatcher) -> dict[str, PathTerms]:
    """The query terms each path holds, for the paths that hold any: one search over all
    of them joined, then a count of only those that matched (most paths hold none)."""
    if not bm25.PATH_WEIGHT:
        return {}
    listed = list(paths)
    joined = "\n".join(listed)
    starts = list(accumulate((len(path) + 1 for path in listed), initial=0))
    if not joined.isascii():
        hit: set[int] = {bisect_right(starts, offset) - 1 for offset, _ in matcher.matches(joined)}
        found = {}
        for index in hit:
            terms = path_terms(listed[index], matcher)
            if terms:
                found[listed[index]] = terms
        return found
    # ASCII: lower-casing keeps every offset, so the matches in the joined paths are each
    # path's own matches (none crosses a newline), and a path's terms are those of its
    # matched words (what `matcher.count(path)` would find), each word analysed once.
    words: dict[int, list[tuple[int, str]]] = {}
    for offset, word in matcher.matches(joined):
        words.setdefault(bisect_right(starts, offset) - 1, []).append((offset, word))
    seen: dict[str, Found] = {}
    found = {}
    for index, matched in words.items():
        matches: list[Match] = []
        for offset, word in matched:
            keys, complete = seen.get(word) or _found(word, matcher, seen)
            if keys:
                start = offset - starts[index]
                matches.append((start, start + len(word), keys, complete))
        if matches:
            found[listed[index]] = _sorted_by_name(listed[index], matches)
    return found


def _found(word: str, matcher: TermMatcher, seen: dict[str, Found]) -> Found:
    """A matched word's keys, and whether its parts are all the query's (numbers aside)."""
    keys = matcher.keys_of(word)
    spelt = matcher.word_of(word) if keys else None
    if spelt is None:
        complete = False
    else:
        asked = {term.key for term in matcher.terms}
        complete = all(part in asked or part.isdigit() for part in analyse_word(spelt).stems)
    seen[word] = (keys, complete)
    return seen[word]


def path_terms(path: str, matcher: TermMatcher) -> PathTerms:
    """The query terms a file's path holds (its folders and name)."""
    if not bm25.PATH_WEIGHT or not matcher.holds_any(path):
        return NO_TERMS
    matches: list[Match] = []
    seen: dict[str, Found] = {}
    for start, word in matcher.matches(path):
        keys, complete = seen.get(word) or _found(word, matcher, seen)
        if keys:
            matches.append((start, start + len(word), keys, complete))
    return _sorted_by_name(path, matches) if matches else NO_TERMS


# A query term in the paths of more than this share of the files found (of at least
# LAYOUT_MIN_FILES) names where the project keeps them, not what one file is about:
# Helix's `runtime/` holds 1,193 of its 1,530 code files, tree-sitter queries, and for
# "runtime directory priority" each ranked above the Rust code that loads them.
LAYOUT_SHARE = 0.5
LAYOUT_MIN_FILES = 20


def found_paths_terms(
    paths: Collection[str], matcher: TermMatcher
) -> tuple[dict[str, PathTerms], frozenset[str]]:
    """paths_terms of the files found, without the terms more than LAYOUT_SHARE of their
    paths hold; and those terms (the project's layout)."""
    in_paths = paths_terms(paths, matcher)
    if len(paths) < LAYOUT_MIN_FILES or len(in_paths) <= LAYOUT_SHARE * len(paths):
        return in_paths, frozenset()
    held: Counter[str] = Counter()
    for terms in in_paths.values():
        held.update(terms.named | terms.inside)
    layout = frozenset(key for key, count in held.items() if count > LAYOUT_SHARE * len(paths))
    if not layout:
        return in_paths, layout
    left = {path: terms.without(layout) for path, terms in in_paths.items()}
    return {path: terms for path, terms in left.items() if terms}, layout
