"""The Trajectories view's "Budget over a session" tab: the tokens each agent injected per
day against the `token_budgets` thresholds, counted in a thread worker (which only posts
messages) when the tab is on show."""

from __future__ import annotations

from textual import work
from textual.widgets import TabbedContent

from tierscope.api import Project
from tierscope.trajectory.budget_timeline import BudgetTimeline

from ..trajectory_matches import MatchSearch
from ..trajectory_messages import BudgetCounted
from ..trajectory_reading import OpenedTrajectory
from ..widgets.session_budget import SessionBudget
from .screen_part import ScreenPart

BUDGET_TAB = "trajectory-budget-tab"
LINE_TAB = "trajectory-line-tab"


class TrajectorySessionBudget(ScreenPart):
    """The session budget part of `TrajectoriesScreen` (`b`)."""

    engine: Project
    opened: OpenedTrajectory | None
    matches: MatchSearch
    timeline: BudgetTimeline | None  # None until counted for what is open
    _load_id: int
    _loading: bool
    _counting: bool  # a counting worker is running
    _count_again: bool  # what is open changed while it ran

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

    def on_tabbed_content_tab_activated(self, message: TabbedContent.TabActivated) -> None:
        if message.pane.id == BUDGET_TAB and self.timeline is None:
            self.query_one(SessionBudget).show(None)
            self._count_budget()

    def action_toggle_budget(self) -> None:
        tabs = self.query_one(TabbedContent)
        tabs.active = LINE_TAB if tabs.active == BUDGET_TAB else BUDGET_TAB
