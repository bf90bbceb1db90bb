"""Snippets: the best section of a file for a query, capped in characters.

A section is a document's section (a heading and what follows, up to the next heading; or
a heading with its subsections; markdown, reStructuredText and AsciiDoc headings, see
spans.py), a code block (a line and the more-indented lines under it: a function, a class,
a method; or the paragraph that opens one, its definition and docstring), or a paragraph
of plain text. Each candidate that fits the cap is scored like a small document (BM25 over
the query's terms, weighted by the terms' rarity in the scope); one that is too long is
narrowed to its best window that fits. A line well over the line cap is clipped where most
of the query is, with a visible marker (line_clip.py). A passage of a document never ends
on the next section's bare heading, nor on the cut-off start of a fenced code block that
holds none of the query's words; one that starts inside a code block starts at its fence,
and one that starts inside a paragraph at the paragraph's first line, when the cap leaves
room for the lines above (`_PassageEnds`). A passage of code is
started, and ended, the same way outside a signature, a call or a docstring spread over
lines (a docstring at its definition), when the cap leaves room (code_constructs.py); the
best window of a block too long to serve may start there too.

When the best section leaves room under the cap, the best one elsewhere in the file that
holds at least half as much of the query follows it, in file order, after a line that
says which lines are left out between them (`[lines 40-87 not shown]`):
a question's words often cluster in one place (an overview, a signature) and its answer
sits in another (the section on the option, the docstring of the attribute).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ..models import left_out_marker
from .analysis import asking_keys, few_words, name_key
from .code_blocks import code_blocks, indentation, lead_in_start
from .code_constructs import OpenConstructs, open_constructs
from .file_roles import asks_about_tests
from .inline_tests import inline_tests
from .matching import TermMatcher
from .span_choice import MARKER_CHARS, SpanChooser
from .spans import (
    FENCE,
    Span,
    document_headings,
    document_kind,
    document_sections,
    fenced_blocks,
    heading_alone,
    split_lines,
)

# Two passages are shown as one, the lines between included, when they fit the cap (with
# the characters of the marker they spare): the lines a gap marker would stand for are
# often the very ones between two parts of an answer (a function's middle), and the marker
# would cost about what a few lines do, and say less.


@dataclass(frozen=True, slots=True)
class Snippet:
    """The text served for a file and the lines it spans."""

    text: str
    line_start: int  # 1-based, inclusive
    line_end: int


def _heads(blocks: list[Span], paragraphs: list[Span]) -> list[Span]:
    """The paragraph that opens each block (a definition with its docstring) and ends
    inside it: a block too long to serve is often answered by its head alone."""
    ends = {block.start: block.end for block in blocks}
    return [p for p in paragraphs if p.start in ends and p.end < ends[p.start]]


def cut_snippet(
    text: str,
    path: str,
    line_terms: Mapping[int, Mapping[str, int]],
    weights: Mapping[str, float],
    *,
    max_chars: int,
    max_line_chars: int,
    matcher: TermMatcher | None = None,
    file_lines: Sequence[int] | None = None,
) -> Snippet:
    """The best section of `text` for the terms found on `line_terms` (1-based lines),
    with its context (see `SpanChooser.widen`), and the next best elsewhere when it leaves
    room (`SpanChooser.second`). The lines given span both: the file's lines, or when
    `file_lines` gives the file's line for each of `text` (a notebook's cells,
    notebooks.py), those."""
    lines = split_lines(text)
    if not lines:
        return Snippet("", 1, 1)
    kind = document_kind(path)
    headings: dict[int, int] = {}
    if kind == "code":
        structural = code_blocks(lines, [number - 1 for number in sorted(line_terms)])
    else:
        found = document_headings(lines, path)
        headings = {heading.start: heading.title for heading in found}
        # Without headings, markdown is one section and other text is its paragraphs.
        structural = document_sections(lines, found) if found or kind == "markdown" else []
    constructs = open_constructs(lines, path) if kind == "code" else None
    asking = asking_keys(matcher.terms) if matcher is not None else weights
    about_tests = asks_about_tests(asking)
    tests = [] if about_tests else inline_tests(lines, path)
    # A name's tests asked about (`add_row tests`): its tests, not its definition.
    named = (
        _named_definitions(lines, line_terms, weights, matcher)
        if kind == "code" and not about_tests
        else {}
    )
    if named and matcher is not None:
        weights = _without_qualifiers(weights, matcher)
    chooser = SpanChooser(
        lines, line_terms, weights, max_chars, max_line_chars, headings,
        code=kind == "code", constructs=constructs, tests=tests, named=named,
    )  # fmt: skip
    if kind == "code":
        structural += _heads(structural, chooser.paragraphs)
    core = chooser.choose(structural, chooser.paragraphs)
    chosen = chooser.widen(core, structural)
    if kind == "code":
        chosen = _with_what_it_leads_into(lines, chosen, chooser, max_chars)
    ends = _PassageEnds(lines, headings, kind, chooser.matching, constructs)
    fragments = [ends.trimmed(chosen)]
    # A name looked up is shown at its definition first: no call of it from above.
    second = chooser.second(structural, chosen, core, after_only=core.start in named)
    if second is not None:
        second = ends.trimmed(second)
        if heading_alone(lines, headings, second.start, second.end):
            second = None  # trimmed to the next section's heading: it answers nothing
    if second is not None:
        fragments = sorted([fragments[0], second], key=lambda span: span.start)
        gap = Span(fragments[0].end, fragments[1].start)
        written = any(lines[i].strip() for i in range(gap.start, gap.end))
        whole = Span(fragments[0].start, fragments[1].end)
        if (chooser.size(gap) <= MARKER_CHARS and not written) or (
            chooser.size(whole) <= max_chars + MARKER_CHARS
        ):  # next to each other, or the lines between fit: one passage
            fragments = [whole]
    fragments = ends.opened_whole(fragments, max_chars, chooser.size)

    def file_line(index: int) -> int:  # a 0-based line of `text` -> the file's (1-based)
        return file_lines[index] if file_lines is not None else index + 1

    shown = chooser.shown(fragments[0], matcher)
    if len(fragments) == 2:
        left_out = (file_line(fragments[0].end - 1) + 1, file_line(fragments[1].start) - 1)
        shown.append(left_out_marker(*left_out))
        shown += chooser.shown(fragments[1], matcher)
    return Snippet(
        "\n".join(shown), file_line(fragments[0].start), file_line(fragments[-1].end - 1)
    )


def _with_what_it_leads_into(
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


def _named_definitions(
    lines: list[str],
    line_terms: Mapping[int, Mapping[str, int]],
    weights: Mapping[str, float],
    matcher: TermMatcher | None,
) -> dict[int, float]:
    """Where a definition of a name the query spells whole starts (its lead-in's first
    line, and its own line), with the weight of that name's terms."""
    if matcher is None or not matcher.names:
        return {}
    if not few_words(matcher.terms):
        return {}
    from .structure import definitions_of_names

    starts: dict[int, float] = {}
    found = definitions_of_names(lines, line_terms, matcher)
    qualifiers = [term for term in matcher.terms if term.qualifier]
    in_parts = {part for term in qualifiers if term.compound for part in term.parts}
    holders = {name_key(term.word) for term in qualifiers if term.word not in in_parts}
    if holders:  # `AsyncClient.stream`: the `stream` of class AsyncClient, if there is one
        held = {i: keys for i, keys in found.items() if _holder_of(lines, i) in holders}
        found = held or found
    for index, keys in found.items():
        weight = sum(weights.get(key, 0.0) for key in keys)
        for start in (index, lead_in_start(lines, index, indentation(lines[index]))):
            starts[start] = max(starts.get(start, 0.0), weight)
    return starts


