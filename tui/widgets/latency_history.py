"""Per-tier latency over the session's queries, drawn as a one-line sparkline."""

from __future__ import annotations

from collections import defaultdict, deque

from tierscope.models import TierOutcome, TierStatus

BARS = "▁▂▃▄▅▆▇█"
# Tiers that were skipped or disabled did no work; their 0 ms would flatten the line.
MEASURED = frozenset(
    {
        TierStatus.SERVED,
        TierStatus.EMPTY,
        TierStatus.UNAVAILABLE,
        TierStatus.TIMEOUT,
        TierStatus.ERROR,
    }
)


class LatencyHistory:
    """The last `keep` measured latencies of each tier, oldest first."""

    def __init__(self, keep: int = 40) -> None:
        self._series: dict[str, deque[float]] = defaultdict(lambda: deque(maxlen=keep))

    def record(self, outcomes: tuple[TierOutcome, ...]) -> None:
        for outcome in outcomes:
            if outcome.status in MEASURED:
                self._series[outcome.tier].append(outcome.latency_ms)

    def series(self, tier: str) -> tuple[float, ...]:
        return tuple(self._series.get(tier, ()))


def sparkline(values: tuple[float, ...], width: int) -> str:
    """The last `width` values as block characters scaled to their maximum."""
    shown = values[-width:] if width > 0 else ()
    if not shown:
        return ""
    top = max(shown)
    if top <= 0:
        return BARS[0] * len(shown)
    last = len(BARS) - 1
    return "".join(BARS[min(last, round(value / top * last))] for value in shown)
