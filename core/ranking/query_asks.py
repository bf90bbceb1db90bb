"""What a query asks, read from its terms (analysis.query_terms): the names of code it
spells whole and looks up, whether it asks where a name is used rather than what it is,
and whether it is a name or two rather than a question."""

from __future__ import annotations

import re
from collections.abc import Mapping

from .analysis import KEYWORD_QUERY_WORDS, Term

# Words asking where a name is used, not what it is (`where is ValidationError raised`,
# `who calls check`, `which function creates a ServerError`): then the files that raise,
# call or make it answer, not its definition.
_ASKING_FOR_USES = frozenset(
    {"raised", "raises", "thrown", "throws", "called", "calls", "caller", "callers",
     "invoked", "invokes", "used", "uses", "usages", "imported", "imports", "caught",
     "catches", "emitted", "emits", "referenced", "references", "instantiated",
     "instantiates", "constructed", "constructs", "created", "creates"}
)  # fmt: skip

# A query of at most this many words (stopwords aside) may name a definition with a plain
# word: `echo`, `click style` (measured with `tierscope eval`: with 3, `toast expiry
# removal` served class Toast's first lines instead of the answer).
NAMED_WORDS = 2


def name_key(name: str) -> str:
    """How a name is compared whole: lower-cased, without the separators of an identifier
    (`add_typer`, `addTyper` and `add-typer` are `addtyper`)."""
    return re.sub(r"[\W_]+", "", name).lower()


def query_names(terms: tuple[Term, ...]) -> dict[str, tuple[str, ...]]:
    """The names the query spells whole, each with the term keys it counts for: a
    compound (`add_typer`: add, typer and addtyper); its words run together
    (`stylesheet parse error`: StylesheetParseError); and in a query of a word or two
    (`echo`, `click style`), a word that is no part of a compound. In a question, a plain
    word is English: `run` or `status` there names no function. What holds a member
    (`Session` of `Session.mount`) names nothing, nor does a file name (`pyvenv.cfg`)."""
    names: dict[str, tuple[str, ...]] = {}
    if asks_for_uses(terms):
        return names
    asked = terms
    singles = [term for term in _single_words(terms) if not term.file_name]
    keys_of_part = {term.word: term.key for term in singles}
    if any(term.qualifier for term in terms):
        # `Session.mount`, `AsyncClient.stream`: the member is the name looked up.
        singles = [term for term in singles if not term.qualifier]
        terms = tuple(term for term in terms if not term.qualifier)
    terms = tuple(term for term in terms if not term.option)
    for term in terms:
        if term.compound and not term.file_name:
            parts = tuple(keys_of_part[p] for p in term.parts if p in keys_of_part)
            names[term.key] = (*parts, term.key)
    words = _plain_words(asked, singles)
    asked_alone = few_words(terms)
    for term in words:
        if (asked_alone or term.member) and len(term.word) >= 3:
            names[term.word] = (term.key,)
    if len(words) > 1:
        joined = "".join(term.word for term in words)
        names.setdefault(joined, tuple(term.key for term in words))
    return names


def _plain_words(terms: tuple[Term, ...], singles: list[Term]) -> list[Term]:
    """The query's single words that are no part of a compound nor an option."""
    in_compounds = {part for term in terms if term.compound for part in term.parts}
    return [term for term in singles if term.word not in in_compounds and not term.option]


def plain_words(terms: tuple[Term, ...]) -> list[Term]:
    """The query's single words that are no part of a compound nor an option, in order."""
    return _plain_words(terms, _single_words(terms))


def run_together(terms: tuple[Term, ...]) -> str | None:
    """The name the query's plain words spell run together (`stylesheet parse error`:
    stylesheetparseerror, StylesheetParseError's key), if it has two or more."""
    words = _plain_words(terms, _single_words(terms))
    return "".join(term.word for term in words) if len(words) > 1 else None


