"""The config writer changes only the lines of the edited entry: comments, blank lines,
key order, quoting, indentation and every other section of the file survive byte-for-byte;
a file changed on disk since it was loaded is never overwritten."""

from __future__ import annotations

import difflib
import errno
import os
import stat
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tierscope.config.document import ConfigDocument, parse_value
from tierscope.config.edit_errors import ConfigConflict, ConfigEditError
from tierscope.config.loader import parse_config
from tierscope.config.model import ConfigSource

# A .loa.config.yaml as projects really have them: many tools' sections, comments,
# blank lines, anchors, a merge key, an application's own tag, every quoting style,
# flow and block collections, block scalars, mixed indentation, a line longer than any
# emitter's width.
LONG_DESCRIPTION = (
    "A long description that goes well beyond one hundred characters, "
    "so an emitter that wraps lines would fold it."
)
LARGE_CONFIG = """\
# .loa.config.yaml — project configuration (café, naïve: non-ASCII survives)
# Sections below belong to several tools; tierscope owns only qmd_context.

version: 3   # schema version, bumped by `loa migrate`

project:
    name: "tierscope-demo"
    description: '<LONG>'
    owners: [alice,bob]   # flow list without spaces
    homepage: https://example.invalid/demo

defaults: &defaults
  retries: 3
  verbose:   no
  timeout: 30

service:
  <<: *defaults
  name: 'svc'
  ports:
  - 8080
  - 8443

build:
  flags:
    - -O2
    - "-g"
  env: {CC: clang, CFLAGS: "-Wall"}
  notes: |
    First line of a literal block.

    Third line, after a blank one.
  empty:
  tilde: ~

# ---------------------------------------------------------------------------
# Context retrieval (tierscope)
# ---------------------------------------------------------------------------
qmd_context:
  enabled: true
  default_budget: 2000  # tokens per query
  timeout_seconds: 5    # per tier
  tiers: [qmd, ck, grep]

  scopes:
    grimoires:
      qmd_collection: "loa-grimoire"
      ck_path: "grimoires/loa/"
      grep_paths:
        - "grimoires/loa/"
    skills:
      qmd_collection: "loa-skills"
      ck_path: ".claude/skills/"
      grep_paths:
        - ".claude/skills/"
    notes:
      qmd_collection: "loa-grimoire"
      grep_paths:
        - "grimoires/loa/NOTES.md"
    reality:
      qmd_collection: "loa-reality"
      grep_paths:
        - "grimoires/loa/reality/"

  # Per-skill tuning. Names match with - and _ alike.
  skill_overrides:
    implement:
      budget: 2000
      scope: grimoires
    review-sprint:
      budget: 1500
      scope: grimoires
    ride:
      budget: 2000
      scope: reality
    # gate-0:
    #   budget: 1000
    #   scope: notes

  trajectory:
    enabled: true
    retention_days: 30

# ---------------------------------------------------------------------------
# Everything below is read by other tools.
# ---------------------------------------------------------------------------
hooks:
  pre_commit:
    - name: "lint"
      run: ruff check .
    - name: "format"
      run: ruff format --check .
  post_merge: []

agents:
  implement:
    model: "large"
    temperature: 0.2
    max_turns: 40
  review-sprint:
    model: "large"
    temperature: 0.0
  ride:
    model: small
    tools:
      - grep
      - read

paths:
  grimoires: grimoires/loa/
  skills: .claude/skills/
  archive: "grimoires/loa/archive/"

limits:
  max_files: 10_000
  max_bytes: 0x100000
  ratio: 1.5e+3
  octal: 0o755
  when: 2026-11-23
  enabled: yes
  disabled: off

matrix:
  - os: linux
    python: ["3.11", "3.12"]
  - os: macos
    python: ["3.12"]

templates:
  greeting: >
    Hello, folded
    text here.
  quoted: "line one\\nline two"
  single: 'it''s quoted'
  plain: a plain string, with a comma

aliases:
  first: &first_port 8080
  again: *first_port

features:
  search: true
  store: false
  preview: true

retention:
  keep_days: 90
  compress: true

telemetry:
  enabled: false
  endpoint: ""
  token: !vault telemetry/token

# End of file: nothing after this comment.
""".replace("<LONG>", LONG_DESCRIPTION)


class AnyTagLoader(yaml.SafeLoader):
    """Reads other tools' own tags (`!vault x`) as their text."""


