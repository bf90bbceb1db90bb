"""The tails of a passage that say nothing, left out (`PassageTails.trimmed`): the next
section's bare heading, a line that only names it for links, a callout's first line cut
off from its words, the opening part of a fenced code block cut off by the cap, the lines
of a sentence cut by the cap, a thematic break, a link definition the passage does not
use, a paragraph announcing the list or code it leaves out (passage_ends.py asks)."""

from __future__ import annotations

import re
from bisect import bisect_left

from .code_blocks import LEAD_INS, indentation, past_lead_in
from .code_definitions import defines_a_name
from .fenced_blocks import FencedBlocks, trimmed_span
from .navigation import LINK_DEFINITION, LINK_LABEL_ALONE, defines_a_link_over_two_lines
from .prose_bounds import ENDS_A_SENTENCE, STARTS_A_BLOCK
from .section_headings import SectionHeadings
from .spans import Span, heading_left_alone, next_written

# The first line of a callout (an admonition): MkDocs' `!!! tip "Title"` and `??? note`,
# GitHub's `> [!NOTE]`, Docusaurus' `:::tip`.
_CALLOUT = re.compile(
    r"[ \t]*(?:(?:!!!|\?\?\?)\+?[ \t]+\w.*|>[ \t]*\[![A-Za-z]+\][ \t]*|:::+[ \t]*\w[^:]*)$"
)
# A line that only names the section after it, for links: reStructuredText's label,
# MyST's target, an empty HTML anchor, mkdocs-autorefs' empty link (`[](){#extra-fields}`).
_ANCHOR = re.compile(
    r"[ \t]*(?:\.\.[ \t]+_[^:]+:|\([\w.:-]+\)=|\[\]\([^()\s]*\)\{[^{}\n]*\}"
    r"|<a[ \t]+(?:name|id)=[\"'][^\"']*[\"'][ \t]*>[ \t]*</a>)[ \t]*$",
    re.IGNORECASE,
)
# A line of markup alone: an HTML comment, or an opening tag (its element's content on
# the lines after it).
_MARKUP_ALONE = re.compile(r" {0,3}(?:<!--.*-->|<[A-Za-z][\w-]*(?:[ \t][^<>]*)?(?<!/)>)[ \t]*$")
# A line of code's comment (not a C directive, a Rust attribute, a decorator, nor a
# line starting with a dereference or an unpacking).
_COMMENT_ALONE = re.compile(r"[ \t]*(?:#(?=[ \t]|$)|//|/\*|\*(?=[ \t/]|$)|--[ \t]|;;)")
# Markdown's thematic break (`---`, `***`, `___`, spaced or not).
_THEMATIC_BREAK = re.compile(r" {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$")


