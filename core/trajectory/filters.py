"""Which trajectory lines to show: agent, phase, free text and malformed-only, and the
ranges of positions a match search walks."""

from __future__ import annotations

from dataclasses import dataclass

import orjson

from .records import TrajectoryEntry, decode_record


@dataclass(frozen=True, slots=True)
class EntryFilter:
    """Which lines to show. Empty fields match everything; agent and phase match whole
    values, text matches anywhere in the line; all comparisons ignore case."""

    agent: str = ""
    phase: str = ""
    text: str = ""
    flagged_only: bool = False

    @property
    def is_empty(self) -> bool:
        return not (self.agent or self.phase or self.text or self.flagged_only)

    def accepts(self, entry: TrajectoryEntry) -> bool:
        """Whether a parsed entry passes the filter."""
        return self.facts_accept(entry) and (
            not self.text or self.text_in(entry.text.encode("utf-8"))
        )

    def facts_accept(self, entry: TrajectoryEntry) -> bool:
        """Whether a parsed entry passes the agent, phase and malformed tests (text aside)."""
        if self.flagged_only and not entry.flagged:
            return False
        if self.agent and entry.agent.casefold() != self.agent.casefold():
            return False
        return not self.phase or entry.phase.casefold() == self.phase.casefold()

    def text_in(self, line: bytes) -> bool:
        """Whether the free text occurs in a raw line, `\\u` escapes read as the characters
        they stand for."""
        if self.text.isascii():
            return self.text.lower().encode("ascii") in line.lower()
        wanted = self.text.casefold()
        if wanted in line.decode("utf-8", "replace").casefold():
            return True
        return b"\\u" in line and wanted in _unescaped(line).casefold()


def _unescaped(line: bytes) -> str:
    """The line re-serialised without escapes (writers with ensure_ascii escape non-ASCII)."""
    record, _error = decode_record(line.rstrip(b"\r\n"))
    if record is None:
        return ""
    return orjson.dumps(record).decode("utf-8")


def search_range(start: int, stop: int | None, count: int, reverse: bool) -> range:
    """The positions a match search visits, in order: `start` up to `stop` (exclusive;
    None: the end), or with `reverse` from `start` down to `stop` (exclusive; None: the
    first line). Clamped to `count` positions."""
    if reverse:
        low = -1 if stop is None else max(stop, -1)
        return range(min(start, count - 1), low, -1)
    high = count if stop is None else min(stop, count)
    return range(max(start, 0), high)
