"""What a session has received since its last clearing, and what of a new hit it has
received already: the whole section (same text, under any name), every line of it (the
same lines of the same file, sent by overlapping hits), some of its lines, or none.

A line counts as received only when the same file sent the same text at the same line
number: a file edited since (lines changed or moved) is new context again.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..models import Hit, estimate_tokens
from .fingerprint import LINE_HASH_WIDTH, content_hash, line_hash

NEW = "new"
REPEAT = "repeat"
PART = "part"


@dataclass(frozen=True, slots=True)
class Assessment:
    """A hit against the session's memory.

    `kind` is NEW, REPEAT (all of it was received; `where` says where, `path:12-40`) or
    PART (some lines were; `content` is the hit with those lines left out and marked).
    `runs` are the lines this answer would send in full, as (first line, line hashes)."""

    hit: Hit
    kind: str
    content_hash: str
    where: str = ""
    content: str = ""
    runs: tuple[tuple[int, str], ...] = ()


def reference_text(where: str) -> str:
    """A repeated section's stand-in: a few tokens saying where it was provided."""
    return f"already provided in this session: {where}"


def gap_marker(first: int, last: int) -> str:
    lines = f"line {first}" if first == last else f"lines {first}-{last}"
    return f"[{lines} already provided in this session]"


def span_label(source: str, line_start: int | None, line_end: int | None) -> str:
    if line_start is None:
        return source
    if line_end is None or line_end == line_start:
        return f"{source}:{line_start}"
    return f"{source}:{line_start}-{line_end}"


class SessionMemory:
    """Sections and lines received, built from the session file's hit records."""

    def __init__(self) -> None:
        self.lines: dict[str, dict[int, str]] = {}
        self.texts: dict[str, str] = {}  # content hash -> where it was provided

    @classmethod
    def from_records(cls, records: Iterable[dict]) -> SessionMemory:
        memory = cls()
        for record in records:
            hits = record.get("hits")
            if isinstance(hits, list):
                for hit in hits:
                    if isinstance(hit, dict):
                        memory.remember(hit)
        return memory

    def remember(self, hit: dict) -> None:
        """Add one hit record (see `hit_record`). The file is untrusted: a field of the
        wrong type leaves that part of the record out."""
        source = hit.get("source")
        if not isinstance(source, str):
            return
        digest = hit.get("hash")
        if hit.get("sent") == "full" and isinstance(digest, str):
            self.texts.setdefault(
                digest, span_label(source, _integer(hit.get("start")), _integer(hit.get("end")))
            )
        runs = hit.get("runs")
        if not isinstance(runs, list):
            return
        known = self.lines.setdefault(source, {})
        for run in runs:
            if not (isinstance(run, list) and len(run) == 2):
                continue
            first, hashes = _integer(run[0]), run[1]
            if first is None or not isinstance(hashes, str):
                continue
            for index in range(len(hashes) // LINE_HASH_WIDTH):
                offset = index * LINE_HASH_WIDTH
                known[first + index] = hashes[offset : offset + LINE_HASH_WIDTH]

    def assess(self, hit: Hit) -> Assessment:
        """What of `hit` the session has received."""
        digest = content_hash(hit.content)
        span = _span_lines(hit)
        if digest in self.texts:
            return Assessment(hit, REPEAT, digest, where=self.texts[digest])
        if span is None:
            return Assessment(hit, NEW, digest)
        first, lines = span
        hashes = [line_hash(line) for line in lines]
        known = self.lines.get(hit.source, {})
        seen = [known.get(first + i) == value for i, value in enumerate(hashes)]
        if not any(seen):
            return Assessment(hit, NEW, digest, runs=((first, "".join(hashes)),))
        return _partly_seen(hit, digest, first, lines, hashes, seen)


def _partly_seen(
    hit: Hit, digest: str, first: int, lines: list[str], hashes: list[str], seen: list[bool]
) -> Assessment:
    """Leave out each block of received lines that costs more than the marker standing in
    for it. A hit with nothing but blank lines that are new is a repeat."""
    if all(known or not line.strip() for line, known in zip(lines, seen, strict=True)):
        where = span_label(hit.source, hit.line_start, hit.line_end)
        return Assessment(hit, REPEAT, digest, where=where)
    kept: list[str] = []
    runs: list[tuple[int, str]] = []
    run: list[int] = []  # indexes of the lines sent in full since the last marker
    left_out = False
    for start, end in _blocks(seen):
        block = lines[start:end]
        marker = gap_marker(first + start, first + end - 1)
        if seen[start] and estimate_tokens("\n".join(block)) > estimate_tokens(marker):
            if run:
                runs.append((first + run[0], "".join(hashes[i] for i in run)))
            run = []
            kept.append(marker)
            left_out = True
        else:
            run.extend(range(start, end))
            kept.extend(block)
    if run:
        runs.append((first + run[0], "".join(hashes[i] for i in run)))
    if not left_out:  # no received block was worth a marker
        return Assessment(hit, NEW, digest, runs=tuple(runs))
    return Assessment(hit, PART, digest, content="\n".join(kept), runs=tuple(runs))


def _blocks(flags: list[bool]) -> list[tuple[int, int]]:
    """(start, end) of each run of equal flags."""
    blocks: list[tuple[int, int]] = []
    start = 0
    for index in range(1, len(flags) + 1):
        if index == len(flags) or flags[index] != flags[start]:
            blocks.append((start, index))
            start = index
    return blocks


def full_runs(hit: Hit) -> tuple[tuple[int, str], ...]:
    """Every line of `hit` as one run (a repeat sent again in full), () without a span."""
    span = _span_lines(hit)
    if span is None:
        return ()
    first, lines = span
    return ((first, "".join(line_hash(line) for line in lines)),)


def _span_lines(hit: Hit) -> tuple[int, list[str]] | None:
    """The hit's first line number and lines when they map one to one onto its span, else
    None (a store entry, a tier's span that does not match its text)."""
    first, last = hit.line_start, hit.line_end
    if first is None or last is None or first < 1:
        return None
    lines = hit.content.split("\n")
    if len(lines) != last - first + 1:
        return None
    return first, lines


def _integer(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None
