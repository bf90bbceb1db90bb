"""Workbench cold start to first paint, as a user sees it: the whole `tierscope` process,
launched under a pseudo-terminal on a fresh demo project, until the app has painted its
first frame (`TIERSCOPE_EXIT_AFTER_FIRST_PAINT=1` makes it exit right then).

    .venv/bin/python bench/tui_bench.py [--runs 7]

Target (DESIGN §6): median ≤ 1 s.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import select
import shutil
import statistics
import struct
import sys
import tempfile
import termios
import time
from dataclasses import dataclass
from pathlib import Path

TARGET_SECONDS = 1.0
COLUMNS, ROWS = 120, 40
GIVE_UP_SECONDS = 30.0


def tierscope_executable() -> str:
    """The `tierscope` beside this interpreter (the checkout's venv), else on PATH."""
    beside = Path(sys.executable).parent / "tierscope"
    if beside.exists():
        return str(beside)
    found = shutil.which("tierscope")
    if found is None:
        raise SystemExit("tierscope is not installed in this environment")
    return found


@dataclass(frozen=True, slots=True)
class Launch:
    """One launch: wall seconds from fork to exit, and the CPU seconds the process used
    (on a busy machine wall time includes waiting for a CPU; CPU time does not)."""

    wall: float
    cpu: float


def launch_once(argv: list[str], env: dict[str, str]) -> Launch:
    """Launch the app, which exits after its first paint, and time it."""
    started = time.perf_counter()
    pid, terminal = pty.fork()
    if pid == 0:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
        os.execve(argv[0], argv, env)
    deadline = started + GIVE_UP_SECONDS
    try:
        # Drain the terminal: an unread pty would block the app's writes.
        while time.perf_counter() < deadline:
            ready, _, _ = select.select([terminal], [], [], 0.5)
            if ready:
                try:
                    if not os.read(terminal, 65536):
                        break
                except OSError:  # EIO: the child closed its side, i.e. exited
                    break
        else:
            os.kill(pid, 9)
            raise SystemExit(f"the workbench did not exit within {GIVE_UP_SECONDS:.0f} s")
    finally:
        _, status, usage = os.wait4(pid, 0)
        os.close(terminal)
    elapsed = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"the workbench exited with status {os.waitstatus_to_exitcode(status)}")
    return Launch(elapsed, usage.ru_utime + usage.ru_stime)


def measure_cold_start(runs: int) -> list[Launch]:
    """One warm-up launch (writes .pyc files), then `runs` timed launches."""
    from tierscope.demo import materialise

    with tempfile.TemporaryDirectory(prefix="tierscope-tui-bench-") as scratch:
        root = materialise(Path(scratch) / "harbor")
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": scratch,
            "TERM": "xterm-256color",
            "LANG": os.environ.get("LANG", "C.UTF-8"),
            "TIERSCOPE_CONFIG_HOME": str(Path(scratch) / "config"),
            "XDG_STATE_HOME": str(Path(scratch) / "state"),
            "XDG_DATA_HOME": str(Path(scratch) / "data"),
            "TIERSCOPE_EXIT_AFTER_FIRST_PAINT": "1",
        }
        argv = [tierscope_executable(), "--root", str(root)]
        launch_once(argv, env)
        return [launch_once(argv, env) for _ in range(runs)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="timed launches (default 7)")
    args = parser.parse_args()
    launches = measure_cold_start(max(1, args.runs))
    walls = [launch.wall for launch in launches]
    median = statistics.median(walls)
    cpu = statistics.median(launch.cpu for launch in launches)
    verdict = "meets" if median <= TARGET_SECONDS else "misses"
    load = os.getloadavg()[0]
    print(
        f"workbench cold start to first paint: median {median * 1000:.0f} ms wall "
        f"(min {min(walls) * 1000:.0f}, max {max(walls) * 1000:.0f}, {len(walls)} runs), "
        f"median {cpu * 1000:.0f} ms CPU; load average {load:.2f} on {os.cpu_count()} CPUs — "
        f"{verdict} the {TARGET_SECONDS:.0f} s target"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
