"""The Trajectories view's files pane: each trajectory file with its agent, date, size,
line count and whether it is compressed. Space marks files to open together (merged by
time); Enter opens the marked files, or the highlighted one."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from pathlib import Path
from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.content import Content
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from ..trajectory_reading import FileRow
from . import short_path

NAME_WIDTH = 16
COUNT_WIDTH = 7
ONE_LINE_WIDTH = 60  # a pane this wide lists each file on one line


def file_size(size: int) -> str:
    """`812 B`, `8.0 KB`, `51.5 MB`."""
    value = float(size)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{size} B" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{size} B"


def file_prompt(row: FileRow, *, marked: bool, opened: bool, one_line: bool = False) -> Content:
    """Two lines: mark, agent (the file name when it is not `<agent>-<date>.jsonl`) and
    line count; then date, size and `gz`. All on one line with `one_line` (a pane as wide
    as the screen, above the entries on a narrow terminal)."""
    info = row.info
    name = short_path.one_line(info.agent or info.path.name)
    if len(name) > NAME_WIDTH:
        name = name[: NAME_WIDTH - 1] + "…"
    lines = "?" if row.lines is None else f"{row.lines:,}"
    day = info.day.isoformat() if info.day else "no date"
    return Content.assemble(
        ("✓ " if marked else "  ", "$accent bold"),
        (name.ljust(NAME_WIDTH), "$primary bold" if opened else "$foreground"),
        (lines.rjust(COUNT_WIDTH), "$foreground-muted"),
        " lines  " if one_line else "\n  ",
        (f"{day}  {file_size(info.size):>8}", "$foreground-muted"),
        ("  gz" if info.compressed else "", "$accent"),
    )


class TrajectoryFiles(OptionList):
    """The files of the trajectory directory, newest day first."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "toggle_mark", "Mark"),
    ]

    class Open(Message):
        """Open these files (one, or several to merge by time)."""

        def __init__(self, paths: tuple[Path, ...]) -> None:
            super().__init__()
            self.paths = paths

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.rows: tuple[FileRow, ...] = ()
        self.marked: set[Path] = set()
        self.opened: frozenset[Path] = frozenset()
        self.one_line = False

    def show(self, rows: Sequence[FileRow], opened: Collection[Path] | None = None) -> None:
        """List `rows`, keeping the highlight on the same file and the marks of files still
        there."""
        current = self.highlighted_path
        self.rows = tuple(rows)
        if opened is not None:
            self.opened = frozenset(opened)
        self.marked &= {row.info.path for row in self.rows}
        self._redraw()
        paths = [row.info.path for row in self.rows]
        if current in paths:
            self.highlighted = paths.index(current)
        elif self.rows:
            self.highlighted = 0

    def show_opened(self, opened: Collection[Path]) -> None:
        self.opened = frozenset(opened)
        self._redraw()

    def mark_only(self, paths: Collection[Path]) -> None:
        """Mark exactly `paths` (those listed)."""
        self.marked = set(paths) & {row.info.path for row in self.rows}
        self._redraw()

    @property
    def highlighted_path(self) -> Path | None:
        if self.highlighted is None or not 0 <= self.highlighted < len(self.rows):
            return None
        return self.rows[self.highlighted].info.path

    def on_resize(self) -> None:
        one_line = self.size.width >= ONE_LINE_WIDTH
        if one_line != self.one_line:
            self.one_line = one_line
            self._redraw()

    def _redraw(self) -> None:
        highlighted = self.highlighted
        self.set_options(
            Option(
                file_prompt(
                    row,
                    marked=row.info.path in self.marked,
                    opened=row.info.path in self.opened,
                    one_line=self.one_line,
                )
            )
            for row in self.rows
        )
        if highlighted is not None and self.rows:
            self.highlighted = min(highlighted, len(self.rows) - 1)

    def action_toggle_mark(self) -> None:
        path = self.highlighted_path
        if path is None:
            return
        self.marked ^= {path}
        self._redraw()

    def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        message.stop()
        marked = tuple(row.info.path for row in self.rows if row.info.path in self.marked)
        if marked:
            self.post_message(self.Open(marked))
        else:
            self.post_message(self.Open((self.rows[message.option_index].info.path,)))
