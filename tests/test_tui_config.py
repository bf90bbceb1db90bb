"""The workbench's Config view: a form and a YAML editor over one config file, validation
as you type, a preview with unsaved settings, and a save that shows its diff first and
never overwrites a change made on disk meanwhile."""

from __future__ import annotations

import contextlib
import difflib
import os
import threading
from pathlib import Path

import pytest
from textual.widgets import Button, Input, Static
from textual.worker import WorkerCancelled, WorkerFailed
from tui_checks import NARROW, settled_text

from tierscope.api import Project, QueryOptions
from tierscope.config.model import BUILTIN_SCOPES
from tierscope.tui.app import VIEWS, TierscopeApp
from tierscope.tui.config_text import disk_text
from tierscope.tui.screens.config import ConfigScreen
from tierscope.tui.screens.config_dialogs import ConfigDialog
from tierscope.tui.screens.query import QueryScreen
from tierscope.tui.screens.unsaved_changes import UnsavedChangesDialog
from tierscope.tui.widgets.config_form import ConfigForm, FormSection
from tierscope.tui.widgets.config_preview import PreviewPanel
from tierscope.tui.widgets.config_problems import ProblemList
from tierscope.tui.widgets.named_entries import NamedEntries
from tierscope.tui.widgets.setting_field import SettingField
from tierscope.tui.widgets.yaml_editor import YamlEditor

pytestmark = pytest.mark.anyio
SIZE = (120, 40)
CONFIG_NAME = ".loa.config.yaml"
# Query and Config only, so the footer of the snapshots does not change as views are added.
VIEWS_SHOWN = tuple(view for view in VIEWS if view.mode in ("query", "config"))

CONFIG = """\
# Loa configuration for harbor. Tools read only their own section.

project:
  name: harbor   # shown in reports
  owners:
    - maya

# Tiered context retrieval.
qmd_context:
  enabled: true
  default_budget: 40          # tokens handed to a skill when it names no budget
  timeout_seconds: 5

  tiers: [grep]

  scopes:
    notes:
      qmd_collection: "loa-grimoire"
      ck_path: "grimoires/loa/"
      grep_paths:
        - "grimoires/loa/"

  skill_overrides:
    implement:
      budget: 2000
      scope: notes

integrations:
  beads:
    enabled: true   # keep
"""

NOTES = """\
# Deployments

The drain window lets a host finish its jobs before a rollback starts.
Every rollback waits for the drain window to close, so the budget of the
rollout holds even when a host is slow to drain.
"""

RUNBOOK = """\
# Rollback runbook

1. Announce the rollback in the channel.
2. Drain the host: the drain window is five minutes by default.
3. Roll back the release and watch the error budget for an hour.
"""


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def harbor(make_project) -> Path:
    return make_project(
        {
            CONFIG_NAME: CONFIG,
            "grimoires/loa/NOTES.md": NOTES,
            "grimoires/loa/runbook.md": RUNBOOK,
            "docs/guide.md": "# Guide\n\nHow the drain window works.\n",
        },
        name="harbor",
    )


def workbench(root: Path) -> TierscopeApp:
    return TierscopeApp(Project(root), views=VIEWS_SHOWN)


async def settle(pilot) -> None:
    """Wait until every worker has ended and its messages have landed."""
    for _ in range(2):
        for worker in list(pilot.app.workers):
            with contextlib.suppress(WorkerCancelled, WorkerFailed):
                await worker.wait()
        await pilot.pause()


async def open_config(pilot) -> ConfigScreen:
    await pilot.press("f4")
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, ConfigScreen)
    for field in screen.query(Input):
        field.cursor_blink = False
    screen.query_one(YamlEditor).cursor_blink = False
    return screen


def field(screen: ConfigScreen, key: str) -> SettingField:
    return next(field for field in screen.query(SettingField) if field.key == key)


async def built_field(pilot, screen: ConfigScreen, key: str) -> SettingField:
    """`field`, for a key further down the form: a section is built when it comes near
    the view, so this one is built first."""
    screen.query_one(ConfigForm).build_section(key)
    await settle(pilot)
    return field(screen, key)


async def type_into(pilot, control: Input, text: str) -> None:
    """Clear an input and type `text` key by key, as a person would."""
    control.focus()
    control.value = ""
    await pilot.press(*text)
    await pilot.pause()