class PassageTails:
    """One document's (or code file's) lines, read for the tails of its passages."""

    def __init__(
        self,
        lines: list[str],
        sections: SectionHeadings,
        kind: str,
        blocks: FencedBlocks,
        matching: list[int],
    ) -> None:
        self.lines = lines
        self.sections = sections
        self.kind = kind
        self.blocks = blocks
        self.matching = matching  # sorted 0-based indexes of the lines holding a term

    def trimmed(self, span: Span) -> Span:
        span = trimmed_span(self.lines, span)
        while True:
            shorter = self.blocks.without_open_fence(self._without_bare_heading(span))
            shorter = self._without_anchor(self.blocks.without_stray_closing_fence(shorter))
            shorter = self._without_cut_callout(shorter)
            shorter = self._without_cut_sentence(shorter)
            shorter = self._without_rule_or_unused_definition(shorter)
            shorter = self._without_lead_in(shorter)
            shorter = self._without_announcement(shorter)
            if shorter == span:
                return span
            span = shorter

    def _without_lead_in(self, span: Span) -> Span:
        """In code, without the comments and decorators ending a passage (after a blank line,
        or a block comment) that lead into a definition it does not show (Laravel's
        Session\\Store: a method served with the next one's docblock, ending on its `*/`, not
        its signature), or head the definitions below it. A comment on the code under it is
        kept."""
        if self.kind != "code" or span.end >= len(self.lines):
            return span
        lines = self.lines
        first = span.end
        while first > span.start and lines[first - 1].lstrip(" \t").startswith(LEAD_INS):
            first -= 1
        if first == span.end or first == span.start:
            return span
        if self._comment_saying_nothing(Span(first, span.end)):
            return trimmed_span(lines, Span(span.start, first))
        if lines[first - 1].strip() and not lines[first].lstrip().startswith("/*"):
            return span  # a comment inside the code above it, not a lead-in after it
        # The line the lead-in leads into, past what the passage shows of it; past blank
        # lines too: a comment standing alone heads the definitions below it (httpx's
        # `# Client errors` over its group of exception classes).
        after = next_written(lines, past_lead_in(lines, span.end, len(lines)))
        if after == len(lines) or not defines_a_name(lines, after):
            return span  # a comment on the code under it (pydantic's union.rs), kept
        return trimmed_span(lines, Span(span.start, first))

    def _comment_saying_nothing(self, tail: Span) -> bool:
        """Whether the lines ending a passage of code are comments alone (no decorator, no
        directive) holding no query term, about code the passage leaves out: Textual's
        `parse` was served for "LRU cache class" ending on the first lines of the comment
        on its `ast.literal_eval`, the statement they explain cut off."""
        if bisect_left(self.matching, tail.start) < bisect_left(self.matching, tail.end):
            return False
        return all(_COMMENT_ALONE.match(line) for line in self.lines[tail.start : tail.end])

    def _without_announcement(self, span: Span) -> Span:
        """In a document, without a last paragraph that announces the block it leaves out
        (a "Please include the following:" over a list the cap cut off) and holds no query
        word: alone it points at an answer the passage does not give."""
        lines, end = self.lines, span.end
        if self.kind == "code" or end >= len(lines) or not lines[end - 1].rstrip().endswith(":"):
            return span
        after = next_written(lines, end)
        if after >= len(lines) or not (
            STARTS_A_BLOCK.match(lines[after])
            or any(block.start == after for block in self.blocks.fences)
            or indentation(lines[after]) > indentation(lines[end - 1])
        ):
            return span  # what follows is no list, code or quote it announces
        first = end - 1
        while first > span.start and lines[first - 1].strip():
            first -= 1
        if first == span.start:
            return span  # the passage is the announcement alone
        if bisect_left(self.matching, first) < bisect_left(self.matching, end):
            return span  # a query word in it: kept (pytest's "Here is the algorithm...")
        return trimmed_span(lines, Span(span.start, first))

    def _without_bare_heading(self, span: Span) -> Span:
        sections = self.sections
        last = heading_left_alone(self.lines, sections.titles, sections.starts, span)
        return span if last is None else trimmed_span(self.lines, Span(span.start, last))

    def _without_anchor(self, span: Span) -> Span:
        """Without a last line that only names the next section for links to it (Sphinx's
        `.. _label:`, markdown's `<a name="x"></a>`)."""
        if span.end - span.start > 1 and _ANCHOR.match(self.lines[span.end - 1]):
            return trimmed_span(self.lines, Span(span.start, span.end - 1))
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
            return trimmed_span(self.lines, Span(span.start, last))
        return span

    def _without_cut_sentence(self, span: Span) -> Span:
        """Without the last lines of a paragraph of prose the passage ends inside (text
        wrapped at a column, cut by the cap mid-sentence): back to the line where its last
        whole sentence ends, or without the paragraph when none does and it is not the
        passage's only one; only lines holding no query term are left out."""
        lines, end = self.lines, span.end
        if self.kind == "code" or end >= len(lines) or end - span.start < 2:
            return span
        following, last = lines[end], lines[end - 1]
        if not following.strip() or STARTS_A_BLOCK.match(following) or not last.strip():
            return span
        if any(block.start <= end - 1 < block.end for block in self.blocks.fences):
            return span  # code shown in a document: its lines are no sentences
        first = end - 1
        while first > span.start and lines[first - 1].strip():
            first -= 1
        cut = next(
            (
                index + 1
                for index in range(end - 1, first - 1, -1)
                if ENDS_A_SENTENCE.search(lines[index])
            ),
            first if first > span.start else None,
        )
        if cut is None or cut >= end:
            return span
        if bisect_left(self.matching, cut) < bisect_left(self.matching, end):
            return span  # a query word in the lines cut: kept, however they end
        return trimmed_span(lines, Span(span.start, cut))

    def _without_rule_or_unused_definition(self, span: Span) -> Span:
        """Without a last line of markdown that only divides (a thematic break, `---`
        after a blank line: under text it underlines a heading), defines a link the
        passage does not use (a page's closing `[cite]: https://...` block), or is markup
        alone: an HTML comment on its line, a tag opening what the passage does not show
        (the Rust book's `<Listing number="2-1" ...>`)."""
        last = span.end - 1
        if self.kind != "markdown" or span.end - span.start < 2:
            return span
        line = self.lines[last]
        if _THEMATIC_BREAK.match(line) and not self.lines[last - 1].strip():
            return trimmed_span(self.lines, Span(span.start, last))
        if line.lstrip(" ")[:1] == "<" and _MARKUP_ALONE.match(line):
            return trimmed_span(self.lines, Span(span.start, last))
        # A definition, perhaps with its target under its label's line (or cut from it).
        found = LINK_DEFINITION.match(line) or LINK_LABEL_ALONE.match(line)
        if (
            found is None
            and last - span.start >= 2
            and defines_a_link_over_two_lines(self.lines, last - 1)
        ):
            last -= 1
            found = LINK_LABEL_ALONE.match(self.lines[last])
        if found is not None:
            label = f"[{found.group(1).lower()}]"
            shown = "\n".join(self.lines[span.start : last]).lower()
            if label not in shown.replace(f"{label}:", ""):
                return trimmed_span(self.lines, Span(span.start, last))
        return span
