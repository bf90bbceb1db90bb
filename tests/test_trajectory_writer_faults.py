"""Appending trajectory lines where the file system is hostile or failing: a link or a FIFO
planted at the log path, a full disk mid-line, a directory that is not one. The answer
always comes back with one warning; nothing outside the log directory is written."""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tierscope.trajectory import writer
from tierscope.trajectory.writer import append_records

APPEND_IN_A_CHILD = textwrap.dedent(
    """
    import json, sys
    from pathlib import Path
    from tierscope.trajectory.writer import append_records
    print(json.dumps(append_records(Path(sys.argv[1]), [{"phase": "intent"}])))
    """
)


def append_in_a_child(path: Path, *, prefix: tuple[str, ...] = ()) -> str | None:
    """append_records in a separate process (so a hang fails the test instead of blocking
    it); returns its warning."""
    result = subprocess.run(
        [*prefix, sys.executable, "-c", APPEND_IN_A_CHILD, str(path)],
        capture_output=True,
        text=True,
        timeout=20,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_a_symlink_planted_at_the_log_path_is_not_followed(tmp_path):
    decoy = tmp_path / "outside" / "decoy.txt"
    decoy.parent.mkdir()
    decoy.write_text("untouched\n")
    logs = tmp_path / "trajectory"
    logs.mkdir()
    path = logs / "tierscope-2026-11-23.jsonl"
    path.symlink_to(decoy)
    warning = append_records(path, [{"phase": "intent"}])
    assert warning is not None and "symbolic link" in warning and "\n" not in warning
    assert decoy.read_text() == "untouched\n"
    assert path.is_symlink()


def test_a_dangling_symlink_at_the_log_path_creates_nothing_where_it_points(tmp_path):
    target = tmp_path / "outside" / "created.jsonl"
    target.parent.mkdir()
    path = tmp_path / "tierscope-2026-11-23.jsonl"
    path.symlink_to(target)
    assert append_records(path, [{"phase": "intent"}]) is not None
    assert not target.exists()


def test_a_fifo_at_the_log_path_without_a_reader_does_not_block(tmp_path):
    path = tmp_path / "tierscope-2026-11-23.jsonl"
    os.mkfifo(path)
    warning = append_in_a_child(path)
    assert warning is not None and "FIFO" in warning and "\n" not in warning


def test_a_fifo_at_the_log_path_with_a_reader_gets_nothing(tmp_path):
    path = tmp_path / "tierscope-2026-11-23.jsonl"
    os.mkfifo(path)
    reader = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        warning = append_in_a_child(path)
        assert warning is not None and "FIFO" in warning
        assert os.read(reader, 1) == b""  # nothing was written, and no writer holds it
    finally:
        os.close(reader)


def test_a_device_at_the_log_path_gets_nothing(tmp_path):
    path = tmp_path / "tierscope-2026-11-23.jsonl"
    path.symlink_to("/dev/null")  # the link is refused before the device is reached
    assert append_records(path, [{"phase": "intent"}]) is not None
    assert append_records(Path("/dev/null"), [{"phase": "intent"}]) is not None


def test_a_line_cut_short_by_a_full_disk_is_removed(tmp_path, monkeypatch):
    path = tmp_path / "t.jsonl"
    path.write_text('{"n": 1}\n')
    real_write = os.write

    def write_half_then_fail(fd: int, data) -> int:
        if len(data) > 100:
            return real_write(fd, bytes(data[: len(data) // 2]))
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(writer.os, "write", write_half_then_fail)
    warning = append_records(path, [{"n": 2, "pad": "x" * 500}])
    assert warning is not None and "No space left on device" in warning
    assert path.read_bytes() == b'{"n": 1}\n'


def test_records_written_before_the_disk_filled_stay_whole(tmp_path, monkeypatch):
    path = tmp_path / "t.jsonl"
    real_write = os.write
    calls = []

    def fail_on_the_second_line(fd: int, data) -> int:
        calls.append(len(data))
        if len(calls) == 1:
            return real_write(fd, data)
        real_write(fd, bytes(data[:3]))
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(writer.os, "write", fail_on_the_second_line)
    warning = append_records(path, [{"n": 1}, {"n": 2}])
    assert warning is not None
    assert path.read_bytes() == b'{"n":1}\n'


FILL_AND_APPEND = textwrap.dedent(
    """
    import json, os, sys
    from pathlib import Path
    from tierscope.trajectory.writer import append_records
    mount = Path(sys.argv[1])
    log = mount / "t.jsonl"
    assert append_records(log, [{"n": 1}]) is None
    # Fill the file system until less than one big line is left.
    with open(mount / "filler", "wb", buffering=0) as filler:
        try:
            while True:
                filler.write(b"f" * 1024)
        except OSError:
            pass
    os.truncate(mount / "filler", os.path.getsize(mount / "filler") - 6000)
    warning = append_records(log, [{"n": 2, "pad": "x" * 20000}])
    print(json.dumps({"warning": warning, "log": log.read_text()}))
    """
)


def test_a_real_full_disk_leaves_only_whole_lines(tmp_path):
    if shutil.which("unshare") is None:
        pytest.skip("needs unshare(1) for a private tmpfs")
    mount = tmp_path / "small"
    mount.mkdir()
    script = f'mount -t tmpfs -o size=64k tmpfs {mount} && exec "{sys.executable}" -c "$0" {mount}'
    result = subprocess.run(
        ["unshare", "-rm", "sh", "-c", script, FILL_AND_APPEND],
        capture_output=True,
        text=True,
        timeout=60,
    )
    if result.returncode != 0 and "unshare" in result.stderr:
        pytest.skip(f"no private mount namespace here: {result.stderr.strip()}")
    assert result.returncode == 0, result.stderr
    outcome = json.loads(result.stdout)
    assert "No space left on device" in outcome["warning"]
    assert outcome["log"] == '{"n":1}\n'


def test_a_read_only_directory_gives_a_warning_even_to_root(tmp_path):
    directory = tmp_path / "ro"
    directory.mkdir()
    directory.chmod(0o555)
    try:
        # Root may write anywhere; without its capabilities it is an ordinary user.
        warning = append_in_a_child(
            directory / "t.jsonl", prefix=("setpriv", "--inh-caps=-all", "--bounding-set=-all")
        )
    finally:
        directory.chmod(0o755)
    assert warning is not None and "Permission denied" in warning
    assert not (directory / "t.jsonl").exists()


def test_a_log_directory_that_is_a_file_is_named_as_such(tmp_path):
    blocker = tmp_path / "trajectory"
    blocker.write_text("not a directory")
    warning = append_records(blocker / "t.jsonl", [{"n": 1}])
    assert warning == f"cannot write {blocker / 't.jsonl'}: {blocker} is a file, not a directory"
