"""The app shell: views as modes, help, first-paint exit, the pieces with no screen."""

from __future__ import annotations

import os
import pty
import shlex
import subprocess
import sys
from collections import Counter
from itertools import pairwise
from pathlib import Path

import pytest
from textual.css import stylesheet as textual_stylesheet
from textual.widgets._footer import FooterKey
from tui_checks import NARROW, on_screen, settled_text
from tui_fakes import ScriptedProject

from tierscope import cli
from tierscope.api import QueryOptions
from tierscope.tui.app import VIEWS, TierscopeApp, View, present_views
from tierscope.tui.command_line import command_line
from tierscope.tui.messages import ReplayQuery
from tierscope.tui.screens.help import HelpScreen
from tierscope.tui.screens.query import QueryScreen
from tierscope.tui.widgets.budget_meter import limit_at
from tierscope.tui.widgets.latency_history import sparkline
from tierscope.tui.widgets.markdown_content import (
    highlight_terms,
    query_terms,
    render_hit,
    render_markdown,
)
from tierscope.tui.widgets.workbench_footer import WorkbenchFooter

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend():
    return "asyncio"


def test_views_whose_module_is_missing_are_left_out():
    missing = View("nowhere", "Nowhere", "f9", "no_such_view", "NoScreen", "absent")
    present = present_views((VIEWS[0], missing))
    assert present == (VIEWS[0],)


async def test_f1_opens_help_listing_the_keys_of_the_current_view():
    app = TierscopeApp(ScriptedProject())
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        descriptions = [description for _key, description in app.screen.keys]
        assert {"Copy JSON", "All tiers", "Copy command", "Budget bar"} <= set(descriptions)
        await pilot.press("escape")
        assert isinstance(app.screen, QueryScreen)


async def test_view_keys_for_absent_views_are_disabled():
    app = TierscopeApp(ScriptedProject(), views=(VIEWS[0],))
    async with app.run_test():
        assert app.check_action("view", ("query",))
        assert not app.check_action("view", ("trajectories",))


async def test_a_replayed_query_is_loaded_and_run_in_the_query_view():
    engine = ScriptedProject()
    app = TierscopeApp(engine)
    async with app.run_test(size=(120, 40)) as pilot:
        app.post_message(ReplayQuery(QueryOptions(text="rollback", scope="notes", budget=500)))
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert engine.runs == [QueryOptions(text="rollback", scope="notes", budget=500)]


async def test_the_app_exits_after_first_paint_when_asked(monkeypatch):
    monkeypatch.setenv("TIERSCOPE_EXIT_AFTER_FIRST_PAINT", "1")
    app = TierscopeApp(ScriptedProject())
    async with app.run_test() as pilot:
        await pilot.pause()
        assert app.return_code == 0  # exit() was called; a running app has None


async def test_the_app_keeps_running_without_the_first_paint_switch():
    app = TierscopeApp(ScriptedProject())
    async with app.run_test() as pilot:
        await pilot.pause()
        assert app.return_code is None


def test_the_command_line_holds_only_what_was_given_and_round_trips():
    options = QueryOptions(
        text="it's -rf", scope="notes", budget=300, timeout=2.5, tiers=("grep",), all_tiers=True
    )
    line = command_line(options, Path("/srv/harbor"), cwd=Path("/elsewhere"))
    assert shlex.split(line) == [
        "tierscope", "query", "it's -rf", "--root", "/srv/harbor", "--scope", "notes",
        "--budget", "300", "--timeout", "2.5", "--tiers", "grep", "--all-tiers", "--json",
    ]  # fmt: skip
    assert command_line(QueryOptions(text="x"), Path.cwd()) == "tierscope query x --json"


def test_query_terms_are_highlighted_case_insensitively_in_rendered_markdown():
    content = highlight_terms(
        render_markdown("## Token **Budget**\nthe budget"), query_terms("budget")
    )
    assert content.plain == "Token Budget\nthe budget"
    highlighted = {
        content.plain[span.start : span.end] for span in content.spans if "on" in str(span.style)
    }
    assert highlighted == {"Budget", "budget"}


