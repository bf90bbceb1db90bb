"""Which of one file's spans serve a definition of a name the query spells (span_choice.py
mixes this in): one starting at the definition, or at its lead-in (its doc comment, its
decorators), or inside a doc comment too long to serve and holding the definition's line;
and where the next definition beside it starts, which such a span does not run into."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping

from .code_blocks import indentation, past_lead_in
from .code_constructs import OpenConstructs
from .spans import Span

# The lines of a paragraph of code looked at for the definition it starts: its decorators,
# attributes and doc comment come first.
_LEAD_IN = 12


class DefinitionSpans:
    """The definitions asked for in one file's lines (`SpanChooser`'s)."""

    lines: list[str]
    named: Mapping[int, float]  # where a definition asked for starts -> its name's weight
    lead_ins: Mapping[int, int]  # such a definition's line -> its lead-in's first line
    paragraphs: list[Span]
    paragraph_starts: list[int]
    constructs: OpenConstructs | None  # what spans several lines (code_constructs.py)

    def _named_weight(self, span: Span) -> float:
        """The weight of a name the query spells whose definition `span` is: one starting
        at it, or inside its doc comment and holding its line (a doc comment too long to
        serve whole, served from the lines that answer down to the definition's)."""
        weight = self.named.get(span.start, 0.0)
        for line, lead_in in self.lead_ins.items():
            if lead_in < span.start < line < span.end:
                weight = max(weight, self.named.get(line, 0.0))
        return weight

    def _definition_start(self, span: Span) -> int:
        """2 for a span that is a definition of a name asked for with its lead-in (its
        doc comment, its decorators: from their first line to past the definition's), 1
        for one starting at the definition's own line, else 0."""
        found = 0
        for line, lead_in in self.lead_ins.items():
            if span.start == lead_in and span.end > line:
                return 2
            if span.start == line:
                found = 1
        return found

    def at_a_definition(self, span: Span) -> bool:
        """Whether `span` is served as the definition of a name the query spells."""
        return self._named_weight(span) > 0

    def _next_beside(self, start: int, stop: int) -> int:
        """Where the first paragraph before `stop` defining a name beside the definition
        at line `start` starts (`stop` if none): a window serving a definition asked for
        ends there, not in a sibling's doc comment (tokio's `max_blocking_threads` ran on
        into `thread_name`'s, whose "The default name is" outweighed its own "The default
        value is 512")."""
        found = bisect_right(self.paragraph_starts, start)
        while found < len(self.paragraphs) and self.paragraph_starts[found] < stop:
            if self._defines_beside(self.paragraphs[found], start):
                return self.paragraph_starts[found]
            found += 1
        return stop

    def _leads_into_beside(self, paragraph: Span, start: int) -> bool:
        """Whether a paragraph of code is part of a block comment (one split by blank lines,
        as Got's JSDoc, without leading stars, with examples) over a definition beside the
        one at line `start`."""
        constructs = self.constructs
        if constructs is None:
            return False
        comment = constructs.around(paragraph.start) or constructs.around(paragraph.start + 1)
        if comment is None or comment.is_string or comment.first <= start:
            return False
        below = comment.last + 1
        return below < len(self.lines) and self._defines_beside(Span(below, below + 1), start)

    def _defines_beside(self, paragraph: Span, start: int) -> bool:
        """Whether a paragraph of code defines a name (a function, a class, a constant) no
        deeper than line `start`: beside the definition there, not inside it."""
        from .code_definitions import defines_a_name

        lines = self.lines
        level = indentation(lines[start])
        # Past its doc comment and decorators, however long (more than the lead-in looked
        # at: tokio's are 40 lines).
        first = past_lead_in(lines, paragraph.start, paragraph.end)
        return any(
            indentation(lines[index]) <= level and defines_a_name(lines, index)
            for index in range(first, min(paragraph.end, first + _LEAD_IN))
            if lines[index].strip()
        )
