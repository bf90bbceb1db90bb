"""Markdown tables as a reader needs them, for snippets: a formatter (prettier, an
editor) pads every cell to its column's widest, and a skill pays tokens for each space of
it — vite's CLI reference has rows of 213 characters, three quarters padding. Line by line,
so each line served is still the file's line of the same number: in a table row outside
fenced code, a run of spaces is one space and a delimiter cell's run of dashes three."""

from __future__ import annotations

import re

from .spans import fenced_lines

_ROW = re.compile(r"[ \t]*\|.*\|[ \t]*$")
_PADDING = re.compile(r"(?<=\S) {2,}| {2,}(?=\S)")
_DASHES = re.compile(r"-{4,}")


def compact_tables(lines: list[str]) -> list[str]:
    """`lines` with each table row's padding dropped (the others as they are)."""
    fenced = fenced_lines(lines)
    compacted: list[str] = []
    for index, line in enumerate(lines):
        if index not in fenced and _ROW.match(line):
            indent = line[: len(line) - len(line.lstrip())]
            line = indent + _DASHES.sub("---", _PADDING.sub(" ", line.strip()))
        compacted.append(line)
    return compacted
