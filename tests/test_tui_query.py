"""How the Query view behaves: runs off the UI thread, cancels, re-packs, copies."""

from __future__ import annotations

import asyncio
import contextlib
import io
import re
import shlex
from pathlib import Path, PurePosixPath

import pytest
from textual import events
from textual.geometry import Size
from textual.widgets import Input, Select
from textual.worker import WorkerCancelled, WorkerFailed
from tui_checks import NARROW, on_screen, settled_text
from tui_fakes import SESSION, ScriptedProject, compare_outcomes, project_with_a_session, qmd_hits

from tierscope.api import Project, QueryOptions
from tierscope.budget import apply_budget
from tierscope.cli import main as cli_main
from tierscope.models import Hit, TierOutcome, TierStatus
from tierscope.render import render_json
from tierscope.tui.app import TierscopeApp
from tierscope.tui.clipboard import osc52_refusal
from tierscope.tui.command_line import command_line
from tierscope.tui.messages import ReplayQuery
from tierscope.tui.screens.query import QueryScreen
from tierscope.tui.widgets.budget_meter import BudgetMeter, limit_at
from tierscope.tui.widgets.hit_preview import HitPreview
from tierscope.tui.widgets.query_form import QueryForm
from tierscope.tui.widgets.results_table import ResultsTable
from tierscope.tui.widgets.session_picker import SessionPicker
from tierscope.tui.widgets.tier_row import TierRow

SIZE = (120, 40)
pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend():
    return "asyncio"


async def settle(pilot) -> None:
    """Wait until every worker has ended (cancelled ones included) and its messages landed."""
    for _ in range(2):
        for worker in list(pilot.app.workers):
            with contextlib.suppress(WorkerCancelled, WorkerFailed):
                await worker.wait()
        await pilot.pause()


async def type_query(pilot, text: str) -> None:
    field = pilot.app.screen.query_one("#query", Input)
    field.focus()
    field.value = text
    await pilot.press("enter")


def query_screen(app: TierscopeApp) -> QueryScreen:
    assert isinstance(app.screen, QueryScreen)
    return app.screen


async def test_the_app_opens_on_the_query_view_with_the_query_input_focused():
    app = TierscopeApp(ScriptedProject())
    async with app.run_test(size=SIZE):
        assert isinstance(app.screen, QueryScreen)
        assert app.focused is app.screen.query_one("#query", Input)


async def test_enter_runs_the_query_and_every_tier_ends_with_its_outcome():
    engine = ScriptedProject()
    app = TierscopeApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        await type_query(pilot, "token budget")
        await settle(pilot)
        states = {row.tier: row.state for row in app.screen.query(TierRow)}
        assert states == {"qmd": "unavailable", "ck": "timeout", "grep": "served"}
        assert [options.text for options in engine.runs] == ["token budget"]
        table = app.screen.query_one(ResultsTable)
        assert table.row_count == len(engine.served_outcome().hits)


async def test_escape_cancels_a_hung_tier_and_the_ui_keeps_responding():
    engine = ScriptedProject(hang="ck")
    app = TierscopeApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        await type_query(pilot, "token budget")
        assert await asyncio.to_thread(engine.tier_running.wait, 10)
        await pilot.pause()
        ck = app.screen.query_one("#tier-ck", TierRow)
        assert ck.state == "running"
        await pilot.press("end", "s")  # typing still works while the tier hangs
        assert app.screen.query_one("#query", Input).value == "token budgets"
        await pilot.press("escape")
        await settle(pilot)
        assert engine.cancels[0].is_set()
        assert ck.state == "cancelled"
        assert query_screen(app).result is None


async def test_a_new_query_cancels_the_one_in_flight():
    engine = ScriptedProject(hang="ck")
    app = TierscopeApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        await type_query(pilot, "first")
        assert await asyncio.to_thread(engine.tier_running.wait, 10)
        engine.hang = None
        form = app.screen.query_one(QueryForm)
        form.load(QueryOptions(text="second"))
        form.submit()
        await settle(pilot)
        assert engine.cancels[0].is_set()
        assert not engine.cancels[1].is_set()
        result = query_screen(app).result
        assert result is not None and result.request.text == "second"
        assert app.screen.query_one("#tier-grep", TierRow).state == "served"


