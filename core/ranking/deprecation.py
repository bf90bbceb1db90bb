"""Whether a definition is marked deprecated, as each common language marks it: the
lines just above it (an annotation, an attribute, a decorator, a doc comment's tag) or, for
a definition whose body is indented under it, the first lines of that body (a docstring's
directive, a warning raised)."""

from __future__ import annotations

import re

from .code_blocks import indentation, lead_in_holding

# Above a definition: Java's and Kotlin's `@Deprecated(...)`, a doc comment's `@deprecated`
# (Javadoc, JSDoc, PHPDoc, YARD) or Elixir's attribute, Python's `@deprecated(...)`
# decorator, Rust's `#[deprecated]`, C#'s `[Obsolete]`, Swift's `@available(*,
# deprecated)`, and Go's convention, a paragraph of the doc comment opening `Deprecated:`.
_MARKED_ABOVE = re.compile(
    r"@[Dd]eprecated\b|#\[deprecated\b|\[Obsolete\b|@available\([^)]*\bdeprecated\b"
    r"|^[ \t]*(?://+|#|\*)[ \t]*Deprecated:"
)
# In a body indented under its definition: a docstring's `.. deprecated::` directive, or a
# `warnings.warn(..., DeprecationWarning)` on one line.
_MARKED_BELOW = re.compile(r"\.\. deprecated::|\bwarn\(.*Deprecat")
# What a lead-in line opens with: an annotation or decorator, an attribute (`#[...]`,
# `[Obsolete]`), a comment; `)` closes an annotation's arguments over lines.
_LEAD_INS = ("@", "#", "[", "//", "/*", "*", "--", ")")
# How far from the definition's line a mark is looked for.
ABOVE_REACH = 12
BELOW_REACH = 15


def is_deprecated(lines: list[str], index: int) -> bool:
    """Whether the definition on line `index` (0-based) is marked deprecated: in the lines
    just above it, up to a blank line (the one under a doc comment aside) or the end of
    the statement before it; or in the first lines of the body indented under it."""
    return _marked_above(lines, index) or _marked_below(lines, index)


def _marked_above(lines: list[str], index: int) -> bool:
    """A mark in the definition's lead-in: the lines at its indentation that are comments,
    annotations or attributes, with what they hold indented deeper (a doc comment's ` * `
    lines, an annotation's arguments over lines)."""
    level = indentation(lines[index])
    lowest = max(0, index - ABOVE_REACH)
    above = index - 1
    if above > lowest and not lines[above].strip() and lines[above - 1].strip().endswith("*/"):
        above -= 1  # the blank line under a doc comment
    while above >= lowest:
        line = lines[above]
        text = line.strip()
        if not text:
            return False
        first: int | None = above
        if indentation(line) > level:
            # Held by a lead-in line above it, or the end of the statement before.
            first = lead_in_holding(lines, above, level, lowest, _LEAD_INS)
        elif not text.startswith(_LEAD_INS):
            first = None
        if first is None:
            return False
        if any(_MARKED_ABOVE.search(lines[number]) for number in range(first, above + 1)):
            return True
        above = first - 1
    return False


def _marked_below(lines: list[str], index: int) -> bool:
    level = indentation(lines[index])
    for below in range(index + 1, min(len(lines), index + 1 + BELOW_REACH)):
        line = lines[below]
        if not line.strip():
            continue
        if indentation(line) <= level and not line.lstrip().startswith(")"):
            return False  # the body is over (a signature's closing line aside)
        if _MARKED_BELOW.search(line):
            return True
    return False
