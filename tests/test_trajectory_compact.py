"""Retention: old logs are gzipped, old archives deleted, and nothing in use is touched."""

from __future__ import annotations

import fcntl
import gzip
import os
import time
from datetime import date
from pathlib import Path

import pytest

from tierscope.config.model import TrajectorySettings
from tierscope.trajectory.compact import (
    DELETE,
    DONE,
    GZIP,
    KEEP,
    SKIP,
    SKIPPED,
    apply_compaction,
    plan_compaction,
)

DAY = 86400
SETTINGS = TrajectorySettings(retention_days=30, archive_days=365, compression_level=6)


def aged(path: Path, days: float, body: bytes = b'{"phase": "intent"}\n') -> Path:
    path.write_bytes(body)
    moment = time.time() - days * DAY
    os.utime(path, (moment, moment))
    return path


def snapshot(directory: Path) -> dict[str, tuple[bytes, int]]:
    return {
        path.name: (path.read_bytes(), path.stat().st_mtime_ns)
        for path in sorted(directory.iterdir())
    }


def test_old_logs_are_gzipped_and_old_archives_deleted(tmp_path):
    body = b'{"phase": "intent", "query": "x"}\n' * 50
    old = aged(tmp_path / "implement-2026-01-01.jsonl", 40, body)
    old_mtime = old.stat().st_mtime_ns
    aged(tmp_path / "implement-2025-01-01.jsonl.gz", 400, gzip.compress(body))
    aged(tmp_path / "implement-2026-02-01.jsonl", 10)
    aged(tmp_path / "implement-2025-06-01.jsonl.gz", 200, gzip.compress(body))

    plan = plan_compaction(tmp_path, SETTINGS)
    assert {a.path.name: a.action for a in plan.actions} == {
        "implement-2026-01-01.jsonl": GZIP,
        "implement-2025-01-01.jsonl.gz": DELETE,
        "implement-2026-02-01.jsonl": KEEP,
        "implement-2025-06-01.jsonl.gz": KEEP,
    }
    outcomes = apply_compaction(plan)
    assert [outcome.status for outcome in outcomes] == [DONE, DONE]
    assert sorted(path.name for path in tmp_path.iterdir()) == [
        "implement-2025-06-01.jsonl.gz",
        "implement-2026-01-01.jsonl.gz",
        "implement-2026-02-01.jsonl",
    ]
    archive = tmp_path / "implement-2026-01-01.jsonl.gz"
    assert gzip.decompress(archive.read_bytes()) == body
    assert archive.stat().st_mtime_ns == old_mtime


def test_every_action_carries_a_reason(tmp_path):
    aged(tmp_path / "a-2026-01-01.jsonl", 40)
    aged(tmp_path / "a-2026-02-01.jsonl", 10)
    reasons = {a.path.name: a.reason for a in plan_compaction(tmp_path, SETTINGS).actions}
    assert "retention_days 30" in reasons["a-2026-01-01.jsonl"]
    assert "retention_days is 30" in reasons["a-2026-02-01.jsonl"]


def test_planning_changes_nothing(tmp_path):
    aged(tmp_path / "a-2026-01-01.jsonl", 40)
    aged(tmp_path / "a-2025-01-01.jsonl.gz", 400)
    before = snapshot(tmp_path)
    plan = plan_compaction(tmp_path, SETTINGS)
    assert len(plan.changes) == 2
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("today", [date.today(), None])
def test_todays_file_is_never_touched_however_old_it_looks(tmp_path, today):
    from datetime import UTC, datetime

    day = today or datetime.now(UTC).date()
    todays = aged(tmp_path / f"implement-{day.isoformat()}.jsonl", 90)
    plan = plan_compaction(tmp_path, SETTINGS)
    assert [(a.action, a.reason) for a in plan.actions] == [(SKIP, "today's file")]
    apply_compaction(plan)
    assert todays.exists()


