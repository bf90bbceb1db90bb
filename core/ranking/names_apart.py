"""A question naming two pieces of code or more (`which code decides whether an error
response becomes a ClientException or a ServerException`): the code where the names meet
answers it, not the file of one of them (Guzzle's empty exception classes, short and
named for the question's words, came before `RequestException::create`, which makes them
both)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .analysis import Term
from .read_file import ReadFile
from .test_paths import is_test_file

# A code file holding some of the names, not all, when another that is no test holds them
# all.
APART_WEIGHT = 0.8
APART_LABEL = "(holds only some of the names)"


def names_asked(terms: tuple[Term, ...]) -> frozenset[str]:
    """The keys of the names of code the query writes (`ClientException`, `max_redirects`;
    not a hyphenated English word, a file's name, an option nor what holds a member), when
    it writes two or more."""
    keys = frozenset(
        term.key
        for term in terms
        if term.compound
        and not (term.file_name or term.option or term.qualifier)
        and "-" not in term.spelt
    )
    return keys if len(keys) > 1 else frozenset()


@dataclass(frozen=True)
class NamesHeld:
    """Of the names asked, those a code file holds and those it defines."""

    held: frozenset[str]
    defined: frozenset[str]


def names_held(found: ReadFile, levels: Mapping[str, int], names: frozenset[str]) -> NamesHeld:
    """Which of `names` a code file read holds, and which it defines (`levels`: the names
    it defines, name_definitions.definition_levels)."""
    held = frozenset(key for key in names if found.term_counts.get(key))
    return NamesHeld(held, held.intersection(levels))


def apart(holding: Mapping[str, NamesHeld]) -> frozenset[str]:
    """The code files (path -> the names it holds and defines) holding some of the names
    but not all, when a file that is no test holds them all and the project defines one
    of them at least (none otherwise: `TypeScript` and `JavaScript` name no code of
    Svelte's)."""
    code = [names for path, names in holding.items() if not is_test_file(path)]
    held = frozenset().union(*(names.held for names in code))
    if len(held) < 2 or not any(names.defined for names in code):
        return frozenset()
    if not any(names.held >= held for names in code):
        return frozenset()
    return frozenset(
        path for path, names in holding.items() if names.held and not names.held >= held
    )
