"""A config built to exhaust memory or time — an alias bomb, a huge file, a FIFO — costs
one warning naming the file, and the defaults apply. Each case runs in a child process
with a memory and time limit, so a regression fails the test instead of the machine."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from tierscope.config.loader import MAX_CONFIG_BYTES

MEMORY_LIMIT = 768 << 20
TIME_LIMIT = 30


def alias_bomb(levels: int = 9, fan_out: int = 10) -> str:
    """YAML whose last anchor expands to fan_out ** levels strings."""
    lines = [f"  l0: &l0 [{', '.join(['x'] * fan_out)}]"]
    for level in range(1, levels + 1):
        refs = ", ".join([f"*l{level - 1}"] * fan_out)
        lines.append(f"  l{level}: &l{level} [{refs}]")
    return "\n".join(lines) + "\n"


def limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def tierscope(root: Path, *args: str, stdin: int | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tierscope", *args],
        capture_output=True,
        text=True,
        cwd=root,
        timeout=TIME_LIMIT,
        preexec_fn=limited,
        env={**os.environ, "PATH": "/usr/bin:/bin"},
        stdin=stdin,
    )


@pytest.fixture
def project(make_project) -> Path:
    return make_project({"grimoires/loa/NOTES.md": "# Notes\n\nThe token budget is 2000.\n"})


def test_an_alias_bomb_in_qmd_context_falls_back_to_defaults_with_one_warning(project):
    config = project / ".loa.config.yaml"
    config.write_text("qmd_context:\n  default_budget: 700\n  scopes:\n" + alias_bomb())
    result = tierscope(project, "query", "token budget", "--root", str(project), "--explain")
    assert result.returncode == 0, result.stderr[-2000:]
    assert json.loads(result.stdout)["trace"]["budget"]["limit"] == 2000
    warnings = [line for line in result.stderr.splitlines() if "alias" in line]
    assert len(warnings) == 1 and str(config) in warnings[0]
    assert "using defaults" in warnings[0]


def test_config_show_survives_an_alias_bomb_in_another_section(project):
    config = project / ".loa.config.yaml"
    text = "other_tool:\n" + alias_bomb() + "qmd_context:\n  default_budget: 700\n"
    config.write_text(text)
    result = tierscope(project, "--root", str(project), "config", "show", "--json")
    assert result.returncode == 0, result.stderr[-2000:]
    settings = json.loads(result.stdout)["settings"]
    assert settings["budget"]["value"] == 700
    assert settings["budget"]["where"] == f".loa.config.yaml:{text.count(chr(10))}"


def test_config_show_with_a_bomb_in_qmd_context_warns_and_shows_defaults(project):
    config = project / ".loa.config.yaml"
    config.write_text("qmd_context:\n  default_budget: 700\n  scopes:\n" + alias_bomb())
    result = tierscope(project, "--root", str(project), "config", "show", "--json")
    assert result.returncode == 0, result.stderr[-2000:]
    document = json.loads(result.stdout)
    assert document["settings"]["budget"]["value"] == 2000
    assert any("alias" in problem for problem in document["problems"])


def test_a_config_larger_than_the_limit_is_not_parsed(project):
    config = project / ".loa.config.yaml"
    filler = "# padding\n" * (MAX_CONFIG_BYTES // 10 + 1)
    config.write_text("qmd_context:\n  default_budget: 700\n" + filler)
    result = tierscope(project, "query", "token budget", "--root", str(project), "--explain")
    assert result.returncode == 0
    assert json.loads(result.stdout)["trace"]["budget"]["limit"] == 2000
    [warning] = [line for line in result.stderr.splitlines() if "larger than" in line]
    assert str(config) in warning and "using defaults" in warning


def test_a_fifo_as_the_config_does_not_block_the_query(project):
    os.mkfifo(project / ".tierscope.yaml")
    result = tierscope(
        project,
        "query",
        "token budget",
        "--root",
        str(project),
        "--config",
        str(project / ".tierscope.yaml"),
    )
    assert result.returncode == 0 and json.loads(result.stdout)
    assert "not a regular file" in result.stderr


def test_validate_reports_a_too_large_file_in_one_line(project):
    config = project / ".loa.config.yaml"
    config.write_text("qmd_context: {}\n" + "# padding\n" * (MAX_CONFIG_BYTES // 10 + 1))
    result = tierscope(project, "--root", str(project), "config", "validate")
    assert result.returncode == 1
    assert "larger than" in result.stdout and result.stdout.count("\n") <= 2
