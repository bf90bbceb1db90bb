"""The tier pipeline: one `TierRow` per tier, in fallback order, updated as events arrive."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical

from tierscope.models import TierOutcome

from .latency_history import LatencyHistory
from .tier_row import TierRow


class TierPipeline(Vertical):
    """Shows where the current query is in the qmd -> ck -> grep fall-through."""

    DEFAULT_CSS = """
    TierPipeline {
        height: auto;
        border: round $foreground 25%;
        border-title-color: $foreground-muted;
        padding: 0 1;
    }
    """

    def __init__(self, tiers: tuple[str, ...], timeout: float, **kwargs) -> None:
        super().__init__(**kwargs)
        self.tiers = tiers
        self.timeout = timeout
        self.border_title = "Tiers  (fallback order · latency history →)"

    def compose(self) -> ComposeResult:
        for tier in self.tiers:
            yield TierRow(tier, self.timeout, id=f"tier-{tier}")

    def row(self, tier: str) -> TierRow:
        """The row of `tier`, added at the end if the engine reports a tier not shown yet."""
        matches = self.query(f"#tier-{tier}")
        if matches:
            return matches.first(TierRow)
        row = TierRow(tier, self.timeout, id=f"tier-{tier}")
        self.mount(row)
        return row

    def reset(self, timeout: float) -> None:
        """Every tier waits for the new query."""
        self.timeout = timeout
        for row in self.query(TierRow):
            row.wait(timeout)

    def tier_started(self, tier: str, timeout: float) -> None:
        self.row(tier).start(timeout)

    def tier_finished(self, outcome: TierOutcome) -> None:
        self.row(outcome.tier).finish(outcome)

    def show_outcomes(self, outcomes: tuple[TierOutcome, ...]) -> None:
        """The final word on every tier (the result is authoritative over the live events)."""
        for outcome in outcomes:
            self.row(outcome.tier).finish(outcome)

    def cancel(self) -> None:
        for row in self.query(TierRow):
            row.cancel()

    def show_history(self, history: LatencyHistory) -> None:
        for row in self.query(TierRow):
            row.history = history.series(row.tier)
