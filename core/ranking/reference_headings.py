"""A reference page's heading that names what the query looks up: vite's
`config/shared-options.md` has a section per option (`## envPrefix`), and a guide that
only links to it (`env-and-mode.md`) outranked it on the name's parts. A markdown heading
whose text is a compound name the query spells whole (`envPrefix`, `` `assetsInlineLimit` ``,
`server.strictPort` for `strictPort`) counts that name's terms once more, as a code file
defining it does (code_definitions.defined_names)."""

from __future__ import annotations

import re
from collections.abc import Mapping

from .analysis import name_key
from .matching import TermMatcher

# A markdown heading's text, without its marks, code ticks, an anchor (`{#env-prefix}`) or
# a call's parentheses.
_HEADING = re.compile(
    r"[ \t]{0,3}#{1,6}[ \t]+`?([\w$.:-]+?)(?:\(\))?`?(?:[ \t]+\{#[^}]*\})?[ \t]*#*[ \t]*$"
)


def headed_names(
    lines: list[str], line_terms: Mapping[int, Mapping[str, int]], matcher: TermMatcher
) -> frozenset[str]:
    """The term keys of each compound name the query spells whole that a heading of this
    markdown file names, alone or as the last part of a dotted name."""
    compounds = {term.key for term in matcher.terms if term.compound}
    names = {key: keys for key, keys in matcher.names.items() if key in compounds}
    if not names:
        return frozenset()
    found: set[str] = set()
    for number in line_terms:
        heading = _HEADING.match(lines[number - 1]) if 0 < number <= len(lines) else None
        if heading is None:
            continue
        text = heading.group(1)
        for candidate in (text, re.split(r"[.:]+", text)[-1]):
            found.update(names.get(name_key(candidate), ()))
    return frozenset(found)
