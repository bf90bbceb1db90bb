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
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from datetime import UTC, date, datetime
from pathlib import Path
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import Screen
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
from tierscope.trajectory.filters import EntryFilter
from tierscope.trajectory.paths import default_dir
from tierscope.trajectory.replay import EXECUTE, INTENT

from ..messages import ReplayQuery
from ..trajectory_matches import MatchSearch
from ..trajectory_messages import (
    BudgetCounted,
    FilesListed,
    IndexingProgressed,
    MatchesFound,
    TrajectoryGrew,
    TrajectoryIndexed,
    TrajectoryOpened,
    TrajectoryUnreadable,
)
from ..trajectory_reading import FileRow, OpenedTrajectory, list_files, open_trajectory
from ..widgets.session_budget import SessionBudget
from ..widgets.short_path import short_path
from ..widgets.trajectory_detail import TrajectoryDetail, entry_detail
from ..widgets.trajectory_files import TrajectoryFiles
from ..widgets.trajectory_lines import TrajectoryLines, column_headings
from ..widgets.trajectory_summary import TrajectorySummary
from ..widgets.workbench_footer import WorkbenchFooter

FOLLOW_SECONDS = 0.5
PROGRESS_SECONDS = 0.1
# The phase filter's choice for malformed lines (no phase is called this).
MALFORMED = "\x00malformed"
BUDGET_TAB = "trajectory-budget-tab"
LINE_TAB = "trajectory-line-tab"


def is_today(day: date | None) -> bool:
    """Whether a file's day is today, by the local or the UTC calendar (files are named by
    the writer's day)."""
    return day is not None and day in {date.today(), datetime.now(UTC).date()}


def choices(counts: dict[str, int]) -> list[tuple[str, str]]:
    return [(f"{name} ({count:,})", name) for name, count in counts.items()]