async def paste_into(pilot, control: Input, text: str) -> None:
    """Put `text` in an input at once (a paste), then leave the cursor there."""
    control.focus()
    control.value = text
    await pilot.pause()


def editor(screen: ConfigScreen, group: str) -> NamedEntries:
    return next(editor for editor in screen.query(NamedEntries) if editor.group == group)


async def add_scope(pilot, screen: ConfigScreen, name: str, **fields: str) -> None:
    scopes = editor(screen, "scopes")
    scopes.query_one("#entry-new").press()
    await pilot.pause()
    await type_into(pilot, scopes.query_one("#entry-name", Input), name)
    for key, text in fields.items():
        await paste_into(pilot, scopes.query_one(f"#entry-{key}").query_one(Input), text)
    scopes.query_one("#entry-add").press()
    await pilot.pause()


async def choose(pilot, screen: ConfigScreen, answer: str) -> None:
    dialog = pilot.app.screen
    assert isinstance(dialog, ConfigDialog)
    dialog.query_one(f"#{answer}").press()
    await pilot.pause()
    await pilot.pause()


def changed_lines(before: str, after: str) -> list[str]:
    return [
        line
        for line in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="")
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    ]


def problem_messages(screen: ConfigScreen) -> list[str]:
    return [
        f"{problem.key}: {problem.message}" for problem in screen.query_one(ProblemList).problems
    ]


async def test_a_budget_and_a_new_scope_saved_from_the_form_change_only_their_lines(harbor):
    config = harbor / CONFIG_NAME
    app = workbench(harbor)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_config(pilot)
        await type_into(pilot, field(screen, "default_budget").control, "3000")
        await add_scope(pilot, screen, "docs", ck_path="docs/", grep_paths="docs/")
        assert config.read_text() == CONFIG  # nothing written before saving
        await pilot.press("ctrl+s")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ConfigDialog)
        assert "+  default_budget: 3000" in dialog.diff
        await choose(pilot, screen, "save")
        assert not isinstance(app.screen, ConfigDialog)

    assert changed_lines(CONFIG, config.read_text()) == [
        "-  default_budget: 40          # tokens handed to a skill when it names no budget",
        "+  default_budget: 3000          # tokens handed to a skill when it names no budget",
        "+    docs:",
        '+      ck_path: "docs/"',
        "+      grep_paths:",
        '+        - "docs/"',
    ]


async def test_a_session_policy_chosen_in_the_form_is_saved_in_its_own_section(harbor):
    config = harbor / CONFIG_NAME
    app = workbench(harbor)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_config(pilot)
        repeats = (await built_field(pilot, screen, "session.repeats")).control
        assert [value for _label, value in repeats._options if isinstance(value, str)] == [
            "reference", "skip", "allow",
        ]  # fmt: skip
        repeats.value = "skip"
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        await choose(pilot, screen, "save")
    assert changed_lines(CONFIG, config.read_text()) == ["+  session:", '+    repeats: "skip"']
    assert Project(harbor).config.session.repeats == "skip"


async def test_saving_reloads_the_projects_settings_for_the_query_view(harbor):
    app = workbench(harbor)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = await open_config(pilot)
        await type_into(pilot, field(screen, "default_budget").control, "750")
        await pilot.press("ctrl+s")
        await pilot.pause()
        await choose(pilot, screen, "save")
        assert app.engine.config.default_budget == 750
        await pilot.press("f2")
        await pilot.pause()
        query = app.screen
        assert isinstance(query, QueryScreen) and query is app.view_screens["query"]
        assert query.query_one("#budget", Input).placeholder == "750"


async def test_a_file_changed_on_disk_meanwhile_is_never_overwritten(harbor):
    config = harbor / CONFIG_NAME
    app = workbench(harbor)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_config(pilot)
        await type_into(pilot, field(screen, "default_budget").control, "3000")
        someone_else = CONFIG.replace("name: harbor", "name: harbour")
        config.write_text(someone_else)
        await pilot.press("ctrl+s")
        await pilot.pause()
        conflict = app.screen
        assert isinstance(conflict, ConfigDialog)
        assert conflict.title_text == "The file changed on disk"
        assert config.read_text() == someone_else
        await choose(pilot, screen, "diff")
        against_disk = app.screen
        assert isinstance(against_disk, ConfigDialog)
        assert "-  name: harbour   # shown in reports" in against_disk.diff
        assert "+  default_budget: 3000" in against_disk.diff
        await choose(pilot, screen, "reload")
        assert screen.document.text == someone_else
        assert field(screen, "default_budget").text() == "40"
    assert config.read_text() == someone_else


