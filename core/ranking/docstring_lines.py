"""What says what a definition is, when a passage inside it is led by it (passage_ends.py):
its line, and the first words of the docstring under it (Python's convention: `class
Resize(Event):`, then the docstring's "Sent when the app or widget has been resized."). A
window deep in a class's body does not say which class it is in, nor what it is for."""

from __future__ import annotations

import re

from .code_blocks import indentation
from .spans import Span

# A docstring's opening quotes, with a string prefix (`r"""`); what follows them on the line.
_DOCSTRING_OPENING = re.compile(r"[ \t]*[rRuU]?(?:\"\"\"|''')")
# The most lines a lead takes: a header wrapped over lines and the docstring's first words.
LEAD_MAX_LINES = 6


def definition_lead(lines: list[str], definition: int) -> Span:
    """The lines that lead a passage inside the definition on line `definition`: that line,
    and when a docstring opens right under its header, the lines down to the docstring's
    first words (on its opening line, or the line under a bare `\"\"\"`), if they are
    LEAD_MAX_LINES at most (a header wrapped over a few lines is read whole)."""
    alone = Span(definition, definition + 1)
    end = _header_end(lines, definition)
    if end is None:
        return alone  # a header wrapped over more lines, or no Python header at all
    below = end + 1
    if below >= len(lines) or indentation(lines[below]) <= indentation(lines[definition]):
        return alone
    opening = _DOCSTRING_OPENING.match(lines[below])
    if opening is None:
        return alone
    if not lines[below][opening.end() :].strip():
        below += 1  # a bare opening: its first words are on the line under it
        if below >= len(lines) or not lines[below].strip():
            return alone
    return Span(definition, below + 1) if below + 1 - definition <= LEAD_MAX_LINES else alone


def _header_end(lines: list[str], definition: int) -> int | None:
    """The line ending a Python definition's header (`:` with its brackets closed), within
    LEAD_MAX_LINES of its first; None if there is none."""
    depth = 0
    for number in range(definition, min(len(lines), definition + LEAD_MAX_LINES)):
        code = lines[number].rstrip()
        depth += sum(code.count(c) for c in "([{") - sum(code.count(c) for c in ")]}")
        if depth <= 0 and code.endswith(":"):
            return number
    return None
