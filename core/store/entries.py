"""What goes into and comes out of the context store, and what a valid entry looks like.

Seed 002 defines six entry types (declared in `context_types`). Three are plain text;
`review_issue` and `scratchpad` carry JSON objects of a fixed shape, and
`codebase_analysis` any JSON object. A request that does not fit is refused as a whole
with an `EntryError` whose message is one line, so nothing is ever partially written.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from .context_types import BY_NAME, CONTEXT_TYPES, TEXT_TYPES, types_listed

ORDERS = ("asc", "desc")
DEFAULT_LIMIT = 500


class EntryError(ValueError):
    """A write or read request the user got wrong; the message is one line."""


@dataclass(frozen=True, slots=True)
class WriteRequest:
    """One entry to append to a run. Constructing it validates it."""

    run_id: str
    type: str
    content: str
    task_id: str | None = None
    loop_id: str | None = None
    file: str | None = None
    line: int | None = None

    def __post_init__(self) -> None:
        _require_text("run_id", self.run_id)
        if self.type not in CONTEXT_TYPES:
            raise EntryError(f"unknown type {self.type!r} (expected one of: {types_listed()})")
        if not isinstance(self.content, str):
            raise EntryError("content must be a string (JSON text for structured types)")
        _require_encodable("content", self.content)
        for name in ("task_id", "loop_id", "file"):
            value = getattr(self, name)
            if value is not None:
                _require_text(name, value)
        if self.line is not None and (
            isinstance(self.line, bool) or not isinstance(self.line, int) or self.line < 1
        ):
            raise EntryError(f"line must be a positive integer, got {self.line!r}")
        _validate_content(self.type, self.content)


@dataclass(frozen=True, slots=True)
class ReadFilters:
    """What to read. `run_id` None reads every run; `search` is free text, never FTS syntax."""

    run_id: str | None = None
    types: tuple[str, ...] = ()
    task_id: str | None = None
    loop_id: str | None = None
    file: str | None = None
    search: str | None = None
    limit: int = DEFAULT_LIMIT
    offset: int = 0
    order: str = "desc"

    def __post_init__(self) -> None:
        unknown = [t for t in self.types if t not in CONTEXT_TYPES]
        if unknown:
            raise EntryError(f"unknown type {unknown[0]!r} (expected one of: {types_listed()})")
        for name in ("run_id", "task_id", "loop_id", "file", "search"):
            value = getattr(self, name)
            if value is not None:
                if not isinstance(value, str):
                    raise EntryError(f"{name} must be a string")
                _require_encodable(name, value)
        for name in ("limit", "offset"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise EntryError(f"{name} must be a non-negative integer, got {value!r}")
        if self.order not in ORDERS:
            raise EntryError(f"order must be 'asc' or 'desc', got {self.order!r}")


@dataclass(frozen=True, slots=True)
class ContextEntry:
    """One stored entry, as read back."""

    id: int
    run_id: str
    type: str
    content: str
    task_id: str | None
    loop_id: str | None
    file: str | None
    line: int | None
    created_at: str

    def to_dict(self) -> dict:
        return {
            "id": self.id,
            "run_id": self.run_id,
            "type": self.type,
            "content": self.content,
            "task_id": self.task_id,
            "loop_id": self.loop_id,
            "file": self.file,
            "line": self.line,
            "created_at": self.created_at,
        }


@dataclass(frozen=True, slots=True)
class ReadResult:
    """A page of entries plus how many matched in all (for pagination)."""

    entries: tuple[ContextEntry, ...]
    total: int

    def to_dict(self) -> dict:
        return {"entries": [entry.to_dict() for entry in self.entries], "total": self.total}


@dataclass(frozen=True, slots=True)
class RunSummary:
    """One run in the store: how many entries it holds and when it was written to."""

    run_id: str
    entries: int
    first_at: str
    last_at: str


def project_file(raw: str, root: Path, base: Path) -> str:
    """The stored form of a `file` value: root-relative POSIX when it lies inside the root.

    A relative `raw` is taken relative to `base` (the shell's cwd, or the root for MCP).
    The check is lexical so that files deleted since stay addressable; a path outside
    the root is kept as given.
    """
    path = Path(raw).expanduser()
    absolute = Path(os.path.normpath(path if path.is_absolute() else base / path))
    try:
        return absolute.relative_to(root).as_posix()
    except ValueError:
        return raw


def readable_content(entry: ContextEntry) -> str:
    """The entry's content as one paragraph of prose; JSON types are spelled out."""
    if entry.type in TEXT_TYPES:
        return entry.content
    try:
        data = json.loads(entry.content)
    except ValueError:
        return entry.content
    if not isinstance(data, dict):
        return entry.content
    if entry.type == "review_issue":
        return _readable_review_issue(data)
    if entry.type == "scratchpad":
        return _readable_scratchpad(data)
    return _readable_object(data)


def _readable_review_issue(data: dict) -> str:
    text = f"Review issue ({data.get('issue_type', 'unspecified')}): {data.get('description', '')}"
    suggestion = data.get("suggestion")
    return f"{text} Suggestion: {suggestion}" if suggestion else text


def _readable_scratchpad(data: dict) -> str:
    state = "done" if data.get("done") else "not done"
    tests = data.get("test_status")
    parts = [f"Scratchpad iteration {data.get('iteration')} ({state}, tests {tests})."]
    if data.get("next_step"):
        parts.append(f"Next step: {data['next_step']}.")
    if data.get("blockers"):
        parts.append(f"Blockers: {'; '.join(map(str, data['blockers']))}.")
    if data.get("attempted"):
        parts.append(f"Attempted: {'; '.join(map(str, data['attempted']))}.")
    return " ".join(parts)


def _readable_object(data: dict) -> str:
    def value(item: object) -> str:
        if isinstance(item, list):
            return ", ".join(value(x) for x in item)
        if isinstance(item, dict):
            return "; ".join(f"{k}: {value(v)}" for k, v in item.items())
        return str(item)

    return ". ".join(f"{key.replace('_', ' ')}: {value(item)}" for key, item in data.items())


def _validate_content(entry_type: str, content: str) -> None:
    definition = BY_NAME[entry_type]
    if not definition.json:
        if not content.strip():
            raise EntryError(f"{entry_type}: content is empty")
        return
    try:
        data = json.loads(content)
    except ValueError as exc:
        raise EntryError(f"{entry_type}: content is not valid JSON ({exc})") from None
    if not isinstance(data, dict):
        raise EntryError(f"{entry_type}: content must be a JSON object")
    for field in definition.fields:
        if field.name not in data and not field.required:
            continue
        value = data.get(field.name)
        if not field.accepts(value):
            given = f" (got {value!r})" if field.quote else ""
            raise EntryError(f"{entry_type}: {field.name} must be {field.must_be}{given}")


def _require_text(name: str, value: object) -> None:
    if not isinstance(value, str) or not value.strip():
        raise EntryError(f"{name} must be a non-empty string")
    _require_encodable(name, value)


def _require_encodable(name: str, value: str) -> None:
    # Undecodable command-line bytes arrive as lone surrogates, which SQLite cannot store.
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise EntryError(f"{name} is not valid UTF-8 text") from None
