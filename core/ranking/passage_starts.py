"""Where a passage of a file starts as served, and in code where it ends (a mixin of
passage_ends.PassageEnds): read whole from what it starts inside (a fenced block's
opening fence, a table's header row, an indented block's opener, its paragraph's first
line; in code its construct's first line) and in code closed where what it ends inside
ends, while the cap leaves room."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable
from itertools import pairwise

from .code_blocks import indentation, lead_in_start
from .code_constructs import OpenConstructs
from .fenced_blocks import FencedBlocks
from .passage_tails import PassageTails
from .prose_bounds import STARTS_A_BLOCK
from .section_headings import SectionHeadings
from .span_choice import MARKER_CHARS
from .spans import Span

# A line at the margin that opens the indented lines under it: a reStructuredText
# directive (`.. code-block:: python`, `.. note::`), a list item, an mkdocs admonition
# (`!!! note`, `??? tip "Title"`, `???+ example`) or content tab (`=== "Linux"`).
_OPENS_INDENTED = re.compile(
    r"(?:\.\.[ \t]+[\w:-]+::|[-*+][ \t]|\d{1,9}[.)][ \t]|(?:!!!|\?\?\?\+?)[ \t]+\w|===[ \t]+[\"'])"
)

# A markdown table's row, and the delimiter row under its header (`|---|:--:|`).
_TABLE_ROW = re.compile(r"[ \t]*\|")
_TABLE_DELIMITER = re.compile(r"[ \t]*\|?(?:[ \t]*:?-{3,}:?[ \t]*\|)+(?:[ \t]*:?-{3,}:?)?[ \t]*$")


class PassageStarts:
    """What a passage's ends know of one file (passage_ends.PassageEnds sets it)."""

    lines: list[str]
    constructs: OpenConstructs | None
    sections: SectionHeadings
    kind: str
    blocks: FencedBlocks
    matching: list[int]  # sorted 0-based indexes of the lines holding a term
    tails: PassageTails

    def opened_whole(
        self, passages: list[Span], max_chars: int, size: Callable[[Span], int]
    ) -> list[Span]:
        """The passages (in file order: one or two, and the line of the definition a
        second one documents) each started where what it starts inside starts, and in
        code each ended where what it ends inside ends, while the cap leaves room for the
        lines added: a fenced code block at its opening fence; a signature, call or string
        at its first line, a docstring at its definition's. A passage of code with no room
        to close the statement it ends inside ends above it (`_before_statement`)."""
        room = max_chars - sum(size(span) for span in passages)
        room -= MARKER_CHARS * (len(passages) - 1)
        opened = []
        for span in passages:
            above = self._start_above(span.start)
            if above is not None and size(Span(above, span.start)) <= room:
                room -= size(Span(above, span.start))
                span = Span(above, span.end)
            opened.append(span)
        if any(before.end > after.start for before, after in pairwise(opened)):
            return passages
        joined = [opened[0]]
        for span in opened[1:]:  # only a fence lay between: one passage
            if joined[-1].end == span.start:
                joined[-1] = Span(joined[-1].start, span.end)
            else:
                joined.append(span)
        if len(joined) < len(opened):
            return joined
        if self.constructs is None:
            return opened
        closed = []
        for number, span in enumerate(opened):
            construct = self.constructs.around(span.end) if span.end < len(self.lines) else None
            limit = opened[number + 1].start if number + 1 < len(opened) else len(self.lines)
            if construct is not None and construct.first >= span.start:
                rest = Span(span.end, construct.last + 1)
                if rest.end <= limit and size(rest) <= room:
                    room -= size(rest)
                    span = Span(span.start, rest.end)
                elif not construct.is_string:
                    before = self._before_statement(span, construct.first)
                    if before is not None:
                        room += size(span) - size(before)
                        span = before
            closed.append(span)
        return closed

    def _before_statement(self, span: Span, first: int) -> Span | None:
        """The passage of code ended above the statement it ends inside, opened on line
        `first` (a condition, a call, a signature over lines), and the comments leading
        into it, when none of the lines left out holds a query term and a line is left:
        vitest's runtime/runners/test.ts served a window ending on `    if (`, the cap
        full, the condition cut off."""
        lines = self.lines
        start = lead_in_start(lines, first, indentation(lines[first]))
        if start <= span.start or bisect_left(self.matching, start) < bisect_left(
            self.matching, span.end
        ):
            return None
        shorter = self.tails.trimmed(Span(span.start, start))
        return shorter if shorter.end > shorter.start else None

    def _start_above(self, start: int) -> int | None:
        """The line above `start` a passage starting there is read whole from, if any: in
        code, where its construct starts; in a document, its fenced block's opening fence,
        else the first line of its paragraph."""
        if self.constructs is not None:
            above = self.constructs.readable_start(start)
            return above if above < start else None
        fence = self.blocks.fence_around(start)
        if fence is not None or self.kind == "code":
            return fence
        table = self._table_above(start)
        if table is not None:
            return table
        indented = self._indented_block_start(start)
        if indented is not None:
            return indented
        first = start
        lines = self.lines
        while (
            first > 0 and lines[first].strip() and lines[first - 1].strip()
            and not STARTS_A_BLOCK.match(lines[first])
            and not self.sections.holds(first - 1)
            and not any(b.start <= first - 1 < b.end for b in self.blocks.fences)
        ):  # fmt: skip
            first -= 1
        return first if first < start else None

    def _indented_block_start(self, start: int) -> int | None:
        """Where the indented block a passage of a document starting at `start` starts
        inside opens: the line at the margin above it when that opens it (a
        reStructuredText directive, `.. code-block:: python`; a paragraph ending with `::`;
        a list item), else the block's first line (markdown's indented code)."""
        lines = self.lines
        if not lines[start].strip() or indentation(lines[start]) == 0:
            return None
        first = start
        for above in range(start - 1, -1, -1):
            line = lines[above]
            if not line.strip():
                continue
            if indentation(line) > 0:
                first = above
                continue
            if _OPENS_INDENTED.match(line) or line.rstrip().endswith("::"):
                return above
            break
        return first if first < start else None

    def _table_above(self, start: int) -> int | None:
        """The first line (the header row) of the markdown table whose rows below its
        header a passage starting at `start` starts inside, if it does."""
        lines = self.lines
        if self.kind != "markdown" or not _TABLE_ROW.match(lines[start]):
            return None
        first = start
        while first > 0 and _TABLE_ROW.match(lines[first - 1]):
            first -= 1
        if first + 2 <= start and _TABLE_DELIMITER.match(lines[first + 1]):
            return first
        return None