async def test_changing_the_budget_repacks_without_running_the_tiers_again():
    engine = ScriptedProject()
    app = TierscopeApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        await type_query(pilot, "token budget")
        await settle(pilot)
        screen = query_screen(app)
        candidates = screen.candidates
        await pilot.click("#budget")
        await pilot.press("1", "0", "0")
        await pilot.pause()
        assert len(engine.runs) == 1
        assert screen.result.budget == apply_budget(candidates, 100)
        assert screen.result.budget.dropped, "a 100-token budget must drop something here"
        assert screen.query_one(BudgetMeter).report == screen.result.budget
        kept = [row.kept for row in screen.query_one(ResultsTable).ranked]
        assert kept.count(False) == len(screen.result.budget.dropped)


async def test_clicking_the_budget_bar_sets_the_limit_under_the_pointer():
    engine = ScriptedProject()
    app = TierscopeApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        await type_query(pilot, "token budget")
        await settle(pilot)
        meter = app.screen.query_one(BudgetMeter)
        width, scale = meter.content_region.width, meter.scale
        await pilot.click(meter, offset=(1 + 3, 1))
        await pilot.pause()
        expected = limit_at(3, width, scale)
        assert query_screen(app).result.budget.limit == expected
        assert app.screen.query_one("#budget", Input).value == str(expected)
        assert len(engine.runs) == 1


async def test_budget_keys_step_the_limit_from_the_last_request():
    app = TierscopeApp(ScriptedProject())
    async with app.run_test(size=SIZE) as pilot:
        await type_query(pilot, "token budget")
        await settle(pilot)
        await pilot.press("ctrl+g", "left", "left", "left")
        await pilot.pause()
        assert query_screen(app).result.budget.limit == 2000 - 300


async def test_copy_json_copies_exactly_render_json_of_the_shown_result():
    app = TierscopeApp(ScriptedProject())
    async with app.run_test(size=SIZE) as pilot:
        await type_query(pilot, "token budget")
        await settle(pilot)
        await pilot.click("#budget")
        await pilot.press("1", "0", "0")
        await pilot.press("ctrl+y")
        result = query_screen(app).result
        assert app.clipboard == render_json(result.hits)
        assert len(result.hits) < len(query_screen(app).candidates)


async def test_copied_json_equals_the_headless_command_output(make_project, path_without_tools):
    root = make_project(
        {
            "grimoires/loa/prd.md": "# Plan\n\nThe token budget caps context.\n",
            "grimoires/loa/notes.md": "Budget notes: every token counts.\n",
            ".claude/skills/x/SKILL.md": "Ask with a small token budget first.\n",
        }
    )
    app = TierscopeApp(Project(root))
    async with app.run_test(size=SIZE) as pilot:
        await type_query(pilot, "token budget")
        await settle(pilot)
        await pilot.press("ctrl+y")
        copied = app.clipboard
        line = command_line(query_screen(app).options, root)
    assert copied != "[]"
    stdout = io.StringIO()
    with contextlib.redirect_stdout(stdout):
        assert cli_main(shlex.split(line)[1:]) == 0
    assert stdout.getvalue() == copied + "\n"


async def test_run_all_tiers_fills_the_compare_panel_with_one_column_per_tier():
    engine = ScriptedProject(compare_outcomes())
    app = TierscopeApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        await type_query(pilot, "token budget")
        await settle(pilot)
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert engine.runs[-1].all_tiers
        columns = [column.id for column in app.screen.query(".compare-column")]
        assert columns == ["compare-qmd", "compare-ck", "compare-grep"]
        assert app.screen.query_one("#tabs").active == "compare-tab"


@pytest.mark.parametrize("how", ["enter", "replay"])
async def test_a_single_tier_run_after_run_all_tiers_shows_its_own_results(how):
    engine = ScriptedProject()
    app = TierscopeApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        await type_query(pilot, "token budget")
        await settle(pilot)
        await pilot.press("ctrl+r")
        await settle(pilot)
        if how == "enter":
            await type_query(pilot, "rollback")
        else:
            app.post_message(ReplayQuery(QueryOptions(text="rollback")))
        await settle(pilot)
        assert engine.runs[-1] == QueryOptions(text="rollback")
        assert app.screen.query_one("#tabs").active == "results-tab"
        assert not app.screen.query(".compare-column")  # the old query's columns are gone
        assert app.screen.query_one("#compare-hint")


async def test_latency_history_grows_by_one_point_per_measured_run():
    app = TierscopeApp(ScriptedProject())
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(3):
            await type_query(pilot, "token budget")
            await settle(pilot)
        screen = query_screen(app)
        assert screen.history.series("grep") == (21.5, 21.5, 21.5)
        assert app.screen.query_one("#tier-grep", TierRow).history == (21.5, 21.5, 21.5)


