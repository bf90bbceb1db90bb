"""Appending trajectory lines: where they go, one whole line per record, and never an
exception for a failing file system."""

from __future__ import annotations

import fcntl
import json
import os
import re
import subprocess
import sys
import threading
from datetime import date
from pathlib import Path

import pytest

from tierscope.config.model import Config, TrajectorySettings
from tierscope.trajectory import writer
from tierscope.trajectory.paths import (
    agent_name,
    default_dir,
    list_logs,
    log_file,
    parse_log_name,
    todays_log_file,
)
from tierscope.trajectory.recorder import utc_timestamp
from tierscope.trajectory.writer import append_records


def read_records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


# -- where lines go ------------------------------------------------------------------------


def test_configured_dir_is_relative_to_the_project_root(tmp_path):
    config = Config(trajectory=TrajectorySettings(dir="logs/trajectory"))
    assert default_dir(tmp_path, config) == tmp_path / "logs/trajectory"


def test_a_configured_dir_outside_the_project_is_not_written_to(tmp_path):
    # The config is the project's, and untrusted: it does not choose where on the machine
    # tierscope writes. `config validate` and `doctor` report such a path as an error.
    root = tmp_path / "repo"
    root.mkdir()
    for outside in (str(tmp_path / "elsewhere"), "../elsewhere", "~/.config/autostart"):
        config = Config(trajectory=TrajectorySettings(dir=outside))
        assert default_dir(root, config) == default_dir(root, Config()), outside


def test_a_configured_dir_through_a_link_out_of_the_project_is_not_written_to(tmp_path):
    root = tmp_path / "repo"
    root.mkdir()
    (tmp_path / "elsewhere").mkdir()
    (root / "logs").symlink_to(tmp_path / "elsewhere")
    config = Config(trajectory=TrajectorySettings(dir="logs/trajectory"))
    assert default_dir(root, config) == default_dir(root, Config())


def test_a_loa_trajectory_folder_that_links_out_of_the_project_is_not_written_to(tmp_path):
    root = tmp_path / "repo"
    (root / "grimoires" / "loa").mkdir(parents=True)
    (tmp_path / "elsewhere").mkdir()
    (root / "grimoires" / "loa" / "a2a").symlink_to(tmp_path / "elsewhere")
    directory = default_dir(root, Config())
    assert not directory.resolve().is_relative_to(tmp_path / "elsewhere")


def test_loa_projects_log_under_grimoires(tmp_path):
    (tmp_path / "grimoires" / "loa").mkdir(parents=True)
    assert default_dir(tmp_path, Config()) == tmp_path / "grimoires/loa/a2a/trajectory"


def test_other_projects_log_under_the_user_state_dir_one_folder_per_project(tmp_path):
    first = default_dir(tmp_path / "a" / "repo", Config())
    second = default_dir(tmp_path / "b" / "repo", Config())
    state = Path(os.environ["XDG_STATE_HOME"])
    assert first.is_relative_to(state)
    assert first.name == "trajectory"
    assert re.fullmatch(r"repo-[0-9a-f]{8}", first.parent.name)
    assert first != second


def test_log_file_is_named_after_agent_and_day(tmp_path):
    path = log_file(tmp_path, "implement", date(2026, 11, 23))
    assert path == tmp_path / "implement-2026-11-23.jsonl"
    assert parse_log_name(path.name).agent == "implement"


def test_todays_log_file_is_named_after_the_local_day(tmp_path):
    before = date.today()
    path = todays_log_file(tmp_path, "implement")
    assert path in {log_file(tmp_path, "implement", day) for day in (before, date.today())}


def test_timestamps_are_utc_to_the_millisecond():
    from datetime import UTC, datetime, timedelta

    before = datetime.now(UTC)
    stamp = utc_timestamp()
    after = datetime.now(UTC)
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z", stamp)
    moment = datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
    assert before - timedelta(milliseconds=1) <= moment <= after


def test_agent_is_the_skill_then_the_environment_then_tierscope(monkeypatch):
    monkeypatch.setenv("LOA_AGENT_NAME", "reviewer")
    assert agent_name("implement") == "implement"
    assert agent_name(None) == "reviewer"
    monkeypatch.delenv("LOA_AGENT_NAME")
    assert agent_name(None) == "tierscope"


@pytest.mark.parametrize(
    ("given", "expected"),
    [("Review Sprint", "review-sprint"), ("../../etc/passwd", "etc-passwd"), ("a_b-c9", "a-b-c9")],
)
def test_agent_names_are_reduced_to_file_name_safe_characters(given, expected):
    assert agent_name(given) == expected


def test_an_agent_name_with_nothing_safe_left_falls_through(monkeypatch):
    monkeypatch.setenv("LOA_AGENT_NAME", "///")
    assert agent_name("!!!") == "tierscope"


def test_listing_shows_only_jsonl_files_newest_day_first(tmp_path):
    for name in ("a-2026-01-01.jsonl", "b-2026-01-02.jsonl.gz", "notes.md", "other.jsonl"):
        (tmp_path / name).write_text("{}\n")
    os.utime(tmp_path / "other.jsonl", (0, 0))
    listed = list_logs(tmp_path)
    assert [info.path.name for info in listed] == [
        "b-2026-01-02.jsonl.gz",
        "a-2026-01-01.jsonl",
        "other.jsonl",
    ]
    assert listed[0].compressed and listed[0].agent == "b"
    assert listed[2].day is None and listed[2].agent == ""


