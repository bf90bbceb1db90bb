"""The loader never stops a query: a broken or half-written config becomes problems with
file:line and the defaults stay in force; discovery follows a fixed order."""

from __future__ import annotations

from pathlib import Path

import pytest

from tierscope.config.loader import discover_config, load_config, parse_config
from tierscope.config.model import Config, ConfigSource, SkillOverride

DEFAULTS = Config()


def parsed(text: str, path: str = "/project/.tierscope.yaml") -> Config:
    return parse_config(text, ConfigSource(Path(path), "test"))


def errors(config: Config) -> list:
    return [problem for problem in config.problems if problem.severity == "error"]


# -- broken files --------------------------------------------------------------------------


def test_a_yaml_syntax_error_is_one_problem_at_its_line_and_defaults_apply():
    config = parsed("qmd_context:\n  enabled: true\n  default_budget: [3000\n  timeout: 2\n")
    assert len(config.problems) == 1
    problem = config.problems[0]
    assert problem.file == "/project/.tierscope.yaml"
    assert problem.line in (3, 4)
    assert "invalid YAML" in problem.message
    assert str(problem).startswith(f"/project/.tierscope.yaml:{problem.line}: ")
    assert config.default_budget == DEFAULTS.default_budget
    assert config.scopes == DEFAULTS.scopes


def test_a_half_written_file_keeps_the_defaults():
    config = parsed('qmd_context:\n  scopes:\n    docs:\n      grep_paths: ["docs/\n')
    assert len(config.problems) == 1 and config.problems[0].line is not None
    assert config.scopes == DEFAULTS.scopes


@pytest.mark.parametrize(
    ("text", "key", "line", "field", "default"),
    [
        ("qmd_context:\n  enabled: maybe\n", "enabled", 2, "enabled", True),
        ("qmd_context:\n  x: 1\n  default_budget: lots\n", "default_budget", 3,
         "default_budget", 2000),
        ("qmd_context:\n  timeout_seconds: -1\n", "timeout_seconds", 2, "timeout_seconds", 5.0),
        ("qmd_context:\n  default_budget: true\n", "default_budget", 2, "default_budget", 2000),
    ],
)  # fmt: skip
def test_a_wrong_type_is_a_problem_at_its_line_and_the_default_is_kept(
    text, key, line, field, default
):
    config = parsed(text)
    [problem] = errors(config)
    assert (problem.key, problem.line) == (key, line)
    assert getattr(config, field) == default


def test_a_wrong_type_in_a_nested_setting_keeps_that_settings_default_only():
    config = parsed("qmd_context:\n  default_budget: 3000\n  ck:\n    mode: fuzzy\n    limit: 4\n")
    [problem] = errors(config)
    assert (problem.key, problem.line) == ("ck.mode", 4)
    assert config.ck.mode == DEFAULTS.ck.mode
    assert config.ck.limit == 4
    assert config.default_budget == 3000


def test_a_list_item_of_the_wrong_type_is_reported_on_the_list():
    config = parsed("qmd_context:\n  scopes:\n    docs:\n      grep_paths: [docs/, 3]\n")
    [problem] = errors(config)
    assert problem.key == "scopes.docs.grep_paths" and problem.line == 4
    assert config.scopes["docs"].grep_paths == ()


def test_unknown_keys_are_warnings_not_errors():
    config = parsed("qmd_context:\n  default_budgett: 3000\n")
    [problem] = config.problems
    assert problem.severity == "warning" and problem.line == 2


def test_a_section_that_is_not_a_mapping_is_a_problem_and_defaults_apply():
    config = parsed("qmd_context: [1, 2]\n")
    [problem] = config.problems
    assert problem.line == 1
    assert config == Config(source=config.source, problems=config.problems)


def test_a_file_without_the_section_is_all_defaults_without_problems():
    config = parsed("hooks: [lint]\n")
    assert config.problems == ()
    assert config.default_budget == DEFAULTS.default_budget


def test_a_missing_explicit_file_is_a_problem_and_defaults_apply(tmp_path):
    config = load_config(tmp_path, str(tmp_path / "absent.yaml"))
    [problem] = config.problems
    assert "not found" in problem.message
    assert config.default_budget == DEFAULTS.default_budget


def test_a_merge_key_in_another_section_does_not_break_loading():
    config = parsed(
        "defaults: &d\n  retries: 3\nservice:\n  <<: *d\nqmd_context:\n  enabled: false\n"
    )
    assert config.enabled is False