async def test_an_invalid_budget_field_is_reported_instead_of_run():
    engine = ScriptedProject()
    app = TierscopeApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        form = app.screen.query_one(QueryForm)
        app.screen.query_one("#query", Input).value = "token budget"
        app.screen.query_one("#timeout", Input).value = "0"
        form.submit()
        await settle(pilot)
        assert engine.runs == []
        assert "timeout must be a positive number" in str(
            app.screen.query_one("#run-status").render()
        )


async def test_the_palette_scope_command_switches_scope_and_reruns():
    engine = ScriptedProject()
    app = TierscopeApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        await type_query(pilot, "token budget")
        await settle(pilot)
        await app._choose_scope("skills")
        await settle(pilot)
        assert app.screen.query_one("#scope", Select).value == "skills"
        assert engine.runs[-1].scope == "skills"
        assert "--scope skills" in command_line(query_screen(app).options, engine.root)


# -- 80×24, the default terminal -----------------------------------------------------------


async def test_at_80x24_the_query_input_results_budget_and_preview_all_have_room():
    engine = ScriptedProject()
    app = TierscopeApp(engine)
    async with app.run_test(size=NARROW) as pilot:
        await type_query(pilot, "token budget")
        await settle(pilot)
        screen = query_screen(app)
        await settled_text(pilot)  # the layout for 80 columns is done
        assert screen.query_one("#query", Input).region.width >= 40
        table = screen.query_one(ResultsTable)
        assert table.region.height >= 6, "a heading and at least three hits"
        shown = await settled_text(pilot, table)
        for hit in engine.served_outcome().hits[:3]:
            assert PurePosixPath(hit.source).name in shown
        assert on_screen(app, screen.query_one(BudgetMeter))
        assert screen.query_one(HitPreview).region.width >= 25
        for widget in (*screen.query(Input), *screen.query(Select)):
            # Displayed, and so is every container it is in (the session picker is not,
            # in a project without sessions).
            if all(node.display for node in widget.ancestors_with_self if node is not app):
                assert on_screen(app, widget), widget.id


async def test_at_80x24_the_previews_long_location_wraps_after_a_slash():
    # git's "Documentation/technical/sparse-checkout.adoc:19-48" read
    # "Documentation/technical/sp" over "arse-checkout.adoc:19-48".
    source = "Documentation/technical/sparse-checkout.adoc"
    hit = Hit(source, 0.95, "*`cone mode`*::\n\tone of two modes", "grep", 19, 48)
    served = TierOutcome("grep", TierStatus.SERVED, "1 hit (ripgrep)", 21.5, (hit,))
    app = TierscopeApp(ScriptedProject((served,)))
    async with app.run_test(size=NARROW) as pilot:
        await type_query(pilot, "sparse checkout cone mode")
        await settle(pilot)
        preview = query_screen(app).query_one(HitPreview)
        shown = await settled_text(pilot, preview)
    lines = [line.strip(" │▁▂▃▄▅▆▇█") for line in shown.splitlines()]
    first = next(i for i, line in enumerate(lines) if line.startswith("Documentation/"))
    assert lines[first].endswith("/"), lines[first]
    assert "".join(lines[first : first + 2]) == f"{source}:19-48"


async def test_control_characters_in_a_hit_are_drawn_as_symbols_not_sent_to_the_terminal():
    # A file named and written with escape sequences (`\x1b[2J` clears the screen,
    # `\x1b]0;...\x07` retitles the window) wiped the workbench's screen: its name went to
    # the results table and its text to the preview as they were.
    source = "docs/x\x1b[2Jy/notes.md"
    content = "# Notes\n\nThe budget \x1b[31mred\x1b[0m and \x1b]0;PWNED\x07 title \x9b2J"
    hit = Hit(source, 0.9, content, "grep", 1, 3)
    served = TierOutcome("grep", TierStatus.SERVED, "1 hit (ripgrep)", 21.5, (hit,))
    app = TierscopeApp(ScriptedProject((served,)))
    async with app.run_test(size=(160, 40)) as pilot:
        await type_query(pilot, "budget red")
        await settle(pilot)
        shown = await settled_text(pilot)
    controls = [
        char for char in shown if (ord(char) < 0x20 and char != "\n") or 0x7F <= ord(char) < 0xA0
    ]
    assert not controls, controls
    assert "x\u241b[2Jy/notes.md" in shown  # ESC drawn as its control picture, ␛
    assert "\u241b[31mred\u241b[0m" in shown


