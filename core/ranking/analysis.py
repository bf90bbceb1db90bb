"""From text to terms, the same way for the query and for the files.

A word is split into identifier parts (`dryrun_preview`, `dryRunPreview` and
`dry-run-preview` all hold `preview`), each part lower-cased, read in its American spelling
(`colour` is `color`, spelling.py) and stemmed (Snowball English: `retargeted` and
`retargeting` are both `retarget`). A dotted number (`0.28`) is one term, found as
written. A query word made of several parts also counts as a whole (`callafterrefresh`),
which ranks the identifier itself above text that merely uses its parts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import Stemmer  # PyStemmer: C Snowball stemmers, ~1 ms to import

from .abbreviations import words_for
from .everyday_words import technical_words_for
from .framing_words import frames
from .irregular_forms import NOUNS_APART, base_word, forms
from .spelling import american, spellings
from .stopwords import NAMING_STOPWORDS, STOPWORDS
from .written_names import written_as_a_name

KEYWORD_QUERY_WORDS = 3
# A word of the query: word characters, joined across the separators one identifier uses
# (`dry_run`, `dry-run`); dots and apostrophes separate words.
_WORD = re.compile(r"[^\W_]+(?:[_-]+[^\W_]+)*")
# A version or section number (`0.28`, `v2.1.0`, `task 2.4`): one literal term, not its
# digits (`28` would find every date on the 28th).
_NUMBER = re.compile(r"(?<![\w.])[vV]?(\d+(?:\.\d+)+)(?![\w.]*\w)")
# A key combination (`ctrl+i`, `Cmd+S`, `shift+tab`): one literal term as well as its
# words, since its key is often a single letter, which is no term on its own (`ctrl+i`
# would search `ctrl` alone and find every other combination).
_KEY_COMBINATION = re.compile(
    r"(?<![\w+])((?:ctrl|control|alt|shift|cmd|command|meta|super|option|opt|win|mod)"
    r"(?:\+[^\W_]+)+)(?![\w+])",
    re.IGNORECASE,
)
# After a word, what makes it the holder of a member (`Session.` of `Session.mount`; Ruby's
# `Helpers#redirect`, `Sinatra::Base`).
_QUALIFIES = re.compile(r"(?:\.|#|::)[^\W\d]")
# A file name (`pyvenv.cfg`, `vite.config.ts`, `.eslintrc.json`, `docs/whats_new.md`): words
# joined by dots, the last a file's extension written in lower case and not called
# (`response.json()` calls a member). Its words hold no member: uv's "pyvenv.cfg" was
# looked up as the member `cfg` of `pyvenv`, and every file writing pyvenv.cfg weighed as
# one not defining it.
_FILE_NAME = re.compile(
    r"(?<![\w.-])\.?(?:[\w-]+\.)*?(?P<last>[\w-]+)\.(?P<extension>[a-z0-9]+)(?![\w-]|\.\w|\()"
)
_FILE_EXTENSIONS = frozenset(
    """md markdown mdx rst adoc txt toml cfg ini yaml yml jsonc json5 csv tsv ipynb py pyi js
    mjs cjs jsx ts mts cts tsx rs go rb gemspec java kt kts swift jl ex exs erl hs php cs c h
    cc cpp hpp sh bash zsh ps1 lua dart vue svelte scss sass tf nix gradle plist proto""".split()
)
# Extensions that methods are named for too (Phoenix's `Controller.json`, `Mutex.lock`):
# after a class's name they name its member; after a name in lower case or in capitals,
# a file (`package.json`, `uv.lock`, `README.html`).
_MEMBER_EXTENSIONS = frozenset({"json", "lock", "html", "xml", "css", "conf"})
_STEMMER = Stemmer.Stemmer("english")


@lru_cache(maxsize=65536)
def stem(part: str) -> str:
    """The Snowball stem of one lower-case identifier part, in its American spelling, read
    as its base word (`drawn` is `draw`, irregular_forms.py)."""
    return NOUNS_APART.get(part) or _STEMMER.stemWord(base_word(american(part)))


def written_forms(part: str) -> tuple[str, ...]:
    """Every way a lower-case word part's word is written: each of its irregular forms
    (`write`, `wrote`, `written`) in each spelling (`color`, `colour`)."""
    return tuple(dict.fromkeys(s for form in forms(american(part)) for s in spellings(form)))


def split_identifier(word: str) -> list[str]:
    """The lower-cased parts of one word: `dryRunPreview`, `dry_run_preview` and
    `dry-run-preview` -> dry, run, preview; `HTTPServer` -> http, server; `base64` ->
    base, 64."""
    parts: list[str] = []
    current: list[str] = []
    for index, char in enumerate(word):
        if not char.isalnum():
            if current:
                parts.append("".join(current).lower())
                current = []
            continue
        if current:
            previous = current[-1]
            starts_part = (
                (char.isupper() and not previous.isupper())
                or (char.isdigit() != previous.isdigit())
                or (
                    char.isupper()
                    and previous.isupper()
                    and index + 1 < len(word)
                    and word[index + 1].islower()
                )
            )
            if starts_part:
                parts.append("".join(current).lower())
                current = []
        current.append(char)
    if current:
        parts.append("".join(current).lower())
    return parts


def compound_key(parts: list[str]) -> str:
    """How a multi-part name is compared as a whole: its parts joined, unstemmed."""
    return "".join(parts)


@dataclass(frozen=True, slots=True)
class Term:
    """One query term. `key` is what is counted in a file: a stem, or for a compound the
    joined parts. `prefix` is the literal that any matching text must contain."""

    key: str
    prefix: str
    compound: bool = False
    parts: tuple[str, ...] = ()  # a compound's parts, in order
    word: str = ""  # as the query spelt it (lower-cased), for tools that stem themselves
    literal: bool = False  # a dotted number (`0.28`) or a key (`ctrl+i`), found as written
    # What holds the name looked up (`Session` in `Session.mount`): searched, but no name
    # of a definition to show (query_asks.query_names).
    qualifier: bool = False
    # The member a holder qualifies (`mount` of `Session.mount`): a name looked up however
    # long the question (query_asks.query_names).
    member: bool = False
    # Only a part of a name the query spells (`test` of `runTestFiles`): no asking_keys word.
    in_name: bool = False
    # The stems of the words an abbreviation stands for (`environ` for `env`), or an
    # everyday word (`directori` for `folder`): counted under this term's key
    # (abbreviations.py, everyday_words.py).
    stands_for: tuple[str, ...] = ()
    # A compound or a capitalised word as the query wrote it, case kept (`parseOptions`,
    # `Strict`): a definition spelt in another case (`ParseOptions`, `STRICT`) is another
    # name (code_definitions.defined_as_spelt).
    spelt: str = ""
    # An option written as on a command line (`--check-status`): found spelt with its
    # hyphens, and no name of code to look up (`_check_status` is another thing).
    option: bool = False
    # A word of a file name the query writes (`pyvenv` and `cfg` of `pyvenv.cfg`): searched,
    # but no name of code to look up.
    file_name: bool = False
    position: int = -1  # which word of the query it is (matching.solid_pairs)

    @property
    def label(self) -> str:
        return "".join(self.parts) if self.compound else self.key


def search_prefix(part: str, stemmed: str) -> str:
    """The pattern every form of `part` starts with (letters and digits, `[iy]`, and
    `(?:..|..)` for a word with two spellings or irregular forms): the common start of
    the word and its stem, where a stem ending in `i` may also be spelt with `y` (`polici`
    must find `policy` and `policies`)."""
    written = written_forms(part)
    if len(written) == 1:
        return _spelling_prefix(part, stemmed)
    prefixes = {_spelling_prefix(form, _STEMMER.stemWord(form)) for form in written}
    return "(?:" + "|".join(sorted(prefixes, key=lambda p: (-len(p), p))) + ")"


def _spelling_prefix(part: str, stemmed: str) -> str:
    common = 0
    for a, b in zip(part, stemmed, strict=False):
        if a != b:
            break
        common += 1
    if stemmed.endswith("i") and common >= len(stemmed) - 1 and len(stemmed) > 2:
        return stemmed[:-1] + "[iy]"
    prefix = part[:common] or part
    if prefix == stemmed and _SILENT_E.search(prefix):
        # A short stem keeps its `e` (`store`, `use`), which its `-ing` form drops.
        return f"(?:{prefix}|{prefix[:-1]}ing)"
    return prefix


# A stem ending in a consonant and `e`: its `-ing` form drops the `e` (`storing`).
_SILENT_E = re.compile(r"[^\Waeiouy\d_]e$")


def words_stood_for(part: str) -> tuple[str, ...]:
    """The words a lower-case word part stands for: an abbreviation's (abbreviations.py),
    an everyday word's technical ones (everyday_words.py); none for any other word."""
    return words_for(part) or technical_words_for(part)


