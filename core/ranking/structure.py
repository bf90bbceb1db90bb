"""The names a file gives its own parts: markdown headings (and a front-matter title), and
the functions, classes and constants code defines. A query term among them says the file
is *about* it, not only that it mentions it."""

from __future__ import annotations

import re
from collections.abc import Mapping

from .matching import TermMatcher
from .spans import FENCE, HEADING, document_kind

# A definition in the common languages (Python, JavaScript/TypeScript, Go, Rust, Java/C#,
# shell functions) or a module-level constant (`NOTIFICATION_TIMEOUT = 5`): its name.
_DEFINITION = re.compile(
    r"[ \t]*(?:export[ \t]+)?(?:default[ \t]+)?(?:pub(?:\([^)]*\))?[ \t]+)?"
    r"(?:async[ \t]+)?(?:def|class|function|fn|func|struct|enum|interface|trait|type|impl"
    r"|module)[ \t]+(?:\([^)]*\)[ \t]*)?([A-Za-z_$][\w$]*)"
    r"|([A-Z][A-Z0-9_]{2,})[ \t]*(?::[^=\n]*)?="
)
_TITLE = re.compile(r"title:[ \t]*['\"]?(.+?)['\"]?[ \t]*$")


def structure_terms(
    lines: list[str], line_terms: Mapping[int, Mapping[str, int]], path: str, matcher: TermMatcher
) -> frozenset[str]:
    """The query terms among the file's headings (markdown, and a front-matter title) or
    the names it defines (code). Only the lines holding terms are looked at."""
    names: list[str] = []
    if document_kind(path) == "markdown":
        fenced = _fenced_lines(lines)
        front_end = _front_matter_end(lines)
        for number in line_terms:
            index = number - 1
            if index >= len(lines) or index in fenced:
                continue
            line = lines[index]
            if index < front_end:
                title = _TITLE.match(line)
                if title:
                    names.append(title.group(1))
            elif HEADING.match(line):
                names.append(line.lstrip(" #"))
    else:
        for number in line_terms:
            if number <= len(lines):
                found = _DEFINITION.match(lines[number - 1])
                if found:
                    names.append(found.group(1) or found.group(2))
    return frozenset(matcher.count("\n".join(names))) if names else frozenset()


def _front_matter_end(lines: list[str]) -> int:
    if lines and lines[0].strip() == "---":
        for index in range(1, len(lines)):
            if lines[index].strip() == "---":
                return index
    return 0


def _fenced_lines(lines: list[str]) -> set[int]:
    """Indexes of the lines inside fenced code blocks (and the fences themselves)."""
    fenced: set[int] = set()
    if not any("```" in line or "~~~" in line for line in lines):
        return fenced
    fence: str | None = None
    opened = 0
    for index, line in enumerate(lines):
        if "```" not in line and "~~~" not in line:
            continue
        found = FENCE.match(line)
        if not found:
            continue
        marker = found.group(1)
        if fence is None:
            fence, opened = marker[0] * 3, index
        elif marker.startswith(fence):
            fenced.update(range(opened, index + 1))
            fence = None
    if fence is not None:
        fenced.update(range(opened, len(lines)))
    return fenced