def names_looked_up(terms: tuple[Term, ...]) -> frozenset[str]:
    """The names of code the query looks up (name_key): an identifier (`create_model`,
    `FailFast`), a member (`mount` of `Session.mount`), a capitalised word (`Strict`), in
    a query of a word or two, or dotted in a question; no word of a file name
    (`Cargo.toml`). The file defining one may rank low by its text alone (a long module):
    more files are read for their definitions, and a file defining one comes first
    (candidates.py)."""
    dotted = any(term.member for term in terms)
    if not (dotted or names_code(terms)) or asks_for_uses(terms):
        return frozenset()
    return frozenset(
        term.key if term.compound else term.word
        for term in terms
        if not (term.option or term.file_name)  # `--check-status` is an option
        and (
            (term.compound and not term.qualifier)
            or term.member
            or (term.spelt and not term.compound)  # a word written with a capital (`Strict`)
        )
    )


def asks_for_uses(terms: tuple[Term, ...]) -> bool:
    """Whether the query asks where a name is used (raised, called, imported...): then it
    looks no name up, and the uses rank as the words of any question do."""
    return any(term.word in _ASKING_FOR_USES for term in terms if not term.compound)


def asking_keys(terms: tuple[Term, ...]) -> frozenset[str]:
    """The keys of what the query asks with: every term but the parts of a name it spells
    (`runTestFiles` asks about no test; `tests of runFiles` does) and the class a member
    is named with (`Fixture.execute`, `Pytester.runpytest`)."""
    return frozenset(term.key for term in terms if not (term.in_name or term.qualifier))


def names_code(terms: tuple[Term, ...]) -> bool:
    """Whether the query names code rather than asks a question: a word or two
    (`few_words`), or a keyword query of at most KEYWORD_QUERY_WORDS words one of which is
    an identifier (`toJSONSchema target draft`), unless it asks for tests. Its plain words
    name nothing more (query_names); the identifier is looked up."""
    if few_words(terms):
        return True
    from .file_roles import asks_about_tests  # imported by then: ranking has begun

    return (
        word_count(terms) <= KEYWORD_QUERY_WORDS
        and any(
            term.compound and not (term.qualifier or term.option or term.file_name)
            for term in terms
        )
        and not asks_about_tests(asking_keys(terms))  # `FromRequestParts run tests`
    )


def few_words(terms: tuple[Term, ...]) -> bool:
    """Whether the query is a word or two (NAMED_WORDS), not a question: then a plain word
    of it may name a definition. A name is one word, however many parts it has
    (`extract_pagination_config`), and the holder of a member counts for none
    (`AsyncClient.stream` is one word, `Command.PersistentFlags` two)."""
    return word_count(terms) <= NAMED_WORDS


def word_count(terms: tuple[Term, ...]) -> int:
    """How many words the query asks with: a name is one however many parts it has, and
    neither the holder of a member nor a dotted number counts."""
    return sum(
        1
        for term in terms
        if not (term.literal or term.qualifier) and (term.compound or not term.in_name)
    )


def _single_words(terms: tuple[Term, ...]) -> list[Term]:
    return [term for term in terms if not (term.compound or term.literal)]


# A name the query writes in capitals joined by underscores (`NO_COLOR`, `GIT_EDITOR`): an
# environment variable, a constant or a setting, read where it is written exactly. In
# code, choosing the passage, it weighs CONSTANT_NAME_WEIGHT as much: bat's "NO_COLOR
# environment variable" was served the comments saying "environment variables" instead
# of `env::var_os("NO_COLOR")`. Measured with `tierscope eval` on 84 sets: the answering
# passage in 74.74% of hits on the right file on average instead of 74.70% (bat's and
# git's GIT_EDITOR question gained, none lost; in documents too, Django's `USE_TZ` was
# lost); weighing every name so written, camelCase and snake_case too: 74.83%, but 5 lost
# where the name is what the question is about and its words say where in it (Flask's
# "MethodView HEAD falls back to get"); 1.5 times: 4 gained, 4 lost.
CONSTANT_NAME_WEIGHT = 2.0
_CONSTANT_NAME = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")


def constant_names_weighed(
    weights: Mapping[str, float], terms: tuple[Term, ...]
) -> Mapping[str, float]:
    """The weights with the names the query writes as constants (`NO_COLOR`) weighing
    CONSTANT_NAME_WEIGHT as much."""
    keys = {
        term.key
        for term in terms
        if term.compound and not term.option and _CONSTANT_NAME.fullmatch(term.spelt)
    }
    if not keys:
        return weights
    return {key: w * CONSTANT_NAME_WEIGHT if key in keys else w for key, w in weights.items()}