AnyTagLoader.add_constructor(None, lambda loader, node: loader.construct_scalar(node))


def changes(before: str, after: str) -> list[tuple[int, list[str], list[str]]]:
    """(1-based line in `before`, lines removed, lines added) for each changed region."""
    old, new = before.splitlines(), after.splitlines()
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    return [
        (i1 + 1, old[i1:i2], new[j1:j2])
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
        if tag != "equal"
    ]


def line_of(text: str, fragment: str) -> int:
    """1-based number of the only line containing `fragment`."""
    numbers = [n for n, line in enumerate(text.splitlines(), 1) if fragment in line]
    assert len(numbers) == 1, f"{fragment!r} on lines {numbers}"
    return numbers[0]


def loaded(text: str):
    """The settings the loader reads from `text`."""
    config = parse_config(text, ConfigSource(None, "test"))
    assert not [p for p in config.problems if p.severity == "error"], config.problems
    return config


@pytest.fixture
def large(tmp_path) -> Path:
    path = tmp_path / ".loa.config.yaml"
    path.write_text(LARGE_CONFIG, encoding="utf-8")
    return path


def edited(path: Path, *operations: tuple) -> str:
    document = ConfigDocument.load(path)
    for operation, key, *value in operations:
        if operation == "set":
            document.set(key, value[0])
        else:
            assert document.unset(key)
    return document.render()


# -- round trip: only the edited lines change -----------------------------------------


def test_loading_and_rendering_without_edits_is_byte_identical(large):
    document = ConfigDocument.load(large)
    assert document.render() == LARGE_CONFIG
    assert not document.changed
    assert document.diff() == ""


def test_changing_a_scalar_changes_only_its_value_and_keeps_the_comment(large):
    after = edited(large, ("set", "default_budget", 3000))
    line = line_of(LARGE_CONFIG, "default_budget")
    assert changes(LARGE_CONFIG, after) == [
        (line, ["  default_budget: 2000  # tokens per query"],
               ["  default_budget: 3000  # tokens per query"]),
    ]  # fmt: skip
    assert loaded(after).default_budget == 3000


def test_adding_a_scope_inserts_only_its_lines_after_the_last_scope(large):
    after = edited(large, ("set", "scopes.docs.grep_paths", ["docs/"]))
    # After reality's last line, before the blank line and the overrides' comment;
    # indented like its siblings, quoted like the strings around it.
    line = line_of(LARGE_CONFIG, '- "grimoires/loa/reality/"') + 1
    assert changes(LARGE_CONFIG, after) == [
        (line, [], ["    docs:", "      grep_paths:", '        - "docs/"']),
    ]
    assert loaded(after).scopes["docs"].grep_paths == ("docs/",)


def test_raising_a_skill_budget_changes_one_line(large):
    after = edited(large, ("set", "skill_overrides.implement.budget", 3000))
    line = line_of(LARGE_CONFIG, "    implement:") + 1
    assert changes(LARGE_CONFIG, after) == [(line, ["      budget: 2000"], ["      budget: 3000"])]
    assert loaded(after).skill_override("implement").budget == 3000


def test_a_new_override_goes_before_the_commented_out_ones(large):
    after = edited(large, ("set", "skill_overrides.gate_1.budget", 800))
    line = line_of(LARGE_CONFIG, "# gate-0:")
    assert changes(LARGE_CONFIG, after) == [(line, [], ["    gate_1:", "      budget: 800"])]


def test_skill_names_match_with_dash_and_underscore_alike(large):
    after = edited(large, ("set", "skill_overrides.review_sprint.budget", 1800))
    line = line_of(LARGE_CONFIG, "budget: 1500")
    assert changes(LARGE_CONFIG, after) == [(line, ["      budget: 1500"], ["      budget: 1800"])]
    assert ConfigDocument.from_text(after).get("skill_overrides.review_sprint.budget") == 1800


def test_replacing_a_block_list_keeps_its_indentation_and_quoting(large):
    after = edited(large, ("set", "scopes.skills.grep_paths", [".claude/skills/", "docs/"]))
    line = line_of(LARGE_CONFIG, '- ".claude/skills/"') + 1
    assert changes(LARGE_CONFIG, after) == [(line, [], ['        - "docs/"'])]


