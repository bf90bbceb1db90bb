"""`tierscope query` as a drop-in for the seed's qmd-context-query.sh: a skill replaces the
script with `exec tierscope query "$@"`, and the seed script's own test expectations hold
through that shim — stderr merged into stdout included, so where the script is silent on
stderr, so is tierscope."""

from __future__ import annotations

import json
import stat
import subprocess
import sys
from pathlib import Path

import pytest

# The project the seed script's test suite sets up.
SEED_PROJECT = {
    "grimoires/loa/NOTES.md": "# NOTES: authentication flow is critical for security\n",
    "grimoires/loa/sprint.md": "# Sprint plan with adapter pattern details\n",
    "grimoires/loa/prd.md": "# PRD: token budget enforcement required\n",
    ".claude/skills/SKILL.md": "# Implement skill with code generation\n",
    "grimoires/loa/reality/auth.md": "# Reality: API surface for auth module\n",
}


@pytest.fixture
def shim(make_project, path_without_tools) -> Path:
    root = make_project(SEED_PROJECT)
    script = root / "qmd-context-query.sh"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m tierscope query "$@"\n')
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


def merged(shim: Path, *args: str) -> tuple[int, str]:
    """Exit code and stdout with stderr merged into it, as the seed's tests read it."""
    result = subprocess.run(
        [str(shim), *args],
        cwd=shim.parent,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=60,
    )
    return result.returncode, result.stdout


def separate(shim: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(shim), *args], cwd=shim.parent, capture_output=True, text=True, timeout=60
    )


def test_help_has_a_usage_section(shim):
    code, out = merged(shim, "--help")
    assert code == 0
    assert "\nUSAGE:\n" in out
    for section in ("SCOPES:", "OPTIONS:", "EXAMPLES:"):
        assert f"\n{section}\n" in out
    assert 'tierscope query --query "search text" --scope <scope> [OPTIONS]' in out


@pytest.mark.parametrize(
    "args",
    [
        (),
        ("--query", "test", "--scope", "grimoires", "--budget", "0"),
        ("--query", "xyznonexistent12345", "--scope", "grimoires"),
        ("--query", "test", "--scope", "grimoires", "--budget", "abc"),
        ("--query", "test", "--scope", "grimoires", "--budget", "-5"),
        ("--query", "test", "--scope", "grimoires", "--budget", "1.5"),
    ],
    ids=["no-query", "budget-0", "no-match", "budget-abc", "budget-negative", "budget-float"],
)
def test_empty_answers_are_exactly_an_empty_array_with_nothing_on_stderr(shim, args):
    code, out = merged(shim, *args)
    assert code == 0
    assert json.loads(out) == []


@pytest.mark.parametrize(
    "args",
    [
        ("--query", "authentication", "--scope", "grimoires"),
        ("--query", "authentication sprint", "--scope", "grimoires"),
        ("--query", "test", "--scope", "grimoires", "--budget", "999999"),
        ("--query", "implement", "--scope", "skills"),
        ("--query", "blocker", "--scope", "notes"),
        ("--query", "api", "--scope", "reality"),
        ("--query", "pattern", "--scope", "all"),
        ("--query", "authentication", "--scope", "grimoires", "--format", "yaml"),
        ("--query", "authentication", "--scope", "grimoires", "--timeout", "abc"),
    ],
)
def test_every_answer_parses_as_a_json_array_with_stderr_merged(shim, args):
    code, out = merged(shim, *args)
    assert code == 0
    hits = json.loads(out)
    assert isinstance(hits, list)
    assert all(set(hit) == {"source", "score", "content", "tier"} for hit in hits)


def test_a_match_is_served_by_grep_with_the_four_fields(shim):
    _code, out = merged(shim, "--query", "authentication sprint", "--scope", "grimoires")
    hits = json.loads(out)
    assert hits and hits[0]["tier"] == "grep"


def test_a_one_token_budget_returns_at_most_one_hit(shim):
    _code, out = merged(shim, "--query", "authentication sprint token", "--budget", "1")
    assert len(json.loads(out)) <= 1


def test_an_invalid_scope_says_so_on_stderr_only(shim):
    result = separate(shim, "--query", "test", "--scope", "invalid_scope")
    assert (result.returncode, json.loads(result.stdout)) == (0, [])
    assert result.stderr == "Invalid scope: invalid_scope\n"


def test_text_format_starts_with_a_header(shim):
    _code, out = merged(shim, "--query", "authentication", "--scope", "grimoires", "-f", "text")
    assert out.startswith("--- grimoires/loa/NOTES.md (score: ")


def test_an_invalid_skill_warns_in_the_seed_scripts_words(shim):
    result = separate(shim, "--query", "authentication", "--skill", "Bad Name!")
    assert result.returncode == 0 and json.loads(result.stdout)
    assert result.stderr == "WARNING: Invalid --skill value 'Bad Name!', ignoring\n"


@pytest.mark.parametrize(
    "args",
    [
        ("--query", "-rf"),
        ("-q", "- [ ] fix login"),
        ("--query", "--force"),
        ("-q", "-"),
        ("--query", "-q"),
        ("-q", "=a=b"),
        # argparse drops a value that is `--` alone (`--query=--` parsed as no value, an
        # empty list): the query is `--`, not a traceback.
        ("-q", "--"),
        ("--query", "--"),
    ],
)
def test_a_query_value_is_taken_whatever_it_starts_with(shim, args):
    result = separate(shim, *args, "--scope", "grimoires", "--explain")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["trace"]["query"] == args[1].strip()


@pytest.mark.parametrize(
    ("flag", "value", "traced"),
    [
        ("--scope", "-x", ("refused", "Invalid scope: -x")),
        ("-s", "--all", ("refused", "Invalid scope: --all")),
        ("--skill", "-bad", ("skill", "-bad")),
        ("--budget", "-5", None),
        ("--timeout", "-1", ("timeout", 5.0)),
        ("--tiers", "-grep", None),
        ("--scope", "--", ("refused", "Invalid scope: --")),
        ("--budget", "--", None),
    ],
)
def test_other_value_flags_take_a_value_starting_with_a_dash(shim, flag, value, traced):
    result = separate(shim, "--query", "authentication", flag, value, "--explain")
    assert result.returncode == 0, result.stderr
    if traced is not None:
        key, expected = traced
        assert json.loads(result.stdout)["trace"][key] == expected


def test_a_double_dash_still_ends_the_options(shim):
    result = separate(shim, "--scope", "grimoires", "--explain", "--", "--query")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["trace"]["query"] == "--query"
