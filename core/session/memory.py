"""What a session has received since its last clearing, and what of a new hit it has
received already: the whole section (same text, under any name), every line of it (the
same lines of the same file, sent by overlapping hits), some of its lines, or none.

A line counts as received only when the same file sent the same text at the same line
number: a file edited since (lines changed or moved) is new context again.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..models import Hit, estimate_tokens, numbered_lines
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
        if digest in self.texts:
            return Assessment(hit, REPEAT, digest, where=self.texts[digest])
        numbered = _numbered_lines(hit)
        if numbered is None:
            return Assessment(hit, NEW, digest)
        hashes = [line_hash(line) for _, line in numbered]
        known = self.lines.get(hit.source, {})
        seen = [
            number is not None and known.get(number) == value
            for (number, _), value in zip(numbered, hashes, strict=True)
        ]
        if not any(seen):
            return Assessment(hit, NEW, digest, runs=_runs(numbered, hashes))
        return _partly_seen(hit, digest, numbered, hashes, seen)


def _partly_seen(
    hit: Hit,
    digest: str,
    numbered: list[tuple[int | None, str]],
    hashes: list[str],
    seen: list[bool],
) -> Assessment:
    """Leave out each block of received lines that costs more than the marker standing in
    for it. A hit with nothing but blank lines (and markers of lines left out) that are
    new is a repeat."""
    if all(
        known or number is None or not line.strip()
        for (number, line), known in zip(numbered, seen, strict=True)
    ):
        where = span_label(hit.source, hit.line_start, hit.line_end)
        return Assessment(hit, REPEAT, digest, where=where)
    kept: list[str] = []
    sent: list[int] = []  # indexes of the lines sent in full
    left_out = False
    for start, end in _blocks(seen):
        block = [line for _, line in numbered[start:end]]
        first, last = numbered[start][0], numbered[end - 1][0]
        if seen[start] and first is not None and last is not None:
            marker = gap_marker(first, last)
            if estimate_tokens("\n".join(block)) > estimate_tokens(marker):
                kept.append(marker)
                left_out = True
                continue
        sent.extend(range(start, end))
        kept.extend(block)
    runs = _runs([numbered[i] for i in sent], [hashes[i] for i in sent])
    if not left_out:  # no received block was worth a marker
        return Assessment(hit, NEW, digest, runs=runs)
    return Assessment(hit, PART, digest, content="\n".join(kept), runs=runs)


def _runs(numbered: list[tuple[int | None, str]], hashes: list[str]) -> tuple[tuple[int, str], ...]:
    """The numbered lines as runs of consecutive line numbers: (first line, hashes)."""
    runs: list[tuple[int, list[str]]] = []
    for (number, _), value in zip(numbered, hashes, strict=True):
        if number is None:
            continue
        if runs and number == runs[-1][0] + len(runs[-1][1]):
            runs[-1][1].append(value)
        else:
            runs.append((number, [value]))
    return tuple((first, "".join(values)) for first, values in runs)


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
    """Every line of `hit` (a repeat sent again in full) as runs, one per passage; ()
    without a span."""
    numbered = _numbered_lines(hit)
    if numbered is None:
        return ()
    return _runs(numbered, [line_hash(line) for _, line in numbered])


def _numbered_lines(hit: Hit) -> list[tuple[int | None, str]] | None:
    """The hit's lines, each with its line number in the file (numbered_lines), when they
    map onto its span, else None (a store entry, a tier's span that does not match its
    text)."""
    first, last = hit.line_start, hit.line_end
    if first is None or last is None or first < 1:
        return None
    return numbered_lines(hit.content, first, last)


def _integer(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None