def test_replacing_a_flow_list_keeps_flow_style(large):
    after = edited(large, ("set", "tiers", ["grep", "qmd"]))
    line = line_of(LARGE_CONFIG, "tiers:")
    assert changes(LARGE_CONFIG, after) == [
        (line, ["  tiers: [qmd, ck, grep]"], ["  tiers: [grep, qmd]"])
    ]


def test_a_new_key_in_a_new_group_is_added_at_the_end_of_the_section(large):
    after = edited(large, ("set", "qmd.mode", "query"))
    line = line_of(LARGE_CONFIG, "retention_days: 30") + 1
    assert changes(LARGE_CONFIG, after) == [(line, [], ["  qmd:", '    mode: "query"'])]
    assert loaded(after).qmd.mode == "query"


def test_unsetting_a_key_removes_only_its_lines(large):
    after = edited(large, ("unset", "scopes.grimoires.ck_path"))
    line = line_of(LARGE_CONFIG, 'ck_path: "grimoires/loa/"')
    assert changes(LARGE_CONFIG, after) == [(line, ['      ck_path: "grimoires/loa/"'], [])]


def test_unsetting_the_last_key_of_an_override_removes_the_empty_override(large):
    after = edited(
        large,
        ("unset", "skill_overrides.ride.budget"),
        ("unset", "skill_overrides.ride.scope"),
    )
    line = line_of(LARGE_CONFIG, "    ride:")
    removed = ["    ride:", "      budget: 2000", "      scope: reality"]
    assert changes(LARGE_CONFIG, after) == [(line, removed, [])]
    assert "ride" not in loaded(after).skill_overrides


def test_set_then_unset_restores_the_file_exactly(large):
    after = edited(
        large,
        ("set", "scopes.docs.grep_paths", ["docs/"]),
        ("set", "ck.threshold", 0.05),
        ("unset", "scopes.docs"),
        ("unset", "ck"),
    )
    assert after == LARGE_CONFIG


def test_several_edits_change_exactly_their_lines(large):
    after = edited(
        large,
        ("set", "scopes.docs.grep_paths", ["docs/"]),
        ("set", "timeout_seconds", 8),
        ("set", "enabled", False),
    )
    assert changes(LARGE_CONFIG, after) == [
        (line_of(LARGE_CONFIG, "qmd_context:") + 1, ["  enabled: true"], ["  enabled: false"]),
        (line_of(LARGE_CONFIG, "timeout_seconds"),
         ["  timeout_seconds: 5    # per tier"],
         ["  timeout_seconds: 8    # per tier"]),
        (line_of(LARGE_CONFIG, '- "grimoires/loa/reality/"') + 1, [],
         ["    docs:", "      grep_paths:", '        - "docs/"']),
    ]  # fmt: skip


def test_every_other_section_reads_back_identically(large):
    after = edited(large, ("set", "scopes.docs.grep_paths", ["docs/"]), ("unset", "tiers"))
    before_data = yaml.load(LARGE_CONFIG, Loader=AnyTagLoader)
    after_data = yaml.load(after, Loader=AnyTagLoader)
    before_data.pop("qmd_context")
    after_data.pop("qmd_context")
    assert after_data == before_data


