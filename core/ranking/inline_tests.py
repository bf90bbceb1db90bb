"""Tests kept inside a file of code: Rust's `#[cfg(test)] mod tests { ... }`. Like a test
file, they name the code they test at every turn, so unless the question is about tests
their matches count for less, in ranking the file (candidates.py) and in choosing its
passage (span_choice.py), by the test file's weight (file_roles.py)."""

from __future__ import annotations

import re

from .code_blocks import indentation
from .spans import Span

_CFG_TEST = re.compile(r"[ \t]*#\[cfg\(test\)\][ \t]*$")
_ATTRIBUTE = re.compile(r"[ \t]*#\[")
_MODULE = re.compile(r"[ \t]*(?:pub(?:\([^)]*\))?[ \t]+)?mod[ \t]+\w+[ \t]*\{[ \t]*$")


def inline_tests(lines: list[str], path: str) -> list[Span]:
    """The test modules of a Rust file, each from its `#[cfg(test)]` to its closing brace
    (0-based lines, the end excluded); none for other files. Found by layout: the module's
    closing `}` is the first line after it at the module's own indentation."""
    if not path.endswith(".rs"):
        return []
    found: list[Span] = []
    index = 0
    while index < len(lines):
        if not _CFG_TEST.match(lines[index]):
            index += 1
            continue
        module = index + 1
        while module < len(lines) and (
            not lines[module].strip() or _ATTRIBUTE.match(lines[module])
        ):
            module += 1
        if module >= len(lines) or not _MODULE.match(lines[module]):
            index += 1
            continue
        level = indentation(lines[module])
        end = module + 1
        while end < len(lines) and not (
            lines[end].strip().startswith("}") and indentation(lines[end]) == level
        ):
            end += 1
        found.append(Span(index, min(end + 1, len(lines))))
        index = end + 1
    return found


def inside(span: Span, regions: list[Span]) -> bool:
    """Whether `span` lies within one of the regions."""
    return any(region.start <= span.start and span.end <= region.end for region in regions)
