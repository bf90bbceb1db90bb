"""Run a tool as a bounded subprocess: argv only, its own process group, a capped stdout,
and the whole group killed at the deadline (qmd's launcher forks a worker that would
otherwise outlive it)."""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from .tiers.base import Deadline

DEFAULT_STDOUT_CAP = 8 * 1024 * 1024
STDERR_CAP = 64 * 1024
_POLL_SECONDS = 0.05


@dataclass(frozen=True, slots=True)
class ProcessResult:
    argv: tuple[str, ...]
    returncode: int | None
    stdout: bytes
    stderr: bytes
    elapsed_ms: float
    timed_out: bool = False
    cancelled: bool = False
    truncated: bool = False
    launch_error: str = ""

    @property
    def stderr_text(self) -> str:
        return self.stderr.decode("utf-8", "replace")

    def first_stderr_line(self) -> str:
        for line in self.stderr_text.splitlines():
            if line.strip():
                return line.strip()[:200]
        return ""


def kill_group(pgid: int) -> None:
    """SIGKILL every process in a group; a group already gone is fine."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def run_bounded(
    argv: Sequence[str],
    deadline: Deadline,
    *,
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
    stdout_cap: int = DEFAULT_STDOUT_CAP,
) -> ProcessResult:
    """Run argv until it exits, the deadline passes, or the caller cancels.

    Whatever happens, no process of the group is left running when this returns.
    """
    argv = tuple(argv)
    started = time.monotonic()
    try:
        proc = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env=dict(env) if env is not None else None,
            start_new_session=True,
        )
    except OSError as exc:
        return ProcessResult(argv, None, b"", b"", 0.0, launch_error=str(exc))

    out = bytearray()
    err = bytearray()
    timed_out = cancelled = truncated = False
    selector = selectors.DefaultSelector()
    assert proc.stdout is not None and proc.stderr is not None
    selector.register(proc.stdout, selectors.EVENT_READ, out)
    selector.register(proc.stderr, selectors.EVENT_READ, err)
    try:
        while selector.get_map():
            if deadline.cancelled:
                cancelled = True
                break
            remaining = deadline.remaining()
            if remaining <= 0:
                timed_out = True
                break
            for key, _ in selector.select(timeout=min(remaining, _POLL_SECONDS)):
                chunk = os.read(key.fd, 65536)
                if not chunk:
                    selector.unregister(key.fileobj)
                    continue
                buffer: bytearray = key.data
                cap = stdout_cap if buffer is out else STDERR_CAP
                room = cap - len(buffer)
                if room > 0:
                    buffer.extend(chunk[:room])
                if buffer is out and len(chunk) > room:
                    truncated = True
            if truncated:
                break
            if proc.poll() is not None and not selector.get_map():
                break
    finally:
        selector.close()
        # The launcher may have exited while a child still holds the group: kill it all.
        kill_group(proc.pid)
        proc.stdout.close()
        proc.stderr.close()
        try:
            returncode = proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            returncode = None
    elapsed_ms = (time.monotonic() - started) * 1000
    if timed_out or cancelled:
        returncode = None
    return ProcessResult(
        argv,
        returncode,
        bytes(out),
        bytes(err),
        elapsed_ms,
        timed_out=timed_out,
        cancelled=cancelled,
        truncated=truncated,
    )
