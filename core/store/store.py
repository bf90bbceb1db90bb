"""The context store: one SQLite database per project, shared by every skill and process.

WAL mode lets readers run while a writer commits; the busy timeout makes concurrent
writers queue instead of failing, so parallel skills lose nothing. Each public method
is one transaction, and one `ContextStore` may be shared between threads (calls are
serialised by a lock).
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from .context_types import PRUNED_TYPES
from .entries import (
    ContextEntry,
    EntryError,
    ReadFilters,
    ReadResult,
    RunSummary,
    WriteRequest,
)
from .schema import EMPTY, FOREIGN, database_kind, ensure_schema
from .search_text import fts_query

BUSY_TIMEOUT_SECONDS = 30.0
# SQLITE_BUSY and its extended codes (recovery, snapshot, timeout).
_BUSY_CODES = frozenset({5, 261, 517, 773})
DEFAULT_KEEP = 500
# How many SQLite VM steps run between two checks of a search's deadline.
PROGRESS_STEPS = 1000

_COLUMNS = "c.id, c.run_id, c.type, c.content, c.task_id, c.loop_id, c.file, c.line, c.created_at"


class StoreError(Exception):
    """The database cannot be used (missing, unreadable, corrupt, locked too long)."""


class StoreMissing(StoreError):
    """There is no database at the path yet and it was not to be created."""


class StoreInterrupted(StoreError):
    """A search was stopped because its caller's deadline passed or it was cancelled."""


@dataclass(frozen=True, slots=True)
class RankedEntry:
    """A search hit: the entry and its FTS5 bm25 value (negative; lower is better)."""

    entry: ContextEntry
    bm25: float


