"""Run a tool as a bounded subprocess: argv only, its own process group, a capped stdout,
and the whole group killed at the deadline (qmd's launcher forks a worker that would
otherwise outlive it)."""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from . import shutdown
from .deadline import Deadline

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import BinaryIO

DEFAULT_STDOUT_CAP = 8 * 1024 * 1024
STDERR_CAP = 64 * 1024
# How often the deadline, the cancel flag and the output cap are looked at while waiting;
# and how often new output is handed to a caller that reads it as it comes.
_CHECK_SECONDS = 0.02
_STREAM_SECONDS = 0.005


@dataclass(frozen=True, slots=True)
class ProcessResult:
    """How a bounded run ended, and the head of what it wrote."""

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


# Process groups started by run_bounded and not yet reaped, so a shutdown (a signal) can
# kill them from any thread. Set operations are atomic under the GIL, and a signal handler
# may run while this thread is inside run_bounded: no lock that it could already hold.
_live_groups: set[int] = set()


def kill_group(pgid: int) -> None:
    """SIGKILL every process in a group; a group already gone is fine."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def kill_live_groups() -> None:
    """SIGKILL every process group run_bounded has started and not yet reaped."""
    for pgid in list(_live_groups):
        kill_group(pgid)


shutdown.on_request(kill_live_groups)


def run_bounded(
    argv: Sequence[str],
    deadline: Deadline,
    *,
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
    stdout_cap: int = DEFAULT_STDOUT_CAP,
    on_stdout: Callable[[bytes], object] | None = None,
    meanwhile: Callable[[], object] | None = None,
) -> ProcessResult:
    """Run argv until it exits, the deadline passes, or the caller cancels.

    Output goes to anonymous files rather than pipes: a tool like ripgrep writes
    thousands of small chunks, and waking for each one costs more than the search. Whatever
    happens, no process of the group is left running when this returns.

    `on_stdout` reads the output while the process runs: it is handed the bytes written
    since it was last called, a few times a second, and the rest once the process has
    ended; in all, exactly the `stdout` of the result (the head within the cap).

    `meanwhile` is work of the caller's own that does not wait for the output, done once
    the process has started, while it runs (on another core, where there is one).
    """
    argv = tuple(argv)
    started = time.monotonic()
    if deadline.cancelled:
        return ProcessResult(argv, None, b"", b"", 0.0, cancelled=True)
    with _output_file("stdout") as out, _output_file("stderr") as err:
        try:
            proc = subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=err,
                cwd=cwd,
                env=dict(env) if env is not None else None,
                start_new_session=True,
            )
        except OSError as exc:
            return ProcessResult(argv, None, b"", b"", 0.0, launch_error=str(exc))
        _live_groups.add(proc.pid)
        returncode: int | None
        timed_out = cancelled = truncated = False
        handed = 0  # bytes of stdout given to on_stdout so far
        tick = _CHECK_SECONDS if on_stdout is None else _STREAM_SECONDS
        try:
            if shutdown.requested():
                # A shutdown that began while this process was starting has not seen it.
                kill_group(proc.pid)
            if meanwhile is not None:
                meanwhile()
            with _ExitWatch(proc) as exited:
                while not exited(min(deadline.remaining(), tick)):
                    if deadline.cancelled:
                        cancelled = True
                        break
                    if deadline.expired():
                        timed_out = True
                        break
                    written = os.fstat(out.fileno()).st_size
                    if written > stdout_cap:
                        truncated = True
                        break
                    if on_stdout is not None and written > handed:
                        chunk = os.pread(out.fileno(), written - handed, handed)
                        handed += len(chunk)
                        on_stdout(chunk)
        finally:
            # The launcher may have exited while a child still holds the group: kill it all.
            kill_group(proc.pid)
            # Forgotten before it is reaped: once reaped, its id may be reused by others.
            _live_groups.discard(proc.pid)
            try:
                returncode = proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                returncode = None
        truncated = truncated or os.fstat(out.fileno()).st_size > stdout_cap
        stdout = _read_head(out, stdout_cap)
        stderr = _read_head(err, STDERR_CAP)
        if on_stdout is not None and not (timed_out or cancelled):
            on_stdout(stdout[handed:])
    elapsed_ms = (time.monotonic() - started) * 1000
    if timed_out or cancelled:
        returncode = None
    return ProcessResult(
        argv,
        returncode,
        stdout,
        stderr,
        elapsed_ms,
        timed_out=timed_out,
        cancelled=cancelled,
        truncated=truncated,
    )


@contextlib.contextmanager
def _output_file(name: str) -> Iterator[BinaryIO]:
    """A file for a child's output that no other process can reach, gone once closed: on
    Linux an anonymous memory file (`memfd_create`: no folder, no name to pick, and no
    `tempfile`, whose imports cost every query ~3 ms), elsewhere an unlinked temporary
    file."""
    try:
        fd = os.memfd_create(f"tierscope-{name}", os.MFD_CLOEXEC)
    except (AttributeError, OSError):
        import tempfile

        with tempfile.TemporaryFile() as handle:
            yield handle
        return
    with open(fd, "w+b") as handle:
        yield handle


def _read_head(handle, limit: int) -> bytes:
    handle.seek(0)
    return handle.read(limit)


class _ExitWatch:
    """`exited(timeout)` -> True once the process has exited, waiting at most `timeout`.

    On Linux a pidfd wakes the wait the moment the process ends; elsewhere it polls.
    """

    def __init__(self, proc: subprocess.Popen) -> None:
        self.proc = proc
        self.pidfd: int | None = None

    def __enter__(self):
        with contextlib.suppress(AttributeError, OSError):
            self.pidfd = os.pidfd_open(self.proc.pid)
        return self.exited

    def __exit__(self, *exc_info) -> None:
        if self.pidfd is not None:
            os.close(self.pidfd)

    def exited(self, timeout: float) -> bool:
        if self.proc.poll() is not None:
            return True
        if self.pidfd is not None:
            ready, _, _ = select.select([self.pidfd], [], [], max(timeout, 0))
            return bool(ready) and self.proc.poll() is not None
        time.sleep(max(min(timeout, 0.005), 0))
        return self.proc.poll() is not None
