"""The settings are declared once (tierscope.config.schema): the loader says what it always
said about a wrong value, the model's defaults are the declared ones, and `config show`,
the form and the README's config table list every declared setting."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

import yaml

from tierscope.config.loader import parse_config
from tierscope.config.model import Config, ConfigSource, ScopeConfig, SkillOverride
from tierscope.config.provenance import effective_settings
from tierscope.config.schema import (
    GENERAL,
    GROUPS,
    SCOPES,
    SKILL_OVERRIDES,
    TIERS,
    EntryGroup,
    Setting,
)
from tierscope.models import QueryRequest
from tierscope.tui.widgets.setting_field import FIELD_KINDS

README = Path(__file__).resolve().parents[1] / "README.md"
# How the README's table names an entry of each entry group.
ENTRY_NAMES = {"scopes": "<name>", "skill_overrides": "<skill>"}

EVERY_WRONG_VALUE = """\
qmd_context:
  enabled: "yes"
  default_budget: 0
  timeout_seconds: soon
  tiers: [qmd, fast, qmd]
  scopes:
    grimoires:
      grep_paths: grimoires/
      include: "*.md"
      qmd_collecton: x
    docs:
      qmd_collection: 5
      ck_path: [docs]
    broken: 3
  skill_overrides:
    implement:
      budget: 0
      scope: 5
      enabled: sometimes
      budgett: 1
    review: [1]
    audit:
      scope: nowhere
  qmd: {mode: fast, min_score: 2, limit: 0, refresh: "no", extra: 1}
  ck: {mode: fuzzy, threshold: -1, limit: 1.5}
  grep: {limit: -3, max_filesize: big, window_lines: 5}
  snippets: {max_chars: 0, max_line_chars: true}
  trajectory: {enabled: 1, dir: 5, retention_days: 0, archive_days: x, compression_level: 10}
  filtering:
    enabled: off-ish
    exclude: "*.md"
    archive_zone: [a]
    signal_threshold: extreme
    include_ignored: 0
    include_machine_data: "true"
  token_budgets: {single_search: 0, accumulated: -5, session: lots}
  session: {repeats: never, over_session: stop}
  store: {path: 7, limit: 0}
  extra_section: 1
