"""`tierscope config path|show|validate|set|unset`, end to end."""

from __future__ import annotations

import difflib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tierscope.cli import main

CONFIG = """\
# Project settings
hooks:
  - lint   # other tool

qmd_context:
  default_budget: 1200  # tokens
  scopes:
    docs:
      grep_paths:
        - "docs/"
  skill_overrides:
    review-sprint:
      budget: 900
      scope: docs
"""


@pytest.fixture
def project(make_project) -> Path:
    return make_project(
        {".loa.config.yaml": CONFIG, "docs/guide.md": "# Guide\n", "src/app.py": "print()\n"}
    )


def run(capsys, root: Path, *args: str) -> tuple[int, str, str]:
    code = main(["--root", str(root), "config", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def config_text(root: Path) -> str:
    return (root / ".loa.config.yaml").read_text(encoding="utf-8")


# -- path ------------------------------------------------------------------------------------


def test_path_names_the_file_and_why(capsys, project):
    code, out, _ = run(capsys, project, "path")
    assert code == 0
    assert out.splitlines()[0] == str(project / ".loa.config.yaml")
    assert "found .loa.config.yaml in the project root" in out


def test_path_without_any_file_says_defaults_and_where_set_would_write(capsys, make_project):
    root = make_project({})
    code, out, _ = run(capsys, root, "path")
    assert code == 0
    assert "built-in defaults" in out
    assert str(root / ".tierscope.yaml") in out


def test_path_honours_the_environment(capsys, project, tmp_path, monkeypatch):
    other = tmp_path / "other.yaml"
    monkeypatch.setenv("TIERSCOPE_CONFIG", str(other))
    code, out, _ = run(capsys, project, "path")
    assert code == 0
    assert out.splitlines()[0] == str(other)
    assert "$TIERSCOPE_CONFIG" in out and "does not exist yet" in out


# -- show ------------------------------------------------------------------------------------


def show_json(capsys, root: Path, *args: str) -> dict:
    code, out, _ = run(capsys, root, "show", "--json", *args)
    assert code == 0
    return json.loads(out)


def test_show_says_where_each_value_came_from(capsys, project):
    shown = show_json(capsys, project)
    settings = shown["settings"]
    assert settings["budget"] == {
        "value": 1200,
        "origin": "file",
        "where": ".loa.config.yaml:6",
    }
    assert settings["timeout_seconds"]["origin"] == "default"
    assert settings["scopes.docs.grep_paths"]["value"] == ["docs/"]
    assert settings["scopes.docs.grep_paths"]["origin"] == "file"
    assert settings["scopes.grimoires.grep_paths"]["origin"] == "default"
    assert shown["config"]["path"] == str(project / ".loa.config.yaml")


def test_a_skill_override_beats_the_file_and_a_flag_beats_both(capsys, project):
    settings = show_json(capsys, project, "--skill", "review_sprint")["settings"]
    assert settings["budget"]["value"] == 900
    assert settings["budget"]["origin"] == "skill override"
    assert "skill_overrides.review-sprint.budget" in settings["budget"]["where"]
    assert (settings["scope"]["value"], settings["scope"]["origin"]) == ("docs", "skill override")

    settings = show_json(capsys, project, "--skill", "review-sprint", "--budget", "50")["settings"]
    assert settings["budget"] == {"value": 50, "origin": "flag", "where": "--budget"}


def test_show_gives_the_session_policies_and_where_they_come_from(capsys, make_project):
    root = make_project({".tierscope.yaml": "qmd_context:\n  session:\n    repeats: skip\n"})
    settings = show_json(capsys, root)["settings"]
    assert settings["session.repeats"] == {
        "value": "skip",
        "origin": "file",
        "where": ".tierscope.yaml:3",
    }
    assert settings["session.over_session"]["value"] == "warn"
    assert settings["session.over_session"]["origin"] == "default"


def test_set_a_session_policy_is_validated(capsys, project):
    code, _, err = run(capsys, project, "set", "session.repeats", "never")
    assert code == 1 and "expected reference, skip or allow" in err
    code, out, _ = run(capsys, project, "set", "session.over_session", "shrink")
    assert code == 0 and "+  session:" in out and 'over_session: "shrink"' in config_text(project)


def test_an_explicit_timeout_and_scope_are_flags(capsys, project):
    settings = show_json(capsys, project, "--timeout", "5", "--scope", "docs")["settings"]
    assert settings["timeout_seconds"]["origin"] == "flag"
    assert settings["scope"]["origin"] == "flag"


def test_a_disabled_skill_shows_enabled_false_from_its_override(capsys, make_project):
    root = make_project(
        {".tierscope.yaml": "qmd_context:\n  skill_overrides:\n    ride:\n      enabled: false\n"}
    )
    settings = show_json(capsys, root, "--skill", "ride")["settings"]
    assert settings["enabled"]["value"] is False
    assert settings["enabled"]["origin"] == "skill override"


def test_a_rejected_file_value_shows_the_default_and_why(capsys, make_project):
    root = make_project({".tierscope.yaml": "qmd_context:\n  default_budget: -3\n"})
    shown = show_json(capsys, root)
    assert shown["settings"]["budget"]["value"] == 2000
    assert shown["settings"]["budget"]["origin"] == "default"
    assert "rejected" in shown["settings"]["budget"]["where"]
    assert shown["problems"]


def test_show_as_text_lists_key_origin_and_value(capsys, project):
    code, out, _ = run(capsys, project, "show", "--skill", "review-sprint")
    assert code == 0
    assert "skill   review-sprint (skill_overrides.review-sprint)" in out
    budget = next(line for line in out.splitlines() if line.startswith("budget "))
    assert budget.split()[1:4] == ["skill", "override", "900"]


def test_an_invalid_budget_flag_is_a_usage_error(capsys, project):
    with pytest.raises(SystemExit) as raised:
        main(["--root", str(project), "config", "show", "--budget", "0"])
    assert raised.value.code == 2
    assert "positive integer" in capsys.readouterr().err


# -- validate --------------------------------------------------------------------------------


def test_validate_a_clean_file_exits_0(capsys, project):
    code, out, _ = run(capsys, project, "validate")
    assert code == 0
    assert "no problems" in out


def test_validate_lists_every_problem_with_file_and_line_and_exits_1(capsys, project):
    (project / ".loa.config.yaml").write_text(
        CONFIG.replace("budget: 900", "budget: 0").replace('"docs/"', '"../elsewhere"'),
        encoding="utf-8",
    )
    code, out, _ = run(capsys, project, "validate")
    assert code == 1
    path = project / ".loa.config.yaml"
    assert f"{path}:10: error: scopes.docs.grep_paths.0: " in out
    assert f"{path}:13: error: skill_overrides.review-sprint.budget: " in out
    assert "2 errors, 0 warnings" in out


def test_validate_with_only_warnings_exits_0(capsys, project):
    (project / ".loa.config.yaml").write_text(
        CONFIG.replace('"docs/"', '"notes/"'), encoding="utf-8"
    )
    code, out, _ = run(capsys, project, "validate")
    assert code == 0
    assert "warning: scopes.docs.grep_paths.0: notes/: does not exist" in out


def test_validate_without_a_file_has_nothing_to_check(capsys, make_project):
    code, out, _ = run(capsys, make_project({}), "validate")
    assert code == 0 and "nothing to validate" in out


def test_validate_a_missing_explicit_file_is_an_error(capsys, project):
    code = main(
        ["--root", str(project), "--config", str(project / "nope.yaml"), "config", "validate"]
    )
    assert code == 1
    assert "file not found" in capsys.readouterr().out


# -- set and unset ---------------------------------------------------------------------------


def test_set_writes_only_the_edited_line_and_prints_the_diff(capsys, project):
    code, out, _ = run(capsys, project, "set", "skill_overrides.review-sprint.budget", "1500")
    assert code == 0
    assert config_text(project) == CONFIG.replace("budget: 900", "budget: 1500")
    assert "-      budget: 900\n" in out and "+      budget: 1500\n" in out


def test_set_adds_a_scope_from_a_flow_list(capsys, project):
    code, out, _ = run(capsys, project, "set", "scopes.code.grep_paths", '["src/"]')
    assert code == 0
    expected = CONFIG.replace(
        '        - "docs/"\n', '        - "docs/"\n    code:\n      grep_paths:\n        - "src/"\n'
    )
    assert config_text(project) == expected
    assert '+        - "src/"' in out


def test_set_refuses_a_change_that_introduces_an_error(capsys, project):
    code, out, err = run(capsys, project, "set", "skill_overrides.review-sprint.scope", "nope")
    assert code == 1
    assert config_text(project) == CONFIG
    assert "unknown scope 'nope'" in err and "not written" in err
    assert out == ""


def test_set_refuses_a_path_outside_the_root(capsys, project):
    code, _, err = run(capsys, project, "set", "scopes.docs.grep_paths", '["../.."]')
    assert code == 1
    assert "outside the project root" in err
    assert config_text(project) == CONFIG


def test_set_writes_a_change_with_a_warning_and_shows_it(capsys, project):
    code, _, err = run(capsys, project, "set", "scopes.docs.grep_paths", '["later/"]')
    assert code == 0
    assert "later/: does not exist" in err
    assert '- "later/"' in config_text(project)


def test_set_is_allowed_while_an_unrelated_error_already_exists(capsys, project):
    broken = CONFIG.replace("budget: 900", "budget: 0")
    (project / ".loa.config.yaml").write_text(broken, encoding="utf-8")
    code, _, _ = run(capsys, project, "set", "default_budget", "1300")
    assert code == 0
    assert config_text(project) == broken.replace("default_budget: 1200", "default_budget: 1300")


def test_set_without_a_config_file_creates_tierscope_yaml(capsys, make_project):
    root = make_project({"docs/a.md": "x"})
    code, _, err = run(capsys, root, "set", "default_budget", "3000")
    assert code == 0
    assert (root / ".tierscope.yaml").read_text(encoding="utf-8") == (
        "qmd_context:\n  default_budget: 3000\n"
    )
    assert "created" in err


def test_set_the_same_value_writes_nothing(capsys, project):
    before = (project / ".loa.config.yaml").stat().st_mtime_ns
    code, out, err = run(capsys, project, "set", "default_budget", "1200")
    assert code == 0 and out == "" and "unchanged" in err
    assert (project / ".loa.config.yaml").stat().st_mtime_ns == before


def test_set_below_a_scalar_is_a_one_line_error(capsys, project):
    code, out, err = run(capsys, project, "set", "default_budget.x", "1")
    assert code == 1 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert "default_budget is a scalar, not a mapping" in err
    assert "Traceback" not in err


def test_set_a_value_that_is_not_yaml_is_a_one_line_error(capsys, project):
    code, _, err = run(capsys, project, "set", "scopes.docs.grep_paths", "[docs/")
    assert code == 1
    assert "is not a YAML value" in err
    assert config_text(project) == CONFIG


def test_set_in_a_file_with_a_syntax_error_is_refused_with_the_line(capsys, project):
    (project / ".loa.config.yaml").write_text("qmd_context:\n  scopes: [\n", encoding="utf-8")
    code, _, err = run(capsys, project, "set", "default_budget", "10")
    assert code == 1
    assert "line" in err and "invalid YAML" in err


def test_unset_removes_the_entry(capsys, project):
    code, out, _ = run(capsys, project, "unset", "skill_overrides.review-sprint.scope")
    assert code == 0
    assert config_text(project) == CONFIG.replace("      scope: docs\n", "")
    assert "-      scope: docs" in out


def test_unset_refuses_to_remove_a_scope_an_override_still_uses(capsys, project):
    code, _, err = run(capsys, project, "unset", "scopes.docs")
    assert code == 1
    assert "unknown scope 'docs'" in err
    assert config_text(project) == CONFIG


def test_unset_of_an_absent_key_changes_nothing(capsys, project):
    code, out, err = run(capsys, project, "unset", "scopes.nowhere")
    assert code == 0 and out == ""
    assert "not set" in err
    assert config_text(project) == CONFIG


def test_config_commands_do_not_import_textual(project):
    script = (
        "import sys\n"
        "from tierscope.cli import main\n"
        f"code = main(['--root', {str(project)!r}, 'config', 'set', 'default_budget', '1300'])\n"
        "assert code == 0, code\n"
        "print('textual' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.strip().splitlines()[-1] == "False"


def test_on_the_demo_project_two_edits_change_exactly_their_lines(capsys, tmp_path):
    from tierscope.config.document import ConfigDocument
    from tierscope.demo import materialise

    root = materialise(tmp_path / "demo")
    path = root / ".loa.config.yaml"
    before = path.read_text(encoding="utf-8")
    budget = ConfigDocument.load(path).get("skill_overrides.implement.budget")

    assert run(capsys, root, "validate")[0] == 0
    assert run(capsys, root, "set", "scopes.service.grep_paths", '["src/"]')[0] == 0
    assert run(capsys, root, "set", "skill_overrides.implement.budget", str(budget + 1000))[0] == 0

    removed, added = [], []
    old, new = before.splitlines(), path.read_text(encoding="utf-8").splitlines()
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old, b=new).get_opcodes():
        if tag != "equal":
            removed += old[i1:i2]
            added += new[j1:j2]
    assert [line.strip() for line in removed] == [f"budget: {budget}"]
    assert [line.strip() for line in added] == [
        "service:",
        "grep_paths:",
        '- "src/"',
        f"budget: {budget + 1000}",
    ]


def test_show_and_validate_escape_control_characters_from_the_file(capsys, make_project):
    root = make_project(
        {".loa.config.yaml": 'qmd_context:\n  scopes:\n    docs:\n      ck_path: "d\\e[2Jx"\n'
         '  default_budget: "\\e]0;owned\\a"\n'}
    )  # fmt: skip
    _code, shown, shown_err = run(capsys, root, "show")
    _code, validated, _err = run(capsys, root, "validate")
    for out in (shown, shown_err, validated):
        assert "\x1b" not in out and "\x07" not in out
    assert "d\\x1b[2Jx" in shown


@pytest.mark.parametrize("action", ["path", "show", "validate"])
def test_root_and_config_may_follow_the_action_as_in_every_other_command(
    capsys, project, tmp_path, action
):
    other = tmp_path / "other.yaml"
    other.write_text("qmd_context:\n  default_budget: 700\n", encoding="utf-8")
    code = main(["config", action, "--root", str(project), "--config", str(other)])
    out = capsys.readouterr().out
    assert code == 0
    assert str(other) in out
    assert str(project / ".loa.config.yaml") not in out


def linked_out_project(make_project, tmp_path) -> Path:
    """A project whose own `.tierscope.yaml` is a symbolic link to a file outside it."""
    outside = tmp_path / "outside" / "secret.yaml"
    outside.parent.mkdir()
    outside.write_text("qmd_context:\n  default_budget: -5  # SECRET-OUTSIDE\n")
    root = make_project({"docs/guide.md": "# Guide\n"})
    (root / ".tierscope.yaml").symlink_to(outside)
    return root


def test_validate_does_not_read_a_project_config_linked_out_of_the_project(
    capsys, make_project, tmp_path
):
    # Queries use defaults for such a file, unread; `config validate` read it through the
    # link and echoed the outside file's values ("got -5").
    root = linked_out_project(make_project, tmp_path)
    code, out, err = run(capsys, root, "validate")
    assert code == 1
    assert "-5" not in out + err and "SECRET" not in out + err
    assert "a symbolic link out of the project" in out


def test_show_attributes_nothing_to_a_project_config_linked_out_of_the_project(
    capsys, make_project, tmp_path
):
    # `config show` read the linked file for its key lines and said the budget came from
    # it ("budget  file  2000  (.tierscope.yaml:2)"), though its value is the default.
    root = linked_out_project(make_project, tmp_path)
    _code, out, _err = run(capsys, root, "show")
    budget = next(line for line in out.splitlines() if line.startswith("budget "))
    assert budget.split()[1:3] == ["default", "2000"], budget
    assert ".tierscope.yaml:" not in budget
