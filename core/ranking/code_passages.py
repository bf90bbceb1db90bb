"""How a passage of code chosen to answer grows before it is served (sections.py): on
into the definition its doc comment leads into, with the definition's line when the
comment fills the cap, and a definition looked up from its start to the cap, a Go type's
with the methods declared after it."""

from __future__ import annotations

import re

from .code_blocks import indentation, lead_in_start, next_written
from .second_passage import documented_definition
from .span_choice import MARKER_CHARS, SpanChooser
from .spans import Span


def with_what_it_leads_into(
    lines: list[str], chosen: Span, chooser: SpanChooser, max_chars: int
) -> Span:
    """A passage of code that ends on the lead-in of what comes next (a doc comment over a
    definition too long to serve whole), run on into it up to the cap: the comment alone
    says what it is called for, and nothing of what it is."""
    after = chosen.end
    if after < len(lines) and not lines[after].strip():
        after += 1  # a doc comment may stand a blank line above its definition
    if after >= len(lines) or not lines[after].strip():
        return chosen
    if lead_in_start(lines, after, indentation(lines[after])) >= chosen.end:
        return chosen  # the passage holds none of the next line's lead-in
    fits = chooser.fitting_end(chosen.start, max_chars)
    return Span(chosen.start, max(chosen.end, fits)) if fits > after else chosen


def documented_by(
    lines: list[str], chosen: Span, chooser: SpanChooser, max_chars: int
) -> Span | None:
    """The definition's line (a span of it) when a passage of code is only the doc comment
    above it, too long to be served with that line (`with_what_it_leads_into` ran it on
    when it fits): the comment alone says what the definition is called for, and nothing
    of what it is. SvelteKit's `redirect()` was served as its JSDoc, ending on `*/`, the
    comment one line short of the cap; dplyr's roxygen block of `count()` holds the
    answer at its top, its examples below."""
    line = documented_definition(lines, chosen)
    if line is None:
        return None
    definition = Span(line, line + 1)
    if chooser.size(definition) + MARKER_CHARS >= max_chars // 2:
        return None  # a definition's line taking half the cap: the comment as it is
    return definition


def definition_run_on(
    chosen: Span, structural: list[Span], chooser: SpanChooser, max_chars: int
) -> Span:
    """A looked-up definition too long to serve whole, served from its start on to the cap
    (within the definition), not as its head alone: its body is what it does. Its own
    block starts inside the passage; one around it (the class or module it is in) is other
    definitions, and one served whole runs on into none of them."""
    holding = [
        span
        for span in structural
        if chosen.start <= span.start < chosen.end and chosen.end < span.end
    ]
    if not holding:
        return chosen
    block = min(holding, key=chooser.size)
    end = min(block.end, chooser.fitting_end(chosen.start, max_chars))
    return Span(chosen.start, max(chosen.end, end))


# A Go type's declaration at the margin (`type ErrDirty struct {`), and a method of it
# (`func (e ErrDirty) Error() string {`, `func (m *Migrate[T]) Up() error {`).
_GO_TYPE = re.compile(r"type[ \t]+(\w+)\b")
_GO_RECEIVER = r"func[ \t]*\([ \t]*(?:\w+[ \t]+)?\*?{name}(?:\[[^\]]*\])?[ \t]*\)"


def with_its_methods(lines: list[str], chosen: Span, chooser: SpanChooser, max_chars: int) -> Span:
    """A Go type looked up, served with the methods declared right after it (each whole,
    with its comment, as far as the cap allows): Go writes a type's methods outside its
    declaration, and golang-migrate's `ErrDirty` says what it means only in its
    `Error()`, the function under it."""
    declared = next(
        (_GO_TYPE.match(lines[index]) for index in range(chosen.start, chosen.end)
         if lines[index].startswith("type")),
        None,
    )  # fmt: skip
    if declared is None:
        return chosen
    method = re.compile(_GO_RECEIVER.format(name=re.escape(declared.group(1))))
    end = chosen.end
    while True:
        start = next_written(lines, end)
        line = start
        while line < len(lines) and lines[line].startswith("//"):
            line += 1  # the method's comment
        if line >= len(lines) or not method.match(lines[line]):
            return Span(chosen.start, end)
        closing = line
        if not lines[line].rstrip().endswith("}"):
            closing = next(
                (i for i in range(line + 1, len(lines)) if lines[i].startswith("}")), len(lines)
            )
        if closing >= len(lines) or chooser.size(Span(chosen.start, closing + 1)) > max_chars:
            return Span(chosen.start, end)
        end = closing + 1
