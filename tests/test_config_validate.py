"""`validate` reports every problem of a config with its line: what the loader finds,
plus duplicates, paths outside the root or missing, and a ck_path inside ck's index."""

from __future__ import annotations

from pathlib import Path

import pytest

from tierscope.config.document import ConfigDocument
from tierscope.config.validate import validate


@pytest.fixture
def root(make_project) -> Path:
    return make_project({"docs/guide.md": "# Guide\n", "src/app.py": "print()\n"})


def only(problems, severity: str | None = None):
    """The single problem (of `severity`, when given)."""
    chosen = [p for p in problems if severity is None or p.severity == severity]
    assert len(chosen) == 1, chosen
    return chosen[0]


def scope(grep_paths: str = "[docs/]", ck_path: str | None = None) -> str:
    text = f"qmd_context:\n  scopes:\n    docs:\n      grep_paths: {grep_paths}\n"
    if ck_path is not None:
        text += f"      ck_path: {ck_path}\n"
    return text


def test_a_clean_config_has_no_problems(root):
    text = scope("[docs/, src/app.py]", "src/") + (
        "  skill_overrides:\n    implement:\n      budget: 3000\n      scope: docs\n"
        "  tiers: [grep, qmd]\n  trajectory:\n    dir: .tierscope/trajectory\n"
    )
    assert validate(text, root) == []


# -- what the loader reports -----------------------------------------------------------------


def test_a_yaml_syntax_error_is_the_only_problem_reported(root):
    problem = only(validate("qmd_context:\n  scopes: {docs: [\n", root, root / "c.yaml"))
    assert problem.severity == "error" and problem.line is not None
    assert problem.file == str(root / "c.yaml")


def test_a_wrong_type_is_reported_at_its_line(root):
    problem = only(validate("qmd_context:\n  enabled: true\n  timeout_seconds: soon\n", root))
    assert (problem.key, problem.line, problem.severity) == ("timeout_seconds", 3, "error")


def test_an_override_with_an_unknown_scope_is_an_error(root):
    text = "qmd_context:\n  skill_overrides:\n    ride:\n      scope: realty\n"
    problem = only(validate(text, root))
    assert (problem.key, problem.line) == ("skill_overrides.ride.scope", 4)
    assert "realty" in problem.message


def test_an_override_may_name_a_scope_defined_in_the_file(root):
    text = scope() + "  skill_overrides:\n    ride:\n      scope: docs\n"
    assert validate(text, root) == []


@pytest.mark.parametrize(
    ("text", "key", "line"),
    [
        ("qmd_context:\n  default_budget: 0\n", "default_budget", 2),
        ("qmd_context:\n  skill_overrides:\n    ride:\n      budget: -5\n",
         "skill_overrides.ride.budget", 4),
        ("qmd_context:\n  token_budgets:\n    session: 0\n", "token_budgets.session", 3),
    ],
)  # fmt: skip
def test_a_non_positive_budget_is_an_error(root, text, key, line):
    problem = only(validate(text, root))
    assert (problem.key, problem.line, problem.severity) == (key, line, "error")


def test_duplicate_and_unknown_tiers_are_errors(root):
    problems = validate("qmd_context:\n  tiers: [grep, qmd, grep, rg]\n", root)
    assert [(p.key, p.severity) for p in problems] == [
        ("tiers.2", "error"),
        ("tiers.3", "error"),
    ]
    assert "twice" in problems[0].message and "rg" in problems[1].message


# -- paths -----------------------------------------------------------------------------------


def test_a_grep_path_escaping_with_dot_dot_is_an_error(root):
    (root.parent / "secret").mkdir()
    problem = only(validate(scope("[docs/, ../secret]"), root))
    assert (problem.key, problem.line, problem.severity) == ("scopes.docs.grep_paths.1", 4, "error")
    assert "outside the project root" in problem.message


def test_an_absolute_path_outside_the_root_is_an_error(root, tmp_path):
    problem = only(validate(scope(f"[{tmp_path}]"), root))
    assert "outside the project root" in problem.message


def test_a_sibling_sharing_the_roots_name_as_a_prefix_is_outside(root):
    evil = root.parent / f"{root.name}-evil"
    evil.mkdir()
    problem = only(validate(scope(f"[{evil}]"), root))
    assert problem.severity == "error" and "outside the project root" in problem.message


def test_a_symlink_leading_out_of_the_root_is_an_error(root):
    outside = root.parent / "outside"
    outside.mkdir()
    (root / "docs" / "link").symlink_to(outside)
    problem = only(validate(scope("[docs/link]"), root))
    assert problem.severity == "error" and "outside the project root" in problem.message


