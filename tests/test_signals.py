"""Signals while a tier hangs: SIGTERM, SIGHUP and SIGINT to `tierscope query` or to
`tierscope mcp` (which MCP clients stop with SIGTERM) kill the tier's whole process group,
and the command exits at once."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from process_watch import gone_soon, interruptible, process_exists
from tier_projects import write_files

FAKE_CK = Path(__file__).parent / "fakes" / "ck"
PROMPTLY = 5.0
FILES = {"grimoires/loa/NOTES.md": "# Notes\n\nThe token budget is 2000.\n"}


@pytest.fixture
def hanging_ck(tmp_path) -> dict[str, str]:
    """An environment whose `ck` hangs with a child process, writing the child's pid."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "ck").symlink_to(FAKE_CK)
    return {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}/usr/bin{os.pathsep}/bin",
        "FAKE_CK_BEHAVIOUR": "hang-with-child",
        "FAKE_CK_PIDFILE": str(tmp_path / "ck-child.pid"),
    }


@pytest.fixture
def root(tmp_path) -> Path:
    return write_files(tmp_path / "project", FILES)


def wait_for_pid(pidfile: Path, process: subprocess.Popen, within: float = 30.0) -> int:
    """The pid the hanging tier wrote, once it is running."""
    until = time.monotonic() + within
    while time.monotonic() < until:
        if pidfile.exists() and pidfile.read_text().strip():
            return int(pidfile.read_text())
        assert process.poll() is None, process.communicate()
        time.sleep(0.02)
    raise AssertionError("the tier never started")


def kill_leftovers(pidfile: Path) -> None:
    """After a failed test: no hanging tier may outlive it."""
    if pidfile.exists() and pidfile.read_text().strip():
        pid = int(pidfile.read_text())
        if process_exists(pid):
            os.killpg(os.getpgid(pid), signal.SIGKILL)


def exits_within(process: subprocess.Popen, seconds: float) -> int | None:
    try:
        return process.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        return None


@pytest.mark.parametrize(
    ("signum", "code"),
    [(signal.SIGTERM, 128 + signal.SIGTERM), (signal.SIGHUP, 128 + signal.SIGHUP),
     (signal.SIGINT, 130)],
    ids=["SIGTERM", "SIGHUP", "SIGINT"],
)  # fmt: skip
def test_a_signal_kills_the_tiers_process_group_and_the_query_exits(root, hanging_ck, signum, code):
    process = subprocess.Popen(
        [sys.executable, "-m", "tierscope", "query", "token budget", "--tiers", "ck",
         "--timeout", "120", "--root", str(root), "--no-trajectory"],
        env=hanging_ck,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=interruptible,
    )  # fmt: skip
    try:
        child = wait_for_pid(Path(hanging_ck["FAKE_CK_PIDFILE"]), process)
        process.send_signal(signum)
        assert exits_within(process, PROMPTLY) == code
        assert gone_soon(child), "the tier's child process outlived the query"
        assert b"Traceback" not in process.stderr.read()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        kill_leftovers(Path(hanging_ck["FAKE_CK_PIDFILE"]))


def rpc(message: dict) -> bytes:
    return json.dumps(message).encode() + b"\n"


INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"},
    },
}


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_a_signal_to_the_mcp_server_kills_a_hanging_tier_and_the_server_exits(
    root, hanging_ck, tmp_path, signum
):
    (root / ".tierscope.yaml").write_text(
        "qmd_context:\n  tiers: [ck]\n  timeout_seconds: 120\n  trajectory:\n    enabled: false\n"
    )
    env = {**hanging_ck, "TIERSCOPE_STORE": str(tmp_path / "store.sqlite")}
    process = subprocess.Popen(
        [sys.executable, "-m", "tierscope", "--root", str(root), "mcp", "--run-id", "r"],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        process.stdin.write(rpc(INITIALIZE))
        process.stdin.write(rpc({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        process.stdin.write(
            rpc(
                {
                    "jsonrpc": "2.0",
                    "id": 2,
                    "method": "tools/call",
                    "params": {"name": "query_context", "arguments": {"query": "token budget"}},
                }
            )
        )
        process.stdin.flush()
        child = wait_for_pid(Path(env["FAKE_CK_PIDFILE"]), process)
        assert process_exists(child)
        process.send_signal(signum)
        assert exits_within(process, PROMPTLY) == 128 + signum, "the server kept running"
        assert gone_soon(child), "the tier's child process outlived the server"
        assert b"Traceback" not in process.stderr.read()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        kill_leftovers(Path(hanging_ck["FAKE_CK_PIDFILE"]))
