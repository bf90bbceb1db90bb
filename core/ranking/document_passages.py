"""How a passage of a document chosen to answer is shown (sections.py): with the code
block it announces, and without the markup blocks inside it."""

from __future__ import annotations

import re
from collections.abc import Callable

from .fenced_blocks import FencedBlocks, trimmed_span
from .span_choice import MARKER_CHARS, SpanChooser
from .spans import FENCE, Span, last_written, next_written


def with_the_example_announced(
    lines: list[str], chosen: Span, chooser: SpanChooser, max_chars: int, blocks: FencedBlocks
) -> Span:
    """A passage of a document ending on what announces the code block right after it (a
    line ending in `:`, or saying `below`, `the following`), or cut inside that block's
    first lines, with the whole block when the cap leaves room: the announcement alone
    promises what it does not show (NestJS's "First enable the option when creating your
    application:", its example cut back to nothing)."""
    block = blocks.around(chosen.end)
    if block is None or block.start < chosen.start:  # none, or the one it starts inside
        after = next_written(lines, chosen.end)
        block = next((b for b in blocks.fences if b.start == after), None)
    if block is None:
        return chosen
    last = last_written(lines, block.start - 1, chosen.start)
    if last < chosen.start or not _ANNOUNCES.search(lines[last]):
        return chosen
    if chooser.size(Span(chosen.start, block.end)) > max_chars:
        return chosen
    return Span(chosen.start, block.end)


# The most lines of the paragraph announcing a code block shown with it.
ANNOUNCEMENT_MAX_LINES = 4


def with_its_announcement(
    lines: list[str], chosen: Span, chooser: SpanChooser, max_chars: int, blocks: FencedBlocks
) -> Span:
    """A passage of a document starting at a code block's opening fence (or inside the
    block), with the paragraph right above it (at most ANNOUNCEMENT_MAX_LINES lines) when
    that paragraph announces it (a line ending in `:`, or saying `below`, `the
    following`) and the cap leaves room: Starlette's routing.md served the
    `DateTimeConvertor` example without "If you need a different converter that is not
    defined, you can create your own. See below an example...:"."""
    fence = chosen.start
    if not FENCE.match(lines[fence]):
        inside = blocks.around(fence)
        if inside is None:
            return chosen
        fence = inside.start  # a passage inside the block: opened at its fence
    last = last_written(lines, fence - 1, -1)
    if last < 0 or not _ANNOUNCES.search(lines[last]):
        return chosen
    first = last
    while (
        first > 0
        and last - first + 1 < ANNOUNCEMENT_MAX_LINES
        and lines[first - 1].strip()
        and not lines[first - 1].lstrip().startswith(("#", "```", "~~~"))
    ):
        first -= 1
    if first in chooser.headings or lines[first].lstrip().startswith(("#", "```", "~~~")):
        return chosen
    announced = Span(first, chosen.end)
    return announced if chooser.size(announced) <= max_chars else chosen


# What announces the code block after it: a line ending in `:`, or saying `below`.
_ANNOUNCES = re.compile(r":[ \t]*$|\b(?:below|the following)\b", re.IGNORECASE)


def around_markup(
    lines: list[str], passages: list[Span], blocks: list[Span], size: Callable[[Span], int]
) -> list[Span]:
    """The passages without the markup blocks inside them (a `<style>` block under
    Laravel's "Available Methods", a `<script setup>` under vitest's `# Features`), each
    shown as the line naming the lines left out, when that line is the shorter; the
    passages as they are when nothing else is left."""
    pieces: list[Span] = []
    for span in passages:
        start = span.start
        for block in blocks:
            if block.end <= start or block.start >= span.end or size(block) < MARKER_CHARS:
                continue
            if block.start > start:
                pieces.append(trimmed_span(lines, Span(start, block.start)))
            start = block.end
        if start < span.end:
            pieces.append(trimmed_span(lines, Span(start, span.end)))
    written = [piece for piece in pieces if lines[piece.start].strip()]
    return written or passages
