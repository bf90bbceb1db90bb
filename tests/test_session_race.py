"""Parallel skills in one session: two processes answering at once never both send a
section as new — one sends it, the others reference it — and waiting for another
process's turn is bounded by the query's timeout."""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

import pytest

TRAJECTORY = Path("grimoires/loa/a2a/trajectory")
DOCS = {
    "grimoires/loa/retry.md": "# Retry\n\n"
    + "\n".join(f"The retry policy rule {n} backs off with jitter." for n in range(12)),
    "grimoires/loa/budget.md": "# Budget\n\n"
    + "\n".join(f"The token budget rule {n} keeps the retry policy short." for n in range(12)),
}
REFERENCE = "already provided in this session: "
FAKES = Path(__file__).parent / "fakes"


@pytest.fixture
def project(make_project, path_without_tools):
    root = make_project(DOCS)
    (root / ".tierscope.yaml").write_text("qmd_context:\n  timeout_seconds: 60\n")
    return root


def start_query(root: Path, session: str, *extra: str, env=None) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "tierscope", "query", "retry policy budget", "--json",
         "--root", str(root), "--session", session, *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )  # fmt: skip


def answers(processes: list[subprocess.Popen]) -> list[list[dict]]:
    found = []
    for process in processes:
        out, err = process.communicate(timeout=120)
        assert process.returncode == 0, err
        assert "not used" not in err, err
        found.append(json.loads(out))
    return found


def full_sends(answer: list[dict]) -> set[str]:
    return {hit["source"] for hit in answer if not hit["content"].startswith(REFERENCE)}


def intents_logged(root: Path) -> int:
    return sum(
        line.count('"phase":"intent"')
        for path in (root / TRAJECTORY).glob("*.jsonl")
        for line in path.read_text().splitlines()
    )


def wait_until_one_waits_for_a_lock(processes: list[subprocess.Popen]) -> None:
    """Until a process sleeps in flock (Linux's /proc/PID/wchan says so)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for process in processes:
            try:
                wchan = Path(f"/proc/{process.pid}/wchan").read_text()
            except OSError:
                return  # no /proc: the caller's sleep has to do
            if "lock" in wchan:
                return
        time.sleep(0.01)
    pytest.fail("no query reached the lock")


def test_processes_at_the_session_together_send_each_section_as_new_exactly_once(
    project, path_without_tools, tmp_path
):
    # The queries are served by a ck that answers only once `go` exists, so they all reach
    # their session turn at once; the trajectory file's lock, held here, stops whichever
    # holds the turn before it writes its execute line. Without the session's lock every
    # query would read the same empty memory meanwhile and send everything as new.
    (path_without_tools / "ck").symlink_to(FAKES / "ck")
    (project / ".tierscope.yaml").write_text("qmd_context:\n  timeout_seconds: 60\n  tiers: [ck]\n")
    go = tmp_path / "go"
    env = {**os.environ, "FAKE_CK_WAIT_FOR": str(go)}
    processes = [start_query(project, "together", env=env) for _ in range(5)]
    deadline = time.monotonic() + 60
    while intents_logged(project) < len(processes):
        assert time.monotonic() < deadline, "the queries did not start"
        time.sleep(0.02)
    log = project / TRAJECTORY / f"tierscope-{date.today().isoformat()}.jsonl"
    lock = os.open(log, os.O_WRONLY | os.O_APPEND)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)
        go.touch()
        wait_until_one_waits_for_a_lock(processes)
        time.sleep(0.5)  # the others reach their turn meanwhile
    finally:
        os.close(lock)
    found = answers(processes)
    sources = {hit["source"] for answer in found for hit in answer}
    assert sources == {"grimoires/loa/retry.md", "grimoires/loa/budget.md"}
    for source in sources:
        senders = [i for i, answer in enumerate(found) if source in full_sends(answer)]
        assert len(senders) == 1, (source, found)


def test_processes_waiting_for_the_session_send_each_section_as_new_exactly_once(project):
    sessions = project / TRAJECTORY / "sessions"
    sessions.mkdir(parents=True)
    lock = os.open(sessions / "race.jsonl", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)
        processes = [start_query(project, "race") for _ in range(4)]
        # Every process has run its tiers and waits for the session's lock.
        deadline = time.monotonic() + 60
        while intents_logged(project) < len(processes):
            assert time.monotonic() < deadline, "the queries did not start"
            time.sleep(0.05)
        time.sleep(0.3)
    finally:
        fcntl.flock(lock, fcntl.LOCK_UN)
        os.close(lock)
    found = answers(processes)
    sources = {hit["source"] for answer in found for hit in answer}
    assert sources == {"grimoires/loa/retry.md", "grimoires/loa/budget.md"}
    for source in sources:
        senders = [i for i, answer in enumerate(found) if source in full_sends(answer)]
        assert len(senders) == 1, (source, found)
    assert sum(len(full_sends(answer)) == 0 for answer in found) == 3


@pytest.mark.parametrize("attempt", range(3))
def test_two_processes_started_together_never_both_send_a_section(project, attempt):
    first, second = answers([start_query(project, f"pair-{attempt}") for _ in range(2)])
    assert full_sends(first).isdisjoint(full_sends(second))
    assert full_sends(first) | full_sends(second) == {
        "grimoires/loa/retry.md",
        "grimoires/loa/budget.md",
    }


def test_a_lock_held_past_the_timeout_answers_without_the_session(project):
    sessions = project / TRAJECTORY / "sessions"
    sessions.mkdir(parents=True)
    lock = os.open(sessions / "stuck.jsonl", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)
        started = time.monotonic()
        process = start_query(project, "stuck", "--timeout", "1")
        out, err = process.communicate(timeout=60)
        elapsed = time.monotonic() - started
    finally:
        os.close(lock)
    assert process.returncode == 0
    assert len(json.loads(out)) == 2 and not any(
        hit["content"].startswith(REFERENCE) for hit in json.loads(out)
    )
    assert err == (
        "tierscope: session stuck not used: another process kept the session locked past "
        "the timeout; answered as without a session\n"
    )
    assert elapsed < 1 + 20  # the timeout, plus a slow interpreter start on a busy machine
