"""What leads a passage of code (passage_ends.py): the definition it is inside, or for a
method its class, said by its line and the first words of the docstring under it (Python's
convention: `class Resize(Event):`, then "Sent when the app or widget has been resized.")
or the first sentence of the comment above it (C#'s `/// <summary>`, Ruby's YARD, Javadoc).
A window deep in a class's body does not say which class it is in, nor what it is for.
Only for code files, so imported only when one is cut."""

from __future__ import annotations

import re
from collections.abc import Callable

from .code_blocks import COMMENT_MARKERS, indentation, lead_in_start, without_cut_header
from .code_definitions import defines_a_name, enclosing_definition, opens_a_definition
from .fenced_blocks import trimmed_span
from .spans import Span

# A docstring's opening quotes, with a string prefix (`r"""`); what follows them on the line.
_DOCSTRING_OPENING = re.compile(r"[ \t]*[rRuU]?(?:\"\"\"|''')")
# The most lines a lead takes: a header wrapped over lines and the docstring's first words.
LEAD_MAX_LINES = 6
# A comment's markers and its doc tags (`/// <summary>`, ` * `, `#`); a sentence's end.
_COMMENT_MARKUP = re.compile(r"^(?:///?|/\*\*?|\*/?|#+|--|;;)|</?summary>")
_SENTENCE_END = re.compile(r"[.!?:](?:\s|$)")
# A doc tag opening a comment's line: YARD's and Javadoc's `@param`, C#'s `<param>`.
_TAGS = ("@", "<param", "<returns", "<remarks", "<typeparam", "<exception")


def code_lead(lines: list[str], start: int, comments: bool = True) -> list[Span]:
    """The lines that lead a passage of code starting on line `start`, in file order:
    inside a definition, or opening one inside another (a method: its class), that
    definition's lead, up to the passage; with `comments`, the first sentence of the
    comment above that definition (doc_comment_head: RuboCop's cops and Serilog's classes
    say there what they are for, as a Python class's docstring does under its line), and
    of the one above a definition the passage opens on."""
    heads: list[Span] = []
    if comments and defines_a_name(lines, start):
        heads = _heads(lines, start)
    if opens_a_definition(lines, start) and not indentation(lines[start]):
        return heads
    line = enclosing_definition(lines, start)
    if line is None:
        return heads
    lead = Span(line, min(definition_lead(lines, line).end, start))
    return [*(_heads(lines, line) if comments else []), lead, *heads]


def _heads(lines: list[str], definition: int) -> list[Span]:
    head = doc_comment_head(lines, definition)
    return [] if head is None else [head]


def doc_comment_head(lines: list[str], definition: int) -> Span | None:
    """The first sentence of the comment right above the definition on line `definition`
    (C#'s `/// <summary>`, Javadoc, a YARD or rustdoc comment), LEAD_MAX_LINES lines at
    most, from its first line of description: not a tag (`@api private`, `@param`), a
    marker alone (`/**`) nor a blank line of it. None when there is no comment (decorators
    and attributes are none) or no description in it. Python's docstring comes under its
    header instead (definition_lead)."""
    first = lead_in_start(lines, definition, indentation(lines[definition]))
    described = None
    for number in range(first, definition):
        text = lines[number].strip()
        if not text.startswith(COMMENT_MARKERS):
            continue
        words = _COMMENT_MARKUP.sub("", text).strip()
        if words.startswith(_TAGS):
            if described is not None:
                return Span(described, number)
            continue
        if described is None and any(c.isalpha() for c in words):
            described = number
        if described is not None and (
            _SENTENCE_END.search(words) or number + 1 - described >= LEAD_MAX_LINES
        ):
            return Span(described, number + 1)
    return None if described is None else Span(described, definition)


def without_repeats_at_its_end(
    lines: list[str],
    span: Span,
    needed: int,
    size: Callable[[Span], int],
    coverage: Callable[[Span], float],
) -> Span | None:
    """A passage of code without as many of its last lines as free `needed` chars (room
    for its lead), when the lines left hold all they hold of the query (`size` after
    `size`), none defines a name (clap's `pub fn get_one<` under its long doc comment)
    and they do not end on a definition's header, its body gone (Textual's
    `def find_matching_bracket(`, its docstring the answer); else None."""
    end, freed = span.end, 0
    while freed < needed and end - 1 > span.start:
        if defines_a_name(lines, end - 1):
            return None
        freed += size(Span(end - 1, end))
        end -= 1
    # nor ending on a line opening a block it leaves out (`if mode == "auto":`)
    shorter = trimmed_span(lines, without_cut_header(lines, Span(span.start, end)))
    if freed < needed or coverage(shorter) < coverage(span):
        return None
    last = range(max(shorter.start, shorter.end - LEAD_MAX_LINES), shorter.end)
    if any(
        defines_a_name(lines, number) and _header_only(lines, number, shorter.end)
        for number in last
    ):
        return None
    return shorter


def _header_only(lines: list[str], definition: int, end: int) -> bool:
    """Whether the lines from a definition's to `end` are its header alone (its brackets
    still open, or closed on the last of them; a body's opening brace is not counted):
    none of its body."""
    depth = 0
    for number in range(definition, end):
        code = lines[number].rstrip().removesuffix("{")
        depth += _bracket_balance(code)
        if depth <= 0 and number < end - 1:
            return False
    return True


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
        depth += _bracket_balance(code)
        if depth <= 0 and code.endswith(":"):
            return number
    return None


def _bracket_balance(code: str) -> int:
    """The brackets a line opens less those it closes."""
    return sum(code.count(c) for c in "([{") - sum(code.count(c) for c in ")]}")
