"""The store's schema: seed 002's `context` table, indexes and FTS5 index, plus the
update trigger the seed leaves out (without it an edited entry is found by its old words).

Two deliberate differences from the seed:
- no `FOREIGN KEY (run_id) REFERENCES runs(id)`: runs are not registered anywhere, a run
  is simply every entry sharing a `run_id` (see runs.py);
- `created_at` keeps milliseconds (`2026-11-23 10:30:00.123`, still sortable as text),
  and every ordering breaks ties by id, so "newest" is exact even within one second.
The FTS5 table uses the porter stemmer, so `timeout` also finds `timeouts`.
"""

from __future__ import annotations

import sqlite3

SCHEMA_VERSION = 1

STATEMENTS = (
    """
    CREATE TABLE IF NOT EXISTS context (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      run_id TEXT NOT NULL,
      type TEXT NOT NULL,
      content TEXT NOT NULL,
      task_id TEXT,
      loop_id TEXT,
      file TEXT,
      line INTEGER,
      created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%f', 'now'))
    )
    """,
    "CREATE INDEX IF NOT EXISTS idx_context_run_id ON context(run_id)",
    "CREATE INDEX IF NOT EXISTS idx_context_type ON context(run_id, type)",
    "CREATE INDEX IF NOT EXISTS idx_context_task ON context(run_id, task_id)"
    " WHERE task_id IS NOT NULL",
    "CREATE INDEX IF NOT EXISTS idx_context_loop ON context(run_id, loop_id)"
    " WHERE loop_id IS NOT NULL",
    "CREATE INDEX IF NOT EXISTS idx_context_file ON context(run_id, file) WHERE file IS NOT NULL",
    "CREATE INDEX IF NOT EXISTS idx_context_created ON context(run_id, created_at DESC)",
    """
    CREATE VIRTUAL TABLE IF NOT EXISTS context_fts USING fts5(
      content,
      content='context',
      content_rowid='id',
      tokenize='porter unicode61 remove_diacritics 2'
    )
    """,
    """
    CREATE TRIGGER IF NOT EXISTS context_fts_insert AFTER INSERT ON context BEGIN
      INSERT INTO context_fts(rowid, content) VALUES (new.id, new.content);
    END
    """,
    """
    CREATE TRIGGER IF NOT EXISTS context_fts_delete AFTER DELETE ON context BEGIN
      INSERT INTO context_fts(context_fts, rowid, content) VALUES ('delete', old.id, old.content);
    END
    """,
    """
    CREATE TRIGGER IF NOT EXISTS context_fts_update AFTER UPDATE ON context BEGIN
      INSERT INTO context_fts(context_fts, rowid, content) VALUES ('delete', old.id, old.content);
      INSERT INTO context_fts(rowid, content) VALUES (new.id, new.content);
    END
    """,
)


# What a database file holds, as far as the store is concerned.
STORE = "store"
EMPTY = "empty"
FOREIGN = "foreign"
_OWN_TABLES = frozenset({"context", "context_fts"})


def database_kind(connection: sqlite3.Connection) -> str:
    """STORE when the database holds the store's tables, EMPTY when it holds nothing at
    all (a new file), FOREIGN for anything else. Reads only; raises sqlite3.Error for a
    file that is not a database."""
    names = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
    if not names:
        return EMPTY
    return STORE if names >= _OWN_TABLES else FOREIGN


def ensure_schema(connection: sqlite3.Connection) -> None:
    """Create whatever is missing, once, under a write lock. Safe to call from many
    processes at once: the first creates, the others find `user_version` already set."""
    if _version(connection) >= SCHEMA_VERSION:
        return
    connection.execute("BEGIN IMMEDIATE")
    try:
        if _version(connection) < SCHEMA_VERSION:
            for statement in STATEMENTS:
                connection.execute(statement)
            connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        connection.execute("COMMIT")
    except BaseException:
        connection.execute("ROLLBACK")
        raise


def _version(connection: sqlite3.Connection) -> int:
    return connection.execute("PRAGMA user_version").fetchone()[0]
