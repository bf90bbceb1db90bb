"""Themes: built-in ones carry our variables, user files are validated, the choice sticks."""

from __future__ import annotations

import pytest
from tui_fakes import ScriptedProject

from tierscope.themes.builtin import BUILTIN_THEMES, OUR_VARIABLES
from tierscope.themes.user import ThemeFileError, load_user_themes, parse_theme
from tierscope.tui.app import TierscopeApp
from tierscope.tui.preferences import Preferences, load_preferences, save_preferences

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture
def themes_dir(tmp_path, monkeypatch):
    home = tmp_path / "config-home"
    monkeypatch.setenv("TIERSCOPE_CONFIG_HOME", str(home))
    folder = home / "themes"
    folder.mkdir(parents=True)
    return folder


@pytest.mark.parametrize("theme", BUILTIN_THEMES, ids=lambda theme: theme.name)
def test_every_builtin_theme_defines_all_our_variables(theme):
    assert set(OUR_VARIABLES) <= set(theme.variables)


def test_a_user_theme_file_becomes_a_theme():
    theme = parse_theme('name: harbour\nprimary: "#3fb6a8"\nvariables:\n  tier-qmd: "#c678dd"\n')
    assert theme.name == "harbour"
    assert theme.primary == "#3fb6a8"
    assert theme.variables == {"tier-qmd": "#c678dd"}


def test_a_user_theme_written_as_the_readme_says_loads():
    theme = parse_theme(
        "name: harbour\n"
        'primary: "#3fb6a8"\n'
        'background: "#10161d"\n'
        'tier-qmd: "#c678dd"\n'
        'budget-over: "#ff5f5f"\n'
    )
    assert theme.background == "#10161d"
    assert theme.variables == {"tier-qmd": "#c678dd", "budget-over": "#ff5f5f"}


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("name: x\nprimary: [1, 2\n", "invalid YAML at line"),
        ("- just\n- a list\n", "expected a mapping"),
        ('name: x\nprimay: "#fff"\n', "unknown key 'primay'"),
        ('primary: "#fff"\n', "`name` must be a non-empty string"),
        ("name: x\n", "`primary` is required"),
        ("name: x\nprimary:\n", "`primary` is required"),
        ("name: x\nprimary: null\n", "`primary` is required"),
        ("name: x\nprimary: blurple\n", "'blurple' is not a colour"),
        ('name: x\nprimary: "#fff"\ndark: maybe\n', "`dark` must be true or false"),
        ('name: x\nprimary: "#fff"\nvariables:\n  budget-over: 12\n', "variables.budget-over"),
        ('name: x\nprimary: "#fff"\ntier-ck: nope\n', "`tier-ck`: 'nope' is not a colour"),
    ],
)
def test_a_broken_theme_file_is_refused_with_a_one_line_reason(text, problem):
    with pytest.raises(ThemeFileError) as caught:
        parse_theme(text)
    assert problem in str(caught.value)
    assert "\n" not in str(caught.value)


def test_broken_and_clashing_user_themes_are_skipped_with_a_warning_each(themes_dir):
    (themes_dir / "good.yaml").write_text('name: harbour\nprimary: "#3fb6a8"\n')
    (themes_dir / "bad.yaml").write_text("name: broken\nprimary: nope\n")
    (themes_dir / "clash.yml").write_text('name: tierscope-dark\nprimary: "#000000"\n')
    loaded = load_user_themes(themes_dir, frozenset({"tierscope-dark"}))
    assert [theme.name for theme in loaded.themes] == ["harbour"]
    assert len(loaded.warnings) == 2
    assert any("bad.yaml" in warning and "not a colour" in warning for warning in loaded.warnings)
    assert any("clash.yml" in warning and "taken" in warning for warning in loaded.warnings)


def test_a_missing_themes_folder_means_no_user_themes(tmp_path):
    loaded = load_user_themes(tmp_path / "nowhere")
    assert loaded.themes == () and loaded.warnings == ()


async def test_the_theme_flag_wins_for_this_run_only(themes_dir):
    save_preferences(Preferences(theme="nord"))
    app = TierscopeApp(ScriptedProject(), theme="tierscope-light")
    async with app.run_test() as pilot:
        await pilot.pause()
        assert app.theme == "tierscope-light"
    assert load_preferences().theme == "nord"
    again = TierscopeApp(ScriptedProject())
    async with again.run_test():
        assert again.theme == "nord"


async def test_the_theme_flag_saves_nothing_when_no_theme_was_remembered(themes_dir):
    app = TierscopeApp(ScriptedProject(), theme="tierscope-light")
    async with app.run_test() as pilot:
        await pilot.pause()
    assert load_preferences().theme is None
    assert not (themes_dir.parent / "preferences.json").exists()


async def test_a_theme_changed_in_the_app_is_remembered(themes_dir):
    app = TierscopeApp(ScriptedProject())
    async with app.run_test() as pilot:
        app.theme = "tierscope-light"
        await pilot.pause()
    assert load_preferences().theme == "tierscope-light"


async def test_an_unknown_theme_falls_back_with_a_warning_naming_the_theme_used(themes_dir):
    save_preferences(Preferences(theme="gone-theme"))
    app = TierscopeApp(ScriptedProject(), theme="no-such-theme")
    async with app.run_test():
        assert app.theme == "tierscope-dark"
        messages = [notification.message for notification in app._notifications]
    assert "--theme 'no-such-theme' is not a known theme; using tierscope-dark" in messages
    assert "saved theme 'gone-theme' is not a known theme; using tierscope-dark" in messages


async def test_an_unknown_theme_flag_falls_back_to_the_remembered_theme(themes_dir):
    save_preferences(Preferences(theme="tierscope-light"))
    app = TierscopeApp(ScriptedProject(), theme="bogus")
    async with app.run_test():
        assert app.theme == "tierscope-light"
        messages = [notification.message for notification in app._notifications]
    assert messages == ["--theme 'bogus' is not a known theme; using tierscope-light"]


async def test_a_user_theme_can_be_chosen_by_name_and_lacks_nothing(themes_dir):
    (themes_dir / "harbour.yaml").write_text('name: harbour\nprimary: "#3fb6a8"\n')
    app = TierscopeApp(ScriptedProject(), theme="harbour")
    async with app.run_test():
        assert app.theme == "harbour"
        assert set(OUR_VARIABLES) <= set(app.theme_variables)


async def test_textual_builtin_themes_still_style_our_widgets(themes_dir):
    app = TierscopeApp(ScriptedProject(), theme="nord")
    async with app.run_test():
        assert app.theme == "nord"
        assert set(OUR_VARIABLES) <= set(app.theme_variables)