async def test_a_conflict_is_named_before_a_save_diff_is_offered(harbor):
    config = harbor / CONFIG_NAME
    app = workbench(harbor)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_config(pilot)
        await type_into(pilot, field(screen, "default_budget").control, "3000")
        config.write_text(CONFIG.replace("name: harbor", "name: harbour"))
        await pilot.press("ctrl+s")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ConfigDialog)
        assert dialog.title_text == "The file changed on disk"
        assert [button.id for button in dialog.query(Button)] == ["diff", "reload", "keep"]


def visible(widget, screen_size) -> bool:
    """The widget has room on screen and lies wholly inside it."""
    region = widget.region
    width, height = screen_size
    return (
        region.width > 0
        and region.height > 0
        and region.right <= width
        and region.bottom <= height
        and region.x >= 0
        and region.y >= 0
    )


@pytest.mark.parametrize("size", [(80, 24), SIZE])
async def test_the_changed_on_disk_dialog_shows_its_message_and_buttons(harbor, size):
    config = harbor / CONFIG_NAME
    app = workbench(harbor)
    async with app.run_test(size=size) as pilot:
        screen = await open_config(pilot)
        await type_into(pilot, field(screen, "default_budget").control, "3000")
        config.write_text(CONFIG.replace("name: harbor", "name: harbour"))
        await pilot.press("ctrl+s")
        await settled_text(pilot)
        dialog = app.screen
        assert isinstance(dialog, ConfigDialog)
        message = dialog.query_one("#dialog-message", Static)
        assert visible(message, size)
        assert "changed on disk" in str(message.render())
        for button in dialog.query(Button):
            assert visible(button, size), button.id
        assert await pilot.click("#keep")
        await pilot.pause()
        assert app.screen is screen


async def test_a_stale_edit_never_rewrites_the_field_being_typed_in(harbor):
    app = workbench(harbor)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_config(pilot)
        archive = await built_field(pilot, screen, "filtering.archive_zone")
        control = archive.control
        control.focus()
        control.value = "src/harbor/"  # typed; its own edits are handled
        await pilot.pause()
        # On a busy machine the edit of an earlier keystroke is handled only now.
        archive.post_message(SettingField.Edited(archive, archive.key, "src/ha"))
        await pilot.pause()
        assert control.value == "src/harbor/"
        await pilot.press("tab")  # leaving the field: the file holds what it shows
        await pilot.pause()
        assert control.value == "src/harbor/"
        assert screen.document.get("filtering.archive_zone") == "src/harbor/"


async def test_a_non_positive_budget_is_named_beside_its_field_and_in_the_problems(harbor):
    app = workbench(harbor)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_config(pilot)
        budget = field(screen, "default_budget")
        await type_into(pilot, budget.control, "0")
        assert budget.has_class("-error")
        assert "expected positive integer, got 0" in str(
            budget.query_one(".field-message").render()
        )
        assert (
            "default_budget: expected positive integer, got 0; using the default (2000)"
            in problem_messages(screen)
        )
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not isinstance(app.screen, ConfigDialog)  # an error the edit made blocks saving


async def test_an_override_naming_an_unknown_scope_is_an_error_at_that_field(harbor):
    app = workbench(harbor)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_config(pilot)
        overrides = editor(screen, "skill_overrides")
        assert overrides.selected == "implement"
        scope = overrides.query_one("#entry-scope", SettingField)
        await type_into(pilot, scope.control, "nowhere")
        assert scope.has_class("-error")
        assert "unknown scope 'nowhere'" in str(scope.query_one(".field-message").render())
        assert "skill_overrides.implement.scope: unknown scope 'nowhere'" in problem_messages(
            screen
        )