def _abbreviation_prefix(part: str, key: str) -> tuple[str, tuple[str, ...]]:
    """A word part's search prefix, widened to the words it stands for (words_stood_for:
    `(?:msg|messag)`), and those words' stems other than its own."""
    prefix = search_prefix(part, key)
    words = words_stood_for(part.lower())
    if not words:
        return prefix, ()
    stems = tuple(dict.fromkeys(s for s in map(stem, words) if s != key))
    prefixes = [prefix]
    for word in words:
        if not word.startswith(prefix):
            prefixes.append(search_prefix(word, stem(word)))
    prefixes = list(dict.fromkeys(prefixes))
    if len(prefixes) > 1:
        prefix = "(?:" + "|".join(sorted(prefixes, key=lambda p: (-len(p), p))) + ")"
    return prefix, stems


def _written_as_extension(text: str, start: int) -> bool:
    """Whether the word at `start` is written with a dot before it and no word before the
    dot (`.conf`, `*.conf`): a file's extension, which abbreviates no word (bat's "files
    ending in .conf" counted every "configuration")."""
    if start < 1 or text[start - 1] != ".":
        return False
    return start == 1 or not (text[start - 2].isalnum() or text[start - 2] in "_.-")


def _file_names(text: str) -> list[tuple[int, int]]:
    """Where the file names a query writes start and end (_FILE_NAME)."""
    spans = []
    for found in _FILE_NAME.finditer(text):
        extension, last = found.group("extension"), found.group("last")
        if extension in _MEMBER_EXTENSIONS:
            if last[:1].isupper() and not last.isupper():
                continue  # `Controller.json`: a class's member
        elif extension not in _FILE_EXTENSIONS:
            continue
        spans.append(found.span())
    return spans