def test_an_application_specific_tag_in_another_section_does_not_break_loading():
    config = parsed("secret: !vault abc\nqmd_context:\n  enabled: false\n")
    assert config.enabled is False


def test_merge_keys_inside_the_section_are_resolved():
    config = parsed(
        "base: &b\n  budget: 700\n  scope: notes\n"
        "qmd_context:\n  skill_overrides:\n    implement:\n      <<: *b\n      budget: 900\n"
    )
    override = config.skill_override("implement")
    assert (override.budget, override.scope) == (900, "notes")


def test_an_unknown_tag_inside_the_section_keeps_its_text():
    config = parsed("qmd_context:\n  trajectory:\n    dir: !env logs\n")
    assert config.trajectory.dir == "logs"


# -- discovery -------------------------------------------------------------------------------


@pytest.fixture
def every_candidate(tmp_path, monkeypatch):
    """A project root holding both project files, plus one file per environment variable."""
    root = tmp_path / "repo"
    root.mkdir()
    files = {}
    for name in (".tierscope.yaml", ".loa.config.yaml"):
        files[name] = root / name
    for name in ("flag.yaml", "tierscope-env.yaml", "qmd-env.yaml"):
        files[name] = tmp_path / name
    for path in files.values():
        path.write_text("qmd_context: {}\n", encoding="utf-8")
    monkeypatch.setenv("TIERSCOPE_CONFIG", str(files["tierscope-env.yaml"]))
    monkeypatch.setenv("QMD_CONFIG_FILE", str(files["qmd-env.yaml"]))
    return root, files


def test_discovery_order_is_flag_then_env_then_project_files_then_defaults(
    every_candidate, monkeypatch
):
    root, files = every_candidate
    source = discover_config(root, str(files["flag.yaml"]))
    assert (source.path, source.reason) == (files["flag.yaml"], "--config")

    source = discover_config(root)
    assert (source.path, source.reason) == (files["tierscope-env.yaml"], "$TIERSCOPE_CONFIG")

    monkeypatch.delenv("TIERSCOPE_CONFIG")
    source = discover_config(root)
    assert (source.path, source.reason) == (files["qmd-env.yaml"], "$QMD_CONFIG_FILE")

    monkeypatch.delenv("QMD_CONFIG_FILE")
    source = discover_config(root)
    assert source.path == files[".tierscope.yaml"]
    assert ".tierscope.yaml" in source.reason

    files[".tierscope.yaml"].unlink()
    source = discover_config(root)
    assert source.path == files[".loa.config.yaml"]
    assert ".loa.config.yaml" in source.reason

    files[".loa.config.yaml"].unlink()
    source = discover_config(root)
    assert source.path is None
    assert "defaults" in source.reason


def test_a_relative_config_flag_is_relative_to_the_working_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    source = discover_config(tmp_path / "elsewhere", "conf/c.yaml")
    assert source.path == tmp_path / "conf/c.yaml"


def test_project_files_are_found_in_the_root_not_the_working_directory(tmp_path, monkeypatch):
    root = tmp_path / "repo"
    root.mkdir()
    (root / ".loa.config.yaml").write_text("qmd_context:\n  default_budget: 900\n", "utf-8")
    (tmp_path / "cwd").mkdir()
    (tmp_path / "cwd" / ".tierscope.yaml").write_text("qmd_context: {}\n", "utf-8")
    monkeypatch.chdir(tmp_path / "cwd")
    config = load_config(root)
    assert config.source.path == root / ".loa.config.yaml"
    assert config.default_budget == 900


# -- skills ----------------------------------------------------------------------------------


@pytest.mark.parametrize("written", ["review-sprint", "review_sprint"])
@pytest.mark.parametrize("asked", ["review-sprint", "review_sprint", "Review_Sprint"])
def test_skill_names_match_with_dash_and_underscore_alike(written, asked):
    config = parsed(
        f"qmd_context:\n  skill_overrides:\n    {written}:\n      budget: 1500\n"
        "      scope: notes\n"
    )
    assert config.skill_override(asked) == SkillOverride(budget=1500, scope="notes")


def test_an_unknown_skill_has_no_override():
    config = parsed("qmd_context:\n  skill_overrides:\n    implement:\n      budget: 10\n")
    assert config.skill_override("ride") is None
    assert config.skill_override(None) is None


