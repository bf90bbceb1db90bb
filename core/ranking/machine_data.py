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
# A long line is one-line data unless it reads as prose: a paragraph written on one line
# (Laravel's docs, Phoenix's guides) made two paragraphs of Laravel's queues.md "minified
# or one-line data". Judged without the line's unbroken runs of UNBROKEN_RUN characters or
# more (a link's target, a hash; not unspaced Chinese), which must leave half the line or
# more: of what is left, letters and spaces are nearly all (PROSE_LETTERS), words are
# spaced (PROSE_SPACES of the characters, unless most letters are of a script written
# without spaces: Chinese, Japanese), a sentence ends every SENTENCE_CHARS characters or
# less (a keyword list, Vim's syntax files, has none), and hardly a character is a
# record's or code's (RECORD_MARKS). Of the 1,111 lines over LONG_LINE in 52 checkouts, none
# in a file judged machine data reads as prose; the 27 that do are paragraphs (and a
# benchmark's lorem ipsum).
UNBROKEN_RUN = 50
PROSE_LETTERS = 0.7
PROSE_SPACES = 0.08
SENTENCE_CHARS = 500
RECORD_MARKS = 0.03
_UNBROKEN_RUN = re.compile(rf"[^\s\u0e00-\uffff]{{{UNBROKEN_RUN},}}")
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)|[。！？]")
_RECORD_MARK = re.compile(r'["{}\[\]=<>|\\;]')
# A character of a script written without spaces between words, from Thai on (Chinese,
# Japanese; Korean is spaced, and passes as spaced).
_UNSPACED_SCRIPT = re.compile(r"[\u0e00-\uffff]")
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
    lines = text.split("\n")
    lengths = list(map(len, lines))
    if max(lengths) < _BASE64_RUN_MIN:
        return None  # no long line, and no room on any line for a base64 run
    in_long_lines = sum(
        len(line) for line in lines if len(line) > LONG_LINE and not reads_as_prose(line)
    )
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
    playground links, a sentence around each), nor prose written without spaces (Chinese)."""
    wide = [line for line in text.split("\n") if len(line) > WIDE_LINE]
    dense = sum(
        1
        for line in wide
        if line.count(" ") < MINIFIED_SPACES * len(line) and not reads_as_prose(line)
    )
    return dense >= MINIFIED_LINES * len(wide)


def reads_as_prose(line: str) -> bool:
    """Whether a long line is a paragraph of prose, in any language (see UNBROKEN_RUN)."""
    words = _UNBROKEN_RUN.sub(" ", line)
    length = len(words)
    if length * 2 < len(line):
        return False
    spaces = words.count(" ")
    letters = sum(map(str.isalpha, words))
    if letters + spaces < PROSE_LETTERS * length:
        return False
    if spaces < PROSE_SPACES * length and len(_UNSPACED_SCRIPT.findall(words)) * 2 < letters:
        return False
    if len(_SENTENCE_END.findall(words)) * SENTENCE_CHARS < length:
        return False
    return len(_RECORD_MARK.findall(words)) <= RECORD_MARKS * length