def query_terms(text: str) -> tuple[Term, ...]:
    """Every distinct term of the query, in order (dotted numbers last). Stopwords are
    dropped (unless nothing else is left), and single characters and the digits of a name
    (`sha256`) are never terms on their own: they match nearly every line, or every
    number. There is no cap on the number of terms."""
    numbers = {
        number: Term(number, re.escape(number), word=number, literal=True)
        for number in _NUMBER.findall(text)
    }
    for combination in map(str.lower, _KEY_COMBINATION.findall(text)):
        numbers.setdefault(
            combination, Term(combination, re.escape(combination), word=combination, literal=True)
        )
    cleaned = _NUMBER.sub(" ", text)
    singles: dict[str, Term] = {}
    compounds: dict[str, Term] = {}
    dropped: dict[str, Term] = {}
    qualified = False  # the word before, followed by `.` and this one
    file_names = _file_names(cleaned)
    previous = ""  # the word before, lower case
    for position, found in enumerate(_WORD.finditer(cleaned)):
        word = found.group()
        framing, previous = frames(previous, word.lower(), cleaned, found), word.lower()
        file_name = any(start <= found.start() < end for start, end in file_names)
        extension = _written_as_extension(cleaned, found.start())
        member, qualified = qualified and cleaned[found.start() - 1] in ".#:", False
        qualifier = qualified = not file_name and _QUALIFIES.match(cleaned, found.end()) is not None
        option = found.start() >= 2 and cleaned.startswith("--", found.start() - 2)
        # A word written as a call (`at()`) or as a member (`basic_json::at`) is a name,
        # even when it is a stopword; so is one capitalised inside a sentence (urfave/cli's
        # "is the After hook still run"), and one written as code (Alembic's `%(here)s`).
        named = member or written_as_a_name(cleaned, found)
        parts = [p for p in split_identifier(word) if p]
        if (
            len(parts) > 1 and word.isalnum() and parts[0].isalpha()
            and (
                len(parts[0]) == 1
                or (all(len(part) <= 2 for part in parts) and not (named or qualifier))
            )
        ):  # fmt: skip
            # A word written with a capital after its first letter (`ETag`, `IPv6`,
            # `OAuth`, `jQuery`) is one word: its letter alone is no part. So is a word
            # of the text of parts of two letters at most (`PyPI`, `PyQt`): none is a word
            # of its own. Code's names keep their parts (`Policy.NoOp`, `IsOk()`).
            parts = [word.lower()]
        for part in parts:
            if len(part) < 2 or (len(parts) > 1 and part.isdigit()):
                continue  # `OSC52`'s `52` alone would find every table of numbers
            key = stem(part)
            in_name = len(parts) > 1
            # A part of a name (`ERR_CODE_17`) is no abbreviation the query spells, nor
            # is an extension (`.conf`).
            prefix, stands_for = (
                (search_prefix(part, key), ())
                if in_name or extension
                else _abbreviation_prefix(part, key)
            )
            term = Term(
                key, prefix, word=part, qualifier=qualifier, in_name=in_name,
                stands_for=stands_for, member=member and not in_name,
                spelt=word if not in_name and word != word.lower() else "",
                option=option and not in_name, file_name=file_name, position=position,
            )  # fmt: skip
            target = (
                dropped
                if (part in STOPWORDS or framing) and not (named and not in_name)
                else singles
            )
            if not in_name and key in target and target[key].in_name:
                target[key] = term  # `runTestFiles tests`: asked with as a word too
            target.setdefault(key, term)
        if (
            "-" in word and len(parts) >= 2 and word.islower() and word.replace("-", "").isalpha()
            and not option
        ):  # fmt: skip
            # A hyphenated English word is also the word written solid, stemmed:
            # `re-rendering` finds `rerenders` (the compound below finds it as written).
            solid = "".join(parts)
            key = stem(solid)
            singles.setdefault(key, Term(key, search_prefix(solid, key), word=solid))
        if len(parts) >= 2:
            key = compound_key(parts)
            compounds.setdefault(
                key,
                Term(
                    key, key, compound=True, parts=tuple(parts), word="_".join(parts),
                    qualifier=qualifier, spelt=word, member=member, option=option,
                    file_name=file_name,
                ),
            )  # fmt: skip
    # In a query of a few words, each names something (`before validator`, `serialize as
    # any`, `on decorator`): a stopword that names a time, a quantity or a direction there
    # is no filler (`the`, `in` and the framing words still are; so is a name's part).
    keyword_query = len(_WORD.findall(cleaned)) <= KEYWORD_QUERY_WORDS
    terms = list(singles.values()) or list(dropped.values())
    if keyword_query and singles:
        terms += [
            term
            for key, term in dropped.items()
            if key not in singles and not term.in_name and term.word in NAMING_STOPWORDS
        ]
    return (*terms, *compounds.values(), *numbers.values())


def spelt_stems(term: Term) -> tuple[str, ...]:
    """The stem of each way a single-word term is written, as Snowball stems it (`harbour`
    and `harbor` for the key `harbor`; `write`, `wrote` and `written` for `write`): for a
    tool that stems the text itself."""
    written = written_forms(term.word) if term.word and not term.compound else ()
    if len(written) < 2:
        return (term.key, *term.stands_for)
    return tuple(dict.fromkeys((*map(_STEMMER.stemWord, written), *term.stands_for)))


@dataclass(frozen=True, slots=True)
class WordCounts:
    """What one matched word contributes: its stems (parts) and its compound key."""

    stems: tuple[str, ...]
    compound: str
    compound_stem: str  # the compound as one word, stemmed: how a query word spells it


@lru_cache(maxsize=65536)
def analyse_word(word: str) -> WordCounts:
    """The stems of a word's parts and its compound key (empty for a one-part word)."""
    parts = split_identifier(word)
    stems = tuple(stem(p) for p in parts if len(p) >= 2)
    if len(parts) < 2:
        return WordCounts(stems, "", "")
    compound = compound_key(parts)
    return WordCounts(stems, compound, stem(compound))