JAVA_HIT = """  /**
   * Using this naming policy with Gson will ensure that the first "letter" is capitalized.
   * <p>Here are a few examples: _someFieldName ---&gt; _SomeFieldName
   */
  UPPER_CAMEL_CASE() {
[lines 58-174 not shown]
# not a heading: a comment
def run(*args, **kwargs):
    return `x`"""


def test_a_code_hit_is_previewed_as_written_not_as_markdown():
    # Gson's doc comment lines (` * `) were shown as bullets, a Python comment as a heading.
    content = render_hit(JAVA_HIT, "gson/src/main/java/com/google/gson/FieldNamingPolicy.java")
    assert content.plain == JAVA_HIT
    marker = JAVA_HIT.index("[lines")
    assert any(span.start == marker and "muted" in str(span.style) for span in content.spans)
    assert render_hit("## Token **Budget**", "docs/guide.md").plain == "Token Budget"


WRAPPED_NOTES = """\
## Decision Log
[lines 52-65 not shown]
The mirror fallback is read-only and internal; a host
drains before a rollback starts.\x20\x20
A hard break stays.

- Rationale: the mirror is read-only and internal; making it depend on the token
  service would make the fallback fail for the same reason the primary failed.
- Alternative considered: cache the last token
1. A numbered step
   that wraps.
> a quote
> on two lines
>
> - a list in it

| a | b |
|---|---|
| 1 | 2 |
a | b
--- | ---
1 | 2
Title
=====
<div>
html</div>
```
code line one
code line two
```"""


def test_a_wrapped_paragraph_or_list_item_is_one_line_the_preview_wraps_to_its_width():
    # The demo's NOTES.md, wrapped at 88 columns, in a 78-column preview: each source line
    # was wrapped on its own, leaving "token" alone on a line before "  service would".
    plain = render_markdown(WRAPPED_NOTES).plain.splitlines()
    assert plain[:4] == [
        "Decision Log",
        "[lines 52-65 not shown]",
        "The mirror fallback is read-only and internal; a host drains before a rollback starts.  ",
        "A hard break stays.",
    ]
    assert plain[5:8] == [
        "• Rationale: the mirror is read-only and internal; making it depend on the token "
        "service would make the fallback fail for the same reason the primary failed.",
        "• Alternative considered: cache the last token",
        "1. A numbered step that wraps.",
    ]
    # A quote's paragraph is one line too; tables, a setext underline, HTML and code keep
    # their lines.
    assert plain[8:] == [
        "▌ a quote on two lines", "▌ ", "▌ - a list in it", "",
        "| a | b |", "|---|---|", "| 1 | 2 |", "a | b", "--- | ---", "1 | 2",
        "Title", "=====", "<div>", "html</div>",
        "```", "code line one", "code line two", "```",
    ]  # fmt: skip


FRONT_MATTER_AND_LINKS = """\
---
title: Release notes
description: What changed
tags:
  - news
---
The release adds a budget
meter to the query view.<br>
A break stays.

[budget]: https://example.com/budget
[meter]: https://example.com/meter "The meter"
[^1]: A footnote that
    carries on.

Term
:   Its definition,
    wrapped."""


def test_front_matter_link_definitions_and_a_definition_stay_on_their_own_lines():
    # A hit from a page's first line: the front matter's keys were joined into one line
    # ("title: Release notes description: What changed"), and so were two link
    # definitions, a definition list's term and its definition, and a line ending in an
    # HTML break with the next.
    plain = render_markdown(FRONT_MATTER_AND_LINKS).plain.splitlines()
    assert plain == [
        "---", "title: Release notes", "description: What changed", "tags:", "  - news",
        "---",
        "The release adds a budget meter to the query view.<br>",
        "A break stays.",
        "",
        "[budget]: https://example.com/budget",
        '[meter]: https://example.com/meter "The meter"',
        "[^1]: A footnote that carries on.",
        "",
        "Term",
        ":   Its definition, wrapped.",
    ]  # fmt: skip


