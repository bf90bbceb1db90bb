"""Workbench cold start to first paint, as a user sees it: the whole `tierscope` process,
launched under a pseudo-terminal on a fresh demo project, until its first frame has reached
the terminal (the frame is written top to bottom: the moment its last row arrives).
`TIERSCOPE_EXIT_AFTER_FIRST_PAINT=1` makes the app exit right then; the time to the
process's exit is reported beside it.

    .venv/bin/python bench/tui_bench.py [--runs 7]

Target (DESIGN §6): median ≤ 1 s.
"""

from __future__ import annotations

import argparse
import fcntl
import json
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
    """One launch: wall seconds from fork to the first frame on the terminal and to the
    process's exit, and the CPU seconds the process used in all (on a busy machine wall
    time includes waiting for a CPU; CPU time does not)."""

    painted: float
    wall: float
    cpu: float


class FrameWatch:
    """Fed the terminal's output as it comes: whether the first frame has been drawn down
    to the screen's last row (the app moves the cursor to each row it draws: `ESC [ row ;
    column H`). The sequence may be split between two reads."""

    def __init__(self, rows: int) -> None:
        self.marker = f"\x1b[{rows};".encode()
        self.tail = b""
        self.drawn = False

    def feed(self, output: bytes) -> bool:
        if not self.drawn:
            seen = self.tail + output
            self.drawn = self.marker in seen
            self.tail = seen[-(len(self.marker) - 1) :]
        return self.drawn


def launch_once(argv: list[str], env: dict[str, str]) -> Launch:
    """Launch the app, which exits after its first paint, and time it."""
    started = time.perf_counter()
    pid, terminal = pty.fork()
    if pid == 0:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
        os.execve(argv[0], argv, env)
    deadline = started + GIVE_UP_SECONDS
    frame = FrameWatch(ROWS)
    painted = None
    try:
        # Drain the terminal: an unread pty would block the app's writes.
        while time.perf_counter() < deadline:
            ready, _, _ = select.select([terminal], [], [], 0.5)
            if ready:
                try:
                    output = os.read(terminal, 65536)
                except OSError:  # EIO: the child closed its side, i.e. exited
                    break
                if not output:
                    break
                if painted is None and frame.feed(output):
                    painted = time.perf_counter() - started
        else:
            os.kill(pid, 9)
            raise SystemExit(f"the workbench did not exit within {GIVE_UP_SECONDS:.0f} s")
    finally:
        _, status, usage = os.wait4(pid, 0)
        os.close(terminal)
    elapsed = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"the workbench exited with status {os.waitstatus_to_exitcode(status)}")
    if painted is None:
        raise SystemExit(f"the workbench exited without drawing its last row ({ROWS})")
    return Launch(painted, elapsed, usage.ru_utime + usage.ru_stime)


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
    painted = [launch.painted for launch in launches]
    walls = [launch.wall for launch in launches]
    median = statistics.median(painted)
    cpu = statistics.median(launch.cpu for launch in launches)
    met = median <= TARGET_SECONDS
    load = os.getloadavg()[0]
    details = [
        f"to the first frame on the terminal: median {median * 1000:.0f} ms (min "
        f"{min(painted) * 1000:.0f}, max {max(painted) * 1000:.0f}, {len(painted)} runs)",
        f"to the process's exit (the app quits once it has painted): median "
        f"{statistics.median(walls) * 1000:.0f} ms (min {min(walls) * 1000:.0f}, max "
        f"{max(walls) * 1000:.0f})",
        f"CPU of the whole process: median {cpu * 1000:.0f} ms; load average {load:.2f} on "
        f"{os.cpu_count()} CPUs",
    ]
    print(
        f"workbench cold start to first paint: {details[0]}; {details[1]}; {details[2]} — "
        f"{'meets' if met else 'misses'} the {TARGET_SECONDS:.0f} s target"
    )
    figure = f"{median * 1000:.0f} ms median (exit {statistics.median(walls) * 1000:.0f} ms)"
    print(json.dumps({"figure": figure, "met": met, "details": details}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