async def test_a_new_scope_is_checked_before_it_is_added(harbor):
    app = workbench(harbor)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_config(pilot)
        scopes = editor(screen, "scopes")
        scopes.query_one("#entry-new").press()
        await pilot.pause()
        await type_into(pilot, scopes.query_one("#entry-name", Input), "notes")
        assert "already exists" in str(scopes.query_one(".entry-name-message").render())
        await paste_into(pilot, scopes.query_one("#entry-name", Input), "elsewhere")
        paths = scopes.query_one("#entry-grep_paths", SettingField)
        await paste_into(pilot, paths.control, "../outside/, missing/")
        assert paths.has_class("-error")
        assert "outside" in str(paths.query_one(".field-message").render())
        assert "elsewhere" not in screen.document.text  # a draft is not written


async def test_a_scope_from_the_file_can_be_removed_but_a_built_in_one_cannot(harbor):
    app = workbench(harbor)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_config(pilot)
        notices: list[str] = []
        screen.notify = lambda message, **_options: notices.append(message)
        scopes = editor(screen, "scopes")
        for name in ("notes", "skills"):
            scopes.post_message(scopes.EntryChosen(scopes, name))
            await pilot.pause()
            scopes.query_one("#entry-remove").press()
            await pilot.pause()
        assert "notes:" not in screen.document.text
        assert screen.edited.scopes["notes"] == BUILTIN_SCOPES["notes"]  # the default is back
        assert "skills" in screen.edited.scopes
        assert notices == ["scope skills is built in: it can be changed, not removed."]


async def test_moving_a_tier_rewrites_only_the_tiers_line(harbor):
    app = workbench(harbor)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_config(pilot)
        screen.query_one("#use-qmd").focus()
        await pilot.press("space")
        await pilot.pause()
        assert screen.document.get("tiers") == ["grep", "qmd"]
        screen.query_one("#use-qmd").focus()
        await pilot.press("shift+up")
        await pilot.pause()
        assert screen.document.get("tiers") == ["qmd", "grep"]
        assert changed_lines(CONFIG, screen.document.text) == [
            "-  tiers: [grep]",
            "+  tiers: [qmd, grep]",
        ]


async def test_the_yaml_editor_and_the_form_stay_in_step(harbor):
    app = workbench(harbor)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_config(pilot)
        yaml_editor = screen.query_one(YamlEditor)
        assert yaml_editor.line_number_start == CONFIG.splitlines().index("qmd_context:") + 1
        await type_into(pilot, field(screen, "timeout_seconds").control, "2.5")
        assert "  timeout_seconds: 2.5\n" in yaml_editor.text

        yaml_editor.text = yaml_editor.text.replace("default_budget: 40", "default_budget: 900")
        await pilot.pause()
        assert field(screen, "default_budget").text() == "900"
        assert screen.document.get("default_budget") == 900

        broken = yaml_editor.text.replace("  tiers: [grep]", "  tiers: [grep")
        yaml_editor.text = broken
        await pilot.pause()
        problem = screen.editor_problem
        assert problem is not None and problem.line is not None
        assert problem in screen.query_one(ProblemList).problems
        assert screen.document.get("tiers") == ["grep"]  # the last valid text is kept

        problems = screen.query_one(ProblemList)
        problems.focus()
        problems.highlighted = problems.problems.index(problem)
        await pilot.press("enter")
        await pilot.pause()
        row, _ = yaml_editor.cursor_location
        assert yaml_editor.line_number_start + row == problem.line
        assert app.focused is yaml_editor


async def test_preview_runs_the_unsaved_settings_and_leaves_the_file_alone(harbor):
    config = harbor / CONFIG_NAME
    app = workbench(harbor)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_config(pilot)
        await type_into(pilot, field(screen, "default_budget").control, "2000")
        panel = screen.query_one(PreviewPanel)
        await paste_into(pilot, panel.query_one("#preview-query", Input), "drain window")
        await pilot.press("enter")
        await settle(pilot)
        saved, edited = panel.results
        assert saved.budget.limit == 40
        assert edited.budget.limit == 2000
        assert saved.served_by == edited.served_by == "grep"
        assert len(edited.budget.included) > len(saved.budget.included)
        summary = str(panel.query_one("#preview-summary").render())
        assert "40 tokens → 2,000 tokens" in summary
    assert config.read_text() == CONFIG


async def test_preview_offers_the_query_views_last_query(harbor):
    app = workbench(harbor)
    async with app.run_test(size=SIZE) as pilot:
        query = app.screen
        assert isinstance(query, QueryScreen)
        query.load_options(QueryOptions(text="rollback budget"))
        await settle(pilot)
        screen = await open_config(pilot)
        assert screen.query_one("#preview-query", Input).value == "rollback budget"


