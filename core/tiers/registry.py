"""Tier names to implementations, imported only when a query uses them.

A tier whose command-line tool is not on PATH is answered by `MissingTool` without importing
its module: every headless query pays for what it can use, not for what is absent.
"""

from __future__ import annotations

import importlib
import time

from ..executables import find_executable
from ..models import TierOutcome, TierStatus
from .base import Deadline, Probe, TierRequest, not_installed

# `typing` is not imported at run time: a query never needs it, and it costs ~3 ms.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from .base import Tier

_TIER_CLASSES = {
    "qmd": ("tierscope.tiers.qmd", "QmdTier"),
    "ck": ("tierscope.tiers.ck", "CkTier"),
    "grep": ("tierscope.tiers.grep", "GrepTier"),
    "store": ("tierscope.tiers.store", "StoreTier"),
}
# Tiers that are nothing without their external command.
_REQUIRED_TOOL = {"qmd": "qmd", "ck": "ck"}


class MissingTool:
    """Stands in for a tier whose tool is not installed."""

    def __init__(self, name: str, tool: str) -> None:
        self.name = name
        self.reason = not_installed(tool)

    def probe(self, request: TierRequest) -> Probe:
        return Probe(False, self.reason)

    def search(self, request: TierRequest, deadline: Deadline) -> TierOutcome:
        started = time.monotonic()
        return TierOutcome(
            self.name,
            TierStatus.UNAVAILABLE,
            self.reason,
            latency_ms=(time.monotonic() - started) * 1000,
        )


def load_tier(name: str) -> Tier:
    tool = _REQUIRED_TOOL.get(name)
    if tool is not None and find_executable(tool) is None:
        return MissingTool(name, tool)
    module_name, class_name = _TIER_CLASSES[name]
    return getattr(importlib.import_module(module_name), class_name)()
