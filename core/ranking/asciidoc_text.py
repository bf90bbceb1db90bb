"""AsciiDoc's headings, which start the sections a snippet is cut from (spans.py): `= Title`
to `====== Title`, two-line titles (git's manual pages: `OPTIONS` over `-------`), and the
terms of labelled lists (`max_keepalive (1000)::`), outside listing and literal blocks."""

from __future__ import annotations

import re

from .spans import ASCIIDOC_TERM_LEVEL, Heading

ASCIIDOC_HEADING = re.compile(r"(={1,6})[ \t]+\S")
# A labelled list's term, alone on its line (`max_keepalive (1000)::`): an entry of a
# reference, below every heading (ASCIIDOC_TERM_LEVEL).
ASCIIDOC_TERM = re.compile(r"[^\s:/].*?[^:\s](?:::|:::|::::|;;)[ \t]*$")
# Listing and literal blocks (`----`, `....`): their lines are text.
_DELIMITER = re.compile(r"(-{4,}|\.{4,})[ \t]*$")
# Two-line titles: a title starting with a word, underlined as long as it, give or take
# two characters, by one of these (its level, as `=` to `=====` say it); `--` is an open
# block's delimiter.
_UNDERLINE = re.compile(r"([=~^+-])\1+[ \t]*$")
_UNDERLINE_LEVELS = {"=": 1, "-": 2, "~": 3, "^": 4, "+": 5}
_UNDERLINE_SLACK = 2


def asciidoc_headings(lines: list[str]) -> list[Heading]:
    """`= Title` to `====== Title`, two-line titles (`Title` over `-----`), and the terms
    of labelled lists (ASCIIDOC_TERM), outside listing and literal blocks."""
    headings: list[Heading] = []
    delimiter: str | None = None
    for index, line in enumerate(lines):
        if delimiter is None and index and _underlines(lines[index - 1], line):
            if not headings or headings[-1].title != index - 1:
                level = _UNDERLINE_LEVELS[line[0]]
                headings.append(Heading(index - 1, index - 1, level))
            continue
        block = _DELIMITER.match(line)
        if block:
            marker = block.group(1)
            if delimiter is None:
                delimiter = marker
            elif marker == delimiter:
                delimiter = None
            continue
        if delimiter is None:
            heading = ASCIIDOC_HEADING.match(line)
            if heading:
                headings.append(Heading(index, index, len(heading.group(1))))
            elif line.rstrip(" \t").endswith((":", ";")) and ASCIIDOC_TERM.match(line):
                headings.append(Heading(index, index, ASCIIDOC_TERM_LEVEL))
    return headings


def _underlines(title: str, line: str) -> bool:
    """Whether `line` underlines `title` as an AsciiDoc two-line section title."""
    if not _UNDERLINE.match(line):
        return False
    underline, title = line.rstrip(" \t"), title.rstrip(" \t")
    return (
        underline != "--"
        and title[:1].isalnum()
        and abs(len(title) - len(underline)) <= _UNDERLINE_SLACK
    )
