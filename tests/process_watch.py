"""Watching test processes die: shared by the process runner and tier tests."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path


def process_exists(pid: int) -> bool:
    """True while pid is a live process; a zombie waiting to be reaped counts as gone."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    stat = Path(f"/proc/{pid}/stat")
    try:
        state = stat.read_text().rpartition(")")[2].split()[0]
    except (OSError, IndexError):
        return stat.parent.exists()
    return state not in ("Z", "X")


def gone_soon(pid: int, within: float = 5.0) -> bool:
    until = time.monotonic() + within
    while time.monotonic() < until:
        if not process_exists(pid):
            return True
        time.sleep(0.02)
    return not process_exists(pid)


def interruptible() -> None:
    """For Popen's preexec_fn: the child takes SIGINT as from a terminal's Ctrl-C. A suite
    started in the background by a script (`.ci/run &`) has SIGINT ignored, every process
    it starts inherits that, and Python then installs no KeyboardInterrupt handler."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
