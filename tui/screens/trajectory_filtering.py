"""Filtering in the Trajectories view: agent, phase and text filters, their matches found
step by step in a thread worker (which only posts messages), next/previous match, and
"only matches" or every line with the matches marked."""

from __future__ import annotations

from collections.abc import Callable

from textual import work
from textual.widgets import Checkbox, Input, Select
from textual.worker import get_current_worker

from tierscope.trajectory.budget_timeline import BudgetTimeline
from tierscope.trajectory.filters import EntryFilter

from ..trajectory_matches import MatchSearch
from ..trajectory_messages import MatchesFound
from ..trajectory_reading import OpenedTrajectory
from ..widgets.session_budget import SessionBudget
from ..widgets.trajectory_lines import TrajectoryLines
from .screen_part import ScreenPart

# The phase filter's choice for malformed lines (no phase is called this).
MALFORMED = "\x00malformed"


def choices(counts: dict[str, int]) -> list[tuple[str, str]]:
    return [(f"{name} ({count:,})", name) for name, count in counts.items()]


class TrajectoryFiltering(ScreenPart):
    """The filtering part of `TrajectoriesScreen`."""

    matches: MatchSearch
    only_matches: bool
    opened: OpenedTrajectory | None
    timeline: BudgetTimeline | None
    _anchor: int | None  # the line the cursor goes back to once its matches are found
    _stick_to_end: bool
    _shown_choices: dict[str, list[tuple[str, str]]]  # selector -> the options it shows
    _show_match_count: Callable[[], None]

    def _read_filter(self) -> EntryFilter:
        agent = self.query_one("#trajectory-agent", Select).selection or ""
        phase = self.query_one("#trajectory-phase", Select).selection or ""
        text = self.query_one("#trajectory-text", Input).value.strip()
        if phase == MALFORMED:
            return EntryFilter(agent=agent, text=text, flagged_only=True)
        return EntryFilter(agent=agent, phase=phase, text=text)

    def on_select_changed(self, _message: Select.Changed) -> None:
        self._filter_edited()

    def on_input_changed(self, message: Input.Changed) -> None:
        if message.input.id == "trajectory-text":
            self._filter_edited()

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

    def on_checkbox_changed(self, message: Checkbox.Changed) -> None:
        if message.checkbox.id != "trajectory-only-matches" or message.value == self.only_matches:
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

    def action_focus_text(self) -> None:
        self.query_one("#trajectory-text", Input).focus()
