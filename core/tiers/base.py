"""The one small interface every tier implements."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from .. import shutdown
from ..config.model import Config
from ..models import ResolvedScope, TierOutcome


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


@dataclass(frozen=True, slots=True)
class TierRequest:
    """What a tier is asked: the query, where to look, and the project's settings."""

    query: str
    root: Path
    scope: ResolvedScope
    config: Config
    timeout: float
    # tierscope's own state (trajectory dir, store) is never searched by any tier.
    private_paths: tuple[Path, ...] = ()
    refresh: bool = False


@dataclass(frozen=True, slots=True)
class Probe:
    """Whether a tier can run here, and if not, exactly why."""

    usable: bool
    reason: str
    path: str | None = None
    version: str | None = None
    details: dict = field(default_factory=dict)


class Tier(Protocol):
    name: str

    def probe(self, request: TierRequest) -> Probe:
        """Cheap check: binary present, collection/index present, models present."""
        ...

    def search(self, request: TierRequest, deadline: Deadline) -> TierOutcome:
        """Run the search. Never raises for a user-caused problem: returns an outcome."""
        ...


def not_installed(tool: str) -> str:
    """The reason every tier gives when its command is not on PATH."""
    return f"{tool} not installed (not on PATH)"
