"""A `store.path` (or $TIERSCOPE_STORE) that names someone else's SQLite database: reading
changes nothing in it, and nothing is created or migrated there."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path

import pytest

from tierscope.cli import main
from tierscope.store.entries import ReadFilters, WriteRequest
from tierscope.store.store import ContextStore, StoreError, StoreMissing


def foreign_database(path: Path) -> Path:
    """An application's own database: one table, rollback journal, some rows."""
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)")
    connection.executemany("INSERT INTO users (name) VALUES (?)", [("ada",), ("lin",)])
    connection.commit()
    connection.close()
    return path


def fingerprint(path: Path) -> tuple[str, list[str]]:
    """The database's bytes and every file beside it (a -wal or -shm would be new)."""
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    return digest, sorted(p.name for p in path.parent.iterdir())


def schema_of(path: Path) -> list[str]:
    connection = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    try:
        return [row[0] for row in connection.execute("SELECT name FROM sqlite_master")]
    finally:
        connection.close()


@pytest.fixture
def other(tmp_path) -> Path:
    folder = tmp_path / "app"
    folder.mkdir()
    return foreign_database(folder / "app.sqlite")


def test_reading_someone_elses_database_is_refused_and_changes_nothing(other):
    before = fingerprint(other)
    with pytest.raises(StoreError, match="not a tierscope context store"):
        ContextStore.open(other, create=False)
    assert fingerprint(other) == before
    assert schema_of(other) == ["users"]


def test_writing_to_someone_elses_database_is_refused_and_changes_nothing(other):
    before = fingerprint(other)
    with pytest.raises(StoreError, match="not a tierscope context store"):
        ContextStore.open(other, create=True)
    assert fingerprint(other) == before


def test_reading_an_empty_file_is_no_store_yet_and_leaves_it_empty(tmp_path):
    empty = tmp_path / "context.sqlite"
    empty.write_bytes(b"")
    with pytest.raises(StoreMissing):
        ContextStore.open(empty, create=False)
    assert empty.read_bytes() == b""


def test_an_empty_file_becomes_a_store_when_written(tmp_path):
    empty = tmp_path / "context.sqlite"
    empty.write_bytes(b"")
    with ContextStore.open(empty) as store:
        store.write(WriteRequest(run_id="r", type="discovery", content="found it"))
    with ContextStore.open(empty, create=False) as store:
        assert store.read(ReadFilters(run_id="r")).total == 1


def test_reading_a_store_does_not_rewrite_it(tmp_path):
    path = tmp_path / "context.sqlite"
    with ContextStore.open(path) as store:
        store.write(WriteRequest(run_id="r", type="discovery", content="found it"))
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    with ContextStore.open(path, create=False) as store:
        store.read(ReadFilters(run_id="r"))
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before


def test_a_query_with_the_store_tier_leaves_a_foreign_database_alone(make_project, capsys):
    # The application's own database inside the project, named by `store.path`.
    root = make_project(
        {
            ".tierscope.yaml": "qmd_context:\n  tiers: [store]\n  store:\n    path: app.sqlite\n",
            "grimoires/loa/NOTES.md": "# Notes\n",
        }
    )
    other = foreign_database(root / "app.sqlite")
    before = fingerprint(other)
    code = main(["query", "ada", "--root", str(root), "--no-trajectory", "--explain"])
    trace = json.loads(capsys.readouterr().out)["trace"]
    assert code == 0
    (store,) = [t for t in trace["tiers"] if t["tier"] == "store"]
    assert store["status"] == "error" and "not a tierscope context store" in store["reason"]
    assert fingerprint(other) == before


def test_context_read_refuses_a_foreign_database_in_one_line(make_project, capsys):
    root = make_project({".tierscope.yaml": "qmd_context:\n  store:\n    path: data/app.sqlite\n"})
    (root / "data").mkdir()
    other = foreign_database(root / "data" / "app.sqlite")
    before = fingerprint(other)
    code = main(["--root", str(root), "context", "read", "--all-runs"])
    captured = capsys.readouterr()
    assert code == 1 and captured.out == ""
    assert "not a tierscope context store" in captured.err and captured.err.count("\n") == 1
    assert fingerprint(other) == before