"""

EXCLUDES = (
    "[**/brainstorm-*.md, **/session-notes-*.md, **/meeting-*.md, **/draft-*.md, **/scratch-*.md]"
)
REPORTED = [
    (2, "error", "enabled", "expected boolean, got 'yes'; using the default (true)"),
    (3, "error", "default_budget", "expected positive integer, got 0; using the default (2000)"),
    (4, "error", "timeout_seconds",
     "expected positive number, got 'soon'; using the default (5.0)"),
    (5, "error", "tiers.1", "unknown tier 'fast' (ignored)"),
    (5, "error", "tiers.2", "tier 'qmd' listed twice"),
    (8, "error", "scopes.grimoires.grep_paths",
     "expected list of strings, got 'grimoires/'; using the default ([grimoires/loa/])"),
    (9, "error", "scopes.grimoires.include",
     "expected list of strings, got '*.md'; using the default ([])"),
    (10, "warning", "scopes.grimoires.qmd_collecton", "unknown key (ignored)"),
    (12, "error", "scopes.docs.qmd_collection", "expected string, got 5; using the default ()"),
    (13, "error", "scopes.docs.ck_path", "expected string, got ['docs']; using the default ()"),
    (14, "error", "scopes.broken", "a scope must be a mapping (ignored)"),
    (17, "error", "skill_overrides.implement.budget",
     "expected positive integer, got 0; using default_budget instead"),
    (18, "error", "skill_overrides.implement.scope",
     "expected string, got 5; using the query's own scope"),
    (19, "error", "skill_overrides.implement.enabled",
     "expected boolean, got 'sometimes'; using the default (true)"),
    (20, "warning", "skill_overrides.implement.budgett", "unknown key (ignored)"),
    (21, "error", "skill_overrides.review", "an override must be a mapping (ignored)"),
    (24, "error", "qmd.mode", "expected qmd mode, got 'fast'; using the default (search)"),
    (24, "error", "qmd.min_score", "expected score, got 2; using the default (0.0)"),
    (24, "error", "qmd.limit", "expected positive integer, got 0; using the default (10)"),
    (24, "error", "qmd.refresh", "expected boolean, got 'no'; using the default (false)"),
    (24, "warning", "qmd.extra", "unknown key (ignored)"),
    (25, "error", "ck.mode", "expected ck mode, got 'fuzzy'; using the default (hybrid)"),
    (25, "error", "ck.threshold",
     "expected non-negative number, got -1; using the default (0.02)"),
    (25, "error", "ck.limit", "expected positive integer, got 1.5; using the default (10)"),
    (26, "error", "grep.limit", "expected positive integer, got -3; using the default (10)"),
    (26, "error", "grep.max_filesize",
     "expected positive integer, got 'big'; using the default (2000000)"),
    (26, "warning", "grep.window_lines", "no longer used: a snippet is a section of at most"
     " snippets.max_chars characters (ignored)"),
    (27, "error", "snippets.max_chars",
     "expected positive integer, got 0; using the default (1500)"),
    (27, "error", "snippets.max_line_chars",
     "expected positive integer, got True; using the default (500)"),
    (28, "error", "trajectory.enabled", "expected boolean, got 1; using the default (true)"),
    (28, "error", "trajectory.dir", "expected string, got 5; using the default ()"),
    (28, "error", "trajectory.retention_days",
     "expected positive integer, got 0; using the default (30)"),
    (28, "error", "trajectory.archive_days",
     "expected positive integer, got 'x'; using the default (365)"),
    (28, "error", "trajectory.compression_level",
     "expected compression level, got 10; using the default (6)"),
    (30, "error", "filtering.enabled",
     "expected boolean, got 'off-ish'; using the default (true)"),
    (31, "error", "filtering.exclude",
     f"expected list of strings, got '*.md'; using the default ({EXCLUDES})"),
    (32, "error", "filtering.archive_zone",
     "expected string, got ['a']; using the default (grimoires/loa/archive/)"),
    (33, "error", "filtering.signal_threshold",
     "expected signal level, got 'extreme'; using the default (medium)"),
    (34, "error", "filtering.include_ignored",
     "expected boolean, got 0; using the default (false)"),
    (35, "error", "filtering.include_machine_data",
     "expected boolean, got 'true'; using the default (false)"),
    (36, "error", "token_budgets.single_search",
     "expected positive integer, got 0; using the default (2000)"),
    (36, "error", "token_budgets.accumulated",
     "expected positive integer, got -5; using the default (5000)"),
    (36, "error", "token_budgets.session",
     "expected positive integer, got 'lots'; using the default (15000)"),
    (37, "error", "session.repeats",
     "expected reference, skip or allow, got 'never'; using the default (reference)"),
    (37, "error", "session.over_session",
     "expected warn, shrink or refuse, got 'stop'; using the default (warn)"),
    (38, "error", "store.path", "expected string, got 7; using the default ()"),
    (38, "error", "store.limit", "expected positive integer, got 0; using the default (10)"),
    (39, "warning", "extra_section", "unknown key (ignored)"),
    (23, "error", "skill_overrides.audit.scope", "unknown scope 'nowhere'"),
]  # fmt: skip


def test_every_wrong_value_is_reported_in_the_loaders_words_at_its_line():
    config = parse_config(EVERY_WRONG_VALUE, ConfigSource(Path("/p/.tierscope.yaml"), "test"))
    reported = [(p.line, p.severity, p.key, p.message) for p in config.problems]
    assert reported == REPORTED


def test_a_whole_group_of_the_wrong_type_and_an_empty_tier_list_keep_their_defaults():
    source = ConfigSource(Path("/p/.tierscope.yaml"), "test")
    [wrong_group] = parse_config("qmd_context:\n  qmd: 5\n", source).problems
    assert wrong_group.message == "expected a mapping, got 5; using defaults"
    [no_tiers] = parse_config("qmd_context:\n  tiers: []\n", source).problems
    assert no_tiers.message == "no usable tier listed; using ['qmd', 'ck', 'grep']"


def plain_settings() -> list[tuple[str, Setting]]:
    """Each setting outside the tiers, scopes and overrides, with its dotted key."""
    return [(group.key(s), s) for group in (GENERAL, *GROUPS) for s in group.settings]


def _entry_model(group: EntryGroup) -> type:
    return {"scopes": ScopeConfig, "skill_overrides": SkillOverride}[group.name]


def test_the_schema_declares_every_field_of_the_model_in_the_models_order():
    top = [setting.name for setting in GENERAL.settings]
    top += [TIERS.name, SCOPES.name, SKILL_OVERRIDES.name, *(group.name for group in GROUPS)]
    assert [f.name for f in fields(Config)] == [*top, "source", "problems"]
    for group in GROUPS:
        model = type(getattr(Config(), group.name))
        assert [f.name for f in fields(model)] == [s.name for s in group.settings], group.name
    for entries in (SCOPES, SKILL_OVERRIDES):
        model = _entry_model(entries)
        assert [f.name for f in fields(model)] == [s.name for s in entries.settings]


def test_every_declared_default_is_the_models_default():
    defaults = Config()
    for key, setting in plain_settings():
        value: object = defaults
        for part in key.split("."):
            value = getattr(value, part)
        assert value == setting.default and type(value) is type(setting.default), key
    assert defaults.tiers == TIERS.default
    for entries in (SCOPES, SKILL_OVERRIDES):
        model = _entry_model(entries)()
        for setting in entries.settings:
            assert getattr(model, setting.name) == setting.default, setting.name


def test_every_declared_default_is_a_value_of_its_kind():
    for key, setting in plain_settings():
        assert setting.kind.read(_as_file_value(setting.default)) == (True, setting.default), key


def _as_file_value(value: object) -> object:
    return list(value) if isinstance(value, tuple) else value


def test_config_show_lists_every_declared_group_setting_scope_field_and_override_field():
    text = (
        "qmd_context:\n  skill_overrides:\n    implement: {budget: 10, scope: all, enabled: true}\n"
    )
    config = parse_config(text, ConfigSource(Path("/p/.tierscope.yaml"), "test"))
    request = QueryRequest(text="-", scope="all", budget=10, timeout=5.0, tiers=config.tiers)
    lines = {f"qmd_context.skill_overrides.implement.{s.name}": 3 for s in SKILL_OVERRIDES.settings}
    shown = [setting.key for setting in effective_settings(config, request, lines=lines).settings]
    groups = [group.key(setting) for group in GROUPS for setting in group.settings]
    scopes = [f"scopes.{name}.{s.name}" for name in config.scopes for s in SCOPES.settings]
    overrides = [f"skill_overrides.implement.{s.name}" for s in SKILL_OVERRIDES.settings]
    assert shown == ["enabled", "scope", "budget", "timeout_seconds", "tiers"] + groups + (
        scopes + overrides
    )


def test_every_kind_of_value_has_a_field_in_the_form():
    kinds = {setting.kind.type for _, setting in plain_settings()}
    kinds |= {
        setting.kind.type for group in (SCOPES, SKILL_OVERRIDES) for setting in group.settings
    }
    assert kinds <= FIELD_KINDS.keys()


def _readme_config_table() -> list[tuple[str, str, str]]:
    """(keys, default, meaning) of each row of the README's `| key | default | meaning |`."""
    text = README.read_text(encoding="utf-8")
    table = text[text.index("| key | default | meaning |") :].split("\n\n", 1)[0]
    rows = []
    for line in table.splitlines()[2:]:
        keys, default, meaning = (cell.strip() for cell in line.strip("|").split(" | "))
        rows.append((keys, default, meaning))
    return rows