async def test_saving_creates_the_file_when_the_project_has_none(make_project):
    root = make_project({"notes/a.md": "drain window\n"}, name="bare")
    app = workbench(root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_config(pilot)
        await type_into(pilot, field(screen, "default_budget").control, "1200")
        await pilot.press("ctrl+s")
        await pilot.pause()
        await choose(pilot, screen, "save")
    assert (root / ".tierscope.yaml").read_text() == "qmd_context:\n  default_budget: 1200\n"


async def answer_quit(pilot, answer: str) -> None:
    dialog = pilot.app.screen
    assert isinstance(dialog, UnsavedChangesDialog)
    dialog.query_one(f"#{answer}").press()
    await pilot.pause()
    await pilot.pause()


def status_line(screen: ConfigScreen) -> str:
    return str(screen.query_one("#config-status", Static).render())


async def test_quitting_with_unsaved_edits_asks_first_and_cancel_keeps_them(harbor):
    app = workbench(harbor)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_config(pilot)
        await type_into(pilot, field(screen, "default_budget").control, "3000")
        await pilot.press("f2")  # switching views is allowed; quitting is what asks
        await pilot.press("ctrl+q")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, UnsavedChangesDialog)
        assert dialog.target == CONFIG_NAME
        await answer_quit(pilot, "cancel")
        assert app.return_code is None  # still running
        assert isinstance(app.screen, QueryScreen)
        assert screen.document.get("default_budget") == 3000
    assert (harbor / CONFIG_NAME).read_text() == CONFIG


async def test_discard_and_quit_exits_and_leaves_the_file_as_it_was(harbor):
    app = workbench(harbor)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_config(pilot)
        await type_into(pilot, field(screen, "default_budget").control, "3000")
        await pilot.press("ctrl+q")
        await pilot.pause()
        await answer_quit(pilot, "discard")
        assert app.return_code == 0
    assert (harbor / CONFIG_NAME).read_text() == CONFIG


async def test_save_before_quitting_shows_the_diff_then_saves_and_exits(harbor):
    config = harbor / CONFIG_NAME
    app = workbench(harbor)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_config(pilot)
        await type_into(pilot, field(screen, "default_budget").control, "3000")
        await pilot.press("f2", "ctrl+q")
        await pilot.pause()
        await answer_quit(pilot, "save")
        assert app.return_code is None  # not before the save is confirmed
        assert isinstance(app.screen, ConfigDialog) and "+  default_budget: 3000" in app.screen.diff
        await choose(pilot, screen, "save")
        assert app.return_code == 0
    assert changed_lines(CONFIG, config.read_text()) == [
        "-  default_budget: 40          # tokens handed to a skill when it names no budget",
        "+  default_budget: 3000          # tokens handed to a skill when it names no budget",
    ]


async def test_a_save_refused_while_quitting_keeps_the_workbench_open(harbor):
    app = workbench(harbor)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_config(pilot)
        await type_into(pilot, field(screen, "default_budget").control, "0")
        await pilot.press("ctrl+q")
        await pilot.pause()
        await answer_quit(pilot, "save")
        assert app.return_code is None
        assert app.screen is screen  # the error the edit made blocks the save, and the quit
    assert (harbor / CONFIG_NAME).read_text() == CONFIG


async def test_quitting_without_edits_exits_at_once(harbor):
    app = workbench(harbor)
    async with app.run_test(size=SIZE) as pilot:
        await open_config(pilot)
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert app.return_code == 0


async def test_text_that_does_not_parse_in_the_yaml_editor_is_unsaved(harbor):
    app = workbench(harbor)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_config(pilot)
        assert "saved" in status_line(screen) and screen.sub_title == CONFIG_NAME
        yaml_editor = screen.query_one(YamlEditor)
        yaml_editor.text = yaml_editor.text.replace("  enabled: true", "      enabled: true", 1)
        await pilot.pause()
        assert screen.editor_problem is not None  # it no longer parses
        assert "1 line changed, unsaved" in status_line(screen)
        assert screen.sub_title == f"{CONFIG_NAME} (unsaved)"
        assert screen.unsaved_changes() == CONFIG_NAME
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, UnsavedChangesDialog)


