"""How long a search may still run, and whether its caller has cancelled it: shared by
the tiers and the processes they start."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

from . import shutdown


@dataclass(frozen=True, slots=True)
class Deadline:
    """An absolute monotonic deadline plus a cancel flag shared with the caller."""

    at: float
    cancel: threading.Event = field(default_factory=threading.Event)

    @classmethod
    def after(cls, seconds: float, cancel: threading.Event | None = None) -> Deadline:
        return cls(time.monotonic() + seconds, cancel or threading.Event())

    def remaining(self) -> float:
        return max(0.0, self.at - time.monotonic())

    def expired(self) -> bool:
        return time.monotonic() >= self.at

    @property
    def cancelled(self) -> bool:
        """The caller cancelled, or the whole process is shutting down (a signal)."""
        return self.cancel.is_set() or shutdown.requested()
