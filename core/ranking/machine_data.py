"""Telling machine data from text by content: minified code and one-line records, base64
blobs, and terminal output (a highlighter's or a test's expected output, colour codes
around every word), which a file's name does not always give away."""

from __future__ import annotations

import re

LONG_LINE = 1000
# Minified code broken every few hundred characters (Closure's `prettify-min.js`): most of
# it in lines over WIDE_LINE characters, nearly every one (MINIFIED_LINES) with hardly a
# space (under MINIFIED_SPACES of its characters; code as written has four times as many,
# prose more).
WIDE_LINE = 300
MINIFIED_SPACES = 0.05
MINIFIED_LINES = 0.8
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
    if sum(length for length in lengths if length > WIDE_LINE) * 2 >= total and _hardly_spaced(
        text
    ):
        return "minified or one-line data"
    encoded = sum(len(run) for run in _BASE64_RUN.findall(text))
    if encoded * 2 >= total:
        return "base64 data"
    return None


def _hardly_spaced(text: str) -> bool:
    """Whether nearly every wide line of `text` (MINIFIED_LINES of them) holds hardly a
    space: minified code, not a page whose few wide lines are links holding data (Svelte's
    playground links, a sentence around each)."""
    wide = [line for line in text.split("\n") if len(line) > WIDE_LINE]
    dense = sum(1 for line in wide if line.count(" ") < MINIFIED_SPACES * len(line))
    return dense >= MINIFIED_LINES * len(wide)
