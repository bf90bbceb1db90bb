"""The headings a document's lines lie under, as what leads a passage (passage_ends.py):
the heading of the section a passage starts inside, and the one above it when that
heading's title says nothing of where it is or the one above names a version."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Mapping

from .spans import Span, is_heading_decoration

# Section titles that say nothing of where they are: a passage under one is led by the
# heading above it too (the version a changelog's `### Fixed` belongs to).
GENERIC_HEADINGS = frozenset(
    {
        "added", "changed", "changes", "deprecated", "deprecations", "removed", "removals",
        "fixed", "fixes", "bug fixes", "bugfixes", "security", "features", "new features",
        "breaking changes", "breaking", "improvements", "enhancements", "performance",
        "dependencies", "documentation", "internal", "other", "misc", "miscellaneous",
        "example", "examples", "usage", "syntax", "values", "parameters", "arguments",
        "returns", "options", "notes", "see also", "description", "summary",
    }
)  # fmt: skip
_VERSION = re.compile(r"\d+\.\d+")
_HEADING_MARKS = re.compile(r"^[ \t]*#+|#+[ \t]*$|[*_`]")


class SectionHeadings:
    """A document's headings: `titles` maps a heading's first line (an rst overline, else
    its title) to its title line, `levels` to its level (1 is the highest)."""

    def __init__(
        self, lines: list[str], titles: Mapping[int, int], levels: Mapping[int, int]
    ) -> None:
        self.lines = lines
        self.titles = titles
        self.starts = sorted(titles)
        self.levels = levels

    def holds(self, index: int) -> bool:
        """Whether line `index` is part of a heading (its title, or an over/underline)."""
        found = bisect_left(self.starts, index + 1) - 1
        if found < 0:
            return False
        start = self.starts[found]
        return start <= index <= self.titles[start] + 1

    def leading(self, start: int) -> list[Span]:
        """The heading lines that lead a passage starting at line `start`: the heading of
        the section it starts inside (unless it starts at it), after the heading above
        that one when its title says nothing of where it is."""
        found = bisect_left(self.starts, start + 1) - 1
        if found < 0:
            return []
        heading = self.starts[found]
        lead = []
        parent = self._parent_to_show(heading)
        if parent is not None:
            lead.append(self._span_of(parent, start))
        if not self.holds(start):
            lead.append(self._span_of(heading, start))
        return lead

    def names_a_version(self, span: Span) -> bool:
        """Whether `span` is a heading naming a version (`## 4.2.0`)."""
        title = self.titles.get(span.start)
        return title is not None and _VERSION.search(self.lines[title]) is not None

    def _span_of(self, heading: int, before: int) -> Span:
        """A heading's lines (its underline too), ending before line `before`."""
        end = self.titles[heading] + 1
        if end < before and self.lines[end].strip() and is_heading_decoration(self.lines[end]):
            end += 1
        return Span(heading, end)

    def _parent_to_show(self, heading: int) -> int | None:
        """The heading above a heading whose title says nothing of where it is (a
        changelog's `### Added` under its version, an API page's `## Example`), or above
        any heading when it names a version (uv's changelogs file their entries under
        `### Configuration`, `### Python`, `### CLI`): None when neither."""
        if not self.levels:
            return None
        level = self.levels.get(heading, 0)
        at = bisect_left(self.starts, heading) - 1
        while at >= 0 and self.levels.get(self.starts[at], 0) >= level:
            at -= 1
        if at < 0:
            return None
        parent = self.starts[at]
        title = _HEADING_MARKS.sub("", self.lines[self.titles[heading]]).strip().lower()
        if title.rstrip(":") in GENERIC_HEADINGS or self.names_a_version(Span(parent, parent)):
            return parent
        return None

    def with_its_lead(self, heading: Span, before: int, most: int | None = None) -> Span | None:
        """A section's heading with the paragraph that opens its section, when a passage
        starting at line `before` (further down the same section) leaves that paragraph
        out: the heading alone names the topic, its first paragraph says what it is (the
        Rails Guides' "Skipping Callbacks" opens on the methods that skip them). None when
        that paragraph is no prose (a list, a table, code, markup) or longer than `most`
        lines (LEAD_LINES by default)."""
        found = bisect_left(self.starts, before + 1) - 1
        if found < 0 or self.starts[found] != heading.start:
            return None  # not the heading of the section the passage starts in
        first = heading.end
        while first < before and not self.lines[first].strip():
            first += 1
        end = first
        while end < before and self.lines[end].strip():
            if _NOT_PROSE.match(self.lines[end]):
                return None
            end += 1
        if end == first or end >= before or end - first > (most or LEAD_LINES):
            return None
        return Span(heading.start, end)


# The lines of a section's opening paragraph shown with its heading, at most; and when
# that paragraph holds more of the query than the passage's last lines, which give way.
LEAD_LINES = 4
ASKED_LEAD_LINES = 10
# A line that is no prose: indented code, a fence, a list item, a table row, a quote, markup,
# an admonition or tab (mkdocs), a directive (reStructuredText), a heading.
_NOT_PROSE = re.compile(
    r"(?: {4}|\t|[ \t]*(?:```|~~~|[-*+>|<#]|\d+[.)][ \t]|!!!|\?\?\?|===|\.\. |--8<--|:::))"
)
