"""Scopes resolve to contained paths; anything escaping the root is refused."""

from __future__ import annotations

import pytest

from tierscope.config.model import Config, ScopeConfig
from tierscope.project import is_inside
from tierscope.scopes import UnknownScope, resolve_scope


def config_with(**scopes: ScopeConfig) -> Config:
    base = Config()
    return Config(scopes={**base.scopes, **scopes})


def test_builtin_scope_resolves_to_existing_paths(make_project):
    root = make_project({"grimoires/loa/NOTES.md": "x", ".claude/skills/a/SKILL.md": "y"})
    scope = resolve_scope("grimoires", Config(), root)
    assert scope.grep_paths == (root / "grimoires/loa",)
    assert scope.qmd_collections == ("loa-grimoire",)


def test_all_queries_every_collection_and_drops_nested_paths(make_project):
    root = make_project({"grimoires/loa/reality/r.md": "x", ".claude/skills/a/SKILL.md": "y"})
    scope = resolve_scope("all", Config(), root)
    assert scope.qmd_collections == ("loa-grimoire", "loa-skills", "loa-reality")
    assert scope.grep_paths == (root / "grimoires/loa", root / ".claude/skills")


def test_unknown_scope_raises(make_project):
    with pytest.raises(UnknownScope):
        resolve_scope("nope", Config(), make_project({}))


def test_dot_dot_escape_is_refused(make_project):
    root = make_project({"docs/a.md": "x"})
    (root.parent / "secret").mkdir()
    config = config_with(evil=ScopeConfig("", "", ("../secret", "docs")))
    scope = resolve_scope("evil", config, root)
    assert scope.grep_paths == (root / "docs",)
    assert scope.refused[0].path == "../secret"
    assert "outside the project root" in scope.refused[0].reason


def test_symlink_out_of_the_root_is_refused(make_project, tmp_path):
    root = make_project({"docs/a.md": "x"})
    outside = tmp_path / "outside"
    outside.mkdir()
    (root / "link").symlink_to(outside)
    scope = resolve_scope("s", config_with(s=ScopeConfig("", "", ("link",))), root)
    assert scope.grep_paths == ()
    assert scope.refused[0].path == "link"


def test_sibling_with_a_common_prefix_is_not_inside(make_project, tmp_path):
    root = make_project({}, name="repo")
    evil = make_project({"a.md": "x"}, name="repo-evil")
    assert not is_inside(evil, root)
    scope = resolve_scope("s", config_with(s=ScopeConfig("", "", (str(evil),))), root)
    assert scope.grep_paths == ()
    assert scope.refused


def test_ck_path_inside_an_index_directory_searches_grep_paths_instead(make_project):
    root = make_project({"grimoires/loa/a.md": "x", ".ck/loa-grimoire/x": ""})
    # As built in (Loa keeps ck's index there): ck searches the grep paths, no note.
    scope = resolve_scope("grimoires", Config(), root)
    assert scope.ck_paths == (root / "grimoires/loa",)
    assert not any(".ck/ index directory" in note for note in scope.notes)
    # Configured so by the user: the same, and a note saying what ck searches instead.
    config = config_with(notes=ScopeConfig("", ".ck/loa-grimoire/", ("grimoires/loa/",)))
    scope = resolve_scope("notes", config, root)
    assert scope.ck_paths == (root / "grimoires/loa",)
    assert any(".ck/ index directory" in note for note in scope.notes)


def test_missing_paths_are_noted_not_searched(make_project):
    root = make_project({})
    scope = resolve_scope("skills", Config(), root)
    assert scope.grep_paths == ()
    assert "grep path .claude/skills/ does not exist" in scope.notes


def test_a_project_living_under_a_ck_folder_keeps_its_ck_paths(tmp_path):
    root = tmp_path / ".ck" / "repo"
    (root / "src").mkdir(parents=True)
    config = config_with(code=ScopeConfig("", "src/", ("src/",)))
    scope = resolve_scope("code", config, root.resolve())
    assert scope.ck_paths == (root.resolve() / "src",)
    assert scope.notes == ()


def test_user_dirs_follow_xdg_and_project_keys_keep_same_named_projects_apart(
    tmp_path, monkeypatch
):
    from tierscope.project import project_key, user_dir

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    assert user_dir("state") == tmp_path / "state" / "tierscope"
    monkeypatch.setenv("XDG_STATE_HOME", "relative/ignored")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert user_dir("state") == tmp_path / ".local/state/tierscope"
    first, second = project_key(tmp_path / "a" / "app"), project_key(tmp_path / "b" / "app")
    assert first.startswith("app-") and second.startswith("app-") and first != second
    assert project_key(tmp_path / "a" / "app") == first