async def test_the_save_dialogs_buttons_answer_a_mouse_click_on_a_short_terminal(harbor):
    config = harbor / CONFIG_NAME
    app = workbench(harbor)
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await open_config(pilot)
        await type_into(pilot, field(screen, "default_budget").control, "3000")
        await add_scope(pilot, screen, "docs", ck_path="docs/", grep_paths="docs/")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, ConfigDialog)
        assert await pilot.click("#save")
        await pilot.pause()
        await pilot.pause()
        assert not isinstance(app.screen, ConfigDialog)
    assert "  default_budget: 3000" in config.read_text()


async def test_a_section_further_down_is_built_near_the_view_as_tall_as_it_was(harbor):
    app = workbench(harbor)
    async with app.run_test(size=NARROW) as pilot:
        screen = await open_config(pilot)
        form = screen.query_one(ConfigForm)
        sections = list(form.query_children(FormSection))
        assert not all(section.ready for section in sections), "all built at once"
        heights = [section.outer_size.height for section in sections]
        length = form.virtual_size.height
        while not all(section.ready for section in sections):
            assert form.scroll_y < form.max_scroll_y, "the end reached, a section unbuilt"
            form.scroll_relative(y=5, animate=False)
            await settle(pilot)
        assert [section.outer_size.height for section in sections] == heights
        assert form.virtual_size.height == length
        assert {field.key for field in form.fields()} >= {"session.repeats", "snippets.max_chars"}


async def test_a_field_built_late_shows_the_files_value_and_its_problem(harbor):
    (harbor / CONFIG_NAME).write_text(
        CONFIG.replace("  tiers: [grep]\n", "  tiers: [grep]\n  token_budgets:\n    session: -5\n")
    )
    app = workbench(harbor)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_config(pilot)
        assert not any(
            field.key.startswith("token_budgets.")
            for field in screen.query_one(ConfigForm).fields()
        )
        # Choosing the problem takes the cursor to its field, built on the way.
        problems = screen.query_one(ProblemList)
        chosen = next(p for p in problems.problems if p.key == "token_budgets.session")
        problems.post_message(ProblemList.Chosen(chosen))
        await settle(pilot)
        budget = field(screen, "token_budgets.session")
        assert budget.control.has_focus
        assert budget.control.value == "-5" and budget.has_class("-error")
        assert "✗" in str(budget.query_one(".field-message").render())


async def test_tab_reaches_every_field_further_down_the_form_in_order(harbor):
    app = workbench(harbor)
    async with app.run_test(size=NARROW) as pilot:
        screen = await open_config(pilot)
        form = screen.query_one(ConfigForm)
        assert form.focus_key("snippets.max_chars")  # the first section built late
        await settle(pilot)
        reached: list[str] = []
        while (focused := app.focused) is not None and form in focused.ancestors:
            owner = next(n for n in focused.ancestors_with_self if isinstance(n, SettingField))
            if owner.key not in reached:
                reached.append(owner.key)
            await pilot.press("tab")
            await settle(pilot)
        keys = [
            spec.key for section in form.query_children(FormSection) for spec, _ in section.fields
        ]
        assert reached == keys[keys.index("snippets.max_chars") :]


def test_snapshot_of_the_form_with_a_validation_error(snap_compare, harbor):
    async def run_before(pilot) -> None:
        screen = await open_config(pilot)
        await type_into(pilot, field(screen, "default_budget").control, "-5")
        screen.query_one(ProblemList).focus()
        await pilot.pause()

    assert snap_compare(workbench(harbor), run_before=run_before, terminal_size=SIZE)


def test_snapshot_of_the_diff_shown_before_saving(snap_compare, harbor):
    async def run_before(pilot) -> None:
        screen = await open_config(pilot)
        await type_into(pilot, field(screen, "default_budget").control, "3000")
        await add_scope(pilot, screen, "docs", ck_path="docs/", grep_paths="docs/")
        await pilot.press("ctrl+s")
        await pilot.pause()

    assert snap_compare(workbench(harbor), run_before=run_before, terminal_size=SIZE)


def test_snapshot_of_the_question_before_quitting_with_unsaved_edits(snap_compare, harbor):
    async def run_before(pilot) -> None:
        screen = await open_config(pilot)
        await type_into(pilot, field(screen, "default_budget").control, "3000")
        await pilot.press("ctrl+q")
        await pilot.pause()

    assert snap_compare(workbench(harbor), run_before=run_before, terminal_size=SIZE)