def test_short_words_and_punctuation_are_not_query_terms():
    assert query_terms('"token" a budget?') == ("budget", "token")


def test_the_budget_bar_maps_a_cell_to_a_snapped_limit():
    assert limit_at(49, 50, 2000) == 2000
    assert limit_at(24, 50, 2000) == 1000
    assert limit_at(0, 50, 2000) == 40


def test_sparkline_scales_to_the_largest_value():
    assert sparkline((0.0, 4.0, 8.0), 10) == "▁▅█"
    assert sparkline((5.0, 5.0, 5.0), 2) == "██"
    assert sparkline((), 5) == ""


TEXTUAL_INTERNALS = {"Focus Next", "Focus Previous", "Copy selected text"}


@pytest.mark.parametrize("mode", [view.mode for view in VIEWS])
async def test_f1_lists_each_key_of_the_current_view_once_and_no_textual_internals(mode):
    app = TierscopeApp(ScriptedProject())
    async with app.run_test(size=(120, 40)) as pilot:
        await app.switch_mode(mode)
        await pilot.pause()
        view = app.screen
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        keys = [key for key, _description in app.screen.keys]
        descriptions = [description for _key, description in app.screen.keys]
        assert len(keys) == len(set(keys)), "one row per key"
        assert len(descriptions) == len(set(descriptions)), "one row per action"
        assert not TEXTUAL_INTERNALS & set(descriptions)
        own = {binding.description for binding in view.BINDINGS}
        assert own <= set(descriptions)
        assert {"Help", "Query", "Trajectories", "Config", "Doctor", "Store"} <= set(descriptions)


async def test_at_80x24_help_shows_the_views_keys_without_scrolling():
    app = TierscopeApp(ScriptedProject())
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("f1")
        await pilot.pause()
        shown = await settled_text(pilot)
        for description in ("Cancel", "All tiers", "Copy JSON"):
            assert description in shown


@pytest.mark.parametrize("mode", [view.mode for view in VIEWS])
@pytest.mark.parametrize("size", [NARROW, (120, 40)])
async def test_no_footer_key_is_cut_off(mode, size):
    app = TierscopeApp(ScriptedProject())
    async with app.run_test(size=size) as pilot:
        await app.switch_mode(mode)
        await settled_text(pilot)
        keys = list(app.screen.query(FooterKey))
        assert any("Help" in key.description for key in keys)
        for key in keys:
            assert on_screen(app, key), key.description
        spans = sorted((key.region.x, key.region.right) for key in keys)
        for (_start, end), (next_start, _end) in pairwise(spans):
            assert end <= next_start, "keys overlap"


async def test_the_footer_is_composed_again_only_when_what_it_shows_changes():
    app = TierscopeApp(ScriptedProject())
    async with app.run_test(size=(120, 40)) as pilot:
        await settled_text(pilot)
        footer = app.screen.query_one(WorkbenchFooter)
        shown, keys = footer.items(), list(footer.query(FooterKey))
        for _ in range(3):  # the cursor moves: the same keys, the same widgets
            await pilot.press("tab")
            await pilot.pause()
            assert footer.items() == shown
            assert all(a is b for a, b in zip(footer.query(FooterKey), keys, strict=True))
        await pilot.resize_terminal(*NARROW)  # less room: the views go by key only
        await settled_text(pilot)
        assert footer.items() != shown
        described = {key.description for key in footer.query(FooterKey)}
        assert "Help" in described and not {"Query", "Config"} & described


# -- starting without a terminal, the demo's messages --------------------------------------


def run_tierscope(args: list[str], stdin) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tierscope", *args],
        stdin=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize("without", ["stdin", "stdout"])
def test_without_a_terminal_tierscope_prints_its_help_and_exits_2(tmp_path, without):
    if without == "stdin":
        result = run_tierscope(["--root", str(tmp_path)], subprocess.DEVNULL)
    else:
        # stdin is a terminal, stdout a pipe.
        controller, terminal = pty.openpty()
        try:
            result = run_tierscope(["--root", str(tmp_path)], terminal)
        finally:
            os.close(controller)
            os.close(terminal)
    assert result.returncode == 2
    assert "usage: tierscope" in result.stderr
    assert "needs a terminal" in result.stderr
    assert "\x1b[" not in result.stdout + result.stderr


