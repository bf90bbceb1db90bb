"""The parts of a text a snippet can be: markdown sections (a heading and what follows, or a
heading with its subsections), code blocks (a line and the more-indented lines under it: a
function, a class, a method) and paragraphs; and which of these a file is made of."""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass
from pathlib import PurePosixPath

MARKDOWN_SUFFIXES = frozenset({".md", ".markdown", ".mdx", ".mdown"})
PLAIN_SUFFIXES = frozenset({".txt", ".rst", ".adoc", ""})

HEADING = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]|$)")
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


@dataclass(frozen=True, slots=True)
class Span:
    """A run of lines."""

    start: int  # 0-based line index, inclusive
    end: int  # exclusive


def document_kind(path: str) -> str:
    suffix = PurePosixPath(path).suffix.lower()
    if suffix in MARKDOWN_SUFFIXES:
        return "markdown"
    if suffix in PLAIN_SUFFIXES:
        return "plain"
    return "code"


def markdown_sections(lines: list[str]) -> list[Span]:
    """Each heading's own section (to the next heading) and each heading with its
    subsections (to the next heading of the same or a higher level), plus the text
    before the first heading. Headings inside fenced code and front matter are text."""
    headings: list[tuple[int, int]] = []  # (line index, level)
    fence: str | None = None
    first = 0
    if lines and lines[0].strip() == "---":
        closing = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), None)
        if closing is not None:
            first = closing + 1
    for index in range(first, len(lines)):
        line = lines[index]
        fenced = FENCE.match(line)
        if fenced:
            marker = fenced.group(1)
            if fence is None:
                fence = marker[0] * 3
            elif marker.startswith(fence):
                fence = None
            continue
        if fence is None:
            heading = HEADING.match(line)
            if heading:
                headings.append((index, len(heading.group(1))))
    spans: list[Span] = []
    if not headings:
        return [Span(first, len(lines))] if first < len(lines) else []
    if headings[0][0] > first:
        spans.append(Span(first, headings[0][0]))
    for position, (index, level) in enumerate(headings):
        following = headings[position + 1 :]
        own_end = following[0][0] if following else len(lines)
        spans.append(Span(index, own_end))
        parent_end = next((i for i, lvl in following if lvl <= level), len(lines))
        if parent_end != own_end:
            spans.append(Span(index, parent_end))
    return spans


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


_CLOSERS = ("}", ")", "]")
_CLOSING_WORDS = frozenset({"end", "fi", "done", "esac"})
_LEAD_INS = ("@", "#", "//", "/*", "*", "///")


def code_blocks(lines: list[str], matching: list[int] | None = None) -> list[Span]:
    """Every line followed by more-indented lines, with them (and a closing line at its own
    indentation such as `}` or `end`), plus the comments and decorators just above it.
    One pass: a line's block ends where a line at most as indented comes. With `matching`
    (sorted line indexes), only the blocks holding one of those lines."""
    ends: dict[int, int] = {}  # line -> index after its last more-indented line
    open_lines: list[tuple[int, int]] = []  # (indentation, line), indentation increasing
    previous = -1  # the last non-blank line seen
    levels = [len(line) - len(line.lstrip(" \t")) for line in lines]
    for index, line in enumerate(lines):
        level = levels[index]
        if level == len(line):  # blank
            continue
        while open_lines and open_lines[-1][0] >= level:
            _, start = open_lines.pop()
            if previous > start:
                ends[start] = previous + 1
        open_lines.append((level, index))
        previous = index
    for _, start in open_lines:
        if previous > start:
            ends[start] = previous + 1
    spans: list[Span] = []
    for start, end in sorted(ends.items()):
        if matching is not None and bisect_left(matching, start) == bisect_left(matching, end):
            continue
        level = levels[start]
        closing = end
        while closing < len(lines) and not lines[closing].strip():
            closing += 1
        if closing < len(lines) and _indent(lines[closing]) == level:
            text = lines[closing].strip()
            if text.startswith(_CLOSERS) or text in _CLOSING_WORDS:
                # A closing line that opens a block of its own (`) -> None:` after a
                # signature spread over lines, `} else {`) continues the same definition.
                end = ends.get(closing, closing + 1)
        first = start
        while first > 0:
            above = lines[first - 1]
            if above.strip().startswith(_LEAD_INS) and _indent(above) == level:
                first -= 1
            else:
                break
        spans.append(Span(first, end))
    return spans


def paragraphs(lines: list[str]) -> list[Span]:
    spans: list[Span] = []
    start = None
    for index, line in enumerate(lines):
        if line.strip():
            if start is None:
                start = index
        elif start is not None:
            spans.append(Span(start, index))
            start = None
    if start is not None:
        spans.append(Span(start, len(lines)))
    return spans
