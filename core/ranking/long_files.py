"""The part of a file a snippet is cut from when nearly every line of it answers: a
generated listing, a page of 190,000 headings each holding the query. Choosing a passage
weighs every section holding a term against the others, so such a file cost seconds (up to
a minute at the size cap), past any deadline; cut from the run of EXCERPT_LINES lines that
holds the most of the query, it costs what a long page does.

A file with fewer matching lines is read whole, however long: what a passage costs grows
with the sections that hold a term, not with the lines around them (Textual's docs in one
file, 25,000 lines, cost 0.2 s)."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping, Sequence

from .spans import Span, line_run

# More lines holding a query term than this, in a file longer than EXCERPT_LINES, and the
# snippet is cut from an excerpt.
MANY_MATCHING_LINES = 2_000
# The excerpt's length, in lines. Runs of this length starting every STRIDE lines are
# weighed, so a passage of up to EXCERPT_LINES - STRIDE lines lies whole inside one.
EXCERPT_LINES = 4_000
STRIDE = EXCERPT_LINES // 2


def excerpt_start(
    line_count: int,
    line_terms: Mapping[int, Mapping[str, int]],
    weights: Mapping[str, float],
) -> int | None:
    """Where the excerpt starts (a 0-based line), or None when the file is read whole: of
    the runs of EXCERPT_LINES lines every STRIDE lines, the one holding the most weight of
    the query's distinct terms, then the most matching lines, then the first."""
    if line_count <= EXCERPT_LINES or len(line_terms) <= MANY_MATCHING_LINES:
        return None
    # Each term's lines (0-based, in order), to count those inside a run by bisection.
    matching = sorted(number - 1 for number in line_terms)
    at: dict[str, list[int]] = {}
    for index in matching:
        for key in line_terms[index + 1]:
            at.setdefault(key, []).append(index)
    best: tuple[float, int, int] | None = None
    last_start = line_count - EXCERPT_LINES
    starts = [*range(0, last_start, STRIDE), last_start]
    for start in starts:
        end = start + EXCERPT_LINES
        held = sum(
            weights.get(key, 0.0)
            for key, lines in at.items()
            if bisect_left(lines, start) < bisect_left(lines, end)
        )
        count = bisect_left(matching, end) - bisect_left(matching, start)
        rank = (held, count, -start)
        if best is None or rank > best:
            best = rank
    assert best is not None  # starts holds one at least
    return -best[2]


def excerpt(
    start: int,
    lines: list[str],
    line_terms: Mapping[int, Mapping[str, int]],
    file_lines: Sequence[int] | None,
    blocks: list[Span],
) -> tuple[list[str], dict[int, Mapping[str, int]], Sequence[int], list[Span]]:
    """The EXCERPT_LINES lines from `start` (0-based), the terms on them (by their 1-based
    line in the excerpt), the file's line of each, and the markup blocks (page_markup.py)
    inside it, cut at its ends."""
    end = min(len(lines), start + EXCERPT_LINES)
    kept = [
        Span(max(block.start, start) - start, min(block.end, end) - start)
        for block in blocks
        if block.start < end and block.end > start
    ]
    return (*line_run(start, end, lines, line_terms, file_lines), kept)