def test_a_symlink_staying_inside_the_root_is_fine(root):
    (root / "alias").symlink_to(root / "docs")
    assert validate(scope("[alias]"), root) == []


def test_a_missing_path_is_a_warning(root):
    problem = only(validate(scope("[docs/, notes/]"), root))
    assert (problem.key, problem.severity) == ("scopes.docs.grep_paths.1", "warning")
    assert "does not exist" in problem.message


def test_a_ck_path_outside_the_root_is_an_error(root):
    problem = only(validate(scope(ck_path="../"), root))
    assert (problem.key, problem.line, problem.severity) == ("scopes.docs.ck_path", 5, "error")


def test_a_ck_path_inside_a_ck_index_directory_is_explained(root):
    (root / ".ck" / "docs").mkdir(parents=True)
    problem = only(validate(scope(ck_path=".ck/docs/"), root))
    assert (problem.key, problem.line, problem.severity) == ("scopes.docs.ck_path", 5, "warning")
    assert "ck searches source paths" in problem.message
    assert "grep paths will be searched" in problem.message


def test_tierscopes_own_directories_must_stay_inside_but_may_not_exist_yet(root):
    text = "qmd_context:\n  trajectory:\n    dir: ../logs\n  store:\n    path: state/store.db\n"
    problem = only(validate(text, root))
    assert (problem.key, problem.line, problem.severity) == ("trajectory.dir", 3, "error")


def test_a_store_path_outside_the_root_is_an_error(root, tmp_path):
    problem = only(validate(f"qmd_context:\n  store:\n    path: {tmp_path}/x.db\n", root))
    assert (problem.key, problem.severity) == ("store.path", "error")


# -- duplicates -----------------------------------------------------------------------------


def test_a_scope_defined_twice_is_reported_on_the_ignored_definition(root):
    text = (
        "qmd_context:\n  scopes:\n    docs:\n      grep_paths: [docs/]\n"
        "    code:\n      grep_paths: [src/]\n    docs:\n      grep_paths: [src/]\n"
    )
    problem = only(validate(text, root))
    assert (problem.key, problem.line, problem.severity) == ("scopes.docs", 3, "error")
    assert "scope 'docs'" in problem.message and "lines 3, 7" in problem.message


def test_two_overrides_for_one_skill_spelled_differently_are_duplicates(root):
    text = (
        "qmd_context:\n  skill_overrides:\n    review-sprint:\n      budget: 10\n"
        "    review_sprint:\n      budget: 20\n"
    )
    problem = only(validate(text, root))
    assert (problem.key, problem.line) == ("skill_overrides.review-sprint", 3)


def test_a_key_given_twice_anywhere_in_the_section_is_reported(root):
    text = "qmd_context:\n  default_budget: 10\n  ck:\n    limit: 3\n    limit: 4\n"
    problem = only(validate(text, root))
    assert (problem.key, problem.line) == ("ck.limit", 4)


def test_the_section_given_twice_is_reported(root):
    text = "qmd_context:\n  default_budget: 10\nother: 1\nqmd_context:\n  enabled: true\n"
    problem = only(validate(text, root))
    assert (problem.key, problem.line) == ("qmd_context", 1)


def test_duplicates_in_other_sections_are_not_ours_to_report(root):
    assert validate("hooks:\n  a: 1\n  a: 2\nqmd_context:\n  enabled: true\n", root) == []


# -- documents and ordering -----------------------------------------------------------------


def test_a_document_is_validated_with_its_unsaved_text_and_its_path(root):
    path = root / ".tierscope.yaml"
    path.write_text("qmd_context:\n  enabled: true\n", encoding="utf-8")
    document = ConfigDocument.load(path)
    document.set("default_budget", 0)
    problem = only(validate(document, root))
    assert (problem.file, problem.line, problem.key) == (str(path), 3, "default_budget")


def test_problems_are_ordered_by_line(root):
    text = (
        "qmd_context:\n  scopes:\n    docs:\n      grep_paths: [missing/]\n"
        "  default_budget: -1\n  tiers: [nope]\n  unknown_key: 1\n"
    )
    lines = [problem.line for problem in validate(text, root)]
    assert lines == sorted(lines) and len(lines) == 5  # tiers: [nope] is unknown and leaves none


def test_other_sections_anchors_merge_keys_and_tags_are_not_problems(root):
    text = (
        "defaults: &d\n  retries: 3\nservice:\n  <<: *d\n  token: !vault svc/token\n"
        "!custom tagged: 1\nqmd_context:\n  enabled: true\n"
    )
    assert validate(text, root) == []
