"""Where a query's words are written side by side, in its order: `npx astro add sitemap`
for "how do I add a sitemap", `parse_line_range` for "parse line range". A passage that
writes the question's phrase, not only its words, is where the answer is (span_choice.py
weighs these pairs)."""

from __future__ import annotations

import re
from collections.abc import Mapping

from .matching import TermMatcher

# What may stand between two of the query's words written side by side: nothing (an
# identifier's parts: `parseLine`), an underscore, spaces or punctuation, perhaps around one
# short word (`add a sitemap`, `compose / render`).
_GAP = re.compile(r"(?:[^\w\n]{1,3}|_)?(?:\w{1,3}[^\w\n]{1,3})?")


def side_by_side(
    lines: list[str], line_terms: Mapping[int, Mapping[str, int]], matcher: TermMatcher
) -> dict[int, set[tuple[str, str]]]:
    """Per line (0-based), the pairs of the query's term keys written side by side there in
    the query's order. Only the lines holding two terms or more are read again."""
    order: dict[str, int] = {}
    for term in matcher.terms:
        order.setdefault(term.key, len(order))
    found: dict[int, set[tuple[str, str]]] = {}
    for number, on_line in line_terms.items():
        if len(on_line) < 2 or number > len(lines):
            continue
        line = lines[number - 1]
        previous: tuple[int, list[str]] | None = None
        for start, text in matcher.matches(line):
            keys = [key for key in matcher.keys_of(text) if key in order]
            if not keys:
                continue
            if previous is not None and _GAP.fullmatch(line, previous[0], start):
                pairs = {(a, b) for a in previous[1] for b in keys if order[a] < order[b]}
                if pairs:
                    found.setdefault(number - 1, set()).update(pairs)
            previous = (start + len(text), keys)
    return found
