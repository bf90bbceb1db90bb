"""The process is going away: a SIGTERM or SIGHUP arrived (MCP clients stop their servers
with SIGTERM; a closed terminal sends SIGHUP).

`request()` cancels every running query at once — each tier's deadline reads as cancelled,
no new tier process starts — and kills every tier process group still running, so nothing
is left behind however the process then ends.
"""

from __future__ import annotations

import threading

_requested = threading.Event()


def requested() -> bool:
    """Whether the process is shutting down."""
    return _requested.is_set()


def request() -> None:
    """Shut down: cancel running queries and kill every live tier process group. Safe to
    call from a signal handler, more than once."""
    from .process import kill_live_groups

    _requested.set()
    kill_live_groups()