async def test_at_80x24_the_form_keeps_its_width_and_every_field_is_whole(harbor):
    app = workbench(harbor)
    async with app.run_test(size=NARROW) as pilot:
        screen = await open_config(pilot)
        await settled_text(pilot)  # the layout for 80 columns is done
        form = screen.query_one("#config-form")
        assert form.region.width >= 70
        for setting in form.query(SettingField):
            control = setting.control
            if control.region.height:  # scrolled into view
                assert control.region.right <= form.region.right, setting.key
                assert control.region.width >= 20, setting.key


def test_snapshot_at_80x24_of_the_form_with_a_validation_error(snap_compare, harbor):
    async def run_before(pilot) -> None:
        screen = await open_config(pilot)
        await type_into(pilot, field(screen, "default_budget").control, "-5")
        screen.query_one(ProblemList).focus()
        await pilot.pause()

    assert snap_compare(workbench(harbor), run_before=run_before, terminal_size=NARROW)


@pytest.mark.parametrize("size", [NARROW, SIZE], ids=["80x24", "120x40"])
def test_snapshot_of_the_sessions_section_of_the_form(snap_compare, harbor, size):
    async def run_before(pilot) -> None:
        screen = await open_config(pilot)
        repeats = await built_field(pilot, screen, "session.repeats")
        repeats.control.value = "skip"
        await pilot.pause()
        screen.query_one("#config-form").scroll_to_widget(repeats, animate=False, top=True)
        await pilot.pause()

    assert snap_compare(workbench(harbor), run_before=run_before, terminal_size=size)


def test_snapshot_at_80x24_of_the_file_changed_on_disk(snap_compare, harbor):
    async def run_before(pilot) -> None:
        screen = await open_config(pilot)
        await type_into(pilot, field(screen, "default_budget").control, "3000")
        (harbor / CONFIG_NAME).write_text(CONFIG.replace("name: harbor", "name: harbour"))
        await pilot.press("ctrl+s")
        await pilot.pause()

    assert snap_compare(workbench(harbor), run_before=run_before, terminal_size=NARROW)


async def test_typing_a_value_and_typing_it_back_leaves_no_diff(harbor):
    app = workbench(harbor)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_config(pilot)
        overrides = editor(screen, "skill_overrides")
        overrides.post_message(overrides.EntryChosen(overrides, "implement"))
        await pilot.pause()
        scope = overrides.query_one("#entry-scope", SettingField).control
        await type_into(pilot, scope, "grimoires")
        await type_into(pilot, scope, "notes")  # on the way: "no", which YAML reads as false
        await pilot.press("tab")
        await pilot.pause()
        assert screen.document.text == CONFIG
        assert screen.unsaved_changes() is None


async def test_a_value_of_the_wrong_type_names_what_applies_instead(harbor):
    app = workbench(harbor)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_config(pilot)
        overrides = editor(screen, "skill_overrides")
        overrides.post_message(overrides.EntryChosen(overrides, "implement"))
        await pilot.pause()
        budget = overrides.query_one("#entry-budget", SettingField).control
        await type_into(pilot, budget, "lots")
        messages = problem_messages(screen)
        assert any("using default_budget instead" in message for message in messages), messages
        assert not any("None" in message for message in messages), messages


async def test_a_broken_override_does_not_stop_the_default_budget_being_saved(harbor):
    config = harbor / CONFIG_NAME
    config.write_text(CONFIG.replace("budget: 2000", "budget: lots"))
    app = workbench(harbor)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_config(pilot)
        await type_into(pilot, field(screen, "default_budget").control, "60")
        await pilot.press("ctrl+s")
        await pilot.pause()
        await choose(pilot, screen, "save")
    assert "  default_budget: 60 " in config.read_text()


async def test_a_yaml_error_in_the_editor_names_the_files_line(harbor):
    first_line = CONFIG.splitlines().index("qmd_context:") + 1
    app = workbench(harbor)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_config(pilot)
        await pilot.press("f8")
        yaml_editor = screen.query_one(YamlEditor)
        yaml_editor.text = "qmd_context:\n  enabled: true\n  tiers: [grep\n  timeout_seconds: 5\n"
        await pilot.pause()
        problem = screen.editor_problem
        assert problem is not None
        assert problem.line == first_line + 3
        assert f"line {first_line + 2}" in problem.message  # where the list began
        assert "line 3" not in problem.message


