"""A reference page's heading that names what the query looks up: vite's
`config/shared-options.md` has a section per option (`## envPrefix`), and a guide that
only links to it (`env-and-mode.md`) outranked it on the name's parts. A markdown heading
whose text is a compound name the query spells whole (`envPrefix`, `` `assetsInlineLimit` ``,
`server.strictPort` for `strictPort`) counts that name's terms once more, as a code file
defining it does (code_definitions.defined_names)."""

from __future__ import annotations

import re

from .matching import TermMatcher
from .query_asks import name_key

# A heading's text that is one name: without code ticks, an anchor (`{#env-prefix}`), a
# call's parentheses or closing `#` marks.
_NAME = re.compile(r"`?([\w$.:-]+?)(?:\(\))?`?(?:[ \t]+\{#[^}]*\})?[ \t]*#*[ \t]*")


def headed_names(headings: list[str], matcher: TermMatcher) -> frozenset[str]:
    """The term keys of each compound name the query spells whole that one of a markdown
    file's `headings` (their text, structure.structure_names) names, alone or as the last
    part of a dotted name."""
    compounds = {term.key for term in matcher.terms if term.compound}
    names = {key: keys for key, keys in matcher.names.items() if key in compounds}
    if not names:
        return frozenset()
    found: set[str] = set()
    for heading in headings:
        named = _NAME.fullmatch(heading.strip())
        if named is None:
            continue
        text = named.group(1)
        for candidate in (text, re.split(r"[.:]+", text)[-1]):
            found.update(names.get(name_key(candidate), ()))
    return frozenset(found)
