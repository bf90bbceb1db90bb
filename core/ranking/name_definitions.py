"""What a code file read for a name does with it: where it defines it (`definition_levels`,
for a name looked up) and whether it only defines it (`only_defines`, for a question
asking where the name is used). Imported once such a file is read."""

from __future__ import annotations

from collections.abc import Mapping

from .code_blocks import indentation, lead_in_start
from .code_definitions import defined_as_spelt, holder_of
from .matching import TermMatcher
from .name_lookup import DEPRECATED_LEVEL
from .query_asks import name_key


def definition_levels(
    lines: list[str],
    line_terms: Mapping[int, Mapping[str, int]],
    matcher: TermMatcher,
    wanted: frozenset[str],
) -> dict[str, int]:
    """Where the file defines each name in `wanted` (name_key) it defines: 0 outside any
    class (a module's function or class, also under an `if`), 1 only as a member of a
    class (`holder_of`), DEPRECATED_LEVEL when each of its definitions of it is marked
    deprecated. A name it does not define is not listed."""
    from .deprecation import is_deprecated

    levels: dict[str, int] = {}
    for index, name in defined_as_spelt(lines, line_terms, matcher):
        key = name_key(name)
        if key not in wanted:
            continue
        if is_deprecated(lines, index):
            level = DEPRECATED_LEVEL
        else:
            level = 1 if holder_of(lines, index) else 0
        levels[key] = min(levels.get(key, DEPRECATED_LEVEL), level)
    return levels


def only_defines(
    lines: list[str],
    line_terms: Mapping[int, Mapping[str, int]],
    matcher: TermMatcher,
    names: frozenset[str],
) -> bool:
    """Whether every line of the file holding one of the compound `names` (their keys)
    defines it, or is its lead-in (the doc comment naming it): the file defines the name
    and never calls nor otherwise uses it."""
    holding = {
        number - 1 for number, on_line in line_terms.items() if not names.isdisjoint(on_line)
    }
    if not holding:
        return False
    defining: set[int] = set()
    for index, name in defined_as_spelt(lines, line_terms, matcher):
        if name_key(name) in names:
            defining.update(
                range(lead_in_start(lines, index, indentation(lines[index])), index + 1)
            )
    return holding <= defining