async def test_a_new_answer_is_laid_out_at_the_width_the_last_resize_reported():
    # On a busy machine the table's region lags behind the resize Textual has already
    # reported; an answer arriving in between was laid out at the old, narrow width, and
    # its sources stayed cut to a few cells (`grimoi…`) until the next resize.
    engine = ScriptedProject()
    app = TierscopeApp(engine)
    async with app.run_test(size=NARROW) as pilot:
        await type_query(pilot, "token budget")
        await settle(pilot)
        table = query_screen(app).query_one(ResultsTable)
        wide = Size(220, table.size.height + 2)  # a resize to a wide terminal, reported
        table.on_resize(events.Resize(wide, wide))
        table.show(table.report)  # the next answer, before the region has caught up
        sources = [str(table.get_row_at(row)[-1]) for row in range(table.row_count)]
        assert sources and not [source for source in sources if "…" in source]


async def test_a_chosen_session_marks_what_the_query_would_repeat_without_answering_in_it(
    tmp_path,
):
    project = project_with_a_session(tmp_path / "trajectory")
    ledger = tmp_path / "trajectory" / "sessions" / f"{SESSION}.jsonl"
    before = ledger.read_bytes()
    app = TierscopeApp(project)
    async with app.run_test(size=SIZE) as pilot:
        screen = query_screen(app)
        picker = screen.query_one(SessionPicker)
        assert picker.sessions == [SESSION] and picker.display
        picker.choose(SESSION)
        await type_query(pilot, "token budget")
        await settle(pilot)
        table = screen.query_one(ResultsTable)
        seen = {ranked.entry.hit.source: ranked.seen for ranked in table.ranked}
        assert seen == {
            "grimoires/loa/prd.md": "repeat",
            "grimoires/loa/sdd.md": "repeat",
            "grimoires/loa/NOTES.md": "",
            ".claude/skills/implement/SKILL.md": "repeat",
        }
        summary = str(screen.query_one("#session-summary").content)
        assert summary == "↺ 3 of 4 kept · 89 tokens"
        first = next(r for r in table.ranked if r.seen == "repeat")
        assert first.where == "grimoires/loa/prd.md:12-16"
        # No session: the column goes.
        picker.choose(None)
        await settle(pilot)
        assert table.seen is None and str(screen.query_one("#session-summary").content) == ""
    assert project.runs[0].session is None  # the workbench never answers in a session
    assert ledger.read_bytes() == before


async def test_without_sessions_the_session_picker_is_not_shown():
    app = TierscopeApp(ScriptedProject())
    async with app.run_test(size=SIZE) as pilot:
        await type_query(pilot, "token budget")
        await settle(pilot)
        picker = query_screen(app).query_one(SessionPicker)
        assert not picker.display and picker.region.height == 0
        assert query_screen(app).query_one(ResultsTable).seen is None


async def test_a_command_line_too_long_for_the_terminal_ends_in_an_ellipsis():
    root = PurePosixPath("/srv") / ("a-rather-long-folder-name/" * 4) / "harbor"
    app = TierscopeApp(ScriptedProject(root=Path(str(root))))
    async with app.run_test(size=NARROW) as pilot:
        await type_query(pilot, "token budget")
        await settle(pilot)
        line = (await settled_text(pilot, app.screen.query_one("#command-line"))).strip()
        assert line.startswith("$ tierscope query 'token budget' --root /srv/")
        assert line.endswith("…")


async def test_a_stale_qmd_index_is_named_on_the_qmd_row():
    stale = TierOutcome(
        "qmd",
        TierStatus.SERVED,
        "1 hit (BM25 search)",
        12.0,
        qmd_hits(),
        notes=(
            "qmd: index 3 files behind (1 changed, 2 added); refresh with --refresh or qmd update",
        ),
    )
    app = TierscopeApp(ScriptedProject((stale,)))
    async with app.run_test(size=SIZE) as pilot:
        await type_query(pilot, "token budget")
        await settle(pilot)
        row = app.screen.query_one("#tier-qmd", TierRow)
        shown = await settled_text(pilot, row)
        assert "index 3 files behind" in shown
        assert row.tooltip and "refresh with --refresh or qmd update" in str(row.tooltip)


# -- copying ---------------------------------------------------------------------------------


