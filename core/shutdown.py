"""The process is going away: a SIGTERM or SIGHUP arrived (MCP clients stop their servers
with SIGTERM; a closed terminal sends SIGHUP).

`request()` cancels every running query at once — each tier's deadline reads as cancelled,
no new tier process starts — and kills every tier process group still running, so nothing
is left behind however the process then ends.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

_requested = threading.Event()
_on_request: list[Callable[[], None]] = []


def requested() -> bool:
    """Whether the process is shutting down."""
    return _requested.is_set()


def on_request(action: Callable[[], None]) -> None:
    """Run `action` when shutdown is requested (the process runner kills its groups). An
    action is registered by the module that owns what it cleans up: nothing here imports
    upwards."""
    _on_request.append(action)


def request() -> None:
    """Shut down: cancel running queries and kill every live tier process group. Safe to
    call from a signal handler, more than once."""
    _requested.set()
    for action in tuple(_on_request):
        action()
