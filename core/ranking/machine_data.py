"""Telling machine data from text by content: minified code and one-line records, base64
blobs, and terminal output (a highlighter's or a test's expected output, colour codes
around every word), which a file's name does not always give away."""

from __future__ import annotations

import re

LONG_LINE = 1000
_BASE64_RUN_MIN = 200
_BASE64_RUN = re.compile(rf"[A-Za-z0-9+/]{{{_BASE64_RUN_MIN},}}={{0,2}}")
# An ANSI escape sequence (CSI: `ESC [ 38;2;249;38;114 m`).
_ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def machine_data_kind(text: str) -> str | None:
    """ "minified or one-line data", "base64 data", "terminal output (ANSI escape codes)",
    or None for text a person would read. Judged on share of characters: a long table row
    in a long document is still text, and so is a page showing a colour code or two."""
    total = len(text)
    if "\x1b" in text:
        escaped = sum(map(len, _ANSI_ESCAPE.findall(text)))
        if escaped * 4 >= total:
            return "terminal output (ANSI escape codes)"
    if total < 2000:
        return None
    lengths = list(map(len, text.split("\n")))
    if max(lengths) < _BASE64_RUN_MIN:
        return None  # no long line, and no room on any line for a base64 run
    in_long_lines = sum(length for length in lengths if length > LONG_LINE)
    if in_long_lines * 2 >= total:
        return "minified or one-line data"
    encoded = sum(len(run) for run in _BASE64_RUN.findall(text))
    if encoded * 2 >= total:
        return "base64 data"
    return None