def test_an_override_naming_an_unknown_scope_is_a_problem_at_its_line():
    config = parsed(
        "qmd_context:\n  skill_overrides:\n    implement:\n      budget: 10\n      scope: nope\n"
    )
    [problem] = errors(config)
    assert (problem.key, problem.line) == ("skill_overrides.implement.scope", 5)
    assert "nope" in problem.message


def test_a_recursive_alias_is_a_problem_not_a_crash():
    config = parsed("qmd_context:\n  tiers: &a [*a]\n")
    assert config.tiers == ("qmd", "ck", "grep")
    assert any("recursive alias" in str(p) for p in config.problems)


def test_unknown_keys_are_reported_in_file_order():
    config = parsed("qmd_context:\n  zeta: 1\n  alpha: 2\n  mid: 3\n")
    assert [p.key for p in config.problems] == ["zeta", "alpha", "mid"]


def test_an_empty_tier_list_is_a_problem_and_keeps_the_defaults():
    config = parsed("qmd_context:\n  tiers: []\n")
    assert config.tiers == ("qmd", "ck", "grep")
    assert any(p.key == "tiers" for p in config.problems)


# -- the session section -------------------------------------------------------------------


def test_the_session_policies_are_read_from_their_section():
    config = parsed("qmd_context:\n  session:\n    repeats: skip\n    over_session: refuse\n")
    assert config.problems == ()
    assert (config.session.repeats, config.session.over_session) == ("skip", "refuse")
    assert (DEFAULTS.session.repeats, DEFAULTS.session.over_session) == ("reference", "warn")


@pytest.mark.parametrize(
    ("text", "key", "message"),
    [
        ("qmd_context:\n  session:\n    repeats: never\n", "session.repeats",
         "expected reference, skip or allow, got 'never'; using the default (reference)"),
        ("qmd_context:\n  session:\n    over_session: stop\n", "session.over_session",
         "expected warn, shrink or refuse, got 'stop'; using the default (warn)"),
        ("qmd_context:\n  session:\n    repeats: true\n", "session.repeats",
         "expected reference, skip or allow, got True; using the default (reference)"),
    ],
)  # fmt: skip
def test_a_wrong_session_policy_is_a_problem_at_its_line_and_the_default_applies(
    text, key, message
):
    config = parsed(text)
    [problem] = errors(config)
    assert (problem.key, problem.line, problem.message) == (key, 3, message)
    assert config.session == DEFAULTS.session


def test_an_unknown_key_in_the_session_section_is_a_warning():
    config = parsed("qmd_context:\n  session:\n    repeat: skip\n")
    [problem] = config.problems
    assert (problem.severity, problem.key, problem.line) == ("warning", "session.repeat", 3)


def test_a_session_section_that_is_not_a_mapping_is_a_problem():
    config = parsed("qmd_context:\n  session: skip\n")
    [problem] = errors(config)
    assert (problem.key, problem.line) == ("session", 2)
    assert config.session == DEFAULTS.session


def test_a_project_config_that_links_out_of_the_project_is_not_read(tmp_path, monkeypatch):
    # A planted `.tierscope.yaml -> ~/secrets.yaml`: its values would be echoed in the
    # warnings a skill reads. It is not read at all, and the warning says why.
    monkeypatch.delenv("TIERSCOPE_CONFIG", raising=False)
    monkeypatch.delenv("QMD_CONFIG_FILE", raising=False)
    secret = tmp_path / "secrets.yaml"
    secret.write_text("qmd_context:\n  default_budget: SECRET-TOKEN-123\n")
    root = tmp_path / "project"
    root.mkdir()
    (root / ".tierscope.yaml").symlink_to(secret)
    config = load_config(root)
    assert config.default_budget == Config().default_budget
    [problem] = config.problems
    assert "link out of the project" in problem.message
    assert "SECRET" not in str(problem)


def test_a_project_config_linked_within_the_project_is_read(tmp_path, monkeypatch):
    monkeypatch.delenv("TIERSCOPE_CONFIG", raising=False)
    monkeypatch.delenv("QMD_CONFIG_FILE", raising=False)
    root = tmp_path / "project"
    (root / "config").mkdir(parents=True)
    (root / "config" / "tierscope.yaml").write_text("qmd_context:\n  default_budget: 1234\n")
    (root / ".tierscope.yaml").symlink_to("config/tierscope.yaml")
    assert load_config(root).default_budget == 1234
