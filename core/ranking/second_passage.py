"""A snippet's second passage: the best span elsewhere in the file, when the first leaves
room for it (sections.py's docstring says why: a question's words often meet in one place
and the answer sits in another)."""

from __future__ import annotations

from .code_blocks import lead_in_alone
from .inline_tests import inside
from .span_choice import MARKER_CHARS, SpanChooser
from .spans import Span, heading_alone, mostly_within, written_lines

# The least room worth filling; how much of the first's coverage the second must hold.
# Measured with `tierscope eval` on Textual: the answering passage is in 81% of hits on the
# right file instead of 77%, for 301 tokens per hit instead of 267 (a share of 0.75: 79%;
# of 1: 77%).
SECOND_MIN_CHARS = 200
SECOND_SHARE = 0.5
# A second passage at least this share of whose written lines (of at least this many) the
# first shows already repeats it (as dedup.py's near copies between hits).
REPEAT_SHARE = 0.8
REPEAT_MIN_LINES = 3


def second_passage(
    chooser: SpanChooser,
    structural: list[Span],
    chosen: Span,
    core: Span,
    *,
    after_only: bool = False,
) -> Span | None:
    """The best span elsewhere in the file (`after_only`: below `chosen`) that fits the
    room `chosen` leaves, when it holds at least SECOND_SHARE of what the first holds:
    never a table of contents nor an import block, nor a heading alone (it answers
    nothing, and has no room to grow into its section), nor a doc comment without its
    definition (Laravel's docblocks are blocks of their own by their indentation), nor
    the file's own tests unless they are asked about (they call the code the first
    shows)."""
    lines = chooser.lines
    room = chooser.max_chars - chooser.size(chosen) - MARKER_CHARS
    if room < SECOND_MIN_CHARS:
        return None
    is_navigation = chooser.is_navigation
    shown = written_lines(lines[chosen.start : chosen.end])
    outside = [
        span for span in structural + chooser.paragraphs
        if ((span.end <= chosen.start and not after_only) or span.start >= chosen.end)
        and not is_navigation(span)
        and not heading_alone(lines, chooser.headings, span.start, span.end)
        and not (chooser.code and lead_in_alone(lines, span.start, span.end))
        and not (chooser.tests and inside(span, chooser.tests))
    ]  # fmt: skip
    best = chooser.best(outside, room)
    if best is None or not best[0][0] or best[0][1] < SECOND_SHARE * chooser.score(core)[0]:
        return None  # too little of the query, or a window of code that is an import block
    found = best[2]
    # Widened as the first is (a heading alone says nothing), on its side of the first.
    bounds = Span(chosen.end, len(lines)) if found.start >= chosen.end else Span(0, chosen.start)
    widened = chooser.widen(found, structural, room, bounds)
    return None if _repeats(lines, widened, shown) else widened


def _repeats(lines: list[str], span: Span, shown: frozenset[str]) -> bool:
    """Whether a span's written lines are mostly lines `shown` already holds: a sync
    method's async twin, a copy of the first passage's example."""
    written = written_lines(lines[span.start : span.end])
    return mostly_within(written, shown, REPEAT_SHARE, REPEAT_MIN_LINES)
