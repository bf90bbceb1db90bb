"""What the workbench looks like, pinned as SVG snapshots. The real engine runs scripted
tiers (fixed outcomes, latencies on a fake clock), cursors do not blink and no clock is
shown, so the pictures only change when the UI does."""

from __future__ import annotations

import pytest
from textual.widgets import Input
from tui_checks import NARROW, settled_text
from tui_fakes import SESSION, ScriptedProject, compare_outcomes, project_with_a_session

from tierscope.api import QueryOptions
from tierscope.models import Hit, TierOutcome, TierStatus
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


def gauge_outcomes() -> tuple[TierOutcome, ...]:
    """The tiers in a plain project: no qmd, no ck, grep serving from the project's files."""
    hits = (
        Hit("src/meter.py", 0.62, "def draw_budget_meter(used, limit):\n    ...", "grep", 1, 2),
        Hit("docs/meter.md", 0.6, "# The budget meter\n\nShows the budget used.", "grep", 1, 3),
        Hit("README.md", 0.4, "# Gauge\n\nA budget meter for the terminal.", "grep", 1, 3),
    )
    return (
        TierOutcome("qmd", TierStatus.UNAVAILABLE, "scope all has no qmd collection", 0.2),
        TierOutcome("ck", TierStatus.UNAVAILABLE, "ck not installed (not on PATH)", 0.1),
        TierOutcome("grep", TierStatus.SERVED, "3 hits (ripgrep)", 12.5, hits),
    )


@pytest.mark.parametrize("size", [NARROW, SIZE])
def test_without_the_loa_layout_the_query_view_says_the_defaults_adapted(
    snap_compare, tmp_path, monkeypatch, size
):
    """Opened in a project not laid out like Loa: the status line and the hint below say
    what the default scope searches, and the scope selector offers only `all`."""
    root = tmp_path / "gauge"
    (root / "docs").mkdir(parents=True)
    (root / "docs/meter.md").write_text("# The budget meter\n")
    monkeypatch.chdir(root)
    app = TierscopeApp(ScriptedProject(gauge_outcomes(), root=root), views=QUERY_VIEW)

    async def run_before(pilot):
        pilot.app.sub_title = "~/gauge"  # the folder is a temporary one: pin what is shown
        for field in pilot.app.screen.query(Input):
            field.cursor_blink = False
        await pilot.click("#scope")
        await pilot.pause()

    assert snap_compare(app, run_before=run_before, terminal_size=size)


def test_without_the_loa_layout_a_result_names_the_adapted_scope(
    snap_compare, tmp_path, monkeypatch
):
    root = tmp_path / "gauge"
    root.mkdir()
    monkeypatch.chdir(root)
    app = TierscopeApp(ScriptedProject(gauge_outcomes(), root=root), views=QUERY_VIEW)

    async def run_before(pilot):
        pilot.app.sub_title = "~/gauge"
        await run_query(pilot, QueryOptions(text="budget meter"))
        await settled_text(pilot)  # the results table sized for its rows

    assert snap_compare(app, run_before=run_before, terminal_size=SIZE)