def test_an_anchored_value_keeps_its_anchor(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text(
        "qmd_context:\n  default_budget: &budget 2000\n"
        "  token_budgets:\n    single_search: *budget\n",
        encoding="utf-8",
    )
    after = edited(path, ("set", "default_budget", 3000))
    assert after.splitlines()[1] == "  default_budget: &budget 3000"
    assert loaded(after).token_budgets.single_search == 3000


def test_an_alias_value_is_replaced_without_touching_its_anchor(tmp_path):
    path = tmp_path / "c.yaml"
    text = "base: &b 100\nqmd_context:\n  default_budget: *b  # shared\n"
    path.write_text(text, encoding="utf-8")
    after = edited(path, ("set", "default_budget", 300))
    assert changes(text, after) == [
        (3, ["  default_budget: *b  # shared"], ["  default_budget: 300  # shared"])
    ]


def test_looking_for_an_alias_past_a_long_comment_takes_one_reading(tmp_path):
    # The config is untrusted: a comment of many `#` before no alias was tried split at
    # every `#` (24 of them took a second, each more doubling it). A child process with a
    # time limit, as the hostile-tree tests do.
    import subprocess
    import sys

    code = (
        "from tierscope.config.yaml_splice import _ALIAS\n"
        "assert _ALIAS.match(': ' + '#' * 60 + '\\n  [1]') is None\n"
        "assert _ALIAS.match(': # note ## more\\n  *base').group(1) == '*base'\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=30
    )
    assert result.returncode == 0, result.stderr[-2000:]


def test_editing_below_an_alias_is_refused_and_the_anchor_is_untouched():
    text = "base: &b\n  grep_paths: [a]\nqmd_context:\n  scopes:\n    x: *b\n"
    document = ConfigDocument.from_text(text)
    with pytest.raises(ConfigEditError, match=r"scopes\.x is an alias"):
        document.unset("scopes.x.grep_paths")
    with pytest.raises(ConfigEditError, match=r"scopes\.x is an alias"):
        document.set("scopes.x.grep_paths", ["b"])
    assert document.render() == text


def test_a_flow_mapping_is_rewritten_in_flow_style(tmp_path):
    path = tmp_path / "c.yaml"
    text = "qmd_context:\n  scopes: {docs: {grep_paths: [docs/]}}  # one scope\nother: 1\n"
    path.write_text(text, encoding="utf-8")
    after = edited(path, ("set", "scopes.docs.ck_path", "src/"))
    assert changes(text, after) == [
        (
            2,
            ["  scopes: {docs: {grep_paths: [docs/]}}  # one scope"],
            ["  scopes: {docs: {grep_paths: [docs/], ck_path: src/}}  # one scope"],
        )
    ]


def test_a_value_that_would_read_back_as_another_type_is_quoted(tmp_path):
    document = ConfigDocument.from_text("qmd_context:\n  trajectory:\n    dir: x\n")
    for value in ("yes", "2000", "~", "a: b", "#x", "", "it's"):
        document.set("trajectory.dir", value)
        assert document.get("trajectory.dir") == value
        assert loaded(document.render()).trajectory.dir == value


def test_crlf_files_keep_crlf_line_endings():
    document = ConfigDocument.from_text("a: 1\r\nqmd_context:\r\n  enabled: true\r\n")
    document.set("scopes.docs.grep_paths", ["docs/"])
    document.set("enabled", False)
    text = document.render()
    assert text.count("\r\n") == text.count("\n")
    assert text.startswith("a: 1\r\nqmd_context:\r\n  enabled: false\r\n")


def test_a_null_group_becomes_a_mapping(tmp_path):
    path = tmp_path / "c.yaml"
    text = "qmd_context:\n  scopes:   # none yet\nafter: 1\n"
    path.write_text(text, encoding="utf-8")
    after = edited(path, ("set", "scopes.docs.grep_paths", ["docs/"]))
    assert changes(text, after) == [(3, [], ["    docs:", "      grep_paths:", "        - docs/"])]


def test_indentation_follows_the_file(tmp_path):
    path = tmp_path / "c.yaml"
    text = "qmd_context:\n    scopes:\n        notes:\n            grep_paths:\n            - a\n"
    path.write_text(text, encoding="utf-8")
    after = edited(path, ("set", "scopes.docs.grep_paths", ["docs/"]))
    assert changes(text, after) == [
        (6, [], ["        docs:", "            grep_paths:", "            - docs/"])
    ]


# -- creating the file or the section --------------------------------------------------


def test_an_absent_file_is_an_empty_document_that_creates_the_file(tmp_path):
    path = tmp_path / ".tierscope.yaml"
    document = ConfigDocument.load(path)
    assert document.render() == "" and not document.exists
    assert document.get("default_budget") is None
    document.set("default_budget", 3000)
    document.save()
    assert path.read_text(encoding="utf-8") == "qmd_context:\n  default_budget: 3000\n"
    assert loaded(path.read_text(encoding="utf-8")).default_budget == 3000


def test_a_new_file_gets_the_usual_mode(tmp_path):
    old_umask = os.umask(0o027)
    try:
        document = ConfigDocument.load(tmp_path / "new.yaml")
        document.set("enabled", True)
        document.save()
    finally:
        os.umask(old_umask)
    assert stat.S_IMODE((tmp_path / "new.yaml").stat().st_mode) == 0o640


def test_a_missing_section_is_appended_after_a_blank_line(tmp_path):
    path = tmp_path / "c.yaml"
    text = "# other tool\nhooks:\n  - lint\n# trailing comment\n"
    path.write_text(text, encoding="utf-8")
    after = edited(path, ("set", "skill_overrides.implement.budget", 3000))
    assert after == (
        "# other tool\nhooks:\n  - lint\n\nqmd_context:\n  skill_overrides:\n"
        "    implement:\n      budget: 3000\n# trailing comment\n"
    )


def test_a_file_without_a_final_newline_keeps_its_last_line(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("qmd_context:\n  enabled: true", encoding="utf-8")
    after = edited(path, ("set", "default_budget", 10))
    assert after == "qmd_context:\n  enabled: true\n  default_budget: 10\n"


# -- saving ----------------------------------------------------------------------------


def test_save_keeps_the_file_mode_and_leaves_no_temporary_file(large):
    large.chmod(0o640)
    document = ConfigDocument.load(large)
    document.set("default_budget", 3000)
    document.save()
    assert stat.S_IMODE(large.stat().st_mode) == 0o640
    assert sorted(p.name for p in large.parent.iterdir()) == [large.name]
    assert not document.changed
    assert loaded(large.read_text(encoding="utf-8")).default_budget == 3000


def test_save_refuses_a_file_changed_on_disk_since_it_was_loaded(large):
    document = ConfigDocument.load(large)
    document.set("default_budget", 3000)
    concurrent = LARGE_CONFIG.replace("version: 3", "version: 4")
    large.write_text(concurrent, encoding="utf-8")
    with pytest.raises(ConfigConflict, match="changed on disk"):
        document.save()
    assert large.read_text(encoding="utf-8") == concurrent
    assert sorted(p.name for p in large.parent.iterdir()) == [large.name]


def test_save_refuses_a_file_created_since_an_absent_one_was_loaded(tmp_path):
    path = tmp_path / ".tierscope.yaml"
    document = ConfigDocument.load(path)
    document.set("enabled", False)
    path.write_text("qmd_context:\n  enabled: true\n", encoding="utf-8")
    with pytest.raises(ConfigConflict):
        document.save()


def test_save_refuses_a_file_deleted_since_it_was_loaded(large):
    document = ConfigDocument.load(large)
    document.set("enabled", False)
    large.unlink()
    with pytest.raises(ConfigConflict):
        document.save()
    assert not large.exists()


def test_a_second_save_after_a_successful_one_is_not_a_conflict(large):
    document = ConfigDocument.load(large)
    document.set("default_budget", 3000)
    document.save()
    document.set("default_budget", 3500)
    document.save()
    assert loaded(large.read_text(encoding="utf-8")).default_budget == 3500


def test_save_writes_through_a_symlink_to_its_target(tmp_path):
    target = tmp_path / "real.yaml"
    target.write_text("qmd_context:\n  enabled: true\n", encoding="utf-8")
    link = tmp_path / ".tierscope.yaml"
    link.symlink_to(target)
    document = ConfigDocument.load(link)
    document.set("enabled", False)
    document.save()
    assert link.is_symlink()
    assert target.read_text(encoding="utf-8") == "qmd_context:\n  enabled: false\n"


def test_undecodable_bytes_elsewhere_in_the_file_are_kept(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_bytes(b"qmd_context:\n  enabled: true\n")
    document = ConfigDocument.load(path)
    assert document.render().encode() == path.read_bytes()
    raw = b"# caf\xe9 in latin-1\nqmd_context:\n  enabled: true\n"
    path.write_bytes(raw)
    document = ConfigDocument.load(path)
    document.save()
    assert path.read_bytes() == raw


def test_diff_compares_the_file_on_disk_with_the_edit(large):
    document = ConfigDocument.load(large)
    document.set("default_budget", 3000)
    diff = document.diff()
    assert "-  default_budget: 2000  # tokens per query\n" in diff
    assert "+  default_budget: 3000  # tokens per query\n" in diff
    assert sum(line.startswith(("-", "+")) for line in diff.splitlines()) == 4  # headers too


# -- the raw section editor ----------------------------------------------------------------


def test_section_text_is_the_block_as_written_including_trailing_commented_settings(large):
    section = ConfigDocument.load(large).section_text()
    assert section.startswith("qmd_context:\n  enabled: true\n")
    assert section.endswith("    retention_days: 30\n")
    assert "    # gate-0:\n" in section
    assert "hooks:" not in section and "Everything below" not in section


def test_setting_the_section_text_replaces_only_the_section(large):
    document = ConfigDocument.load(large)
    section = document.section_text()
    document.set_section_text(section.replace("timeout_seconds: 5 ", "timeout_seconds: 8 "))
    line = line_of(LARGE_CONFIG, "timeout_seconds")
    assert changes(LARGE_CONFIG, document.render()) == [
        (line, ["  timeout_seconds: 5    # per tier"], ["  timeout_seconds: 8    # per tier"])
    ]
    assert document.section_first_line() == line_of(LARGE_CONFIG, "qmd_context:")


def test_section_text_with_a_yaml_error_is_refused_with_its_line(large):
    document = ConfigDocument.load(large)
    with pytest.raises(ConfigEditError) as raised:
        document.set_section_text("qmd_context:\n  enabled: true\n  scopes: [unclosed\n")
    assert raised.value.line is not None
    assert document.render() == LARGE_CONFIG


def test_section_text_must_hold_only_the_section(large):
    document = ConfigDocument.load(large)
    with pytest.raises(ConfigEditError, match="single key qmd_context"):
        document.set_section_text("qmd_context:\n  enabled: true\nhooks: []\n")


def test_section_text_creates_the_section_when_absent(tmp_path):
    document = ConfigDocument.from_text("hooks: []\n")
    document.set_section_text("qmd_context:\n  enabled: false")
    assert document.render() == "hooks: []\n\nqmd_context:\n  enabled: false\n"


# -- refusals --------------------------------------------------------------------------------


def test_setting_below_a_scalar_is_refused_with_the_line(large):
    document = ConfigDocument.load(large)
    with pytest.raises(ConfigEditError, match="enabled is a scalar, not a mapping") as raised:
        document.set("enabled.x", 1)
    assert raised.value.line == line_of(LARGE_CONFIG, "qmd_context:") + 1
    assert document.render() == LARGE_CONFIG


@pytest.mark.parametrize("key", ["", "scopes..docs", ".budget", "scopes.docs."])
def test_malformed_keys_are_refused(key):
    with pytest.raises(ConfigEditError, match="invalid key"):
        ConfigDocument.from_text("").set(key, 1)


def test_editing_a_file_that_is_not_valid_yaml_is_refused_with_the_line():
    document = ConfigDocument.from_text("qmd_context:\n  enabled: [true\nother: 1\n")
    with pytest.raises(ConfigEditError) as raised:
        document.set("enabled", False)
    assert raised.value.line is not None
    assert str(raised.value).startswith("invalid YAML")


def test_unsetting_an_absent_key_reports_false_and_changes_nothing(large):
    document = ConfigDocument.load(large)
    assert document.unset("scopes.nowhere.grep_paths") is False
    assert document.unset("enabled.deeper") is False
    assert not document.changed


def test_a_leading_section_name_in_the_key_is_accepted(large):
    document = ConfigDocument.load(large)
    document.set("qmd_context.default_budget", 2100)
    assert document.get("default_budget") == 2100


# -- values from the command line ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ('["docs/"]', ["docs/"]),
        ("3000", 3000),
        ("true", True),
        ("0.5", 0.5),
        ("docs/", "docs/"),
        ("{budget: 10}", {"budget": 10}),
        ("null", None),
        ("", ""),
    ],
)
def test_values_are_read_as_yaml(text, value):
    assert parse_value(text) == value


def test_a_value_that_is_not_yaml_is_refused():
    with pytest.raises(ConfigEditError, match="is not a YAML value"):
        parse_value("[unclosed")


# -- any sequence of edits ----------------------------------------------------------------

KEYS = st.sampled_from(
    [
        "default_budget",
        "timeout_seconds",
        "scopes.docs.grep_paths",
        "scopes.grimoires.ck_path",
        "scopes.notes.qmd_collection",
        "skill_overrides.implement.budget",
        "skill_overrides.new-skill.scope",
        "trajectory.dir",
        "ck.threshold",
        "tiers",
    ]
)
VALUES = st.one_of(
    st.integers(min_value=1, max_value=10**6),
    st.booleans(),
    st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=12),
    st.lists(st.sampled_from(["docs/", "yes", "a b", "#x", "2000", "'q'"]), max_size=3),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(KEYS, VALUES, st.booleans()), min_size=1, max_size=6))
