"""The Trajectories view's entry list: a virtualised scroll view over a trajectory of any
size. Only the rows on screen are read (from the byte-offset index) and drawn; the file is
never loaded whole and no widget exists per line.

Rows map to positions of the source: every position in order, or only those of a sorted
array (the lines matching a filter). Matching lines can also be marked among all lines.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import OrderedDict
from collections.abc import Sequence
from typing import ClassVar, Protocol

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from tierscope.trajectory.records import TrajectoryEntry

from .tier_style import theme_colour, tier_variable
from .trajectory_rows import row_text

# Below this many cells the hits and ms columns go, leaving room for the query.
COMPACT_WIDTH = 84
# Entries kept parsed for redrawing; a few screens' worth.
CACHED_ENTRIES = 512


class LineSource(Protocol):
    """A LineIndex, a MergedView or an OpenedTrajectory."""

    def __len__(self) -> int: ...

    def line(self, position: int) -> TrajectoryEntry: ...

    def lines(self, start: int, stop: int) -> list[TrajectoryEntry]: ...


def _unreadable(position: int, problem: str) -> TrajectoryEntry:
    return TrajectoryEntry(position + 1, 0, {}, "", f"could not be read: {problem}")


class TrajectoryLines(ScrollView, can_focus=True):
    """Rows of a trajectory with a cursor; posts `Highlighted` when the cursor's line
    changes."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "trajectory-lines--cursor",
        "trajectory-lines--flagged",
        "trajectory-lines--muted",
        "trajectory-lines--mark",
        "trajectory-lines--unmatched",
        "trajectory-lines--intent",
        "trajectory-lines--execute",
    }

    DEFAULT_CSS = """
    TrajectoryLines {
        overflow-x: hidden;
        overflow-y: scroll;
        background: $surface;
    }
    TrajectoryLines > .trajectory-lines--cursor {
        background: $foreground 12%;
    }
    TrajectoryLines:focus > .trajectory-lines--cursor {
        background: $primary 35%;
    }
    TrajectoryLines > .trajectory-lines--flagged {
        color: $error;
        text-style: bold;
    }
    TrajectoryLines > .trajectory-lines--muted {
        color: $foreground-muted;
    }
    TrajectoryLines > .trajectory-lines--mark {
        color: $accent;
    }
    TrajectoryLines > .trajectory-lines--unmatched {
        color: $foreground 45%;
    }
    TrajectoryLines > .trajectory-lines--intent {
        color: $secondary;
    }
    TrajectoryLines > .trajectory-lines--execute {
        color: $primary;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "cursor(-1)", "Up", show=False),
        Binding("down", "cursor(1)", "Down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("home", "first", "First line", show=False),
        Binding("end", "last", "Last line", show=False),
    ]

    class ColumnsChanged(Message):
        """The list dropped (or took back) its hits and ms columns for its width."""

        def __init__(self, compact: bool) -> None:
            super().__init__()
            self.compact = compact

    class Highlighted(Message):
        """The cursor is on the line at `position` of the source (None: no lines)."""

        def __init__(self, position: int | None) -> None:
            super().__init__()
            self.position = position

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.source: LineSource | None = None
        self.positions: Sequence[int] | None = None
        self.marks: Sequence[int] | None = None
        self.cursor_row = 0
        # Rows as of the last `rows_changed`: the source grows in a worker's thread, so
        # `row_count` may already count lines the list has not been told about.
        self.rows_shown = 0
        self.entries_read = 0
        self._entries: OrderedDict[int, TrajectoryEntry] = OrderedDict()
        self._announced: int | None = None
        self.compact = False

    # What is shown ---------------------------------------------------------------------

    def show(
        self,
        source: LineSource | None,
        positions: Sequence[int] | None = None,
        marks: Sequence[int] | None = None,
    ) -> None:
        """Show another source (cursor on its first row)."""
        self.source = source
        self._entries.clear()
        self.cursor_row = 0
        self.scroll_to(y=0, animate=False)
        self.set_rows(positions, marks)

    def set_rows(
        self, positions: Sequence[int] | None = None, marks: Sequence[int] | None = None
    ) -> None:
        """Show only `positions` (sorted; None: every line), marking those in `marks`
        (sorted; None: no marks). Either may be mutated later: call `rows_changed`."""
        self.positions = positions
        self.marks = marks
        self.rows_changed()

    def rows_changed(self, first_changed: int | None = None) -> None:
        """The source or the row arrays changed; lines from position `first_changed` on
        are read again (None: no line changed, only how many there are)."""
        if first_changed is not None:
            for position in [p for p in self._entries if p >= first_changed]:
                del self._entries[position]
        self.rows_shown = self.row_count
        self.virtual_size = Size(0, self.rows_shown)
        if self.cursor_row >= self.row_count:
            self.cursor_row = max(self.row_count - 1, 0)
        self.refresh()
        self._announce()

    @property
    def row_count(self) -> int:
        if self.source is None:
            return 0
        return len(self.source) if self.positions is None else len(self.positions)

    def position_at(self, row: int) -> int | None:
        if not 0 <= row < self.row_count:
            return None
        return row if self.positions is None else self.positions[row]

    def row_of(self, position: int) -> int:
        """The row showing `position`, or the row of the next position shown after it."""
        if self.positions is None:
            return position
        return bisect_left(self.positions, position)

    @property
    def selected(self) -> int | None:
        """The position under the cursor."""
        return self.position_at(self.cursor_row)

    def entry(self, position: int) -> TrajectoryEntry:
        """The parsed line at `position` (from the cache when drawn recently)."""
        if position not in self._entries:
            self._read([position])
        return self._entries.get(position) or _unreadable(position, "past the end")

    def is_marked(self, position: int) -> bool:
        marks = self.marks
        if marks is None:
            return False
        k = bisect_left(marks, position)
        return k < len(marks) and marks[k] == position

    # Cursor ----------------------------------------------------------------------------

    def move_cursor(self, row: int) -> None:
        """Put the cursor on `row` (clamped) and scroll it into view."""
        if self.row_count == 0:
            self.cursor_row = 0
        else:
            self.cursor_row = min(max(row, 0), self.row_count - 1)
        height = max(self.scrollable_content_region.height, 1)
        top = round(self.scroll_y)
        if self.cursor_row < top:
            self.scroll_to(y=self.cursor_row, animate=False)
        elif self.cursor_row >= top + height:
            self.scroll_to(y=self.cursor_row - height + 1, animate=False)
        self.refresh()
        self._announce()

    def move_to_position(self, position: int) -> None:
        self.move_cursor(self.row_of(position))

    @property
    def at_end(self) -> bool:
        """The cursor is on the last row shown so far (lines appended since the last
        `rows_changed` do not count: follow mode asks this before showing them)."""
        return self.cursor_row >= self.rows_shown - 1

    def action_cursor(self, step: int) -> None:
        self.move_cursor(self.cursor_row + step)

    def action_page(self, step: int) -> None:
        self.move_cursor(self.cursor_row + step * max(self.scrollable_content_region.height, 1))

    def action_first(self) -> None:
        self.move_cursor(0)

    def action_last(self) -> None:
        self.move_cursor(self.row_count - 1)

    def on_resize(self) -> None:
        compact = self.size.width < COMPACT_WIDTH
        if compact != self.compact:
            self.compact = compact
            self.refresh()
            self.post_message(self.ColumnsChanged(compact))

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is not None:
            self.move_cursor(round(self.scroll_y) + offset.y)

    def _announce(self) -> None:
        selected = self.selected
        if selected != self._announced:
            self._announced = selected
            self.post_message(self.Highlighted(selected))

    # Drawing ---------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        row = round(self.scroll_y) + y
        base = self.rich_style
        position = self.position_at(row)
        if position is None:
            return Strip.blank(width, base)
        if position not in self._entries:
            self._read_screen_from(row)
        entry = self._entries.get(position) or _unreadable(position, "gone")
        text = self._row(entry, position)
        line_style = base
        if row == self.cursor_row:
            # Only the background: the columns keep their colours on the cursor's row.
            cursor = Style(
                bgcolor=self.get_component_rich_style("trajectory-lines--cursor").bgcolor
            )
            text.stylize(cursor)
            line_style = base + cursor
        text.truncate(width, overflow="ellipsis")
        strip = Strip(text.render(self.app.console), text.cell_len)
        return strip.crop_extend(0, width, line_style).apply_style(base)

    def _row(self, entry: TrajectoryEntry, position: int) -> Text:
        styles = {
            "muted": self.get_component_rich_style("trajectory-lines--muted"),
            "flagged": self.get_component_rich_style("trajectory-lines--flagged"),
            "mark": self.get_component_rich_style("trajectory-lines--mark"),
            "phase-intent": self.get_component_rich_style("trajectory-lines--intent"),
            "phase-execute": self.get_component_rich_style("trajectory-lines--execute"),
        }
        marked = self.is_marked(position)
        colour = theme_colour(self.app, tier_variable(entry.tier)) if entry.tier else ""
        text = row_text(
            entry, marked=marked, styles=styles, tier_colour=colour, compact=self.compact
        )
        if self.marks is not None and not marked and not entry.flagged:
            text.stylize(self.get_component_rich_style("trajectory-lines--unmatched"))
        return text

    def _read_screen_from(self, row: int) -> None:
        """Read the lines of a screenful of rows from `row` that are not cached yet."""
        height = max(self.scrollable_content_region.height, 1)
        wanted = [
            position
            for r in range(row, min(row + height, self.row_count))
            if (position := self.position_at(r)) is not None and position not in self._entries
        ]
        self._read(wanted)

    def _read(self, positions: list[int]) -> None:
        if not positions or self.source is None:
            return
        source = self.source
        try:
            if positions == list(range(positions[0], positions[-1] + 1)):
                entries = source.lines(positions[0], positions[-1] + 1)
            else:
                entries = [source.line(position) for position in positions]
        except (OSError, ValueError, IndexError) as exc:
            # The file was replaced or closed between two frames; the next refresh redraws.
            entries = [_unreadable(position, str(exc)) for position in positions]
        for position, entry in zip(positions, entries, strict=False):
            self._entries[position] = entry
        self.entries_read += len(entries)
        while len(self._entries) > CACHED_ENTRIES:
            self._entries.popitem(last=False)
