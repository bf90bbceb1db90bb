"""Follow mode in the Trajectories view: on a timer, a thread worker picks up the lines
other processes appended and posts them; with the cursor on the last line, the list
follows them into view."""

from __future__ import annotations

from collections.abc import Callable

from textual import work
from textual.timer import Timer

from ..trajectory_matches import MatchSearch
from ..trajectory_messages import TrajectoryGrew
from ..trajectory_reading import OpenedTrajectory
from ..widgets.trajectory_lines import TrajectoryLines
from .screen_part import ScreenPart

FOLLOW_SECONDS = 0.5


class TrajectoryFollowing(ScreenPart):
    """The follow-mode part of `TrajectoriesScreen` (`f`)."""

    following: bool
    opened: OpenedTrajectory | None
    matches: MatchSearch
    _follow_timer: Timer
    _load_id: int  # which opening the workers' messages belong to
    _loading: bool
    _refreshing: bool  # a refresh worker is running
    _stick_to_end: bool
    _show_summary: Callable[[], None]
    _show_choices: Callable[[], None]
    _list_files: Callable[[], None]
    _search_again_from: Callable[[int], None]
    _count_budget: Callable[[], None]

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
