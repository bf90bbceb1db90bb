"""Whether qmd's index has seen every file of a collection in its current state
(freshness), and how many of its documents have embeddings.

qmd stores a SHA-256 of each document's text and the file's mtime; comparing them with
the files says exactly which changed, were added or removed since the last `qmd update`.
The SQLite index is qmd's internal detail, so it is read read-only, its schema is checked
first, and anything unexpected falls back to comparing file times with the index's own.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from ..files import read_head
from ..models import noun_for
from .base import Deadline
from .qmd_collections import Collection, FileTally, collection_files

BUSY_TIMEOUT_SECONDS = 1.0
# A document larger than this is read only this far to compare it with the index.
MAX_INDEXED_BYTES = 64 * 1024 * 1024
_DOCUMENT_COLUMNS = frozenset({"collection", "path", "hash", "modified_at", "active"})
# How long a finished search waits for the freshness check still walking the collection.
FRESHNESS_WAIT_SECONDS = 1.0


@dataclass(frozen=True, slots=True)
class Freshness:
    """How far one collection's index is behind its files.

    `method` is "hashes" when qmd's per-document hashes were compared (exact), "mtimes"
    when only file times could be compared with the index file's (changed and added
    together, removals unseen). `problem` says why nothing could be checked."""

    collection: str
    changed: tuple[str, ...] = ()
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    method: str = "hashes"
    problem: str = ""
    indexed: int = 0  # the collection's documents in the index ("hashes" only)
    # What the walk found on disk: the files qmd would index and their bytes (the
    # collection's size for IDF and length normalisation); None when nothing was walked.
    size: tuple[int, int] | None = None

    @property
    def behind(self) -> int:
        return len(self.changed) + len(self.added) + len(self.removed)

    def describe(self) -> str:
        counts = [
            f"{len(paths)} {label}"
            for paths, label in (
                (self.changed, "changed" if self.method == "hashes" else "changed or added"),
                (self.added, "added"),
                (self.removed, "removed"),
            )
            if paths
        ]
        return ", ".join(counts)


def check_freshness(collection: Collection, index_file: Path) -> Freshness:
    """Which files of the collection the index has not seen in their current state."""
    if not index_file.is_file():
        return Freshness(collection.name, problem=f"no index at {index_file}")
    try:
        known = _indexed_documents(index_file, collection.name)
    except (sqlite3.Error, _SchemaMismatch):
        return _freshness_by_mtime(collection, index_file)
    changed: list[str] = []
    added: list[str] = []
    seen: set[str] = set()
    size = FileTally()
    for relative, entry in collection_files(collection):
        record = known.get(relative)
        try:
            status = size.add(entry)
            if record is None:
                if _has_content(entry.path):
                    added.append(relative)
                continue
            seen.add(relative)
            stored_hash, stored_ms = record
            # qmd stores the file's mtime (whole ms) when it last took the content in: an
            # untouched file is fresh without reading it; a touched one is compared by hash.
            if stored_ms is not None and status.st_mtime_ns // 1_000_000 <= stored_ms:
                continue
            if _content_hash(entry.path) != stored_hash:
                changed.append(relative)
        except OSError:
            continue
    removed = sorted(set(known) - seen - set(added))
    return Freshness(
        collection.name,
        tuple(sorted(changed)),
        tuple(sorted(added)),
        tuple(removed),
        indexed=len(known),
        size=size.files_and_bytes(),
    )


class _SchemaMismatch(Exception):
    """The index is not laid out the way this module knows."""


def _connect(index_file: Path) -> sqlite3.Connection:
    uri = f"{index_file.resolve().as_uri()}?mode=ro"
    return sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_SECONDS)


def _indexed_documents(index_file: Path, collection: str) -> dict[str, tuple[str, int | None]]:
    """path -> (content hash, stored mtime in ms) for the collection's active documents."""
    connection = _connect(index_file)
    try:
        columns = {row[1] for row in connection.execute("PRAGMA table_info(documents)")}
        if not _DOCUMENT_COLUMNS.issubset(columns):
            raise _SchemaMismatch(f"documents table lacks {_DOCUMENT_COLUMNS - columns}")
        rows = connection.execute(
            "SELECT path, hash, modified_at FROM documents WHERE collection = ? AND active = 1",
            (collection,),
        ).fetchall()
    finally:
        connection.close()
    return {str(path): (str(digest), _iso_ms(stamp)) for path, digest, stamp in rows}


