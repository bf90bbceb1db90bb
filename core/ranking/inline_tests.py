"""Tests kept inside a file of code: Rust's `#[cfg(test)] mod tests { ... }`, and its
`#[test]` functions outside such a module. Like a test
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
# `#[test]`, `#[tokio::test]`, `#[tokio::test(flavor = "multi_thread")]`.
_TEST_ATTRIBUTE = re.compile(r"[ \t]*#\[(?:[\w:]+::)?test(?:\(.*\))?\][ \t]*$")
_FUNCTION = re.compile(r"[ \t]*(?:pub(?:\([^)]*\))?[ \t]+)?(?:async[ \t]+)?fn[ \t]+\w+")


def inline_tests(lines: list[str], path: str) -> list[Span]:
    """The test modules and test functions of a Rust file, each from its `#[cfg(test)]` or
    `#[test]` to its closing brace (0-based lines, the end excluded); none for other files.
    Found by layout: the closing `}` is the first line after the `mod` or `fn` at its own
    indentation (a function whose signature closes with `}` on its line is its own end)."""
    if not path.endswith(".rs"):
        return []
    found: list[Span] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        opener = _MODULE if _CFG_TEST.match(line) else None
        if opener is None and _TEST_ATTRIBUTE.match(line):
            opener = _FUNCTION
        if opener is None:
            index += 1
            continue
        item = index + 1
        while item < len(lines) and (not lines[item].strip() or _ATTRIBUTE.match(lines[item])):
            item += 1
        if item >= len(lines) or not opener.match(lines[item]):
            index += 1
            continue
        level = indentation(lines[item])
        end = item if lines[item].rstrip().endswith("}") else item + 1  # `fn t() { .. }`
        while (
            end < len(lines)
            and end > item
            and not (lines[end].strip().startswith("}") and indentation(lines[end]) == level)
        ):
            end += 1
        found.append(Span(index, min(end + 1, len(lines))))
        index = end + 1
    return found


def inside(span: Span, regions: list[Span]) -> bool:
    """Whether `span` lies within one of the regions."""
    return any(region.start <= span.start and span.end <= region.end for region in regions)
