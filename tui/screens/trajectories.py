"""The Trajectories view: what skills asked, live, at any size.

The project's trajectory files are listed with their agent, date, size and line count;
one file, several marked ones or a whole day open in a virtualised entry list (merged by
time), filtered by agent, phase and text, with the selected line in full below and the
tokens each agent injected per day against the `token_budgets` thresholds. Follow mode
shows lines other processes append; a logged query replays in the Query view.

Everything slow runs in thread workers that only post messages: listing and counting
files, indexing (cancelled when another file is opened), matching a filter (in steps),
counting tokens and, in follow mode, picking up appended lines on a timer (their
messages are in trajectory_messages.py).

This module opens, indexes and shows; the view's other jobs live beside it, one module
each: the files (trajectory_files_pane.py), the filters and their matches
(trajectory_filtering.py), follow mode (trajectory_following.py) and the budget over a
session (trajectory_session_budget.py).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import (
    Checkbox,
    Header,
    Input,
    Select,
    Static,
    TabbedContent,
    TabPane,
)
from textual.worker import get_current_worker

from tierscope.api import Project, QueryOptions
from tierscope.trajectory.budget_timeline import BudgetTimeline
from tierscope.trajectory.replay import EXECUTE, INTENT

from ..messages import ReplayQuery
from ..trajectory_matches import MatchSearch
from ..trajectory_messages import (
    IndexingProgressed,
    TrajectoryIndexed,
    TrajectoryOpened,
    TrajectoryUnreadable,
)
from ..trajectory_reading import FileRow, OpenedTrajectory, open_trajectory
from ..widgets.session_budget import SessionBudget
from ..widgets.trajectory_detail import TrajectoryDetail, entry_detail
from ..widgets.trajectory_files import TrajectoryFiles
from ..widgets.trajectory_lines import TrajectoryLines
from ..widgets.trajectory_rows import column_headings
from ..widgets.trajectory_summary import TrajectorySummary
from ..widgets.workbench_footer import WorkbenchFooter
from .trajectory_files_pane import TrajectoryFilesPane
from .trajectory_filtering import TrajectoryFiltering
from .trajectory_following import FOLLOW_SECONDS, TrajectoryFollowing
from .trajectory_session_budget import BUDGET_TAB, LINE_TAB, TrajectorySessionBudget
from .view_screen import ViewScreen

PROGRESS_SECONDS = 0.1


class TrajectoriesScreen(
    TrajectoryFilesPane,
    TrajectoryFiltering,
    TrajectoryFollowing,
    TrajectorySessionBudget,
    ViewScreen,
):
    """The project's trajectory logs."""

    CSS_PATH = "trajectories.tcss"
    TITLE = "Trajectories"
    AUTO_FOCUS = "#trajectory-lines"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "focus_text", "Filter"),
        Binding("n", "match(1)", "Next"),
        Binding("N", "match(-1)", "Previous match", show=False),
        Binding("m", "toggle_only_matches", "Only matches", show=False),
        Binding("f", "toggle_follow", "Follow"),
        Binding("r", "replay", "Replay"),
        Binding("b", "toggle_budget", "Budget"),
        Binding("t", "open_today", "Today", show=False),
        Binding("a", "open_all", "All files", show=False),
        Binding("o", "open_path", "Open path", show=False),
        Binding("escape", "focus_lines", "Entry list", show=False),
    ]
    # Keys of the view's widgets, for the help.
    HELP_KEYS: ClassVar[tuple[tuple[str, str], ...]] = (
        ("space", "Mark a file to open it with others (files list)"),
        ("enter", "Open the marked files, or the highlighted one (files list)"),
        ("↑ ↓ pgup pgdn home end", "Move in the entry list"),
    )

    def __init__(self, engine: Project, **kwargs) -> None:
        super().__init__(**kwargs)
        self.engine = engine
        self.directory = engine.trajectory_dir()
        self.files: tuple[FileRow, ...] = ()
        self.opened: OpenedTrajectory | None = None
        self.following = False
        self.matches = MatchSearch()
        self.only_matches = True
        self.timeline: BudgetTimeline | None = None
        self._load_id = 0
        self._loading = False
        self._listing = False
        self._listed_once = False
        self._refreshing = False
        self._counting = False
        self._count_again = False
        self._anchor: int | None = None
        self._stick_to_end = False
        self._progress = 0.0
        self._shown_choices: dict[str, list[tuple[str, str]]] = {}

    @property
    def indexing(self) -> bool:
        """Files are being opened or indexed."""
        return self._loading

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="trajectory-panes"):
            with Vertical(id="trajectory-files-column"):
                yield TrajectoryFiles(id="trajectory-files")
                yield Input(placeholder="open a file by path (o)", id="trajectory-path")
            with Vertical(id="trajectory-reading"):
                with Horizontal(id="trajectory-filters"):
                    yield Select[str]([], prompt="all agents", id="trajectory-agent", compact=True)
                    yield Select[str]([], prompt="all phases", id="trajectory-phase", compact=True)
                    yield Input(placeholder="text (/)", id="trajectory-text", compact=True)
                    yield Checkbox("only matches", True, id="trajectory-only-matches", compact=True)
                yield TrajectorySummary(id="trajectory-summary")
                yield Static(Content(column_headings()), id="trajectory-columns")
                yield TrajectoryLines(id="trajectory-lines")
                with TabbedContent(id="trajectory-tabs", initial=LINE_TAB):
                    with TabPane("Line", id=LINE_TAB):
                        yield TrajectoryDetail(id="trajectory-detail")
                    with TabPane("Budget over a session", id=BUDGET_TAB):
                        yield SessionBudget(id="trajectory-budget")
        yield WorkbenchFooter()

    def on_mount(self) -> None:
        files = self.query_one(TrajectoryFiles)
        files.border_title = "Files"
        files.border_subtitle = "space marks · ⏎ opens"
        self.query_one(TrajectoryDetail).show(None)
        self.query_one(SessionBudget).show(None)
        self._follow_timer = self.set_interval(FOLLOW_SECONDS, self._follow_tick, pause=True)
        self._show_summary()
        self._show_match_count()

    def on_unmount(self) -> None:
        # The view is discarded (new settings, or the app quits): let go of its files.
        if self.opened is not None:
            self.opened.close()

    def on_screen_resume(self) -> None:
        # Every time the view is shown: skills may have written new files since.
        self._list_files()

    # Opening and indexing --------------------------------------------------------------

    def open_paths(self, paths: Iterable[Path | str]) -> None:
        """Show `paths` (several: merged by time); indexing of what was open stops."""
        opening = tuple(Path(path) for path in paths)
        self._load_id += 1
        self._release()
        self._loading = True
        self._refreshing = False
        self._stick_to_end = False
        self._progress = 0.0
        self.query_one(TrajectoryFiles).show_opened(opening)
        self.query_one(TrajectoryLines).show(None)
        self.query_one(SessionBudget).show(None)
        self.query_one(TrajectorySummary).show_opening(opening)
        self._show_activity()
        self._load(self._load_id, opening)

    def _release(self) -> None:
        """Let go of the open files: they are closed once no worker is using them."""
        if self.opened is not None:
            self._close(self.opened)
        self.opened = None
        self.timeline = None
        self._search_again_from(0)

    @work(thread=True, group="trajectory-close", exit_on_error=False)
    def _close(self, opened: OpenedTrajectory) -> None:
        opened.close()

    @work(thread=True, exclusive=True, group="trajectory-load", exit_on_error=False)
    def _load(self, load_id: int, paths: tuple[Path, ...]) -> None:
        worker = get_current_worker()
        try:
            opened = open_trajectory(paths)
        except OSError as exc:
            self.post_message(TrajectoryUnreadable(load_id, _one_line(exc)))
            return
        if not opened.merged:
            self.post_message(TrajectoryOpened(load_id, opened))
        try:
            complete = opened.build(lambda: worker.is_cancelled, self._progress_reporter(load_id))
        except OSError as exc:
            self.post_message(TrajectoryUnreadable(load_id, _one_line(exc)))
            return
        if not complete:
            if opened.merged:  # never handed to the screen
                opened.close()
            return
        if opened.merged:
            self.post_message(TrajectoryOpened(load_id, opened))
        self.post_message(TrajectoryIndexed(load_id))

    def _progress_reporter(self, load_id: int) -> Callable[[float], None]:
        """A progress callback for the indexing worker that posts at most a few messages a
        second: each one redraws the list and the summary, time taken from indexing."""
        last = -PROGRESS_SECONDS

        def report(fraction: float) -> None:
            nonlocal last
            now = time.monotonic()
            if now - last >= PROGRESS_SECONDS:
                last = now
                self.post_message(IndexingProgressed(load_id, fraction))

        return report

    def on_trajectory_opened(self, message: TrajectoryOpened) -> None:
        if message.load_id != self._load_id:
            self._close(message.opened)
            return
        self.opened = message.opened
        self.query_one(TrajectoryLines).show(message.opened)
        self._show_rows()
        self._show_summary()
        self._continue_matching()

    def on_indexing_progressed(self, message: IndexingProgressed) -> None:
        if message.load_id != self._load_id:
            return
        self._progress = message.fraction
        if self.opened is not None:
            self.query_one(TrajectoryLines).rows_changed()
            self._continue_matching()
        self._show_summary()

    def on_trajectory_indexed(self, message: TrajectoryIndexed) -> None:
        if message.load_id != self._load_id:
            return
        self._loading = False
        self.query_one(TrajectoryLines).rows_changed()
        self._show_choices()
        self._show_summary()
        self._continue_matching()
        self._count_budget()
        for problem in self.opened.problems if self.opened else ():
            self.notify(problem, severity="warning")

    def on_trajectory_unreadable(self, message: TrajectoryUnreadable) -> None:
        if message.load_id != self._load_id:
            return
        self._loading = False
        self.query_one(TrajectorySummary).show_unreadable(message.error)
        self.notify(message.error, title="Cannot open", severity="error")

    # The selected line -----------------------------------------------------------------

    @on(TrajectoryLines.ColumnsChanged)
    def _columns_changed(self, message: TrajectoryLines.ColumnsChanged) -> None:
        self.query_one("#trajectory-columns", Static).update(
            Content(column_headings(message.compact))
        )

    @on(TrajectoryLines.Highlighted)
    def _line_highlighted(self, message: TrajectoryLines.Highlighted) -> None:
        detail = self.query_one(TrajectoryDetail)
        if message.position is None or self.opened is None:
            detail.show(None)
        else:
            position = message.position
            entry = self.query_one(TrajectoryLines).entry(position)
            pair = logged = None
            if entry.phase in (INTENT, EXECUTE) and not entry.flagged:
                pair, logged = self.opened.query_at(position)
            detail.show(entry_detail(entry, self.opened.file_name(position), pair, logged))
        self._show_match_count()
        self.refresh_bindings()

    # Status lines ----------------------------------------------------------------------

    def _show_summary(self) -> None:
        self.query_one(TrajectorySummary).show(self.opened)
        self._show_activity()

    def _show_activity(self) -> None:
        """What is going on, under the list: indexing, searching, following."""
        activity = []
        if self._loading:
            activity.append(f"indexing {self._progress:.0%}")
        if self.matches.searching and self.opened is not None:
            done = self.matches.searched_upto / max(len(self.opened), 1)
            activity.append(f"searching {done:.0%}")
        if self.following:
            activity.append("● following")
        self.query_one(TrajectoryLines).border_subtitle = " · ".join(activity)

    def _show_match_count(self) -> None:
        """`Entries · 6 of 13 match · match 2` over the list while a filter is on."""
        lines = self.query_one(TrajectoryLines)
        self._show_activity()
        if not self.matches.active or self.opened is None:
            lines.border_title = "Entries"
        else:
            lines.border_title = (
                f"Entries · {self.matches.summary(len(self.opened), lines.selected)}"
            )

    # Actions ---------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "replay":
            return True if self._selected_is_query() else None
        if action == "match":
            return True if self.matches.active else None
        return True

    def _selected_is_query(self) -> bool:
        lines = self.query_one(TrajectoryLines)
        position = lines.selected
        if position is None or self.opened is None:
            return False
        entry = lines.entry(position)
        return not entry.flagged and entry.phase in (INTENT, EXECUTE) and bool(entry.query)

    def action_replay(self) -> None:
        position = self.query_one(TrajectoryLines).selected
        if position is None or self.opened is None:
            return
        _pair, logged = self.opened.query_at(position)
        if logged is None:
            self.notify("This line is not a logged query.", severity="warning")
            return
        options = QueryOptions(
            text=logged.text, scope=logged.scope, budget=logged.budget, skill=logged.skill
        )
        self.post_message(ReplayQuery(options, logged))

    def action_focus_lines(self) -> None:
        self.query_one(TrajectoryLines).focus()


def _one_line(exc: OSError) -> str:
    where = f"{exc.filename}: " if exc.filename else ""
    return f"{where}{exc.strerror or exc}"
