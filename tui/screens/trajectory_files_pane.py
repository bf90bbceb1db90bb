"""The Trajectories view's files: the trajectory directory listed with line counts in a
thread worker (which only posts messages), the newest day opened first, files opened by
choice, by path (`o`), today's (`t`) or all of them (`a`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import UTC, date, datetime
from pathlib import Path

from textual import work
from textual.widgets import Input

from tierscope.api import Project

from ..trajectory_messages import FilesListed
from ..trajectory_reading import FileRow, OpenedTrajectory, list_files
from ..widgets.short_path import short_path
from ..widgets.trajectory_files import TrajectoryFiles
from ..widgets.trajectory_lines import TrajectoryLines
from ..widgets.trajectory_summary import TrajectorySummary
from .screen_part import ScreenPart


def is_today(day: date | None) -> bool:
    """Whether a file's day is today, by the local or the UTC calendar (files are named by
    the writer's day)."""
    return day is not None and day in {date.today(), datetime.now(UTC).date()}


class TrajectoryFilesPane(ScreenPart):
    """The files part of `TrajectoriesScreen`."""

    engine: Project
    directory: Path
    files: tuple[FileRow, ...]
    opened: OpenedTrajectory | None
    _listing: bool  # a listing worker is running
    _listed_once: bool
    _loading: bool  # files are being opened or indexed
    open_paths: Callable[[Iterable[Path | str]], None]

    def _list_files(self) -> None:
        if not self._listing:
            self._listing = True
            self._list(self.files)

    @work(thread=True, exclusive=True, group="trajectory-files", exit_on_error=False)
    def _list(self, previous: tuple[FileRow, ...]) -> None:
        self.post_message(FilesListed(list_files(self.directory, previous)))

    def on_files_listed(self, message: FilesListed) -> None:
        self._listing = False
        first = not self._listed_once
        self._listed_once = True
        if message.rows != self.files or first:
            self.files = message.rows
            opened = self.opened.paths if self.opened else ()
            self.query_one(TrajectoryFiles).show(self.files, opened)
        if first and self.opened is None and not self._loading:
            self._open_latest_day()

    def _open_latest_day(self) -> None:
        """Open the newest day's files, merged (a file not named by day, if that is all)."""
        if not self.files:
            where = short_path(self.directory, self.engine.root)
            self.query_one(TrajectorySummary).show_empty(where)
            return
        day = self.files[0].info.day
        paths = [row.info.path for row in self.files if row.info.day == day] if day else []
        self.open_paths(paths or [self.files[0].info.path])

    def on_trajectory_files_open(self, message: TrajectoryFiles.Open) -> None:
        self.open_paths(message.paths)
        self.query_one(TrajectoryLines).focus()

    def on_input_submitted(self, message: Input.Submitted) -> None:
        if message.input.id != "trajectory-path":
            return
        given = message.value.strip()
        if not given:
            return
        path = Path(given).expanduser()
        candidates = [path] if path.is_absolute() else [Path.cwd() / path, self.engine.root / path]
        found = next((candidate for candidate in candidates if candidate.is_file()), None)
        if found is None:
            self.notify(f"No such file: {given}", severity="warning")
            return
        message.input.value = ""
        self.open_paths([found])
        self.query_one(TrajectoryLines).focus()

    def action_open_today(self) -> None:
        today = [row.info.path for row in self.files if is_today(row.info.day)]
        if not today:
            self.notify("No trajectory files for today yet.", severity="warning")
            return
        self.query_one(TrajectoryFiles).mark_only(today)
        self.open_paths(today)

    def action_open_all(self) -> None:
        if self.files:
            self.open_paths([row.info.path for row in self.files])

    def action_open_path(self) -> None:
        # On a short terminal the field shows only while it is in use.
        self.add_class("-opening-path")
        self.call_after_refresh(self.query_one("#trajectory-path", Input).focus)

    def on_input_blurred(self, message: Input.Blurred) -> None:
        if message.input.id == "trajectory-path":
            self.remove_class("-opening-path")