def test_reading_the_config_back_from_disk_never_blocks_on_a_fifo(tmp_path):
    # Showing the Config view again reads the file back to see whether it changed on
    # disk; a `.tierscope.yaml` that is a FIFO froze the whole workbench there (an open
    # for reading waits for a writer), where every other read refuses it.
    fifo = tmp_path / ".tierscope.yaml"
    os.mkfifo(fifo)
    read: list[object] = []
    reader = threading.Thread(target=lambda: read.append(disk_text(fifo)), daemon=True)
    reader.start()
    reader.join(5)
    blocked = reader.is_alive()
    if blocked:  # release it: a writer that writes nothing
        os.close(os.open(fifo, os.O_WRONLY))
        reader.join()
    assert not blocked
    assert read == [None]


async def test_a_huge_config_file_or_another_unreadable_one_is_said_so_and_never_saved_over(
    make_project,
):
    # A 17 MB `.tierscope.yaml` (past the 1 MiB every reader allows) was shown as "does
    # not exist yet; saving creates it".
    root = make_project({"docs/guide.md": "# Guide\n"}, name="harbor")
    config = root / ".tierscope.yaml"
    config.write_text("qmd_context:\n  default_budget: 1500\n" + "# padding\n" * 200_000)
    before = config.read_bytes()
    app = TierscopeApp(Project(root), views=VIEWS_SHOWN)
    async with app.run_test(size=NARROW) as pilot:
        screen = await open_config(pilot)
        await type_into(pilot, field(screen, "default_budget").control, "3000")
        await settle(pilot)
        status = str(screen.query_one("#config-status", Static).visual)
        await pilot.press("ctrl+s")
        await settle(pilot)
        told = [notification.message for notification in app._notifications]
    assert "cannot be read" in status and "larger than 1 MiB" in status, status
    assert "does not exist" not in status
    assert any("not saved" in message.lower() for message in told), told
    assert config.read_bytes() == before


async def test_a_project_config_linked_out_of_the_project_is_not_shown_nor_saved_over(
    make_project, tmp_path
):
    # Queries use defaults for a `.tierscope.yaml` that links out of the project, unread;
    # the Config view read it through the link and showed the outside file's text.
    outside = tmp_path / "outside.yaml"
    outside.write_text("qmd_context:\n  default_budget: 777  # SECRET-OUTSIDE\n")
    root = make_project({"docs/guide.md": "# Guide\n"}, name="harbor")
    (root / ".tierscope.yaml").symlink_to(outside)
    app = TierscopeApp(Project(root), views=VIEWS_SHOWN)
    async with app.run_test(size=NARROW) as pilot:
        screen = await open_config(pilot)
        await settle(pilot)
        status = str(screen.query_one("#config-status", Static).visual)
        editor_text = screen.query_one(YamlEditor).text
    assert "SECRET" not in editor_text and "777" not in editor_text
    assert "cannot be read (a symbolic link out of the project)" in status, status
    assert outside.read_text().endswith("SECRET-OUTSIDE\n")


async def test_an_unreadable_config_file_is_reported_once_not_at_every_return_to_the_view(
    make_project,
):
    # The Config view read a FIFO config again at each return to it, and said "cannot
    # read" each time; once the file is gone, it is a file saving creates.
    root = make_project({"docs/guide.md": "# Guide\n"}, name="harbor")
    fifo = root / ".tierscope.yaml"
    os.mkfifo(fifo)
    app = TierscopeApp(Project(root), views=VIEWS_SHOWN)
    async with app.run_test(size=NARROW) as pilot:
        screen = await open_config(pilot)
        for _ in range(2):
            await pilot.press("f2")
            await pilot.pause()
            await pilot.press("f4")
            await settle(pilot)
        told = [n.message for n in app._notifications if "cannot read" in n.message]
        fifo.unlink()
        await pilot.press("f2")
        await pilot.pause()
        await pilot.press("f4")
        await settle(pilot)
        status = str(screen.query_one("#config-status", Static).visual)
    assert len(told) == 1, told
    assert "does not exist yet" in status, status