@pytest.fixture
def terminal(monkeypatch):
    """A terminal known to take OSC 52 copies; tests then say otherwise where they need."""
    for name in ("TMUX", "STY", "TERM_PROGRAM", "VTE_VERSION"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    return monkeypatch


def last_notice(app):
    return list(app._notifications)[-1]


async def test_a_copy_says_it_went_to_the_terminals_clipboard(terminal):
    app = TierscopeApp(ScriptedProject())
    async with app.run_test(size=SIZE) as pilot:
        await type_query(pilot, "token budget")
        await settle(pilot)
        await pilot.press("ctrl+y")
        notice = last_notice(app)
        assert notice.severity == "information"
        assert "4 hits" in notice.message and "OSC 52" in notice.message


async def test_where_the_terminal_takes_no_copies_they_are_saved_and_it_says_so(terminal):
    terminal.setenv("TERM_PROGRAM", "Apple_Terminal")
    app = TierscopeApp(ScriptedProject())
    async with app.run_test(size=SIZE) as pilot:
        await type_query(pilot, "token budget")
        await settle(pilot)
        await pilot.press("ctrl+y")
        notice = last_notice(app)
        assert notice.severity == "warning"
        assert "not copied" in notice.message.lower()
        saved = Path(re.search(r" to (\S+) instead", notice.message)[1])
        assert saved.read_text() == render_json(query_screen(app).result.hits)
        await pilot.press("ctrl+l")
        line = command_line(query_screen(app).options, app.engine.root)
        assert line in last_notice(app).message


def test_tmux_passes_copies_on_only_with_set_clipboard_on():
    assert "set-clipboard is external" in osc52_refusal({"TMUX": "/tmp/t"}, lambda: "external")
    assert osc52_refusal({"TMUX": "/tmp/t"}, lambda: "on") is None
    assert osc52_refusal({"TERM": "xterm-256color"}, lambda: None) is None
    assert osc52_refusal({"VTE_VERSION": "7600"}, lambda: None)


# -- a project not laid out like Loa ----------------------------------------------------------

GAUGE = {
    "README.md": "# Gauge\n\nA budget meter for the terminal.\n",
    "docs/meter.md": "# The budget meter\n\nThe meter shows the budget used so far.\n",
    "src/meter.py": "def draw_budget_meter(used, limit):\n    return used / limit\n",
    ".tierscope.yaml": "qmd_context:\n  scopes:\n    docs:\n      grep_paths: [docs/, README.md]\n",
}


def scope_choices(app: TierscopeApp) -> list[str]:
    select = app.screen.query_one("#scope", Select)
    return [value for _, value in select._options if isinstance(value, str)]


async def test_without_the_loa_layout_the_scope_selector_offers_the_scopes_that_exist(
    make_project, path_without_tools
):
    app = TierscopeApp(Project(make_project(GAUGE)))
    async with app.run_test(size=SIZE):
        assert scope_choices(app) == ["all", "docs"]
        palette = [command.title for command in app.get_system_commands(app.screen)]
        assert [title for title in palette if title.startswith("Scope:")] == [
            "Scope: all",
            "Scope: docs",
        ]


async def test_the_status_line_says_the_defaults_were_adapted(make_project, path_without_tools):
    app = TierscopeApp(Project(make_project(GAUGE)))
    async with app.run_test(size=SIZE) as pilot:
        status = app.screen.query_one("#run-status")
        assert str(status.render()) == "defaults adapted (no Loa layout)"
        assert "`tierscope init` writes scopes" in status.tooltip
        assert "No Loa layout here" in str(app.screen.query_one("#command-line").render())
        await type_query(pilot, "budget meter")
        await settle(pilot)
        assert str(status.render()).startswith("grep served · all (project files) · 3 kept")
        shown = {entry.hit.source for entry in query_screen(app).result.budget.included}
        assert shown == {"README.md", "docs/meter.md", "src/meter.py"}


async def test_a_loa_project_says_nothing_about_adapting(make_project, path_without_tools):
    app = TierscopeApp(Project(make_project({"grimoires/loa/NOTES.md": "# Notes\n"})))
    async with app.run_test(size=SIZE):
        assert str(app.screen.query_one("#run-status").render()) == ""
        assert "grimoires" in scope_choices(app)


async def test_a_replayed_query_of_a_scope_without_paths_selects_it_and_says_why_it_is_empty(
    make_project, path_without_tools
):
    app = TierscopeApp(Project(make_project(GAUGE)))
    async with app.run_test(size=SIZE) as pilot:
        query_screen(app).load_options(QueryOptions(text="budget meter", scope="grimoires"))
        await settle(pilot)
        assert app.screen.query_one("#scope", Select).value == "grimoires"
        assert "grimoires" in scope_choices(app)
        status = str(app.screen.query_one("#run-status").render())
        assert status == "scope grimoires: none of its paths exist here (grimoires/loa/)"