def test_any_edits_read_back_and_leave_everything_outside_the_section_alone(edits):
    document = ConfigDocument.from_text(LARGE_CONFIG)
    outside = _outside_section(LARGE_CONFIG, document)
    for key, value, remove in edits:
        if remove:
            document.unset(key)
            assert document.get(key, "absent") == "absent"
        else:
            document.set(key, value)
            assert document.get(key) == value
        assert _outside_section(document.render(), document) == outside


def _outside_section(text: str, document: ConfigDocument) -> tuple[str, str]:
    section = document.section_text()
    start = text.index(section)
    return text[:start], text[start + len(section) :]


def test_a_value_written_back_takes_the_quotes_it_had_when_loaded():
    text = "qmd_context:\n  skill_overrides:\n    implement:\n      scope: notes  # keep\n"
    document = ConfigDocument.from_text(text)
    for typed in ("n", "no", "not", "notes"):  # "no" must be quoted: it reads as false
        document.set("skill_overrides.implement.scope", typed)
    assert document.text == text
    quoted = ConfigDocument.from_text(text.replace("notes", "'notes'"))
    quoted.set("skill_overrides.implement.scope", "grimoires")
    assert "scope: 'grimoires'  # keep" in quoted.text


# -- creating a new file ----------------------------------------------------------------------