def test_the_demo_hands_its_messages_to_the_workbench(tmp_path, monkeypatch, path_without_tools):
    opened = []
    monkeypatch.setattr(cli, "open_workbench", lambda args: opened.append(args) or 0)
    copy = tmp_path / "demo"
    assert cli.main(["demo", str(copy)]) == 0
    notices = opened[0].notices
    assert any(str(copy) in notice for notice in notices)
    assert any(notice.startswith("qmd: ") for notice in notices)


async def test_startup_notices_show_inside_the_app():
    app = TierscopeApp(ScriptedProject(), notices=("demo project: /srv/harbor",))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        shown = [notification.message for notification in app._notifications]
        assert "demo project: /srv/harbor" in shown


async def test_startup_notices_share_one_toast_so_a_small_terminal_keeps_its_results():
    notices = ("demo project: /srv/harbor", "qmd: not installed, so queries fall through")
    app = TierscopeApp(ScriptedProject(), notices=notices)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        shown = [notification.message for notification in app._notifications]
        assert shown == ["\n".join(notices)]


@pytest.mark.parametrize(
    ("size", "classes"), [(NARROW, {"-narrow", "-short"}), ((120, 40), {"-wide", "-tall"})]
)
async def test_a_view_shown_the_first_time_is_styled_as_it_is_built_and_not_again(
    monkeypatch, size, classes
):
    """Each widget of a new view gets its styles when it is mounted. Restyling the whole
    view again on showing it (and again when its breakpoint classes arrive) costs as
    much as building it, for nothing: nothing has changed since. The view the workbench
    opens on is one of them: both restyles stood between its start and its first paint."""
    restyled = []
    update_styles = TierscopeApp.update_styles

    def spy(app, node, *args, **kwargs):
        restyled.append(node)
        return update_styles(app, node, *args, **kwargs)

    monkeypatch.setattr(TierscopeApp, "update_styles", spy)
    app = TierscopeApp(ScriptedProject())
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        shown = [app.screen]
        for key in ("f3", "f4", "f5", "f6"):
            await pilot.press(key)
            await pilot.pause()
            shown.append(app.screen)
        assert len(set(shown)) == 5
        for screen in shown:
            assert classes <= set(screen.classes), screen
            assert screen not in restyled, screen


async def test_a_view_shown_the_first_time_parses_no_stylesheet_again(monkeypatch):
    """Textual parses every stylesheet of the app from its text again, three times, when
    a view is first shown, though nothing in them or the theme has changed: a fifth of
    the time the Config view took to open. Only the new view's own CSS is parsed, once."""
    parsed: list[tuple[object, str]] = []
    parse = textual_stylesheet.parse

    def spy(scope, css, read_from, **kwargs):
        parsed.append((read_from, css))
        return parse(scope, css, read_from, **kwargs)

    monkeypatch.setattr(textual_stylesheet, "parse", spy)
    app = TierscopeApp(ScriptedProject())
    async with app.run_test(size=NARROW) as pilot:
        await pilot.pause()
        for key in ("f3", "f4", "f5", "f6"):
            parsed.clear()
            await pilot.press(key)
            await pilot.pause()
            again = [source for source, count in Counter(parsed).items() if count > 1]
            assert not again, (key, [read_from for read_from, _css in again])


async def test_a_theme_chosen_while_a_view_is_hidden_shows_when_it_is_shown_again():
    app = TierscopeApp(ScriptedProject(), theme="tierscope-dark")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f4")
        await pilot.pause()
        config = app.screen
        dark = config.styles.background
        await pilot.press("f2")
        await pilot.pause()
        query = app.screen
        app.theme = "tierscope-light"
        await pilot.pause()
        light = query.styles.background
        assert light != dark
        await pilot.press("f4")
        await pilot.pause()
        assert app.screen is config
        assert config.styles.background == light
