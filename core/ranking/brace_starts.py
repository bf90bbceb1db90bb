"""Where a block whose first line is a brace alone starts (code_blocks.py asks): at the
statement above it that the brace opens the body of. PHP's, C#'s and Java's Allman style
put it under `class Router` or a signature; curl wraps a C signature's parameters under its
open parenthesis, so the line above the brace is more indented than the brace; a Rust
signature may end on a `where` clause, its bounds perhaps indented under it."""

from __future__ import annotations

from .code_blocks import indentation, statement_start
from .spans import next_written

# How many lines of wrapped parameters or bounds, between a signature and the brace alone
# under it, are looked through. (Declared at 20 by 3c1f006, but shadowed by the Haskell
# signature's reach of 10 declared later in code_blocks.py: 10 is what was measured.)
WRAPPED_REACH = 10


def braced_start(lines: list[str], start: int) -> int:
    """Where the block at `start` starts when its first line is a brace alone: the first
    line of the statement above it that the brace opens the body of; `start` for any other
    block, and for a brace under a statement that ended (`;`, `{`, `}`)."""
    if start == 0 or lines[start].strip() != "{":
        return start
    above, level = lines[start - 1], indentation(lines[start])
    if not above.strip() or indentation(above) < level:
        return start
    ending = above.rstrip()
    if ending.endswith((";", "{", "}")):
        return start  # a statement ended above: the brace opens a block of its own
    if indentation(above) == level:
        return _above_where_clause(lines, start - 1, level)
    # Above the wrapped lines: the nearest line at the brace's level, with nothing but
    # more indented lines between.
    opened = _at_level_above(lines, start - 1, level)
    if opened is None:
        return start
    if not ending.endswith(")"):
        # A Rust `where` clause at the brace's level, its bounds indented under it.
        found = _above_where_clause(lines, opened, level)
        return found if found != opened else start
    # A signature whose parameters wrap under its open parenthesis.
    signature = "(" in lines[opened] and not lines[opened].rstrip().endswith((";", "{", "}"))
    return opened if signature else start


def is_where_clause(lines: list[str], start: int, end: int) -> bool:
    """Whether line `start`, its block ending before `end`, is a Rust `where` clause with
    its bounds indented under it, the body's brace after them: the rest of a signature."""
    if lines[start].strip() != "where":
        return False
    after = next_written(lines, end)
    return (
        after < len(lines)
        and lines[after].strip().startswith("{")
        and indentation(lines[after]) == indentation(lines[start])
    )


def _at_level_above(lines: list[str], index: int, level: int) -> int | None:
    """The nearest line above line `index` (within WRAPPED_REACH) at `level`, when only
    lines more indented lie between; None at a blank or less indented line first."""
    for above in range(index - 1, max(-1, index - 1 - WRAPPED_REACH), -1):
        line = lines[above]
        if not line.strip() or indentation(line) < level:
            return None
        if indentation(line) == level:
            return above
    return None


def _above_where_clause(lines: list[str], index: int, level: int) -> int:
    """The first line of the statement line `index` ends: for a Rust `where` clause
    (`where` or `where T: Clone`), the signature's above it at its level."""
    text = lines[index].strip()
    if (text == "where" or text.startswith("where ")) and index > 0:
        signature = lines[index - 1]
        if signature.strip() and indentation(signature) == level:
            return statement_start(lines, index - 1, 0)
        return index
    return statement_start(lines, index, 0)