_RECEIVER = re.compile(r"[ \t]*func[ \t]*\([ \t]*\w*[ \t]*\*?[ \t]*(\w+)")
# Rust: `impl Router {`, `impl<S> FromRequest<S> for Json<T> {` (the type is the holder).
_IMPL = re.compile(r"[ \t]*impl(?:<[^>]*>)?[ \t]+(?:[\w:]+(?:<[^{]*?>)?[ \t]+for[ \t]+)?(\w+)")
_CLASS = re.compile(r"[ \t]*(?:export[ \t]+)?(?:abstract[ \t]+)?class[ \t]+(\w+)")


def _holder_of(lines: list[str], index: int) -> str:
    """The name (name_key) of the class a definition on line `index` is inside, "" for
    none: its receiver's type for a Go method, else the nearest line above it, less
    indented, that opens a class (a Rust `impl` block)."""
    receiver = _RECEIVER.match(lines[index])
    if receiver:
        return name_key(receiver.group(1))
    level = indentation(lines[index])
    for above in range(index - 1, -1, -1):
        line = lines[above]
        if line.strip() and indentation(line) < level:
            opened = _CLASS.match(line) or _IMPL.match(line)
            if opened:
                return name_key(opened.group(1))
            level = indentation(line)
            if level == 0:
                return ""
    return ""


