"""The names a file gives its own parts: markdown headings (and a front-matter title), and
the functions, classes and constants code defines. A query term among them says the file
is *about* it, not only that it mentions it."""

from __future__ import annotations

import re

from .sections import _FENCE, _HEADING, document_kind

# Definitions in the common languages: Python, JavaScript/TypeScript, Go, Rust, Java/C#,
# shell functions; and module-level constants (`NOTIFICATION_TIMEOUT = 5`).
_DEFINITION = re.compile(
    r"^[ \t]*(?:export[ \t]+)?(?:default[ \t]+)?(?:pub(?:\([^)]*\))?[ \t]+)?(?:async[ \t]+)?"
    r"(?:def|class|function|fn|func|struct|enum|interface|trait|type|impl|module)"
    r"[ \t]+(?:\([^)]*\)[ \t]*)?([A-Za-z_$][\w$]*)"
    r"|^([A-Z][A-Z0-9_]{2,})[ \t]*(?::[^=\n]*)?=",
    re.MULTILINE,
)
_TITLE = re.compile(r"^title:[ \t]*['\"]?(.+?)['\"]?[ \t]*$", re.MULTILINE)


def structure_text(text: str, path: str) -> str:
    """The headings or definition names of a file, one per line."""
    if document_kind(path) == "markdown":
        return "\n".join(_markdown_headings(text))
    return "\n".join(a or b for a, b in _DEFINITION.findall(text))


def _markdown_headings(text: str) -> list[str]:
    found: list[str] = []
    if text.startswith("---"):
        end = text.find("\n---", 3)
        if end != -1:
            found += _TITLE.findall(text[:end])
    fence: str | None = None
    for line in text.split("\n"):
        fenced = _FENCE.match(line)
        if fenced:
            marker = fenced.group(1)
            if fence is None:
                fence = marker[0] * 3
            elif marker.startswith(fence):
                fence = None
            continue
        if fence is None and _HEADING.match(line):
            found.append(line.lstrip(" #"))
    return found