def _readme_row(key: str, rows: list[tuple[str, str, str]]) -> tuple[str, str, str]:
    """The row naming `key`: as `key`, in a group's `group.*`, or as `.name` after the
    row's first key (`skill_overrides.<skill>.budget` / `.scope`)."""
    group, _, name = key.rpartition(".")
    for row in rows:
        names = re.findall(r"`([^`]+)`", row[0])
        if key in names or f"{group}.*" in names:
            return row
        if names and names[0].rpartition(".")[0] == group and f".{name}" in names:
            return row
    raise AssertionError(f"{key} is not in the README's config table")


def test_the_readme_config_table_gives_every_setting_its_declared_default_and_meaning():
    rows = _readme_config_table()
    declared = [*plain_settings(), (TIERS.name, TIERS)]
    for entries in (SCOPES, SKILL_OVERRIDES):
        name = ENTRY_NAMES[entries.name]
        declared += [(f"{entries.name}.{name}.{s.name}", s) for s in entries.settings]
    for key, setting in declared:
        keys, default, meaning = _readme_row(key, rows)
        if keys == f"`{key}`":
            assert meaning == setting.help, key
        if re.fullmatch(r"`[^`]*`", default):
            assert yaml.safe_load(default[1:-1]) == _as_file_value(setting.default), key