class TrajectoriesScreen(Screen):
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
        self.directory = default_dir(engine.root, engine.config)
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

    # Files -----------------------------------------------------------------------------

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

    @on(TrajectoryFiles.Open)
    def _files_chosen(self, message: TrajectoryFiles.Open) -> None:
        self.open_paths(message.paths)
        self.query_one(TrajectoryLines).focus()

    @on(Input.Submitted, "#trajectory-path")
    def _path_given(self, message: Input.Submitted) -> None:
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

    # Opening and indexing --------------------------------------------------------------

    def open_paths(self, paths: Iterable[Path | str]) -> None:
        """Show `paths` (several: merged by time); indexing of what was open stops."""
        paths = tuple(Path(path) for path in paths)
        self._load_id += 1
        self._release()
        self._loading = True
        self._refreshing = False
        self._stick_to_end = False
        self._progress = 0.0
        self.query_one(TrajectoryFiles).show_opened(paths)
        self.query_one(TrajectoryLines).show(None)
        self.query_one(SessionBudget).show(None)
        self.query_one(TrajectorySummary).show_opening(paths)
        self._show_activity()
        self._load(self._load_id, paths)

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

    # Filters ---------------------------------------------------------------------------

    def _read_filter(self) -> EntryFilter:
        agent = self.query_one("#trajectory-agent", Select).selection or ""
        phase = self.query_one("#trajectory-phase", Select).selection or ""
        text = self.query_one("#trajectory-text", Input).value.strip()
        if phase == MALFORMED:
            return EntryFilter(agent=agent, text=text, flagged_only=True)
        return EntryFilter(agent=agent, phase=phase, text=text)

    @on(Select.Changed)
    @on(Input.Changed, "#trajectory-text")
    def _filter_edited(self) -> None:
        anchor = self.query_one(TrajectoryLines).selected
        if not self.matches.change(self._read_filter()):
            return
        self._stick_to_end = False
        # The cursor returns to the line it was on (or the next match) once found.
        self._anchor = anchor
        self._show_rows()
        self._continue_matching()
        agent = self.matches.wanted.agent
        if agent != self.query_one(SessionBudget).agent:
            self.query_one(SessionBudget).show(self.timeline, agent)
        self.refresh_bindings()

    @on(Checkbox.Changed, "#trajectory-only-matches")
    def _only_matches_changed(self, message: Checkbox.Changed) -> None:
        if message.value == self.only_matches:
            return
        lines = self.query_one(TrajectoryLines)
        selected = lines.selected
        self.only_matches = message.value
        self._show_rows()
        if selected is not None:
            lines.move_to_position(selected)

    def _show_choices(self) -> None:
        """Agent and phase choices with their line counts, keeping what is chosen."""
        if self.opened is None:
            return
        phases = choices(self.opened.phases())
        if self.opened.flagged_count:
            phases.append((f"malformed lines ({self.opened.flagged_count:,})", MALFORMED))
        for selector, options in (
            ("#trajectory-agent", choices(self.opened.agents())),
            ("#trajectory-phase", phases),
        ):
            if self._shown_choices.get(selector) == options:
                continue
            self._shown_choices[selector] = options
            select = self.query_one(selector, Select)
            chosen = select.selection
            select.set_options(options)
            if chosen in {value for _label, value in options}:
                select.value = chosen

    def _search_again_from(self, start: int) -> None:
        """Lines from position `start` on changed: find their matches again."""
        self.matches.restart(start)
        self._show_rows()
        self._continue_matching()

    def _continue_matching(self) -> None:
        """Search the lines not searched yet (the file grew, or a search just began)."""
        opened = self.opened
        start = self.matches.begin(len(opened)) if opened is not None else None
        if start is not None:
            self._match(self.matches.search_id, opened, self.matches.wanted, start)
        self._show_match_count()

    @work(thread=True, exclusive=True, group="trajectory-match", exit_on_error=False)
    def _match(
        self, search_id: int, opened: OpenedTrajectory, wanted: EntryFilter, start: int
    ) -> None:
        worker = get_current_worker()
        position = start
        while not worker.is_cancelled:
            step = opened.match_step(wanted, position)
            if step is None:
                return
            found, stop = step
            final = stop >= len(opened) or stop == position
            self.post_message(MatchesFound(search_id, position, found, stop, final=final))
            if final:
                return
            position = stop

    def on_matches_found(self, message: MatchesFound) -> None:
        accepted = self.matches.accept(
            message.search_id, message.start, message.found, message.upto, final=message.final
        )
        if not accepted:
            return
        lines = self.query_one(TrajectoryLines)
        lines.rows_changed()
        if self._anchor is not None and self._anchor < message.upto:
            lines.move_to_position(self._anchor)
            self._anchor = None
        if message.final:
            if self._stick_to_end:
                lines.move_cursor(lines.row_count - 1)
            self._continue_matching()
        self._show_match_count()

    def _show_rows(self) -> None:
        lines = self.query_one(TrajectoryLines)
        if not self.matches.active:
            lines.set_rows(None, None)
            self._anchor = None
        elif self.only_matches:
            lines.set_rows(self.matches.positions, None)
        else:
            lines.set_rows(None, self.matches.positions)
        self._show_match_count()

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

    # Follow mode -----------------------------------------------------------------------

    def action_toggle_follow(self) -> None:
        self.following = not self.following
        if self.following:
            self._follow_timer.resume()
            lines = self.query_one(TrajectoryLines)
            lines.move_cursor(lines.row_count - 1)
            self._follow_tick()
        else:
            self._follow_timer.pause()
        self._show_summary()

    def _follow_tick(self) -> None:
        self._list_files()
        opened = self.opened
        if opened is None or self._loading or self._refreshing:
            return
        self._refreshing = True
        self._refresh(self._load_id, opened)

    @work(thread=True, exclusive=True, group="trajectory-follow", exit_on_error=False)
    def _refresh(self, load_id: int, opened: OpenedTrajectory) -> None:
        try:
            growth = opened.refresh()
        except OSError:
            growth = None  # unreadable for now; the next tick tries again
        self.post_message(TrajectoryGrew(load_id, growth))

    def on_trajectory_grew(self, message: TrajectoryGrew) -> None:
        if message.load_id != self._load_id:
            return
        self._refreshing = False
        growth = message.growth
        if growth is None or not growth.changed:
            return
        lines = self.query_one(TrajectoryLines)
        self._stick_to_end = lines.at_end
        lines.rows_changed(growth.first_changed)
        if self.matches.active:
            self._search_again_from(growth.first_changed)
        if self._stick_to_end:
            lines.move_cursor(lines.row_count - 1)
        self._show_choices()
        self._show_summary()
        self._count_budget()

    # Budget over a session -------------------------------------------------------------

    def _count_budget(self) -> None:
        """Count tokens again, if the budget is on show (else when it is next shown)."""
        if self.opened is None or self._loading:
            return
        if self.query_one(TabbedContent).active != BUDGET_TAB:
            self.timeline = None
            return
        if self._counting:
            self._count_again = True
            return
        self._counting = True
        self._count(self._load_id, self.opened)

    @work(thread=True, exclusive=True, group="trajectory-budget", exit_on_error=False)
    def _count(self, load_id: int, opened: OpenedTrajectory) -> None:
        timeline = opened.budget_timeline(self.engine.config.token_budgets)
        self.post_message(BudgetCounted(load_id, timeline))

    def on_budget_counted(self, message: BudgetCounted) -> None:
        self._counting = False
        if message.load_id != self._load_id:
            self._count_budget()
            return
        self.timeline = message.timeline
        self.query_one(SessionBudget).show(self.timeline, self.matches.wanted.agent)
        if self._count_again:
            self._count_again = False
            self._count_budget()

    @on(TabbedContent.TabActivated)
    def _tab_activated(self, message: TabbedContent.TabActivated) -> None:
        if message.pane.id == BUDGET_TAB and self.timeline is None:
            self.query_one(SessionBudget).show(None)
            self._count_budget()

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

    def action_match(self, step: int) -> None:
        """Move to the next (step 1) or previous (-1) line passing the filter."""
        lines = self.query_one(TrajectoryLines)
        if not self.matches.active:
            return
        current = lines.selected if lines.selected is not None else -1
        found = self.matches.neighbour(current, step)
        if found is not None:
            lines.move_to_position(found)
        elif self.matches.searching:
            self.notify("Still searching…", timeout=2)
        else:
            self.notify("No more matches that way.", timeout=2)

    def action_toggle_only_matches(self) -> None:
        checkbox = self.query_one("#trajectory-only-matches", Checkbox)
        checkbox.value = not checkbox.value

    def action_toggle_budget(self) -> None:
        tabs = self.query_one(TabbedContent)
        tabs.active = LINE_TAB if tabs.active == BUDGET_TAB else BUDGET_TAB

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

    @on(Input.Blurred, "#trajectory-path")
    def _path_left(self) -> None:
        self.remove_class("-opening-path")

    def action_focus_text(self) -> None:
        self.query_one("#trajectory-text", Input).focus()

    def action_focus_lines(self) -> None:
        self.query_one(TrajectoryLines).focus()


def _one_line(exc: OSError) -> str:
    where = f"{exc.filename}: " if exc.filename else ""
    return f"{where}{exc.strerror or exc}"
