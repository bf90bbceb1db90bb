"""The span chosen to answer, with its context (a mixin of span_choice.SpanChooser): the
largest section or block around it that fits the cap, then the paragraphs after and
before it, within bounds that keep it in its section and off the code beside it."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Mapping

from .code_blocks import ends_a_block, indentation, without_cut_header
from .definition_spans import DefinitionSpans
from .navigation import navigation_test
from .spans import Span, next_written

# How much of the character cap a snippet fills with the lines around its section.
FILL = 0.5


class SpanWidening(DefinitionSpans):
    """What a span chooser knows of one file that this reads (span_choice.py sets it)."""

    max_chars: int
    code: bool  # the spans are code blocks
    chars: list[int]  # prefix sums of the lines' characters as shown
    headings: Mapping[int, int]  # a section's first line -> its heading's title line
    heading_starts: list[int]
    levels: Mapping[int, int]  # a heading's first line -> its level
    paragraph_ends: list[int]
    _is_navigation: Callable[[Span], bool] | None = None
    score: Callable[[Span], tuple[float, float]]  # (weight of the terms held, density)

    def size(self, span: Span) -> int:
        return self.chars[span.end] - self.chars[span.start]

    def fitting_end(self, start: int, limit: int) -> int:
        """The end of the longest run of lines from `start` that fits `limit` characters."""
        return bisect_right(self.chars, self.chars[start] + limit) - 1

    def is_navigation(self, span: Span) -> bool:
        """Whether a span mostly points elsewhere: a table of contents, in code an import
        block (navigation.py)."""
        if self._is_navigation is None:
            self._is_navigation = navigation_test(self.lines, code=self.code)
        return self._is_navigation(span)

    def widen(
        self,
        core: Span,
        structural: list[Span],
        limit: int | None = None,
        bounds: Span | None = None,
    ) -> Span:
        """The chosen span with its context: the largest enclosing section or block that
        still fits `limit` (the cap) and brings in no other section as deep unless it holds
        more of the query (an FAQ's other questions are no context of one), then whole
        paragraphs after and before it up to FILL of it, within `bounds` (the file), never
        back past a section's first line nor on into the next section as deep (an FAQ's
        next question), nor in code back into the end of a block above (another
        definition's). The answer to a question often sits a few lines from where its
        words cluster."""
        limit = self.max_chars if limit is None else limit
        bounds = Span(0, len(self.lines)) if bounds is None else bounds
        fitting = [
            span
            for span in structural
            if span.start <= core.start and core.end <= span.end
            and bounds.start <= span.start and span.end <= bounds.end
            and self.size(span) <= limit
            and (not self._holds_a_sibling(core, span) or self.score(span)[0] > self.score(core)[0])
        ]  # fmt: skip
        core = max(fitting, key=self.size, default=core)
        target = limit * FILL
        whole = Span(0, len(self.lines))
        if self.code and not self.named and bounds == whole and self.size(whole) <= target:
            # A module no longer than a passage grows to, served whole (multer's 570
            # characters of lib/counter.js had been cut to one of its functions), unless a
            # name asked for is defined in it: that definition is the answer.
            return whole
        start, end = core.start, core.end
        grew = True
        while grew:
            grew = False
            for candidate in (self._with_next(start, end), self._with_previous(start, end)):
                if candidate is None:
                    continue
                inside = candidate.start >= bounds.start and candidate.end <= bounds.end
                if inside and self.size(candidate) <= target:
                    start, end = candidate.start, candidate.end
                    grew = True
        return Span(start, end)

    def with_next_lines(self, span: Span) -> Span:
        """A passage of code shown alone grown on into the paragraph after it, line by
        line, up to FILL of the cap, when that paragraph is too long to take whole and
        goes on with what the passage shows (not another definition beside it): pino's
        transport-stream.js served a function's first lines, down to `try {`, and the
        rest of the cap went unused; its next line answered."""
        target = self.max_chars * FILL
        if not self.code or self.size(span) >= target:
            return span
        following = self._with_next(span.start, span.end)
        if following is None:
            return span
        if not indentation(self.lines[next_written(self.lines, span.end)]):
            return span  # at the margin: the code beside it, not the rest of its block
        end = min(following.end, self.fitting_end(span.start, int(target)))
        grown = without_cut_header(self.lines, Span(span.start, end))
        return grown if grown.end > span.end else span

    def _with_next(self, start: int, end: int) -> Span | None:
        """The span grown to the end of the paragraph after it (or of the one it ends
        inside); None in code at a paragraph that starts another definition beside this
        one (its signature and doc comment, cut off from its body, say nothing of this
        one: requests' `default_user_agent` was served with `parse_header_links`' head),
        nor at a part of its doc comment split by blank lines (Got's `isUnixSocketUrl` ran
        on into `getUnixSocketPath`'s JSDoc, ending on its `*/`)."""
        found = bisect_right(self.paragraph_ends, end)
        if found == len(self.paragraphs):
            return None
        after = self.paragraphs[found]
        if self.levels and self._opens_a_sibling(start, end, after):
            return None
        if (
            self.code
            and after.start >= end
            and (self._defines_beside(after, start) or self._leads_into_beside(after, start))
        ):
            return None
        return Span(start, after.end)

    def _opens_a_sibling(self, start: int, end: int, after: Span) -> bool:
        """Whether the paragraph `after`, grown onto the span `start`-`end`, brings in a
        heading at most as deep as that of the section `start` is in (the next question of
        an FAQ, the next option): another section's subject, not the rest of this one's."""
        headings = self.heading_starts
        level = self._section_level(start)
        return any(
            self.levels.get(heading, 0) <= level
            for heading in headings[bisect_left(headings, end) : bisect_left(headings, after.end)]
        )

    def _holds_a_sibling(self, core: Span, span: Span) -> bool:
        """Whether `span`, around `core`, holds a section at most as deep as the one `core`
        is in other than those `core` is in (an FAQ's other questions, not its heading)."""
        if not self.levels:
            return False
        if self._opens_a_sibling(core.start, core.end, span):
            return True
        headings = self.heading_starts
        level = self._section_level(core.start)
        around = level  # the shallowest heading met so far, going back from `core`
        inside = bisect_right(headings, core.start) - 1
        for heading in reversed(headings[bisect_right(headings, span.start) : inside]):
            depth = self.levels.get(heading, 0)
            if around <= depth <= level:
                return True  # a section before `core`'s, not one it is in
            around = min(around, depth)
        return False

    def _section_level(self, start: int) -> int:
        """The level of the heading of the section line `start` is in (0 before any)."""
        inside = bisect_right(self.heading_starts, start) - 1
        return self.levels.get(self.heading_starts[inside], 0) if inside >= 0 else 0

    def _with_previous(self, start: int, end: int) -> Span | None:
        """The span grown back to the start of the paragraph before it (or of the one it
        starts inside); None at a section's first line, or in code under the end of a
        block or an import block: what ends the section or the function before is no
        lead-in to this one, and imports name what the code uses, saying nothing of it."""
        if start in self.headings:
            return None
        found = bisect_left(self.paragraph_starts, start) - 1
        if found < 0:
            return None
        above = self.paragraphs[found]
        if self.code and (
            ends_a_block(self.lines, above.end - 1, start)
            or self.is_navigation(Span(above.start, start))
        ):
            return None
        return Span(above.start, end)
