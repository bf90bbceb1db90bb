"""What stands as a code block's heading: the line defining its name and the first line of
its documentation (a docstring's summary under the signature, or a doc comment above it);
and an attribute documented by the docstring under it, a span of its own. A query's words
there say the block is about what is asked, as a section's heading does in a document
(span_choice.py weighs both alike)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from .code_blocks import COMMENT_MARKERS, attribute_string_end, indentation, lead_in_start
from .code_definitions import defines_a_name
from .spans import Span

# The lines from a definition to the end of its signature, and from a block's start (its
# lead-in: comments, decorators; an attribute's string such as Elixir's `@doc` is passed
# over) to its definition, looked through.
_REACH = 12
_STRING_OPENER = re.compile(r"""[ \t]*[rRuUbBfF]{0,2}(?:\"\"\"|'''|"|')""")
_WORD = re.compile(r"[^\W\d_]{2}")


def definition_titles(lines: list[str], spans: Iterable[Span]) -> dict[Span, tuple[int, ...]]:
    """For each span of code that starts with a definition or leads into one: the title
    lines of that definition (its own line, its documentation's first line), each inside
    the span."""
    at: dict[int, tuple[int, ...]] = {}
    titles: dict[Span, tuple[int, ...]] = {}
    for span in spans:
        if not 0 <= span.start < len(lines):
            continue
        found = at.get(span.start)
        if found is None:
            found = at[span.start] = _titles_from(lines, span.start)
        inside = tuple(line for line in found if line < span.end)
        if inside:
            titles[span] = inside
    return titles


def _titles_from(lines: list[str], start: int) -> tuple[int, ...]:
    """The title lines of the definition at `start`, or of the one its lead-in there
    (comments, decorators, attributes) leads into."""
    index, end = start, min(len(lines), start + _REACH)
    while index < end:
        if not lines[index].strip():
            return ()
        if defines_a_name(lines, index):
            break
        closing = attribute_string_end(lines, index)  # Elixir's `@doc """`, to its end
        if closing is not None:
            index, end = closing, min(len(lines), closing + _REACH)
        index += 1
    else:
        return ()
    if index > start and lead_in_start(lines, index, indentation(lines[index])) > start:
        return ()  # a statement above the definition, not its lead-in
    summary = _lead_in_summary(lines, start, index)
    if summary is None:
        summary = _docstring_summary(lines, index)
        return (index,) if summary is None else (index, summary)
    return (summary, index)


def _lead_in_summary(lines: list[str], start: int, definition: int) -> int | None:
    """The first line with words of a doc comment in the lead-in, or of an attribute's
    string over lines (Elixir's `@doc \"\"\"`)."""
    for index in range(start, definition):
        line = lines[index]
        if line.lstrip(" \t").startswith(COMMENT_MARKERS) and _WORD.search(line):
            return index  # (the markers hold no letters)
        opens_a_string = line.rstrip().endswith(('"""', "'''"))
        if opens_a_string and index + 1 < definition and _WORD.search(lines[index + 1]):
            return index + 1
    return None


def _docstring_summary(lines: list[str], definition: int) -> int | None:
    """The first line with words of the docstring under a signature ending in `:` (the
    opening quotes' line, or the next when they stand alone)."""
    level = indentation(lines[definition])
    end = min(len(lines), definition + _REACH)
    for index in range(definition, end):
        if lines[index].rstrip().endswith(":"):
            break
    else:
        return None
    for below in range(index + 1, min(len(lines), index + 3)):
        text = lines[below]
        if not text.strip():
            continue
        opener = _STRING_OPENER.match(text)
        if opener is None or indentation(text) <= level:
            return None
        if _WORD.search(text, opener.end()):
            return below
        following = below + 1
        return following if following < len(lines) and lines[following].strip() else None
    return None


_ASSIGNMENT = re.compile(r"[ \t]*[A-Za-z_]\w*[ \t]*(?::[^=]+)?=[^=]")


def documented_attributes(
    lines: list[str], paragraphs: Iterable[Span]
) -> dict[Span, tuple[int, ...]]:
    """The paragraphs of code that are an attribute and its docstring under it (Python's
    `NOTIFICATION_TIMEOUT: ClassVar[float] = 5` then `\"\"\"Default number of seconds...\"\"\"`),
    each with its title: the attribute's line and the docstring's first line with words."""
    found: dict[Span, tuple[int, ...]] = {}
    for span in paragraphs:
        first = span.start
        if span.end - first < 2 or not _ASSIGNMENT.match(lines[first]):
            continue
        below = lines[first + 1]
        opener = _STRING_OPENER.match(below)
        if opener is None or indentation(below) != indentation(lines[first]):
            continue
        summary = first + 1 if _WORD.search(below, opener.end()) else first + 2
        found[span] = (first, summary) if summary < span.end else (first,)
    return found