NEW = "qmd_context:\n  default_budget: 900\n"


def test_create_writes_a_new_file_and_leaves_no_temporary_behind(tmp_path):
    target = tmp_path / ".tierscope.yaml"
    ConfigDocument.from_text(NEW, target).create()
    assert target.read_text() == NEW
    assert sorted(p.name for p in tmp_path.iterdir()) == [".tierscope.yaml"]


def test_create_never_replaces_an_existing_file(tmp_path):
    target = tmp_path / ".tierscope.yaml"
    target.write_text("# mine\n")
    with pytest.raises(FileExistsError):
        ConfigDocument.from_text(NEW, target).create()
    assert target.read_text() == "# mine\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [".tierscope.yaml"]


@pytest.mark.parametrize("dangling", [True, False])
def test_create_never_writes_through_a_symbolic_link(tmp_path, dangling):
    outside = tmp_path / "outside.yaml"
    if not dangling:
        outside.write_text("# someone else's\n")
    project = tmp_path / "project"
    project.mkdir()
    (project / ".tierscope.yaml").symlink_to(outside)
    with pytest.raises(FileExistsError):
        ConfigDocument.from_text(NEW, project / ".tierscope.yaml").create()
    assert outside.exists() is not dangling
    if not dangling:
        assert outside.read_text() == "# someone else's\n"
    assert (project / ".tierscope.yaml").is_symlink()


