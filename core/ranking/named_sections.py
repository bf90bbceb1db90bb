"""The sections of a document titled with a name the query spells (`### NO_PROXY` for
"NO_PROXY environment variable", `## max_redirects`): what a reference page says of the
name is there, whatever the page's title and introduction say of the query's other words
(sections.py weighs them as span_choice weighs a definition of code)."""

from __future__ import annotations

import re
from collections.abc import Mapping

from .matching import TermMatcher
from .query_asks import name_key

# A name as a heading writes it: an identifier, dotted or dashed (`App.run`, `no-color`),
# in backticks or not.
_NAME = re.compile(r"[A-Za-z_$][\w$]*(?:[.-][A-Za-z_$][\w$]*)*")
# How code spells a name, not English: with an underscore, or camelCase starting lower.
_IDENTIFIER = re.compile(r"\w*_\w|[a-z][a-z\d]*[A-Z]")


def _member_key(written: str) -> str:
    return name_key(written.rsplit(".", 1)[-1])


def named_sections(
    lines: list[str],
    headings: Mapping[int, int],
    weights: Mapping[str, float],
    matcher: TermMatcher | None,
) -> dict[int, float]:
    """Each section (its first line) whose heading writes an identifier the query spells
    whole, with the weight of that name's terms."""
    if matcher is None:
        return {}
    # Identifiers only (`NO_PROXY`, `setTimeout`): a plain word of a short query in a
    # heading is counted as any heading's word is (span_choice.HEADING_WEIGHT), and the
    # page's title would spell it too (`# Sitemap` for "add a sitemap"); so would a
    # hyphenated word's (`pre-commit`, `URL-encoded`) or a product's (`JavaScript`).
    names = {
        term.key for term in matcher.terms if term.compound and _IDENTIFIER.match(term.spelt)
    } & matcher.names.keys()
    if not names:
        return {}
    found: dict[int, float] = {}
    for start, title in headings.items():
        for written in _NAME.findall(lines[title]):
            # A member written with what holds it names it (`timersPromises.setTimeout`).
            key = next((k for k in (name_key(written), _member_key(written)) if k in names), None)
            if key is not None:
                keys = matcher.names[key]
                weight = sum(weights.get(key, 0.0) for key in keys)
                found[start] = max(found.get(start, 0.0), weight)
    return found
