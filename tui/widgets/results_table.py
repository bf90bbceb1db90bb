"""The results table: every candidate hit by rank, whether the budget kept it, and —
with a session chosen — whether that session has received it already."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rich.text import Text
from textual import events
from textual.message import Message
from textual.widgets import DataTable

from tierscope.models import BudgetEntry, BudgetReport, Hit

from .budget_meter import entry_label
from .short_path import fit_path
from .tier_style import theme_colour, tier_variable


@dataclass(frozen=True, slots=True)
class RankedEntry:
    """A hit as the table shows it: its rank by score, what the budget did with it, and
    what the chosen session has of it (`seen`: "repeat", "part" or "" for new; `where`
    the repeat was provided)."""

    rank: int
    entry: BudgetEntry
    kept: bool
    seen: str = ""
    where: str = ""


Seen = Mapping[Hit, tuple[str, str]]  # hit -> (what the session has: repeat/part, where)


def rank_entries(report: BudgetReport, seen: Seen | None = None) -> list[RankedEntry]:
    """Kept and dropped hits together, best score first (ties keep the engine's order)."""
    marked = [(entry, True) for entry in report.included]
    marked += [(entry, False) for entry in report.dropped]
    marked.sort(key=lambda pair: -pair[0].hit.score)
    seen = seen or {}
    return [
        RankedEntry(rank, entry, kept, *seen.get(entry.hit, ("", "")))
        for rank, (entry, kept) in enumerate(marked, 1)
    ]


SEEN_MARKS = {"repeat": "↺", "part": "◐"}


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
        self.report: BudgetReport | None = None
        self.seen: Seen | None = None  # None: no session chosen
        self._layout: tuple[bool, int, bool] | None = None
        # The content width the last resize reported: the region can lag behind it.
        self._reported_width: int | None = None

    def on_mount(self) -> None:
        self._fill()

    def show(self, report: BudgetReport | None) -> None:
        """Fill the table from `report`, keeping the cursor on the same rank."""
        self.report = report
        self.ranked = rank_entries(report, self.seen) if report is not None else []
        self._fill()
        self.post_message(self.HitSelected(self.selected()))

    def show_seen(self, seen: Seen | None) -> None:
        """Mark what a session has received (None: no session chosen, no column)."""
        self.seen = seen
        self.show(self.report)

    def on_resize(self, event: events.Resize) -> None:
        # The event's size is the new one (the whole widget, border included); the region
        # the table is placed in may still be the old one while the screen lays out (on a
        # busy machine, for a while).
        width = event.size.width - self.styles.gutter.width
        self._reported_width = width
        if self._layout != self._layout_for_width(width):
            self._fill(width)

    @property
    def compact(self) -> bool:
        return self.size.width < COMPACT_WIDTH

    def _layout_for_width(self, width: int | None = None) -> tuple[bool, int, bool]:
        """(compact, cells left for the source, session column) at the table's width
        (`width`: its content width, when known better than from its present region)."""
        if width is None:
            width = self.size.width if self._reported_width is None else self._reported_width
        compact = width < COMPACT_WIDTH
        session = self.seen is not None
        padding = 2 * self.cell_padding
        tokens = max([0, *(len(str(r.entry.tokens)) for r in self.ranked)])
        fixed = [len(str(len(self.ranked) or 1)), len("score")]
        if compact:
            fixed.append(max(len("tokens"), tokens + 2 + (2 if session else 0)))
        else:
            fixed.append(max(len("tokens"), tokens))
            fixed += [max([len("tier"), *(len(r.entry.hit.tier) for r in self.ranked)])]
            fixed += [len("dropped")]
            fixed += [len("session")] if session else []
        used = sum(width + padding for width in fixed) + padding + SCROLLBAR
        return compact, max(8, width - used), session

    def _fill(self, width: int | None = None) -> None:
        row = self.cursor_row
        self._layout = self._layout_for_width(width)
        compact, source_width, session = self._layout
        self.clear(columns=True)
        self.add_column("#", key="rank")
        self.add_column("score", key="score")
        if not compact:
            self.add_column("tier", key="tier")
        self.add_column("tokens", key="tokens")
        if not compact:
            self.add_column("budget", key="budget")
            if session:
                self.add_column("session", key="session")
        self.add_column("source", key="source")
        for ranked in self.ranked:
            self.add_row(*self._cells(ranked, compact, source_width), key=str(ranked.rank))
        if self.ranked:
            self.move_cursor(row=min(max(row, 0), len(self.ranked) - 1))
        self.call_after_refresh(self._redraw_rows)

    def _redraw_rows(self) -> None:
        """Draw every row again once the table has measured its new columns. Rows drawn
        before that (on a busy machine the first refresh can come first) are cached with
        the old column widths, and some stayed so: cut sources, cells run together."""
        self._clear_caches()
        self.refresh()

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
        seen_style = theme_colour(self.app, "warning")
        if compact:
            # Kept or dropped as a mark before the cost, where the budget column was; what
            # the session has as a mark after it.
            mark = "✓" if ranked.kept else "✗"
            seen = SEEN_MARKS.get(ranked.seen, " ") if self.seen is not None else ""
            cells.append(
                Text.assemble((mark, style), " ", tokens, (f" {seen}" if seen else "", seen_style))
            )
        else:
            tier_colour = theme_colour(self.app, tier_variable(hit.tier))
            cells.append(Text(hit.tier, style=f"bold {tier_colour}"))
            cells.append(Text(tokens, justify="right"))
            cells.append(Text("kept" if ranked.kept else "dropped", style=style))
            if self.seen is not None:
                cells.append(Text(ranked.seen or "new", style=seen_style if ranked.seen else ""))
        cells.append(Text(fit_path(entry_label(ranked.entry), source_width)))
        return tuple(cells)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self.post_message(self.HitSelected(self.selected()))