class ContextStore:
    """An open context store. Use `ContextStore.open(path)`; close it (or use `with`)."""

    def __init__(self, connection: sqlite3.Connection, path: Path) -> None:
        self._connection = connection
        self._lock = threading.Lock()
        self.path = path

    @classmethod
    def open(
        cls, path: Path, *, create: bool = True, busy_timeout: float = BUSY_TIMEOUT_SECONDS
    ) -> ContextStore:
        """Open (and with `create`, create) the database at `path`, schema included.

        Raises StoreMissing when `create` is false and there is no database, StoreError
        when the file cannot be opened as one.
        """
        path = Path(path).absolute()
        try:
            if create:
                path.parent.mkdir(parents=True, exist_ok=True)
                connection = sqlite3.connect(
                    path, timeout=busy_timeout, isolation_level=None, check_same_thread=False
                )
            else:
                if not path.is_file():
                    raise StoreMissing(f"no context store at {path}")
                # mode=rw: never create a file here, even if it vanished since the check.
                connection = sqlite3.connect(
                    f"{path.as_uri()}?mode=rw",
                    uri=True,
                    timeout=busy_timeout,
                    isolation_level=None,
                    check_same_thread=False,
                )
        except OSError as exc:
            raise StoreError(f"context store {path}: {exc.strerror or exc}") from None
        except sqlite3.Error as exc:
            raise StoreError(f"context store {path}: {exc}") from None
        try:
            connection.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
            _set_up_when_free(connection, path, create, busy_timeout)
        except sqlite3.Error as exc:
            connection.close()
            raise StoreError(f"context store {path}: {exc}") from None
        except StoreError:
            connection.close()
            raise
        return cls(connection, path)

    def close(self) -> None:
        with self._lock:
            self._connection.close()

    def __enter__(self) -> ContextStore:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def write(self, request: WriteRequest) -> int:
        """Append one entry; returns its id."""
        return self.write_many((request,))[0]

    def write_many(self, requests: Iterable[WriteRequest]) -> tuple[int, ...]:
        """Append entries in one transaction: all are written or none. Returns their ids."""
        requests = tuple(requests)
        with self._lock, self._failures_as_store_errors():
            self._connection.execute("BEGIN IMMEDIATE")
            try:
                ids = tuple(self._insert(request) for request in requests)
                self._connection.execute("COMMIT")
            except BaseException:
                self._connection.execute("ROLLBACK")
                raise
        return ids

    def read(self, filters: ReadFilters) -> ReadResult:
        """A page of entries matching every filter, plus the total count (seed 002
        read_context). With `search`, best matches come first, then `order` by time."""
        conditions, params = _conditions(filters)
        order = "ASC" if filters.order == "asc" else "DESC"
        # Empty or blank search text is no search (seed 002); text with no searchable
        # word in it (only punctuation) matches nothing rather than everything.
        text = filters.search or ""
        wants_search = bool(text.strip())
        search = fts_query(text) if wants_search else None
        if wants_search and search is None:
            return ReadResult((), 0)
        if search is not None:
            # CROSS JOIN keeps the full-text index as the outer loop: one MATCH, then
            # rowid lookups, instead of one MATCH per row of a filter's index.
            source = "context_fts CROSS JOIN context c ON c.id = context_fts.rowid"
            conditions.append("context_fts MATCH ?")
            params.append(search)
            ordering = f"context_fts.rank, c.created_at {order}, c.id {order}"
        else:
            source = "context c"
            ordering = f"c.created_at {order}, c.id {order}"
        where = f"WHERE {' AND '.join(conditions)}" if conditions else ""
        with self._lock, self._failures_as_store_errors():
            rows = self._connection.execute(
                f"SELECT {_COLUMNS} FROM {source} {where} ORDER BY {ordering} LIMIT ? OFFSET ?",
                (*params, filters.limit, filters.offset),
            ).fetchall()
            (total,) = self._connection.execute(
                f"SELECT COUNT(*) FROM {source} {where}", params
            ).fetchone()
        return ReadResult(tuple(_entry(row) for row in rows), total)

    def search_ranked(
        self,
        text: str,
        limit: int,
        *,
        any_term: bool = False,
        should_stop: Callable[[], bool] | None = None,
    ) -> tuple[RankedEntry, ...]:
        """Entries of every run matching `text` (all words, or any with `any_term`), best
        bm25 first. Raises StoreInterrupted as soon as `should_stop()` turns true."""
        query = fts_query(text, any_term=any_term)
        if query is None or limit <= 0:
            return ()
        sql = (
            f"SELECT {_COLUMNS}, bm25(context_fts) AS score"
            " FROM context_fts CROSS JOIN context c ON c.id = context_fts.rowid"
            " WHERE context_fts MATCH ? ORDER BY score, c.id DESC LIMIT ?"
        )
        with self._lock, self._failures_as_store_errors():
            if should_stop is not None:
                self._connection.set_progress_handler(should_stop, PROGRESS_STEPS)
            try:
                rows = self._connection.execute(sql, (query, limit)).fetchall()
            except sqlite3.OperationalError:
                if should_stop is not None and should_stop():
                    raise StoreInterrupted("search stopped at its deadline") from None
                raise
            finally:
                self._connection.set_progress_handler(None, 0)
        return tuple(RankedEntry(_entry(row[:-1]), float(row[-1])) for row in rows)

    def prune(self, run_id: str, keep: int = DEFAULT_KEEP) -> int:
        """Keep the newest `keep` entries of each type in `run_id`, delete the rest, in one
        transaction. codebase_analysis is never pruned. Returns how many were deleted."""
        if isinstance(keep, bool) or not isinstance(keep, int) or keep < 0:
            raise EntryError(f"keep must be a non-negative integer, got {keep!r}")
        deleted = 0
        with self._lock, self._failures_as_store_errors():
            self._connection.execute("BEGIN IMMEDIATE")
            try:
                for entry_type in PRUNED_TYPES:
                    cursor = self._connection.execute(
                        "DELETE FROM context WHERE run_id = ? AND type = ? AND id NOT IN ("
                        " SELECT id FROM context WHERE run_id = ? AND type = ?"
                        " ORDER BY created_at DESC, id DESC LIMIT ?)",
                        (run_id, entry_type, run_id, entry_type, keep),
                    )
                    deleted += cursor.rowcount
                self._connection.execute("COMMIT")
            except BaseException:
                self._connection.execute("ROLLBACK")
                raise
        return deleted

    def runs(self) -> tuple[RunSummary, ...]:
        """Every run in the store, most recently written first."""
        with self._lock, self._failures_as_store_errors():
            rows = self._connection.execute(
                "SELECT run_id, COUNT(*), MIN(created_at), MAX(created_at) FROM context"
                " GROUP BY run_id ORDER BY MAX(created_at) DESC, MAX(id) DESC"
            ).fetchall()
        return tuple(RunSummary(*row) for row in rows)

    def count(self) -> int:
        """How many entries the store holds, across all runs."""
        with self._lock, self._failures_as_store_errors():
            return self._connection.execute("SELECT COUNT(*) FROM context").fetchone()[0]

    def _insert(self, request: WriteRequest) -> int:
        cursor = self._connection.execute(
            "INSERT INTO context (run_id, type, content, task_id, loop_id, file, line)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                request.run_id,
                request.type,
                request.content,
                request.task_id,
                request.loop_id,
                request.file,
                request.line,
            ),
        )
        entry_id = cursor.lastrowid
        assert entry_id is not None  # set by every INSERT into a rowid table
        return entry_id

    @contextmanager
    def _failures_as_store_errors(self) -> Iterator[None]:
        """Turn SQLite failures into one-line StoreErrors naming the database."""
        try:
            yield
        except sqlite3.Error as exc:
            raise StoreError(f"context store {self.path}: {exc}") from None


