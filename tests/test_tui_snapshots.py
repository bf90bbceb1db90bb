"""What the workbench looks like, pinned as SVG snapshots. The real engine runs scripted
tiers (fixed outcomes, latencies on a fake clock), cursors do not blink and no clock is
shown, so the pictures only change when the UI does."""

from __future__ import annotations

import pytest
from textual.widgets import Input
from tui_checks import NARROW
from tui_fakes import SESSION, ScriptedProject, compare_outcomes, project_with_a_session

from tierscope.api import QueryOptions
from tierscope.themes.builtin import BUILTIN_THEMES
from tierscope.tui.app import VIEWS, TierscopeApp
from tierscope.tui.widgets.budget_meter import BudgetMeter
from tierscope.tui.widgets.query_form import QueryForm
from tierscope.tui.widgets.session_picker import SessionPicker

SIZE = (120, 40)
# Only the Query view, so the footer does not change as other views are added.
QUERY_VIEW = tuple(view for view in VIEWS if view.mode == "query")


def workbench(outcomes=None, **kwargs) -> TierscopeApp:
    return TierscopeApp(ScriptedProject(outcomes), views=QUERY_VIEW, **kwargs)


async def settle(pilot) -> None:
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def run_query(pilot, options: QueryOptions) -> None:
    screen = pilot.app.screen
    for field in screen.query(Input):
        field.cursor_blink = False
    form = screen.query_one(QueryForm)
    form.load(options)
    form.submit(all_tiers=options.all_tiers)
    await settle(pilot)


def test_query_view_shows_qmd_unavailable_ck_timed_out_and_grep_serving(snap_compare):
    async def run_before(pilot):
        await run_query(pilot, QueryOptions(text="token budget"))

    assert snap_compare(workbench(), run_before=run_before, terminal_size=SIZE)


def test_budget_meter_lists_the_dropped_hits_with_their_cost(snap_compare):
    async def run_before(pilot):
        await run_query(pilot, QueryOptions(text="token budget", budget=100))
        pilot.app.screen.query_one(BudgetMeter).focus()
        await pilot.pause()

    assert snap_compare(workbench(), run_before=run_before, terminal_size=SIZE)


def test_compare_view_puts_each_tiers_hits_side_by_side(snap_compare):
    async def run_before(pilot):
        await run_query(pilot, QueryOptions(text="token budget", all_tiers=True))

    assert snap_compare(workbench(compare_outcomes()), run_before=run_before, terminal_size=SIZE)


@pytest.mark.parametrize("theme", [theme.name for theme in BUILTIN_THEMES])
def test_each_builtin_theme_colours_the_query_view(snap_compare, theme):
    async def run_before(pilot):
        await run_query(pilot, QueryOptions(text="token budget", budget=100))

    app = workbench(theme=theme)
    assert snap_compare(app, run_before=run_before, terminal_size=SIZE)


def test_at_80x24_the_query_view_shows_results_budget_and_preview(snap_compare):
    async def run_before(pilot):
        await run_query(pilot, QueryOptions(text="token budget", budget=100))

    assert snap_compare(workbench(), run_before=run_before, terminal_size=NARROW)


def test_at_80x24_the_compare_tab_stacks_the_tiers(snap_compare):
    async def run_before(pilot):
        await run_query(pilot, QueryOptions(text="token budget", all_tiers=True))

    assert snap_compare(workbench(compare_outcomes()), run_before=run_before, terminal_size=NARROW)


@pytest.mark.parametrize("size", [NARROW, SIZE], ids=["80x24", "120x40"])
def test_a_chosen_session_marks_the_hits_it_has_received(snap_compare, tmp_path, size):
    project = project_with_a_session(tmp_path / "trajectory")

    async def run_before(pilot):
        pilot.app.screen.query_one(SessionPicker).choose(SESSION)
        await run_query(pilot, QueryOptions(text="token budget"))

    app = TierscopeApp(project, views=QUERY_VIEW)
    assert snap_compare(app, run_before=run_before, terminal_size=size)


@pytest.mark.parametrize("size", [NARROW, SIZE])
def test_help_lists_the_query_views_keys_first(snap_compare, size):
    async def run_before(pilot):
        await pilot.press("f1")
        await pilot.pause()

    assert snap_compare(workbench(), run_before=run_before, terminal_size=size)
