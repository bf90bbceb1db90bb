"""The results table: every candidate hit by rank, and whether the budget kept it."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.message import Message
from textual.widgets import DataTable

from tierscope.models import BudgetEntry, BudgetReport

from .budget_meter import entry_label
from .tier_style import theme_colour, tier_variable


@dataclass(frozen=True, slots=True)
class RankedEntry:
    """A hit as the table shows it: its rank by score and what the budget did with it."""

    rank: int
    entry: BudgetEntry
    kept: bool


def rank_entries(report: BudgetReport) -> list[RankedEntry]:
    """Kept and dropped hits together, best score first (ties keep the engine's order)."""
    marked = [(entry, True) for entry in report.included]
    marked += [(entry, False) for entry in report.dropped]
    marked.sort(key=lambda pair: -pair[0].hit.score)
    return [RankedEntry(rank, entry, kept) for rank, (entry, kept) in enumerate(marked, 1)]


class ResultsTable(DataTable):
    """Rank, score, tier, tokens, source and kept/dropped; highlighting a row selects it."""

    DEFAULT_CSS = """
    ResultsTable {
        height: 1fr;
    }
    """

    class HitSelected(Message):
        def __init__(self, ranked: RankedEntry | None) -> None:
            super().__init__()
            self.ranked = ranked

    def __init__(self, **kwargs) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)
        self.ranked: list[RankedEntry] = []

    def on_mount(self) -> None:
        self.add_column("#", key="rank")
        self.add_column("score", key="score")
        self.add_column("tier", key="tier")
        self.add_column("tokens", key="tokens")
        self.add_column("budget", key="budget")
        self.add_column("source", key="source")

    def show(self, report: BudgetReport | None) -> None:
        """Fill the table from `report`, keeping the cursor on the same rank."""
        row = self.cursor_row
        self.clear()
        self.ranked = rank_entries(report) if report is not None else []
        for ranked in self.ranked:
            self.add_row(*self._cells(ranked), key=str(ranked.rank))
        if self.ranked:
            self.move_cursor(row=min(max(row, 0), len(self.ranked) - 1))
        self.post_message(self.HitSelected(self.selected()))

    def selected(self) -> RankedEntry | None:
        if not self.ranked or not 0 <= self.cursor_row < len(self.ranked):
            return None
        return self.ranked[self.cursor_row]

    def _cells(self, ranked: RankedEntry) -> tuple[object, ...]:
        hit = ranked.entry.hit
        tier = Text(hit.tier, style=f"bold {theme_colour(self.app, tier_variable(hit.tier))}")
        if ranked.kept:
            budget = Text("kept", style=theme_colour(self.app, "budget-ok"))
        else:
            budget = Text("dropped", style=theme_colour(self.app, "budget-over"))
        return (
            Text(str(ranked.rank), justify="right"),
            Text(f"{hit.score:.3f}", justify="right"),
            tier,
            Text(str(ranked.entry.tokens), justify="right"),
            budget,
            Text(entry_label(ranked.entry)),
        )

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self.post_message(self.HitSelected(self.selected()))