def _conditions(filters: ReadFilters) -> tuple[list[str], list[object]]:
    conditions: list[str] = []
    params: list[object] = []
    if filters.run_id is not None:
        conditions.append("c.run_id = ?")
        params.append(filters.run_id)
    if filters.types:
        conditions.append(f"c.type IN ({', '.join('?' for _ in filters.types)})")
        params.extend(filters.types)
    for column in ("task_id", "loop_id", "file"):
        value = getattr(filters, column)
        if value is not None:
            conditions.append(f"c.{column} = ?")
            params.append(value)
    return conditions, params


def _entry(row: tuple) -> ContextEntry:
    return ContextEntry(*row)


def _set_up_when_free(
    connection: sqlite3.Connection, path: Path, create: bool, busy_timeout: float
) -> None:
    """Check what the file holds and, with `create`, switch it to WAL and create the schema.

    While another process creates a new database, switching to WAL is refused at once
    ("database is locked": SQLite does not wait where waiting could deadlock), so the
    setup is tried again until the busy timeout has passed.
    """
    give_up = time.monotonic() + busy_timeout
    pause = 0.005
    while True:
        try:
            _set_up(connection, path, create)
            return
        except sqlite3.OperationalError as exc:
            busy = exc.sqlite_errorcode in _BUSY_CODES
            if not busy or time.monotonic() + pause > give_up:
                raise
            if connection.in_transaction:
                connection.execute("ROLLBACK")
        time.sleep(pause)
        pause = min(pause * 2, 0.1)


def _set_up(connection: sqlite3.Connection, path: Path, create: bool) -> None:
    # `store.path` may name any file: look before changing anything in it. Another
    # application's database is never migrated, switched to WAL or read as ours.
    kind = database_kind(connection)
    if kind == FOREIGN:
        raise StoreError(
            f"context store {path}: not a tierscope context store (it holds other "
            "tables); refusing to use it"
        )
    if kind == EMPTY and not create:
        raise StoreMissing(f"no context store at {path} (the file is empty)")
    if create:
        connection.execute("PRAGMA journal_mode = WAL")
        connection.execute("PRAGMA synchronous = NORMAL")
        ensure_schema(connection)