def _without_qualifiers(weights: Mapping[str, float], matcher: TermMatcher) -> dict[str, float]:
    """The weights with what holds the member looked up (`Session` of `Session.mount`)
    left out: in a file defining the member, its definition answers, not the class's
    first lines, which name the holder."""
    held = {key for term in matcher.terms if term.qualifier for key in (term.key, *term.parts)}
    held -= {key for keys in matcher.names.values() for key in keys}
    return {key: 0.0 if key in held else weight for key, weight in weights.items()}


# A line that only names the section after it, for links: reStructuredText's label, an
# empty HTML anchor.
# The first line of a callout (an admonition): MkDocs' `!!! tip "Title"` and `??? note`,
# GitHub's `> [!NOTE]`, Docusaurus' `:::tip`.
_CALLOUT = re.compile(
    r"[ \t]*(?:(?:!!!|\?\?\?)\+?[ \t]+\w.*|>[ \t]*\[![A-Za-z]+\][ \t]*|:::+[ \t]*\w[^:]*)$"
)
_ANCHOR = re.compile(
    r"[ \t]*(?:\.\.[ \t]+_[^:]+:"
    r"|<a[ \t]+(?:name|id)=[\"'][^\"']*[\"'][ \t]*>[ \t]*</a>)[ \t]*$",
    re.IGNORECASE,
)


# A line that starts a block of its own however the lines above run: a list item, a table
# row, a quote, a directive, a heading.
_STARTS_A_BLOCK = re.compile(r"[ \t]*(?:[-*+][ \t]|\d{1,9}[.)][ \t]|[|>#]|\.\.[ \t]|:\w)")


def _trimmed(lines: list[str], span: Span) -> Span:
    start, end = span.start, span.end
    while start < end - 1 and not lines[start].strip():
        start += 1
    while end > start + 1 and not lines[end - 1].strip():
        end -= 1
    return Span(start, end)


