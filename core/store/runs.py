"""Which run an entry belongs to.

The rule, first match wins:

1. `--run-id ID` on the command line (or the MCP server's own `--run-id`);
2. `$TIERSCOPE_RUN_ID`;
3. the POSIX session the command runs in: `sid-<session id>-<start time of the session
   leader>`. Every command started from the same terminal, agent shell or CI job shares
   a session, so their entries form one run without any set-up; a new terminal or job
   starts a new run. The leader's start time (clock ticks since boot, from
   /proc/<sid>/stat) tells a reused session id apart from the one before it; where
   /proc is not available the id is `sid-<session id>`.

An MCP server resolves its run once, at start-up, so every tool call it serves lands in
the same run.
"""

from __future__ import annotations

import os
from pathlib import Path

RUN_ID_ENV = "TIERSCOPE_RUN_ID"


def current_run_id(explicit: str | None = None) -> str:
    """The run to write to and read from by default, by the rule in this module's doc."""
    if explicit and explicit.strip():
        return explicit.strip()
    from_env = os.environ.get(RUN_ID_ENV, "").strip()
    if from_env:
        return from_env
    return session_run_id()


def session_run_id() -> str:
    """`sid-<sid>-<leader start time>`, or `sid-<sid>` when the start time is unknown."""
    sid = os.getsid(0)
    started = leader_start_time(sid)
    return f"sid-{sid}-{started}" if started is not None else f"sid-{sid}"


def leader_start_time(pid: int, proc: Path = Path("/proc")) -> int | None:
    """Field 22 of /proc/<pid>/stat (start time in clock ticks since boot), if readable."""
    try:
        stat = (proc / str(pid) / "stat").read_text(encoding="ascii", errors="replace")
    except OSError:
        return None
    # The command name (field 2) may contain spaces and parentheses: parse after the last ')'.
    fields = stat.rpartition(")")[2].split()
    # fields[0] is field 3 (state), so field 22 is fields[19].
    try:
        return int(fields[19])
    except (IndexError, ValueError):
        return None
