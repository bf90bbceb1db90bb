"""The results table: every candidate hit by rank, and whether the budget kept it."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import events
from textual.message import Message
from textual.widgets import DataTable

from tierscope.models import BudgetEntry, BudgetReport

from .budget_meter import entry_label
from .short_path import fit_path
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


# Below this many cells the tier column goes (a query's hits share one tier unless every
# tier ran) and kept/dropped becomes a mark.
COMPACT_WIDTH = 64
SCROLLBAR = 2


class ResultsTable(DataTable):
    """Rank, score, tier, tokens, kept/dropped and source; highlighting a row selects it.
    Sources are cut in their folders to fit, so the file name stays in view."""

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
        self._layout: tuple[bool, int] | None = None

    def on_mount(self) -> None:
        self._fill()

    def show(self, report: BudgetReport | None) -> None:
        """Fill the table from `report`, keeping the cursor on the same rank."""
        self.ranked = rank_entries(report) if report is not None else []
        self._fill()
        self.post_message(self.HitSelected(self.selected()))

    def on_resize(self, event: events.Resize) -> None:
        # The event's size is the new one; the region the table is placed in may still be
        # the old one while the screen lays out (on a busy machine, for a while).
        if self._layout != self._layout_for_width(event.size.width):
            self._fill(event.size.width)

    @property
    def compact(self) -> bool:
        return self.size.width < COMPACT_WIDTH

    def _layout_for_width(self, width: int | None = None) -> tuple[bool, int]:
        """(compact, cells left for the source) at the table's width (`width`: its content
        width, when known better than from its present region)."""
        width = self.size.width if width is None else width
        compact = width < COMPACT_WIDTH
        padding = 2 * self.cell_padding
        tokens = max([0, *(len(str(r.entry.tokens)) for r in self.ranked)])
        fixed = [len(str(len(self.ranked) or 1)), len("score")]
        if compact:
            fixed.append(max(len("tokens"), tokens + 2))
        else:
            fixed.append(max(len("tokens"), tokens))
            fixed += [max([len("tier"), *(len(r.entry.hit.tier) for r in self.ranked)])]
            fixed += [len("dropped")]
        used = sum(width + padding for width in fixed) + padding + SCROLLBAR
        return compact, max(8, width - used)

    def _fill(self, width: int | None = None) -> None:
        row = self.cursor_row
        self._layout = self._layout_for_width(width)
        compact, source_width = self._layout
        self.clear(columns=True)
        self.add_column("#", key="rank")
        self.add_column("score", key="score")
        if not compact:
            self.add_column("tier", key="tier")
        self.add_column("tokens", key="tokens")
        if not compact:
            self.add_column("budget", key="budget")
        self.add_column("source", key="source")
        for ranked in self.ranked:
            self.add_row(*self._cells(ranked, compact, source_width), key=str(ranked.rank))
        if self.ranked:
            self.move_cursor(row=min(max(row, 0), len(self.ranked) - 1))

    def selected(self) -> RankedEntry | None:
        if not self.ranked or not 0 <= self.cursor_row < len(self.ranked):
            return None
        return self.ranked[self.cursor_row]

    def _cells(self, ranked: RankedEntry, compact: bool, source_width: int) -> tuple[object, ...]:
        hit = ranked.entry.hit
        style = theme_colour(self.app, "budget-ok" if ranked.kept else "budget-over")
        tokens = str(ranked.entry.tokens)
        cells: list[object] = [
            Text(str(ranked.rank), justify="right"),
            Text(f"{hit.score:.3f}", justify="right"),
        ]
        if compact:
            # Kept or dropped as a mark before the cost, where the budget column was.
            mark = "✓" if ranked.kept else "✗"
            cells.append(Text.assemble((mark, style), " ", tokens))
        else:
            tier_colour = theme_colour(self.app, tier_variable(hit.tier))
            cells.append(Text(hit.tier, style=f"bold {tier_colour}"))
            cells.append(Text(tokens, justify="right"))
            cells.append(Text("kept" if ranked.kept else "dropped", style=style))
        cells.append(Text(fit_path(entry_label(ranked.entry), source_width)))
        return tuple(cells)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self.post_message(self.HitSelected(self.selected()))