def _iso_ms(stamp: object) -> int | None:
    if not isinstance(stamp, str):
        return None
    try:
        moment = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return None
    return round(moment.timestamp() * 1000)


def _read_text(path: str) -> str:
    # qmd reads files as UTF-8 text (invalid bytes become U+FFFD) before hashing. Read
    # without waiting: a file swapped for a FIFO while the collection is walked reads as "".
    return read_head(Path(path), MAX_INDEXED_BYTES).decode("utf-8", "replace")


def _content_hash(path: str) -> str:
    return hashlib.sha256(_read_text(path).encode("utf-8")).hexdigest()


def _has_content(path: str) -> bool:
    """qmd skips whitespace-only files, so they are never 'added'."""
    return bool(_read_text(path).strip())


def _freshness_by_mtime(collection: Collection, index_file: Path) -> Freshness:
    stamps = [index_file, index_file.with_name(index_file.name + "-wal")]
    index_ns = max((p.stat().st_mtime_ns for p in stamps if p.exists()), default=0)
    newer = []
    size = FileTally()
    for relative, entry in collection_files(collection):
        try:
            if size.add(entry).st_mtime_ns > index_ns:
                newer.append(relative)
        except OSError:
            continue
    return Freshness(
        collection.name, changed=tuple(sorted(newer)), method="mtimes", size=size.files_and_bytes()
    )


def staleness_note(results: Sequence[Freshness]) -> str | None:
    """One line for the trace, e.g. "qmd: index 3 files behind (2 changed, 1 added)";
    None when every collection is up to date."""
    stale = [r for r in results if r.behind]
    if not stale:
        return None
    total = sum(r.behind for r in stale)
    if len(results) == 1:
        detail = stale[0].describe()
    else:
        detail = "; ".join(f"{r.collection}: {r.describe()}" for r in stale)
    noun = noun_for(total, "file")
    return f"qmd: index {total} {noun} behind ({detail}); refresh with --refresh or qmd update"


def embedding_gap(index_file: Path, collections: Sequence[str]) -> tuple[int, int] | None:
    """(documents without embeddings, documents) over the collections; None when the index
    cannot tell."""
    if not collections or not index_file.is_file():
        return None
    marks = ",".join("?" * len(collections))
    try:
        connection = _connect(index_file)
        try:
            row = connection.execute(
                "SELECT COUNT(DISTINCT d.hash),"
                " COUNT(DISTINCT CASE WHEN v.hash IS NULL THEN d.hash END)"
                " FROM documents d LEFT JOIN (SELECT DISTINCT hash FROM content_vectors) v"
                f" ON v.hash = d.hash WHERE d.active = 1 AND d.collection IN ({marks})",
                tuple(collections),
            ).fetchone()
        finally:
            connection.close()
    except sqlite3.Error:
        return None
    total, missing = row
    return int(missing), int(total)


class FreshnessCheck:
    """Compares the collections' files with the index in a thread, while qmd searches."""

    def __init__(self, collections: tuple[Collection, ...], index_file: Path) -> None:
        self._results: list[Freshness] = []
        self._thread = threading.Thread(
            target=self._check, args=(collections, index_file), name="qmd-freshness", daemon=True
        )
        self._thread.start()

    def _check(self, collections: tuple[Collection, ...], index_file: Path) -> None:
        self._results.extend(check_freshness(c, index_file) for c in collections)

    def size(self, deadline: Deadline) -> tuple[int, int] | None:
        """How many files the collections hold and their bytes, as the check's walk found
        them (waiting for it as `note` does); None when the check could not walk them all
        in time: the caller measures the collections itself (qmd_rank.collection_size)."""
        self._thread.join(timeout=min(deadline.remaining(), FRESHNESS_WAIT_SECONDS))
        if self._thread.is_alive():
            return None
        sizes = [result.size for result in self._results]
        if not sizes or any(size is None for size in sizes):
            return None
        return sum(s[0] for s in sizes if s), sum(s[1] for s in sizes if s)

    def note(self, deadline: Deadline) -> str | None:
        """The staleness note, if the check finished in time; nothing when out of time."""
        wait = min(deadline.remaining(), FRESHNESS_WAIT_SECONDS)
        self._thread.join(timeout=wait)
        if not self._thread.is_alive():
            return staleness_note(self._results)
        if wait > 0:
            return "qmd: freshness not checked (the collection walk took too long)"
        return None
