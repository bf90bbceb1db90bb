"""The one small interface every tier implements."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..config.model import Config
from ..deadline import Deadline
from ..filtering import ContextFilter
from ..models import ResolvedScope, TierOutcome


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
    # The query's one context filter (the engine's), so a tier that filters while it
    # collects and the engine that checks every tier's hits judge each source once.
    context_filter: ContextFilter | None = None

    def context(self) -> ContextFilter:
        """The query's context filter; a tier called on its own gets one of its own."""
        if self.context_filter is not None:
            return self.context_filter
        return ContextFilter(self.root, self.config.filtering, self.private_paths)


@dataclass(frozen=True, slots=True)
class Probe:
    """Whether a tier can run here, and if not, exactly why."""

    usable: bool
    reason: str
    path: str | None = None
    version: str | None = None
    details: dict = field(default_factory=dict)


# The interface is declared for the type check only: a query never needs `typing` at run
# time, and importing it costs ~3 ms.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Protocol

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
