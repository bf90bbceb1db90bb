"""A snippet's second passage: the best span elsewhere in the file, when the first leaves
room for it (sections.py's docstring says why: a question's words often meet in one place
and the answer sits in another)."""

from __future__ import annotations

from .code_blocks import lead_in_alone, past_lead_in
from .code_definitions import defines_a_name
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
    definition (Laravel's docblocks are blocks of their own by their indentation; a
    window of a block that is only its doc comment's lines leaves room for the
    definition's line, shown after it), nor the file's own tests unless they are asked
    about (they call the code the first shows)."""
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
    definition = documented_definition(lines, widened) if chooser.code else None
    served: Span | None = widened
    if definition is not None and not chosen.start <= definition < chosen.end:
        served = _with_room_for_its_definition(chooser, widened, definition, room, core)
    return None if served is None or _repeats(lines, served, shown) else served


def documented_definition(lines: list[str], span: Span) -> int | None:
    """The line of the definition a passage of code documents when it is only the doc
    comment above it, cut off before it; None for any other passage."""
    if not lead_in_alone(lines, span.start, span.end):
        return None
    line = past_lead_in(lines, span.end, len(lines))
    return line if line < len(lines) and defines_a_name(lines, line) else None


def _definition_cost(chooser: SpanChooser, span: Span, definition: int) -> int:
    """What showing a definition's line after the doc comment `span` takes: the line, and
    the marker for the comment's lines between them unless there are none."""
    return chooser.size(Span(definition, definition + 1)) + (
        0 if definition == span.end else MARKER_CHARS
    )


def _with_room_for_its_definition(
    chooser: SpanChooser, span: Span, definition: int, room: int, core: Span
) -> Span | None:
    """A second passage that is a doc comment cut off before its definition (on line
    `definition`: a block too long for the room, cut to its comment's lines), narrowed
    when it must be to its best window that leaves room for the definition's line, which
    follows it (sections.py): fiber's res.go served, for "SendFile compress", two of the
    four comment lines above `func (r *DefaultRes) SendFile(` and not the signature they
    describe. None when no window holding SECOND_SHARE of the first's terms leaves that
    room."""
    if chooser.size(span) + _definition_cost(chooser, span, definition) <= room:
        return span
    limit = room - chooser.size(Span(definition, definition + 1)) - MARKER_CHARS
    if limit <= 0:
        return None
    # Any of its lines may start the window (the best window of a block starts only at a
    # matching line's lead-in, the line above it).
    fitting = chooser.fitting_end
    windows = [
        Span(start, min(span.end, fitting(start, limit))) for start in range(span.start, span.end)
    ]
    best = chooser.best([window for window in windows if window.end > window.start], limit)
    if best is None:
        return None
    window = chooser.in_whole_sentences(best[2], span, limit)
    if (
        chooser.size(window) + _definition_cost(chooser, window, definition) > room
        or chooser.score(window)[0] < SECOND_SHARE * chooser.score(core)[0]
    ):
        return None
    return window


def _repeats(lines: list[str], span: Span, shown: frozenset[str]) -> bool:
    """Whether a span's written lines are mostly lines `shown` already holds: a sync
    method's async twin, a copy of the first passage's example."""
    written = written_lines(lines[span.start : span.end])
    return mostly_within(written, shown, REPEAT_SHARE, REPEAT_MIN_LINES)
