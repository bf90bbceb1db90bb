"""qmd's BM25 search, read straight from qmd's own index.

`qmd search` spends ~200 ms starting Node to run one FTS5 query that takes a few
milliseconds. This module runs the same query (same bm25 column weights, same score
mapping, same per-collection candidate limit) on the index file, read-only.

The schema is qmd's internal detail, not its contract, so the fast path is taken only
when the index has exactly the tables and columns written here AND the installed qmd is a
major version this was checked against (`qmd --version`, asked once per install); anything
else — or any SQLite error — returns None and the caller runs the CLI instead.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ..tool_version import tool_version
from .base import Deadline

SUPPORTED_MAJOR_VERSIONS = frozenset({2})
# qmd store.js searchFTS: bm25(documents_fts, 1.5, 4.0, 1.0) over (filepath, title, body).
_BM25 = "bm25(documents_fts, 1.5, 4.0, 1.0)"
_REQUIRED_COLUMNS = {
    "documents": {"id", "collection", "path", "title", "hash", "active"},
    "content": {"hash", "doc"},
}
_FTS_SIGNATURE = re.compile(r"fts5\(\s*filepath\s*,\s*title\s*,\s*body\s*,", re.IGNORECASE)
_NOT_TERM_CHARS = re.compile(r"[^\w']+", re.UNICODE)
_VERSION = re.compile(r"\bqmd\s+(\d+)\.(\d+)\.(\d+)")
_PROGRESS_STEPS = 1000


@dataclass(frozen=True, slots=True)
class IndexedMatch:
    """One document qmd's BM25 search would return."""

    collection: str
    path: str  # relative to the collection's root
    title: str
    body: str
    score: float  # |bm25| / (1 + |bm25|), as qmd reports it


def fts_expression(terms: Iterable[str], any_term: bool = False) -> str | None:
    """The FTS5 MATCH expression qmd builds for plain words: each word a quoted prefix
    term (`"word"*`), joined with AND (qmd's multi-word semantics) or OR for the
    per-keyword retry. Hyphenated or dotted words become phrases of their parts."""
    parts: list[str] = []
    for term in terms:
        pieces = [p.lower() for p in re.split(r"[-.]", term) if p]
        pieces = [_NOT_TERM_CHARS.sub("", p) for p in pieces]
        pieces = [p for p in pieces if p]
        if len(pieces) > 1:
            parts.append('"' + " ".join(pieces) + '"')
        elif pieces:
            parts.append(f'"{pieces[0]}"*')
    if not parts:
        return None
    return (" OR " if any_term else " AND ").join(parts)


def open_index(index_path: Path) -> sqlite3.Connection | None:
    """A read-only connection when the index has the schema this module knows, else None."""
    if not index_path.is_file():
        return None
    try:
        conn = sqlite3.connect(f"{index_path.as_uri()}?mode=ro", uri=True, timeout=2.0)
    except sqlite3.Error:
        return None
    try:
        if _schema_matches(conn):
            return conn
    except sqlite3.Error:
        pass
    conn.close()
    return None


def _schema_matches(conn: sqlite3.Connection) -> bool:
    for table, required in _REQUIRED_COLUMNS.items():
        columns = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
        if not required <= columns:
            return False
    row = conn.execute(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'documents_fts'"
    ).fetchone()
    return bool(row and row[0] and _FTS_SIGNATURE.search(row[0]))


def search_index(
    conn: sqlite3.Connection,
    collections: Iterable[str],
    expression: str,
    limit: int,
    deadline: Deadline,
) -> list[IndexedMatch] | None:
    """qmd's searchFTS for each collection, merged by best score per file. None when the
    deadline passes or SQLite fails (the caller then falls back or reports)."""
    conn.set_progress_handler(
        lambda: 1 if deadline.expired() or deadline.cancelled else 0, _PROGRESS_STEPS
    )
    best: dict[tuple[str, str], IndexedMatch] = {}
    sql = f"""
        WITH fts_matches AS (
          SELECT rowid, {_BM25} AS bm25_score FROM documents_fts
          WHERE documents_fts MATCH ? ORDER BY bm25_score ASC LIMIT ?
        )
        SELECT d.collection, d.path, d.title, content.doc, fm.bm25_score
        FROM fts_matches fm
        JOIN documents d ON d.id = fm.rowid
        JOIN content ON content.hash = d.hash
        WHERE d.active = 1 AND d.collection = ?
        ORDER BY fm.bm25_score ASC LIMIT ?
    """
    try:
        for collection in collections:
            # qmd fetches ten times the limit before filtering by collection.
            rows = conn.execute(sql, (expression, limit * 10, collection, limit))
            for name, path, title, body, bm25 in rows:
                score = abs(bm25) / (1 + abs(bm25))
                match = IndexedMatch(name, path, title or "", body or "", score)
                key = (name, path)
                if key not in best or best[key].score < score:
                    best[key] = match
    except sqlite3.Error:
        return None
    finally:
        conn.set_progress_handler(None, 0)
    return sorted(best.values(), key=lambda m: -m.score)[:limit]


def qmd_major_version(binary: str, deadline: Deadline) -> int | None:
    """The installed qmd's major version from `qmd --version` (asked once per install);
    None when it cannot be told within the deadline."""
    match = _VERSION.search(tool_version(binary, deadline) or "")
    return int(match.group(1)) if match else None


def fast_path_supported(binary: str, deadline: Deadline) -> bool:
    return qmd_major_version(binary, deadline) in SUPPORTED_MAJOR_VERSIONS
