"""`--root` must name an existing folder: anything else is a usage error (exit 2), said
on stderr, never an empty answer that looks like a search."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest


def tierscope(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tierscope", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
    )


@pytest.mark.parametrize(
    "command",
    [
        ("query", "budget", "--json"),
        ("doctor",),
        ("doctor", "--json"),
        ("--root", "config", "show"),
        ("--root", "trajectory", "list"),
    ],
)
def test_a_missing_root_is_a_usage_error(tmp_path, command):
    missing = tmp_path / "nowhere"
    # The root goes after the command, or where the command takes it: before.
    if command[0] == "--root":
        args = ("--root", str(missing), *command[1:])
    else:
        args = (*command, "--root", str(missing))
    result = tierscope(*args, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stdout == ""
    assert f"--root {missing}: no such folder" in result.stderr
    assert not missing.exists()


def test_a_root_given_before_the_command_is_checked_too(tmp_path):
    result = tierscope("--root", str(tmp_path / "nowhere"), "query", "budget", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (2, "")
    assert "no such folder" in result.stderr


def test_a_file_as_root_is_a_usage_error(tmp_path):
    file = tmp_path / "notes.md"
    file.write_text("# budget\n")
    result = tierscope("query", "budget", "--root", str(file), cwd=tmp_path)
    assert (result.returncode, result.stdout) == (2, "")
    assert f"--root {file}: not a folder" in result.stderr


def test_the_workbench_refuses_a_missing_root_before_opening(tmp_path):
    result = tierscope("--root", str(tmp_path / "nowhere"), cwd=tmp_path)
    assert result.returncode == 2
    assert "no such folder" in result.stderr


def test_a_root_with_control_characters_is_echoed_escaped(tmp_path):
    result = tierscope("query", "x", "--root", str(tmp_path / "evil\x1b[2J"), cwd=tmp_path)
    assert result.returncode == 2
    assert "\x1b" not in result.stderr
    assert "evil\\x1b[2J" in result.stderr
