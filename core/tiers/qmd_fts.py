"""qmd's full-text index, read straight from qmd's own index file.

`qmd search` spends ~200 ms starting Node to run one FTS5 query that takes a few
milliseconds. This module runs one FTS5 query on the index file, read-only: every query
term OR-ed (qmd's own `search` ANDs them, which misses most questions), ranked with qmd's
bm25 column weights, to find the documents worth ranking.

The schema is qmd's internal detail, not its contract, so the fast path is taken only
when the index has exactly the tables and columns written here AND the installed qmd is a
major version this was checked against (`qmd --version`, asked once per install); anything
else — or any SQLite error — returns None and the caller runs the CLI instead.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from ..ranking.analysis import Term, spelt_stems
from ..tool_version import tool_version
from .base import Deadline
from .qmd_vocabulary import inner_tokens

SUPPORTED_MAJOR_VERSIONS = frozenset({2})
# qmd store.js searchFTS: bm25(documents_fts, 1.5, 4.0, 1.0) over (filepath, title, body).
_BM25 = "bm25(documents_fts, 1.5, 4.0, 1.0)"
_REQUIRED_COLUMNS = {
    "documents": {"id", "collection", "path", "title", "hash", "active"},
    "content": {"hash", "doc"},
}
_FTS_SIGNATURE = re.compile(r"fts5\(\s*filepath\s*,\s*title\s*,\s*body\s*,", re.IGNORECASE)
_NOT_TERM_CHARS = re.compile(r"[^\w]+", re.UNICODE)
_VERSION = re.compile(r"\bqmd\s+(\d+)\.(\d+)\.(\d+)")
_PROGRESS_STEPS = 1000


@dataclass(frozen=True, slots=True)
class IndexSearch:
    """What one read of the index found: `documents` is None when the CLI must answer
    instead; `expression` is the MATCH run (None when none ran); `note` is for the trace."""

    documents: list[IndexedDocument] | None
    expression: str | None = None
    note: str = ""
    # When `documents` were cut at the limit: per term key, how many of the collections'
    # documents hold it, so that a term weighs as rare as it is in the whole collection.
    frequencies: dict[str, int] | None = None


@dataclass(frozen=True, slots=True)
class IndexedDocument:
    """A document of the index that holds at least one query term."""

    collection: str
    path: str  # relative to the collection's root
    hash: str  # sha256 of the text qmd indexed
    bm25: float  # FTS5's bm25 with qmd's weights: negative, lower is better

    @property
    def score(self) -> float:
        """The score `qmd search` gives the same match: |bm25| / (1 + |bm25|)."""
        return abs(self.bm25) / (1 + abs(self.bm25))


def search_index(
    binary: str,
    index_file: Path,
    collections: list[str],
    terms: tuple[Term, ...],
    limit: int,
    deadline: Deadline,
) -> IndexSearch:
    """The documents of the collections holding any term, best first, at most `limit`,
    read from qmd's index file when its schema and qmd's version are known."""
    conn = open_index(index_file)
    if conn is None:
        return IndexSearch(None)
    try:
        if not fast_path_supported(binary, deadline):
            return IndexSearch(None)
        # A word inside an identifier's token too (`nodecollaps`): qmd_vocabulary.
        inner = inner_tokens(conn, index_file, word_stems(terms), deadline)
        expression = fts_expression(terms, inner)
        if expression is None:
            return IndexSearch([])
        rows = index_candidates(conn, collections, expression, limit, deadline)
        frequencies = None
        if rows is not None and len(rows) >= limit:
            frequencies = term_frequencies(conn, collections, terms, deadline, inner)
    finally:
        conn.close()
    if rows is None:
        note = "qmd: reading the index failed or ran out of time; used the CLI"
        return IndexSearch(None, expression, note)
    note = f"qmd: read {index_file} directly (no Node start)"
    return IndexSearch(rows, expression, note, frequencies)


def fts_expression(
    terms: Iterable[Term], inner: Mapping[str, list[str]] | None = None
) -> str | None:
    """One FTS5 MATCH expression: every term OR-ed. A term is its stem as a prefix
    (`"retarget"*`, stemmed again by qmd's porter tokenizer), each of its spellings'
    (`"colour"*`, `"color"*`), and the index tokens holding it (`inner`, by term key:
    qmd_vocabulary.inner_tokens); a compound is the phrase of its parts (`dry_run` and
    `dry-run` are tokenized so) or the joined word."""
    parts = [part for term in terms for part in _term_parts(term, inner=inner)]
    return " OR ".join(dict.fromkeys(parts)) or None


def _term_parts(
    term: Term, prefix: str = "*", inner: Mapping[str, list[str]] | None = None
) -> list[str]:
    """What one term is searched as, in an FTS5 MATCH expression (fts_expression); with
    `prefix` empty, its stems as whole tokens only; with `inner`, the index tokens that
    hold it too."""
    if term.compound:
        return ['"' + " ".join(term.parts) + '"', f'"{term.key}"{prefix}']
    if term.literal:  # `0.28`, `ctrl+i`: tokenized as 0 and 28, ctrl and i
        return ['"' + " ".join(re.split(r"[.+]", term.key)) + '"']
    # A prefix: qmd's tokenizer stems the query's words again (`nodecollaps` as
    # `nodecollap`), and a stem stemmed again is its start.
    held = [f'"{token}"*' for token in (inner or {}).get(term.key, ())]
    return [f'"{word}"{prefix}' for word in _stems(term)] + held


def _stems(term: Term) -> list[str]:
    """A word term's stems as qmd's tokens are written (letters and digits only)."""
    words = (_NOT_TERM_CHARS.sub("", stemmed) for stemmed in spelt_stems(term))
    return [word for word in words if word]


def word_stems(terms: Iterable[Term]) -> dict[str, str]:
    """Each word term's stems as qmd's tokens are written -> the term's key."""
    return {
        stem: term.key
        for term in terms
        if not (term.compound or term.literal)
        for stem in _stems(term)
    }


def term_frequencies(
    conn: sqlite3.Connection,
    collections: Iterable[str],
    terms: Iterable[Term],
    deadline: Deadline,
    inner: Mapping[str, list[str]] | None = None,
) -> dict[str, int] | None:
    """Per term key, how many active documents of the collections hold the term: as a
    whole token (qmd's porter tokenizer stems it as the grep tier's stemmer does), not as
    the prefix fts_expression searches, which every longer word it begins holds (`text`
    begins `Textual`, on every page of Textual's docs: counted so, the word weighed
    nothing); as that prefix when no token is the stem itself (the two stemmers differ).
    None when the deadline passes or SQLite fails."""
    names = list(collections)
    marks = ",".join("?" * len(names))
    # The matching rows first, then the documents among them: SQLite plans the join the
    # other way round, one MATCH per document of the collections (40 ms a term on 1,000).
    sql = f"""
        SELECT count(*) FROM documents d
        WHERE d.active = 1 AND d.collection IN ({marks})
        AND d.id IN (SELECT rowid FROM documents_fts WHERE documents_fts MATCH ?)
    """
    conn.set_progress_handler(
        lambda: 1 if deadline.expired() or deadline.cancelled else 0, _PROGRESS_STEPS
    )
    found: dict[str, int] = {}
    try:
        for term in terms:
            if term.key in found:
                continue
            for parts in (_term_parts(term, "", inner), _term_parts(term, inner=inner)):
                if parts:
                    row = conn.execute(sql, (*names, " OR ".join(parts))).fetchone()
                    found[term.key] = int(row[0])
                    if found[term.key]:
                        break
    except sqlite3.Error:
        return None
    finally:
        conn.set_progress_handler(None, 0)
    return found


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


def index_candidates(
    conn: sqlite3.Connection,
    collections: Iterable[str],
    expression: str,
    limit: int,
    deadline: Deadline,
) -> list[IndexedDocument] | None:
    """The active documents of the collections matching `expression`, best first by
    qmd's bm25 weights, at most `limit`. None when the deadline passes or SQLite fails."""
    names = list(collections)
    marks = ",".join("?" * len(names))
    conn.set_progress_handler(
        lambda: 1 if deadline.expired() or deadline.cancelled else 0, _PROGRESS_STEPS
    )
    sql = f"""
        SELECT d.collection, d.path, d.hash, {_BM25} AS bm25_score
        FROM documents_fts f JOIN documents d ON d.id = f.rowid
        WHERE documents_fts MATCH ? AND d.active = 1 AND d.collection IN ({marks})
        ORDER BY bm25_score ASC LIMIT ?
    """
    try:
        rows = conn.execute(sql, (expression, *names, limit)).fetchall()
    except sqlite3.Error:
        return None
    finally:
        conn.set_progress_handler(None, 0)
    return [IndexedDocument(str(c), str(p), str(h), float(b)) for c, p, h, b in rows]


def qmd_major_version(binary: str, deadline: Deadline) -> int | None:
    """The installed qmd's major version from `qmd --version` (asked once per install);
    None when it cannot be told within the deadline."""
    match = _VERSION.search(tool_version(binary, deadline) or "")
    return int(match.group(1)) if match else None


def fast_path_supported(binary: str, deadline: Deadline) -> bool:
    return qmd_major_version(binary, deadline) in SUPPORTED_MAJOR_VERSIONS
