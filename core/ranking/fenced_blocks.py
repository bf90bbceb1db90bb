"""The fenced code blocks of a markdown file, as a passage of it meets them: the block a
line is inside, its opening and closing fences, and a passage's end moved so that no fence
is shown without its twin (passage_ends.py asks)."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable

from .spans import FENCE, Span, fenced_blocks


def trimmed_span(lines: list[str], span: Span) -> Span:
    """The span without its blank first and last lines (one line is kept)."""
    start, end = span.start, span.end
    while start < end - 1 and not lines[start].strip():
        start += 1
    while end > start + 1 and not lines[end - 1].strip():
        end -= 1
    return Span(start, end)


class FencedBlocks:
    """A markdown file's fenced blocks (none for any other file), with the lines holding a
    query term (`matching`, sorted 0-based indexes)."""

    def __init__(self, lines: list[str], kind: str, matching: list[int]) -> None:
        self.lines = lines
        self.fences = fenced_blocks(lines) if kind == "markdown" else []
        self.matching = matching

    def around(self, index: int) -> Span | None:
        """The fenced block line `index` (or a passage ending before it) is inside, below
        its opening fence."""
        return next((b for b in self.fences if b.start < index < b.end), None)

    def after_block(
        self, span: Span, coverage: Callable[[Span], float] | None = None
    ) -> Span | None:
        """What a passage starting inside a fenced block shows below it (its opening fence
        left out), when that holds more of the query (`coverage`, else lines holding a
        term) than the block's lines: pino's api.md served two comment lines of an
        example, and the paragraph below it, which answered, was given up to keep the
        block whole."""
        block = self.around(span.start)
        if block is None or not span.start < block.end - 1 < span.end - 1:
            return None
        after = trimmed_span(self.lines, Span(block.end, span.end))
        inside = Span(span.start, block.end - 1)
        measure = coverage or self._matching_in
        if not self._matching_in(after) or measure(after) <= measure(inside):
            return None
        return after

    def _matching_in(self, span: Span) -> int:
        """How many lines of the span hold a query term."""
        return bisect_left(self.matching, span.end) - bisect_left(self.matching, span.start)

    def fence_around(self, index: int) -> int | None:
        """The opening fence of the fenced block line `index` is inside, below its fence."""
        block = self.around(index)
        return block.start if block is not None else None

    def opens_block_it_ends_in(self, span: Span) -> bool:
        """Whether a passage starts on the opening fence of the block it ends inside."""
        block = self.around(span.end)
        return block is not None and block.start == span.start

    def closing_fence(self, span: Span) -> Span | None:
        """The closing fence of the fenced block a passage of markdown ends inside."""
        block = self.around(span.end)
        if block is not None and FENCE.match(self.lines[block.end - 1]):
            return Span(block.end - 1, block.end)
        return None

    def cut_to_close(self, span: Span, needed: int, size: Callable[[Span], int]) -> Span | None:
        """The passage without as many of its last lines as free `needed` characters for
        the closing fence of the block it ends inside, query terms or not, when what is
        left of the block still holds one (an answer inside a long block: the block's
        first lines, not none of it); else None."""
        block = self.around(span.end)
        if block is None or block.start <= span.start:
            return None
        end, freed = span.end, 0
        while freed < needed and end - 1 > block.start + 1:
            freed += size(Span(end - 1, end))
            end -= 1
        if freed < needed:
            return None
        held = bisect_left(self.matching, block.start + 1) < bisect_left(self.matching, end)
        return trimmed_span(self.lines, Span(span.start, end)) if held else None

    def before_open_block(self, span: Span) -> Span | None:
        """The passage up to the fenced block it opens and ends inside, when a written
        line is left before the block's fence."""
        block = self.around(span.end)
        if block is None or block.start <= span.start:
            return None
        before = trimmed_span(self.lines, Span(span.start, block.start))
        return before if self.lines[before.start].strip() else None

    def without_stray_closing_fence(self, span: Span) -> Span:
        """Without a last line that closes a fenced block the passage starts inside (its
        opening fence left out): a markdown reader takes it for an opening one."""
        for block in self.fences:
            closes = block.start < span.start < block.end == span.end
            if closes and span.end - span.start > 1 and FENCE.match(self.lines[span.end - 1]):
                return trimmed_span(self.lines, Span(span.start, span.end - 1))
        return span

    def without_open_fence(self, span: Span) -> Span:
        """Without the opening part of a fenced block the passage ends inside, cut off by
        the cap, when it holds none of the query's terms: a fence left open, and a reader
        reads on into the next passage as code."""
        for block in self.fences:
            if span.start < block.start < span.end < block.end:
                held = bisect_left(self.matching, block.start) < bisect_left(
                    self.matching, span.end
                )
                if not held:
                    return trimmed_span(self.lines, Span(span.start, block.start))
                return span
        return span
