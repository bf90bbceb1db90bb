"""The `tierscope query ...` line the workbench shows and copies (ctrl+l)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tierscope.api import QueryOptions
from tierscope.tui.command_line import command_line

ROOT = Path("/srv/harbor")
# A logged query replayed from a trajectory is untrusted: it may hold escape sequences
# and newlines, which a copied command pasted into a shell must not carry raw.
HOSTILE = "drain \x1b[2J window\nrm -rf ~ 'quoted' \\ \x07 \x9b end"


def test_a_query_with_control_characters_is_quoted_without_them():
    line = command_line(QueryOptions(text=HOSTILE), ROOT, cwd=ROOT)
    assert line.isprintable(), repr(line)
    assert line.startswith("tierscope query $'drain \\x1b[2J window\\nrm -rf ~ \\'quoted\\'")


def test_a_plain_query_is_quoted_as_before():
    line = command_line(QueryOptions(text="drain window's budget"), ROOT, cwd=ROOT)
    assert line == "tierscope query 'drain window'\"'\"'s budget' --json"


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
@pytest.mark.parametrize("text", [HOSTILE, "plain words", "it's", "tab\there", "é ünïcode"])
def test_the_shell_reads_the_query_back_exactly(text):
    line = command_line(QueryOptions(text=text), ROOT, cwd=ROOT)
    shown = line.replace("tierscope query ", "printf '%s' ", 1).removesuffix(" --json")
    read = subprocess.run(["bash", "-c", shown], capture_output=True, check=True).stdout
    assert read == text.encode("utf-8")