def test_create_without_hard_links_still_refuses_what_is_there(tmp_path, monkeypatch):
    def no_links(*args, **kwargs):
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    target = tmp_path / ".tierscope.yaml"
    ConfigDocument.from_text(NEW, target).create()
    assert target.read_text() == NEW
    (tmp_path / "other.yaml").symlink_to(tmp_path / "elsewhere.yaml")
    with pytest.raises(FileExistsError):
        ConfigDocument.from_text(NEW, tmp_path / "other.yaml").create()
    assert not (tmp_path / "elsewhere.yaml").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == [".tierscope.yaml", "other.yaml"]


def test_reading_many_keys_of_one_text_parses_it_once(large, monkeypatch):
    # The workbench's form reads every group of the section for each key typed.
    import tierscope.config.yaml_tree as yaml_tree

    document = ConfigDocument.load(large)

    parsed: list[str] = []
    original = yaml_tree.load_located

    def counting(text, only_key=None):
        parsed.append(text)
        return original(text, only_key)

    monkeypatch.setattr(yaml_tree, "load_located", counting)
    for key in ("default_budget", "tiers", "scopes", "scopes.notes.grep_paths", "timeout"):
        document.get(key)
    assert len(parsed) == 1
    document.set("default_budget", 2500)
    assert document.get("default_budget") == 2500  # an edit is read afresh
    assert document.get("tiers") == document.get("tiers")
    assert len(parsed) == 3  # the edit's own check, then one reading of the new text


def test_a_value_read_can_be_changed_without_changing_the_document(large):
    document = ConfigDocument.load(large)
    tiers = document.get("tiers")
    scopes = document.get("scopes")
    before = document.get("scopes")
    tiers.append("mine")
    scopes.clear()
    assert "mine" not in document.get("tiers")
    assert document.get("scopes") == before