class _PassageEnds:
    """Where a passage of a document starts and ends as served: blank lines trimmed, and
    three tails that say nothing left out. A heading with none of its section under it (the
    next section's title at the end of a passage); a line that only names the next section
    for links to it; and the opening part of a fenced code block cut off by the cap, when
    it holds none of the query's words (a fence left open, and a reader reads on into the
    next passage as code)."""

    def __init__(
        self,
        lines: list[str],
        headings: Mapping[int, int],
        kind: str,
        matching: list[int],
        constructs: OpenConstructs | None = None,
    ) -> None:
        self.lines = lines
        self.constructs = constructs
        self.headings = headings  # a heading's first line -> its title line
        self.heading_starts = sorted(headings)
        self.kind = kind
        self.fences = fenced_blocks(lines) if kind == "markdown" else []
        self.matching = matching  # sorted 0-based indexes of the lines holding a term

    def trimmed(self, span: Span) -> Span:
        span = _trimmed(self.lines, span)
        while True:
            shorter = self._without_open_fence(self._without_bare_heading(span))
            shorter = self._without_anchor(self._without_stray_closing_fence(shorter))
            shorter = self._without_cut_callout(shorter)
            if shorter == span:
                return span
            span = shorter

    def opened_whole(
        self, passages: list[Span], max_chars: int, size: Callable[[Span], int]
    ) -> list[Span]:
        """The passages (one or two, in file order) each started where what it starts
        inside starts, and in code each ended where what it ends inside ends, while the cap
        leaves room for the lines added: a fenced code block at its opening fence; a
        signature, call or string at its first line, a docstring at its definition's."""
        room = max_chars - sum(size(span) for span in passages)
        room -= MARKER_CHARS * (len(passages) - 1)
        opened = []
        for span in passages:
            above = self._start_above(span.start)
            if above is not None and size(Span(above, span.start)) <= room:
                room -= size(Span(above, span.start))
                span = Span(above, span.end)
            opened.append(span)
        if len(opened) == 2 and opened[0].end >= opened[1].start:
            if opened[0].end > opened[1].start:
                return passages
            return [Span(opened[0].start, opened[1].end)]  # only the fence lay between
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
            closed.append(span)
        return closed

    def _start_above(self, start: int) -> int | None:
        """The line above `start` a passage starting there is read whole from, if any: in
        code, where its construct starts; in a document, its fenced block's opening fence,
        else the first line of its paragraph."""
        if self.constructs is not None:
            above = self.constructs.readable_start(start)
            return above if above < start else None
        fence = next((b.start for b in self.fences if b.start < start < b.end), None)
        if fence is not None or self.kind == "code":
            return fence
        first = start
        lines = self.lines
        while (
            first > 0 and lines[first].strip() and lines[first - 1].strip()
            and not _STARTS_A_BLOCK.match(lines[first])
            and not self._in_heading(first - 1)
            and not any(b.start <= first - 1 < b.end for b in self.fences)
        ):  # fmt: skip
            first -= 1
        return first if first < start else None

    def _in_heading(self, index: int) -> bool:
        """Whether line `index` is part of a heading (its title, or an over/underline)."""
        found = bisect_left(self.heading_starts, index + 1) - 1
        if found < 0:
            return False
        start = self.heading_starts[found]
        return start <= index <= self.headings[start] + 1

    def _without_bare_heading(self, span: Span) -> Span:
        found = bisect_left(self.heading_starts, span.end) - 1
        if found < 0 or self.heading_starts[found] <= span.start:
            return span
        start = self.heading_starts[found]
        if heading_alone(self.lines, self.headings, start, span.end):
            return _trimmed(self.lines, Span(span.start, start))
        return span

    def _without_anchor(self, span: Span) -> Span:
        """Without a last line that only names the next section for links to it (Sphinx's
        `.. _label:`, markdown's `<a name="x"></a>`)."""
        if span.end - span.start > 1 and _ANCHOR.match(self.lines[span.end - 1]):
            return _trimmed(self.lines, Span(span.start, span.end - 1))
        return span

    def _without_cut_callout(self, span: Span) -> Span:
        """Without a last line that opens a callout whose words lie past the passage
        (`!!! tip`, `??? note`, GitHub's `> [!TIP]`, Docusaurus's `:::tip`): alone it says
        nothing."""
        last = span.end - 1
        if (
            self.kind == "markdown"
            and span.end - span.start > 1
            and _CALLOUT.match(self.lines[last])
        ):
            return _trimmed(self.lines, Span(span.start, last))
        return span

    def _without_stray_closing_fence(self, span: Span) -> Span:
        """Without a last line that closes a fenced block the passage starts inside (its
        opening fence left out): a markdown reader takes it for an opening one."""
        for block in self.fences:
            closes = block.start < span.start < block.end == span.end
            if closes and span.end - span.start > 1 and FENCE.match(self.lines[span.end - 1]):
                return _trimmed(self.lines, Span(span.start, span.end - 1))
        return span

    def _without_open_fence(self, span: Span) -> Span:
        for block in self.fences:
            if span.start < block.start < span.end < block.end:
                held = bisect_left(self.matching, block.start) < bisect_left(
                    self.matching, span.end
                )
                if not held:
                    return _trimmed(self.lines, Span(span.start, block.start))
                return span
        return span


def cut_span(
    text: str,
    line_start: int,
    line_end: int,
    line_terms: Mapping[int, Mapping[str, int]],
    weights: Mapping[str, float],
    *,
    max_chars: int,
    max_line_chars: int,
    matcher: TermMatcher | None = None,
) -> Snippet | None:
    """The lines a tier pointed at (1-based, inclusive), as they are now: narrowed to
    their best window when over the cap, long lines clipped. None when the span is past
    the end of the file."""
    lines = split_lines(text)
    start, end = max(1, line_start) - 1, min(len(lines), max(line_end, line_start))
    if start >= end:
        return None
    chooser = SpanChooser(lines, line_terms, weights, max_chars, max_line_chars)
    span = Span(start, end)
    if chooser.size(span) > max_chars:
        span = chooser.best_window(span)
    body = "\n".join(chooser.shown(span, matcher))
    return Snippet(body.strip("\n"), span.start + 1, span.end)