def test_listing_a_missing_directory_is_empty(tmp_path):
    assert list_logs(tmp_path / "missing") == []


def test_a_link_in_the_log_folder_is_not_listed(tmp_path):
    # The log folder may be in the project (grimoires/loa/a2a/trajectory): a planted link
    # named like a log must not make the workbench read a file elsewhere on the machine.
    logs, elsewhere = tmp_path / "logs", tmp_path / "elsewhere.jsonl"
    logs.mkdir()
    elsewhere.write_text('{"secret": 1}\n')
    (logs / "a-2026-01-01.jsonl").write_text("{}\n")
    (logs / "b-2026-01-02.jsonl").symlink_to(elsewhere)
    assert [info.path.name for info in list_logs(logs)] == ["a-2026-01-01.jsonl"]


# -- appending -----------------------------------------------------------------------------


def test_each_record_becomes_one_json_line_and_parents_are_created(tmp_path):
    path = tmp_path / "a" / "b" / "implement-2026-11-23.jsonl"
    records = [{"phase": "intent", "query": "línea\nnueva"}, {"phase": "execute", "n": 4}]
    assert append_records(path, records) is None
    assert append_records(path, [{"phase": "cite"}]) is None
    assert read_records(path) == [*records, {"phase": "cite"}]


def test_values_json_cannot_hold_are_written_as_text(tmp_path):
    path = tmp_path / "t.jsonl"
    assert append_records(path, [{"root": Path("/abs/project")}]) is None
    assert read_records(path) == [{"root": "/abs/project"}]


def test_an_unserialisable_record_is_skipped_with_a_warning_and_the_rest_written(tmp_path):
    path = tmp_path / "t.jsonl"
    circular: dict = {"n": 2}
    circular["self"] = circular
    warning = append_records(path, [{"n": 1}, circular, {"n": 3}])
    assert warning is not None and "record 2" in warning and "\n" not in warning
    assert read_records(path) == [{"n": 1}, {"n": 3}]


def test_a_partial_line_left_by_a_dead_writer_does_not_swallow_the_next_record(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_bytes(b'{"n": 1}\n{"n": 2, "cut')
    assert append_records(path, [{"n": 3}]) is None
    lines = path.read_bytes().splitlines()
    assert lines[1] == b'{"n": 2, "cut'
    assert json.loads(lines[2]) == {"n": 3}


_WORKER = """
import sys
from pathlib import Path
from tierscope.trajectory.writer import append_records

path, worker = Path(sys.argv[1]), int(sys.argv[2])
for seq in range(200):
    size = 65536 if seq % 10 == 0 else 20 + (seq * 37) % 400
    warning = append_records(path, [{"worker": worker, "seq": seq, "pad": str(worker) * size}])
    assert warning is None, warning
"""


def test_parallel_writer_processes_never_interleave_lines(tmp_path):
    path = tmp_path / "shared.jsonl"
    workers = [
        subprocess.Popen([sys.executable, "-c", _WORKER, str(path), str(worker)])
        for worker in range(8)
    ]
    assert [process.wait(timeout=120) for process in workers] == [0] * 8
    lines = path.read_bytes().split(b"\n")
    assert lines.pop() == b""
    assert len(lines) == 8 * 200
    seen: dict[int, list[int]] = {worker: [] for worker in range(8)}
    for line in lines:
        record = json.loads(line)
        worker, seq = record["worker"], record["seq"]
        expected_size = 65536 if seq % 10 == 0 else 20 + (seq * 37) % 400
        assert record["pad"] == str(worker) * expected_size
        seen[worker].append(seq)
    assert all(seqs == list(range(200)) for seqs in seen.values())


# -- failing file systems ------------------------------------------------------------------


def test_read_only_file_system_gives_a_warning_not_an_exception(tmp_path, monkeypatch):
    def refuse(*_args, **_kwargs):
        raise OSError(30, "Read-only file system")

    monkeypatch.setattr(writer.os, "open", refuse)
    warning = append_records(tmp_path / "t.jsonl", [{"n": 1}])
    assert warning == f"cannot write {tmp_path / 't.jsonl'}: Read-only file system"


def test_a_directory_that_cannot_be_created_gives_a_warning(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    warning = append_records(blocker / "trajectory" / "t.jsonl", [{"n": 1}])
    assert warning is not None and warning.startswith("cannot write")
    assert "\n" not in warning


@pytest.mark.parametrize("archive", ["unlink", "rename"])
def test_a_writer_waiting_for_the_lock_reopens_a_file_archived_meanwhile(tmp_path, archive):
    path = tmp_path / "old-2026-01-01.jsonl"
    path.write_text('{"n": 1}\n')
    holder = os.open(path, os.O_RDONLY)
    fcntl.flock(holder, fcntl.LOCK_EX)
    results: list[str | None] = []
    thread = threading.Thread(target=lambda: results.append(append_records(path, [{"n": 2}])))
    thread.start()
    thread.join(timeout=0.3)
    assert thread.is_alive(), "the writer should wait for the lock"
    # Compaction copies into an archive and unlinks; a rename moves the inode away.
    if archive == "unlink":
        (tmp_path / "archived").write_bytes(path.read_bytes())
        path.unlink()
    else:
        path.rename(tmp_path / "archived")
    fcntl.flock(holder, fcntl.LOCK_UN)
    os.close(holder)
    thread.join(timeout=10)
    assert results == [None]
    assert read_records(path) == [{"n": 2}]
    assert read_records(tmp_path / "archived") == [{"n": 1}]
