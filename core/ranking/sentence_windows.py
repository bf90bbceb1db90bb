"""A window of a document's prose served in whole sentences where that costs no term (a
mixin of span_choice.SpanChooser): "we need to allocate an amount of memory on the heap",
the second line of its paragraph, is no start; "...you can spawn asyncio tasks by
serving" no end."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Mapping

from .prose_bounds import ProseBounds
from .spans import Span


class SentenceWindows:
    """What a span chooser knows of one file that this reads (span_choice.py sets it)."""

    lines: list[str]
    code: bool
    chars: list[int]  # prefix sums of the lines' characters as shown
    headings: Mapping[int, int]
    matching: list[int]  # sorted 0-based indexes of the lines holding a term
    keys: list[str]
    counts: dict[str, list[int]]  # prefix sums of each term's count
    _prose: ProseBounds | None

    @property
    def prose(self) -> ProseBounds:
        """A document's sentences, line by line (code's, in its line comments); read when
        first asked."""
        if self._prose is None:
            if self.code:
                self._prose = ProseBounds.of_comments(self.lines)
            else:
                self._prose = ProseBounds(self.lines, self.headings)
        return self._prose

    def in_whole_sentences(self, window: Span, span: Span, limit: int) -> Span:
        """A window of a document's prose or of code's comments (within `span`, under
        `limit`) in whole sentences where that costs no term. One ending inside a
        sentence runs on to the sentence's end, its first lines left out to make room
        (down to where a sentence starts) when none of them holds a term or is the heading
        it starts at; else it is cut back to the end of the last sentence it holds whole,
        when every term it holds is still held (a word pair side by side in the sentence
        cut may go). One starting inside a sentence is moved up to the sentence's first
        line, its end moved up as `limit` needs, when none of the lines left out holds a
        term."""
        prose = self.prose
        chars = self.chars
        if prose.runs_on(window.end):
            finish = prose.sentence_finish(window.end, span.end)
            start = max(window.start, bisect_left(chars, chars[finish] - limit))
            start = prose.next_sentence_start(start, window.end)
            end = prose.sentence_end(window.end, window.start)
            if (
                start < window.end
                and window.start not in self.headings  # a heading stays with its text
                and not self._holds_terms(Span(window.start, start))
            ):
                window = Span(start, finish)
            elif window.start < end and self._keys_held(Span(window.start, end)) == (
                self._keys_held(window)
            ):
                window = Span(window.start, end)
        start = prose.sentence_start(window.start, span.start)
        if start < window.start:
            end = min(window.end, bisect_right(chars, chars[start] + limit) - 1)
            if end > window.start and not self._holds_terms(Span(end, window.end)):
                window = Span(start, end)
        return window

    def _keys_held(self, span: Span) -> set[str]:
        """The query terms the span holds."""
        return {
            key for key in self.keys if self.counts[key][span.end] > self.counts[key][span.start]
        }

    def _holds_terms(self, span: Span) -> bool:
        """Whether a line of the span holds a query term."""
        return bisect_left(self.matching, span.start) < bisect_left(self.matching, span.end)
