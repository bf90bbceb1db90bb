"""A source file's licence header: the comment at its top that grants the licence (`Licensed
under the Apache License ... WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND`, the MIT
permission notice). It is the same text in every file of a project, and says nothing of
the code under it: its words (`use`, `file`, `software`, `right`, `kind`) count for
nothing, as a document's markup does (markup_words.py), and no passage is chosen there.
"""

from __future__ import annotations

import re

# Where a header may start: past a shebang, blank lines and a few lines of code (a
# `package` line, an encoding declaration).
HEADER_START_LINES = 8
# The lines read for it.
HEADER_MAX_LINES = 80
_COMMENT_LINE = re.compile(r"\s*(?://|#(?!!)|--|;;|%|\*|/\*|\(\*|\{-|<!--|'''|\"\"\")")
_OPENS = re.compile(r"\s*(?:/\*|\(\*|\{-|<!--|'''|\"\"\")")
_CLOSES = re.compile(r"(?:\*/|\*\)|-\}|-->|'''|\"\"\")\s*$")
# A comment grants a licence when it names one and says what it permits, disclaims or
# protects (`Licensed to the Apache Software Foundation ... WITHOUT WARRANTIES`), names
# it by its SPDX identifier, or says it is licensed under one, or grants it in the MIT,
# BSD or ISC licence's words (the last two name no licence: tmux's files, OpenBSD's).
_NAMES_A_LICENCE = re.compile(r"licen[cs]", re.IGNORECASE)
_GRANT_WORDS = re.compile(r"copyright|warrant|permission|permitted|redistribut", re.IGNORECASE)
_GRANTS_ALONE = re.compile(
    r"spdx-license-identifier|permission is hereby granted|licensed under"
    r"|redistribution and use in source and binary forms|permission to use, copy, modify",
    re.IGNORECASE,
)
_BLANKED = re.compile(r"[^\n]")
_WORDS = re.compile(r"[^\W\d_]{2,}")


def without_license_header(text: str) -> str:
    """`text` with its licence header's characters blanked (line breaks kept, so every
    line keeps its number); `text` itself when it has none."""
    head = text.split("\n", HEADER_MAX_LINES)[:HEADER_MAX_LINES]
    span = _header(head)
    if span is None:
        return text
    start, end = span
    offsets = [0]
    for line in head:
        offsets.append(offsets[-1] + len(line) + 1)
    first, last = offsets[start], min(offsets[end], len(text))
    return text[:first] + _BLANKED.sub(" ", text[first:last]) + text[last:]


def license_comment(lines: list[str]) -> tuple[int, int] | None:
    """The lines (start, end; 0-based, end excluded) of a comment near the top that is a
    licence and nothing else, with the blank lines after it; None for none. A snippet
    never shows it (Koin's one-line exception classes under 15 lines of the Apache
    licence); a comment that also describes the module is shown."""
    head = lines[:HEADER_MAX_LINES]
    span = _header(head)
    if span is None:
        return None
    start, end = span
    if end != _comment_end(head, start):
        return None  # the comment goes on to describe the module
    while end < len(lines) and not lines[end].strip():
        end += 1
    return start, end


def _header(lines: list[str]) -> tuple[int, int] | None:
    """The lines (start, end) of the first comment near the top that grants a licence."""
    number = 0
    while number < min(len(lines), HEADER_START_LINES):
        if _COMMENT_LINE.match(lines[number]):
            end = _comment_end(lines, number)
            if _grants_a_licence("\n".join(lines[number:end])):
                return number, _grant_end(lines, number, end)
            number = end
        else:
            number += 1
    return None


def _grants_a_licence(comment: str) -> bool:
    return bool(
        _GRANTS_ALONE.search(comment)
        or (_NAMES_A_LICENCE.search(comment) and _GRANT_WORDS.search(comment))
    )


def _grant_end(lines: list[str], start: int, end: int) -> int:
    """Where the licence ends in the comment of lines `start` to `end`: at the end of the
    paragraph of its last line naming or granting it, or of the comment when nothing but
    a closing line follows; a module's description after it stays (pandoc's Haddock
    headers: `License : GPL-2.0-or-later`, `Maintainer : ...`, then what the module
    does)."""
    last = max(
        number
        for number in range(start, end)
        if _NAMES_A_LICENCE.search(lines[number]) or _GRANT_WORDS.search(lines[number])
    )  # fmt: skip
    number = last + 1
    while number < end and _WORDS.search(lines[number]):
        number += 1  # the paragraph goes on
    rest = lines[number:end]
    return end if not any(_WORDS.search(line) for line in rest[:-1]) else number


def _comment_end(lines: list[str], start: int) -> int:
    """The end of the comment starting on line `start`: a block comment's closing line,
    or the run of comment lines."""
    if _OPENS.match(lines[start]):
        opener = lines[start].strip()
        for number in range(start, len(lines)):
            line = lines[number].rstrip()
            if _CLOSES.search(line) and not (number == start and line.strip() == opener[:3]):
                return number + 1
        return len(lines)
    end = start
    while end < len(lines) and _COMMENT_LINE.match(lines[end]):
        end += 1
    return end