def test_a_file_written_in_the_last_minute_is_skipped(tmp_path):
    recent = tmp_path / "implement-2026-01-01.jsonl"
    recent.write_text("{}\n")
    plan = plan_compaction(tmp_path, SETTINGS, now=time.time() + 40 * DAY)
    assert [a.action for a in plan.actions] == [GZIP]
    recent_plan = plan_compaction(tmp_path, SETTINGS, now=time.time() + 30)
    assert [(a.action, a.reason) for a in recent_plan.actions] == [
        (SKIP, "modified in the last minute")
    ]


def test_a_file_locked_by_a_writer_is_skipped_when_planning_and_applying(tmp_path):
    path = aged(tmp_path / "implement-2026-01-01.jsonl", 40)
    plan = plan_compaction(tmp_path, SETTINGS)
    holder = os.open(path, os.O_WRONLY | os.O_APPEND)
    fcntl.flock(holder, fcntl.LOCK_EX)
    try:
        assert [(a.action, a.reason) for a in plan_compaction(tmp_path, SETTINGS).actions] == [
            (SKIP, "locked by a writer")
        ]
        (outcome,) = apply_compaction(plan)
        assert (outcome.status, outcome.message) == (SKIPPED, "locked by a writer")
    finally:
        os.close(holder)
    assert path.exists() and not path.with_name(path.name + ".gz").exists()


def test_an_existing_archive_is_never_overwritten(tmp_path):
    aged(tmp_path / "a-2026-01-01.jsonl", 40)
    archive = aged(tmp_path / "a-2026-01-01.jsonl.gz", 40, gzip.compress(b"kept\n"))
    plan = plan_compaction(tmp_path, SETTINGS)
    assert {a.path.name: a.action for a in plan.actions}["a-2026-01-01.jsonl"] == SKIP
    apply_compaction(plan)
    assert gzip.decompress(archive.read_bytes()) == b"kept\n"


def test_an_archive_appearing_after_planning_is_not_overwritten(tmp_path):
    source = aged(tmp_path / "a-2026-01-01.jsonl", 40)
    plan = plan_compaction(tmp_path, SETTINGS)
    archive = tmp_path / "a-2026-01-01.jsonl.gz"
    archive.write_bytes(gzip.compress(b"other\n"))
    (outcome,) = apply_compaction(plan)
    assert outcome.status == SKIPPED
    assert source.exists() and gzip.decompress(archive.read_bytes()) == b"other\n"
    assert not [path for path in tmp_path.iterdir() if path.name.endswith(".partial")]


def test_files_that_are_not_trajectory_logs_are_ignored(tmp_path):
    aged(tmp_path / "notes.md", 900)
    aged(tmp_path / "a.json", 900)
    assert plan_compaction(tmp_path, SETTINGS).actions == ()


def test_a_missing_directory_plans_nothing(tmp_path):
    assert plan_compaction(tmp_path / "missing", SETTINGS).actions == ()


def test_a_link_named_like_an_old_log_is_neither_archived_nor_deleted(tmp_path):
    # Archiving it would copy a file from elsewhere into the log folder.
    logs = tmp_path / "logs"
    logs.mkdir()
    outside = aged(tmp_path / "outside.jsonl", 40, b'{"secret": 1}\n')
    old_archive = aged(tmp_path / "outside.jsonl.gz", 400, gzip.compress(b"{}\n"))
    (logs / "implement-2026-01-01.jsonl").symlink_to(outside)
    (logs / "implement-2025-01-01.jsonl.gz").symlink_to(old_archive)
    aged(logs / "implement-2026-01-02.jsonl", 40)

    plan = plan_compaction(logs, SETTINGS)
    assert [action.path.name for action in plan.actions] == ["implement-2026-01-02.jsonl"]
    apply_compaction(plan)
    assert sorted(path.name for path in logs.iterdir()) == [
        "implement-2025-01-01.jsonl.gz",
        "implement-2026-01-01.jsonl",
        "implement-2026-01-02.jsonl.gz",
    ]
    assert outside.read_bytes() == b'{"secret": 1}\n' and old_archive.exists()
