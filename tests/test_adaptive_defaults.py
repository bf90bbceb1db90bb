"""A project that is not laid out like Loa (DESIGN §9): the default scope answers from the
project's own files, and a scope whose paths do not exist says so on stderr in one line
instead of answering a silent `[]`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tierscope.cli import main
from tierscope.config.model import BUILTIN_SCOPES, Config
from tierscope.scopes import LOA_FOLDERS, resolve_scope

# An ordinary project: docs, source, something ignored, machine data, a vendored tree.
PLAIN = {
    ".gitignore": "generated/\n",
    "README.md": "# Gauge\n\nA budget meter for the terminal.\n",
    "docs/meter.md": "# The budget meter\n\nThe meter shows the budget used so far.\n",
    "src/meter.py": "def draw_budget_meter(used, limit):\n    return used / limit\n",
    "generated/meter.md": "# Budget meter (generated copy)\n\nbudget meter budget meter\n",
    "data/meter.json": '{"budget": "meter", "meter": "budget"}\n',
    "node_modules/lib/meter.md": "budget meter budget meter\n",
}


@pytest.fixture
def plain(make_project, path_without_tools) -> Path:
    return make_project(PLAIN)


def query(capsys, root: Path, *args: str) -> tuple[list, str]:
    code = main(["query", *args, "--root", str(root), "--no-trajectory"])
    captured = capsys.readouterr()
    assert code == 0
    return json.loads(captured.out), captured.err


def test_without_the_loa_layout_the_default_scope_answers_from_the_projects_files(capsys, plain):
    hits, err = query(capsys, plain, "budget meter", "--json")
    sources = {hit["source"] for hit in hits}
    assert sources == {"README.md", "docs/meter.md", "src/meter.py"}
    # The adapted default is the answer asked for, not a problem: nothing on stderr.
    assert err == ""


def test_the_trace_says_the_default_scope_was_adapted(capsys, plain):
    code = main(["query", "budget meter", "--explain", "--root", str(plain), "--no-trajectory"])
    trace = json.loads(capsys.readouterr().out)["trace"]
    assert code == 0
    scope = trace["resolved"]
    assert scope["grep_paths"] == ["."]
    assert "no Loa layout" in scope["adapted"]
    assert not any("does not exist" in note for note in scope["notes"])


def test_a_builtin_scope_without_its_folder_says_so_in_one_line(capsys, plain):
    hits, err = query(capsys, plain, "budget meter", "--scope", "grimoires", "--json")
    assert hits == []
    assert err.count("\n") == 1
    assert err.startswith("tierscope: scope grimoires: none of its paths exist here")
    assert "(grimoires/loa/)" in err
    assert "tierscope init" in err


def test_a_configured_scope_whose_paths_are_all_gone_says_so(capsys, plain):
    (plain / ".tierscope.yaml").write_text(
        "qmd_context:\n  scopes:\n    manual:\n      grep_paths: [manual/, HANDBOOK.md]\n"
    )
    hits, err = query(capsys, plain, "budget meter", "--scope", "manual", "--json")
    assert hits == []
    assert err == "tierscope: scope manual: none of its paths exist here (manual/, HANDBOOK.md)\n"


def test_a_scope_with_one_existing_path_answers_quietly(capsys, plain):
    (plain / ".tierscope.yaml").write_text(
        "qmd_context:\n  scopes:\n    manual:\n      grep_paths: [manual/, docs/]\n"
    )
    hits, err = query(capsys, plain, "budget meter", "--scope", "manual", "--json")
    assert [hit["source"] for hit in hits] == ["docs/meter.md"]
    assert err == ""


def test_a_loa_project_keeps_the_builtin_default_scope(capsys, make_project, path_without_tools):
    root = make_project({**PLAIN, "grimoires/loa/NOTES.md": "# Notes\n\nbudget meter notes\n"})
    hits, err = query(capsys, root, "budget meter", "--json")
    assert [hit["source"] for hit in hits] == ["grimoires/loa/NOTES.md"]
    assert err == ""


def test_a_loa_project_missing_one_folder_is_not_told_to_run_init(
    capsys, make_project, path_without_tools
):
    root = make_project({"grimoires/loa/NOTES.md": "# Notes\n\nbudget meter notes\n"})
    hits, err = query(capsys, root, "budget meter", "--scope", "skills", "--json")
    assert hits == []
    assert err == "tierscope: scope skills: none of its paths exist here (.claude/skills/)\n"


def test_loa_folders_are_the_outermost_paths_of_the_builtin_default_scope():
    paths = BUILTIN_SCOPES["all"].grep_paths
    assert set(LOA_FOLDERS) == {
        p for p in paths if not any(o != p and p.startswith(o) for o in paths)
    }


def test_skills_alone_are_no_loa_layout(capsys, make_project, path_without_tools):
    # vitest keeps Claude Code skills in .claude/skills/; its docs and code are the project.
    root = make_project({**PLAIN, ".claude/skills/typos/SKILL.md": "# Typos\n\nbudget meter\n"})
    scope = resolve_scope("all", Config(), root)
    assert "no Loa layout" in scope.adapted
    hits, err = query(capsys, root, "budget meter", "--json")
    assert {hit["source"] for hit in hits} == {"README.md", "docs/meter.md", "src/meter.py"}
    assert err == ""
    hits, _ = query(capsys, root, "budget meter", "--scope", "skills", "--json")
    assert [hit["source"] for hit in hits] == [".claude/skills/typos/SKILL.md"]


def test_a_default_scope_the_config_redefines_is_never_adapted(capsys, plain):
    (plain / ".tierscope.yaml").write_text(
        "qmd_context:\n  scopes:\n    all:\n      grep_paths: [handbook/]\n"
    )
    hits, err = query(capsys, plain, "budget meter", "--json")
    assert hits == []
    assert "scope all: none of its paths exist here (handbook/)" in err


def test_a_config_without_scopes_still_gets_the_adapted_default(capsys, plain):
    (plain / ".loa.config.yaml").write_text("qmd_context:\n  default_budget: 500\n")
    hits, err = query(capsys, plain, "budget meter", "--json")
    assert {hit["source"] for hit in hits} >= {"docs/meter.md", "src/meter.py"}
    assert err == ""


def test_a_symlink_out_of_the_root_is_not_searched_by_the_adapted_default(capsys, plain, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("budget meter budget meter budget meter\n")
    (plain / "linked").symlink_to(outside)
    hits, _ = query(capsys, plain, "budget meter", "--json")
    assert all(not hit["source"].startswith("linked") for hit in hits)


def test_adapting_costs_no_walk(make_project, monkeypatch):
    """Deciding that the Loa layout is absent is a few stat calls: no directory listing."""
    root = make_project(PLAIN)
    listed: list[str] = []
    real_scandir = __import__("os").scandir

    def scandir(path="."):
        listed.append(str(path))
        return real_scandir(path)

    monkeypatch.setattr("os.scandir", scandir)
    monkeypatch.setattr("os.listdir", lambda path=".": listed.append(str(path)) or [])
    scope = resolve_scope("all", Config(), root)
    assert scope.grep_paths == (root,)
    assert listed == []


def test_a_root_that_is_not_a_folder_is_not_adapted(tmp_path):
    scope = resolve_scope("all", Config(), tmp_path / "nowhere")
    assert (scope.adapted, scope.missing, scope.grep_paths) == ("", "", ())
    assert BUILTIN_SCOPES["all"].grep_paths[0] == "grimoires/loa/"
