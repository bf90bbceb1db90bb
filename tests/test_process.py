"""The bounded process runner: whatever a tool does, the run ends and nothing is left behind."""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path

import pytest

from tierscope.deadline import Deadline
from tierscope.process import run_bounded

from process_watch import gone_soon, process_exists

FAKE_CK = Path(__file__).parent / "fakes" / "ck"
GENEROUS = 30.0


def fake_ck(*args: str) -> list[str]:
    return [sys.executable, str(FAKE_CK), *args]


def fake_env(behaviour: str, pidfile: Path) -> dict[str, str]:
    return {**os.environ, "FAKE_CK_BEHAVIOUR": behaviour, "FAKE_CK_PIDFILE": str(pidfile)}


def wait_for_pid(pidfile: Path, within: float = 10.0) -> int:
    until = time.monotonic() + within
    while time.monotonic() < until:
        if pidfile.exists():
            return int(pidfile.read_text())
        time.sleep(0.01)
    raise AssertionError(f"{pidfile} was never written")


def test_a_process_that_exits_returns_its_output_and_code():
    script = "import sys; print('found it'); sys.stderr.write('a warning'); sys.exit(3)"

    result = run_bounded([sys.executable, "-c", script], Deadline.after(GENEROUS))

    assert result.returncode == 3
    assert result.stdout == b"found it\n"
    assert result.stderr_text == "a warning"
    assert not (result.timed_out or result.cancelled or result.truncated)
    assert result.launch_error == ""


def test_a_hanging_process_is_abandoned_at_the_deadline_and_killed(tmp_path):
    pidfile = tmp_path / "pid"

    result = run_bounded(
        fake_ck("--hybrid", "--", "query", str(tmp_path)),
        Deadline.after(1.5),
        env=fake_env("hang", pidfile),
    )

    assert result.timed_out
    assert result.returncode is None
    assert not result.cancelled
    assert gone_soon(int(pidfile.read_text()))


def test_a_hanging_child_of_the_launcher_is_killed_with_the_whole_group(tmp_path):
    pidfile = tmp_path / "pid"
    cancel = threading.Event()
    outcome = {}

    def run() -> None:
        outcome["result"] = run_bounded(
            fake_ck("--hybrid", "--", "query", str(tmp_path)),
            Deadline.after(GENEROUS, cancel),
            env=fake_env("hang-with-child", pidfile),
        )

    runner = threading.Thread(target=run)
    runner.start()
    try:
        child = wait_for_pid(pidfile)
        assert process_exists(child)
    finally:
        cancel.set()
        runner.join()

    assert outcome["result"].cancelled
    assert gone_soon(child)


def test_a_child_still_running_after_its_launcher_exits_is_killed(tmp_path):
    pidfile = tmp_path / "pid"
    script = (
        "import subprocess, sys\n"
        "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(3600)'],\n"
        "                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
        f"open({str(pidfile)!r}, 'w').write(str(child.pid))\n"
    )

    result = run_bounded([sys.executable, "-c", script], Deadline.after(GENEROUS))

    assert result.returncode == 0
    assert not result.timed_out
    assert gone_soon(int(pidfile.read_text()))


def test_work_given_as_meanwhile_is_done_while_the_process_runs(tmp_path):
    """The caller's own work overlaps the process: done after it started (its pid file is
    written) and before it ended (it waits for a file that work writes)."""
    pidfile, go = tmp_path / "pid", tmp_path / "go"
    script = (
        "import os, pathlib, sys, time\n"
        f"pathlib.Path({str(pidfile)!r}).write_text(str(os.getpid()))\n"
        f"while not os.path.exists({str(go)!r}): time.sleep(0.01)\n"
        "print('done')\n"
    )
    seen = {}

    def meanwhile() -> None:
        pid = wait_for_pid(pidfile)
        seen["running"] = process_exists(pid)
        go.write_text("")

    result = run_bounded(
        [sys.executable, "-c", script], Deadline.after(GENEROUS), meanwhile=meanwhile
    )

    assert seen == {"running": True}
    assert result.returncode == 0
    assert result.stdout == b"done\n"


def test_a_failure_in_the_meanwhile_work_leaves_no_process_behind(tmp_path):
    pidfile = tmp_path / "pid"

    def meanwhile() -> None:
        wait_for_pid(pidfile)
        raise RuntimeError("broken")

    with pytest.raises(RuntimeError, match="broken"):
        run_bounded(
            fake_ck("--hybrid", "--", "query", str(tmp_path)),
            Deadline.after(GENEROUS),
            env=fake_env("hang-with-child", pidfile),
            meanwhile=meanwhile,
        )

    assert gone_soon(int(pidfile.read_text()))


def test_stdout_beyond_the_cap_is_truncated_and_the_process_killed():
    script = "import sys\nwhile True: sys.stdout.write('x' * 65536); sys.stdout.flush()"
    cap = 100_000

    result = run_bounded([sys.executable, "-c", script], Deadline.after(GENEROUS), stdout_cap=cap)

    assert result.truncated
    assert len(result.stdout) == cap
    assert not result.timed_out
    assert result.returncode != 0


def test_output_read_as_it_comes_is_the_whole_output():
    script = (
        "import sys, time\n"
        "for n in range(6):\n"
        "    sys.stdout.write(f'part {n} ' * 1000); sys.stdout.flush(); time.sleep(0.02)\n"
    )
    pieces: list[bytes] = []
    result = run_bounded(
        [sys.executable, "-c", script], Deadline.after(GENEROUS), on_stdout=pieces.append
    )
    assert result.returncode == 0
    assert len(pieces) > 1  # some arrived while it ran
    assert b"".join(pieces) == result.stdout == b"".join(b"part %d " % n * 1000 for n in range(6))


def test_output_read_as_it_comes_stops_at_the_cap():
    script = "import sys\nwhile True: sys.stdout.write('x' * 65536); sys.stdout.flush()"
    pieces: list[bytes] = []
    result = run_bounded(
        [sys.executable, "-c", script],
        Deadline.after(GENEROUS),
        stdout_cap=100_000,
        on_stdout=pieces.append,
    )
    assert result.truncated
    assert b"".join(pieces) == result.stdout and len(result.stdout) == 100_000


def test_output_is_collected_where_anonymous_memory_files_are_not_available(monkeypatch):
    # Elsewhere than Linux (or an old kernel), unlinked temporary files hold the output.
    def unavailable(*args):
        raise OSError(38, "Function not implemented")

    monkeypatch.setattr(os, "memfd_create", unavailable)
    script = "import sys; print('found it'); sys.stderr.write('a warning')"

    result = run_bounded([sys.executable, "-c", script], Deadline.after(GENEROUS))
    assert (result.returncode, result.stdout, result.stderr) == (0, b"found it\n", b"a warning")


def test_a_missing_binary_is_a_launch_error_not_an_exception(tmp_path):
    result = run_bounded([str(tmp_path / "no-such-tool"), "--version"], Deadline.after(GENEROUS))

    assert result.launch_error
    assert result.returncode is None
    assert result.stdout == b""


def test_setting_the_cancel_event_stops_the_run(tmp_path):
    pidfile = tmp_path / "pid"
    cancel = threading.Event()
    # Cancelling before or after the launch must both end the run as cancelled.
    threading.Timer(0.2, cancel.set).start()

    result = run_bounded(
        fake_ck("--hybrid", "--", "query", str(tmp_path)),
        Deadline.after(GENEROUS, cancel),
        env=fake_env("hang", pidfile),
    )

    assert result.cancelled
    assert not result.timed_out
    assert result.returncode is None
