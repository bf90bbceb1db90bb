"""A Jupyter notebook as a person reads it: its cells' text, markdown as markdown and code
in fences, without outputs (images as base64, tables, logs) or metadata. Each line of that
text points back at the line of the notebook file that holds it, so a snippet cut from it
names the notebook's own lines.

Jupyter writes a notebook as indented JSON with each line of a cell's source on a line of
its own (`"source": [` then one JSON string per line); a source may also be one string.
A notebook laid out otherwise (all on one line) has no view: it is served as what it is.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

NOTEBOOK_SUFFIX = ".ipynb"
_SOURCE = re.compile(r'\s*"source": (.*)$')
_CLOSING = frozenset({"]", "],"})


@dataclass(frozen=True, slots=True)
class NotebookView:
    """The text of a notebook's cells, and for each of its lines the notebook file's line
    (1-based) that holds it."""

    text: str
    file_lines: tuple[int, ...]


def is_notebook(path: str) -> bool:
    return path.lower().endswith(NOTEBOOK_SUFFIX)


def notebook_view(raw: str) -> NotebookView | None:
    """The view of a notebook file's text; None when it is not a notebook laid out a line
    per source line."""
    try:
        document = json.loads(raw)
    except ValueError:
        return None
    cells = document.get("cells") if isinstance(document, dict) else None
    if not isinstance(cells, list) or not all(isinstance(cell, dict) for cell in cells):
        return None
    sources = _sources_by_line(raw.split("\n"))
    if sources is None or len(sources) != len(cells):
        return None
    language = _language(document)
    lines: list[str] = []
    numbers: list[int] = []
    for cell, pieces in zip(cells, sources, strict=True):
        source = cell.get("source", "")
        written = "".join(text for _, text in pieces)
        if written != ("".join(source) if isinstance(source, list) else source):
            return None  # the file's lines are not the cells' sources
        if not written.strip():
            continue
        if lines:
            lines.append("")
            numbers.append(numbers[-1])
        fenced = cell.get("cell_type") == "code"
        if fenced:
            lines.append(f"```{language}")
            numbers.append(pieces[0][0])
        for number, text in pieces:
            for line in text.removesuffix("\n").split("\n"):
                lines.append(line)
                numbers.append(number)
        if fenced:
            lines.append("```")
            numbers.append(pieces[-1][0])
    return NotebookView("\n".join(lines) + "\n" if lines else "", tuple(numbers))


def _sources_by_line(lines: list[str]) -> list[list[tuple[int, str]]] | None:
    """Each cell's source, in order, as (file line, text) pieces; None when a source is
    not laid out as Jupyter writes it."""
    sources: list[list[tuple[int, str]]] = []
    index = 0
    while index < len(lines):
        found = _SOURCE.match(lines[index])
        index += 1
        if found is None:
            continue
        rest = found.group(1).strip()
        try:
            if rest == "[":
                pieces = []
                while index < len(lines) and lines[index].strip() not in _CLOSING:
                    pieces.append((index + 1, _string(lines[index].strip().removesuffix(","))))
                    index += 1
                sources.append(pieces)
            elif rest in ("[]", "[],"):
                sources.append([])
            else:
                sources.append([(index, _string(rest.removesuffix(",")))])
        except ValueError:
            return None
    return sources


def _string(literal: str) -> str:
    value = json.loads(literal)
    if not isinstance(value, str):
        raise ValueError("not a string")
    return value


def _language(document: dict) -> str:
    metadata = document.get("metadata")
    if isinstance(metadata, dict):
        for key in ("kernelspec", "language_info"):
            info = metadata.get(key)
            if isinstance(info, dict):
                name = info.get("language") or info.get("name")
                if isinstance(name, str) and name.isidentifier():
                    return name.lower()
    return "python"
