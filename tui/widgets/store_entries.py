"""The Store view's entry list: one page of context entries; highlighting a row selects it."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.message import Message
from textual.widgets import DataTable

from tierscope.store.entries import ContextEntry, readable_content

from .short_path import fit_path
from .tier_style import theme_colour

# Theme variables that tell the entry types apart at a glance: one per type in
# tierscope.store.context_types (a test holds the two together).
TYPE_VARIABLES = {
    "discovery": "primary",
    "error": "error",
    "decision": "accent",
    "review_issue": "warning",
    "scratchpad": "secondary",
    "codebase_analysis": "tier-store",
}
SUMMARY_WIDTH = 120
MIN_SUMMARY_WIDTH = 20
LOCATION_WIDTH = 32
# Below this many cells the time column goes (the detail has it) and file:line narrows.
COMPACT_WIDTH = 100
COMPACT_LOCATION_WIDTH = 20


def type_variable(entry_type: str) -> str:
    """The theme variable that colours an entry type."""
    return TYPE_VARIABLES.get(entry_type, "foreground")


def entry_location(entry: ContextEntry) -> str:
    """file:line of an entry, the file alone, or "" when it names none."""
    if not entry.file:
        return ""
    return f"{entry.file}:{entry.line}" if entry.line else entry.file


def entry_summary(entry: ContextEntry, width: int = SUMMARY_WIDTH) -> str:
    """The entry's first line in prose (JSON types spelled out), cut to `width` cells."""
    lines = readable_content(entry).strip().splitlines()
    first = lines[0] if lines else ""
    return first if len(first) <= width else first[: width - 1] + "…"


class EntryTable(DataTable):
    """id, time, type, (run), file:line and a one-line summary of each entry of a page."""

    class EntryHighlighted(Message):
        def __init__(self, entry: ContextEntry | None) -> None:
            super().__init__()
            self.entry = entry

    def __init__(self, **kwargs) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)
        self.entries: tuple[ContextEntry, ...] = ()
        self.with_run = False
        self._fitted_width = 0

    def show(self, entries: Sequence[ContextEntry], *, with_run: bool) -> None:
        """Fill the table with `entries` (cursor on the first); the run column only when
        they span runs."""
        self.entries = tuple(entries)
        self.with_run = with_run
        self._fill()
        if self.entries:
            self.move_cursor(row=0)
        self.post_message(self.EntryHighlighted(self.selected()))
        # A table just made visible has no width yet: fit the summaries once it has.
        self.call_after_refresh(self._refit)

    def selected(self) -> ContextEntry | None:
        if not self.entries or not 0 <= self.cursor_row < len(self.entries):
            return None
        return self.entries[self.cursor_row]

    def on_resize(self) -> None:
        self._refit()

    def _refit(self) -> None:
        """The summary column takes whatever width is left: re-fill at a new width."""
        if self.scrollable_content_region.width == self._fitted_width:
            return
        row = self.cursor_row
        self._fill()
        if self.entries:
            self.move_cursor(row=row)

    @property
    def compact(self) -> bool:
        return 0 < self.scrollable_content_region.width < COMPACT_WIDTH

    def _fill(self) -> None:
        written = [] if self.compact else ["written"]
        headings = ["#", *written, "type", *(["run"] if self.with_run else []), "at"]
        rows = [self._cells(entry) for entry in self.entries]
        # Widths are measured here rather than left to the table: a table refilled
        # several times between two idle moments can keep the widths of an older fill.
        widths = [
            max([len(heading), *(row[index].cell_len for row in rows)])
            for index, heading in enumerate(headings)
        ]
        summary_width = self._summary_width(widths)
        self._fitted_width = self.scrollable_content_region.width
        self.clear(columns=True)
        for heading, width in zip(headings, widths, strict=True):
            self.add_column(heading, key=heading, width=width)
        self.add_column("entry", key="entry", width=summary_width)
        for entry, cells in zip(self.entries, rows, strict=True):
            self.add_row(*cells, Text(entry_summary(entry, summary_width)), key=str(entry.id))

    def _summary_width(self, widths: list[int]) -> int:
        """What is left of the table's width for the summary (each cell is padded on both
        sides; room is kept for a vertical scrollbar so no horizontal one appears)."""
        available = self.scrollable_content_region.width - self.styles.scrollbar_size_vertical
        used = sum(width + 2 * self.cell_padding for width in widths) + 2 * self.cell_padding
        return max(MIN_SUMMARY_WIDTH, min(SUMMARY_WIDTH, available - used))

    def _cells(self, entry: ContextEntry) -> list[Text]:
        colour = theme_colour(self.app, type_variable(entry.type))
        # Text, not str: a str cell would be read as markup, and `[` in an entry is common.
        compact = self.compact
        cells = [Text(str(entry.id), justify="right")]
        if not compact:
            # Month to second tells entries apart; the detail has the full stamp.
            cells.append(Text(entry.created_at[5:19]))
        cells.append(Text(entry.type, style=colour))
        if self.with_run:
            cells.append(Text(entry.run_id))
        width = COMPACT_LOCATION_WIDTH if compact else LOCATION_WIDTH
        cells.append(Text(fit_path(entry_location(entry), width)))
        return cells

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self.post_message(self.EntryHighlighted(self.selected()))
