"""A document's best section, scored as the text of a file of its own.

A page with one section that answers the question holds the query's terms together, under
one heading; a long page that mentions each term somewhere does not, though its whole-file
counts can be as high. Each section (from a heading to the next, of any level; the lines
before the first heading are one too) is scored by BM25 with its own term counts and its
own length, measured against SECTION_LENGTH; the best section's parts are a field of the
file's score (bm25.SECTION_WEIGHT).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping, Sequence

from .bm25 import saturated
from .spans import Heading

# The length, in characters, a section's counts are normalised against: about a screen of
# prose. Measured with `tierscope eval` on 39 sets against 1,000 and 4,000 (both lower).
SECTION_LENGTH = 2000.0


def best_section_parts(
    lines: Sequence[str],
    line_terms: Mapping[int, Mapping[str, int]],
    headings: Sequence[Heading],
    weights: Mapping[str, float],
) -> dict[str, float]:
    """What each query term adds to the best section's BM25 text score (weight times
    saturated count, unnormalised), for the section scoring most; empty when no line
    holds a term. `line_terms` is keyed by line number, from 1."""
    starts = sorted({0, *(heading.start for heading in headings)})
    counts: dict[int, dict[str, int]] = {}
    for number, on_line in line_terms.items():
        section = bisect_right(starts, number - 1) - 1
        into = counts.setdefault(section, {})
        for key, count in on_line.items():
            into[key] = into.get(key, 0) + count
    best: dict[str, float] = {}
    best_total = 0.0
    ends = [*starts[1:], len(lines)]
    for section, held in counts.items():
        length = sum(len(line) + 1 for line in lines[starts[section] : ends[section]])
        ratio = length / SECTION_LENGTH
        parts = {
            key: weights[key] * saturated(count, ratio)
            for key, count in held.items()
            if count > 0 and key in weights
        }
        total = sum(parts.values())
        if total > best_total:
            best, best_total = parts, total
    return best
