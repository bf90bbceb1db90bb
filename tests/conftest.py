"""Shared fixtures: small projects on disk and an isolated environment for every test."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

FAKES = Path(__file__).parent / "fakes"


@pytest.fixture(autouse=True)
def isolated_environment(tmp_path_factory, monkeypatch):
    """No test reads the developer's config, state, qmd index or store."""
    home = tmp_path_factory.mktemp("home")
    for variable in (
        "TIERSCOPE_CONFIG",
        "QMD_CONFIG_FILE",
        "LOA_AGENT_NAME",
        "TIERSCOPE_RUN_ID",
        "TIERSCOPE_STORE",
        "TIERSCOPE_GREP_ENGINE",
        "TIERSCOPE_SESSION",
    ):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local/share"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / ".local/state"))
    monkeypatch.setenv("TIERSCOPE_CONFIG_HOME", str(home / ".config/tierscope"))


@pytest.fixture
def make_project(tmp_path) -> Callable[..., Path]:
    """Write {relative path: text} under a fresh project root and return the root."""

    def make(files: dict[str, str | bytes], name: str = "repo") -> Path:
        root = tmp_path / name
        root.mkdir(parents=True, exist_ok=True)
        for relative, body in files.items():
            path = root / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(body, bytes):
                path.write_bytes(body)
            else:
                path.write_text(body, encoding="utf-8")
        return root.resolve()

    return make


@pytest.fixture
def path_without_tools(tmp_path, monkeypatch) -> Path:
    """A PATH holding only a private bin dir (plus the system dirs git/env live in),
    so no real or fake qmd/ck is found unless a test links one in."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    monkeypatch.setenv("PATH", os.pathsep.join([str(bin_dir), "/usr/bin", "/bin"]))
    return bin_dir


# qmd 2.8 adopts the nearest `.qmd/index.yml` at or above its working directory as its
# config, with the index beside it. The fake reads its files from QMD_CONFIG_DIR and
# INDEX_PATH, so this launcher finds the project-local config the same way and points
# the fake at it.
PROJECT_LOCAL_LAUNCHER = """\
#!/bin/sh
dir=$(pwd -P)
while :; do
  if [ -f "$dir/.qmd/index.yml" ]; then
    QMD_CONFIG_DIR="$dir/.qmd"
    INDEX_PATH="$dir/.qmd/index.sqlite"
    export QMD_CONFIG_DIR INDEX_PATH
    break
  fi
  [ "$dir" = / ] && break
  dir=$(dirname "$dir")
done
exec "{python}" "{fake}" "$@"
"""


@pytest.fixture
def qmd_on_path(path_without_tools, monkeypatch) -> Path:
    launcher = path_without_tools / "qmd"
    launcher.write_text(PROJECT_LOCAL_LAUNCHER.format(python=sys.executable, fake=FAKES / "qmd"))
    launcher.chmod(0o755)
    for name in ("FAKE_QMD_BEHAVIOUR", "QMD_CONFIG_DIR", "INDEX_PATH"):
        monkeypatch.delenv(name, raising=False)
    return launcher


@pytest.fixture
def argv_log(tmp_path, monkeypatch) -> Path:
    log = tmp_path / "qmd-argv.jsonl"
    monkeypatch.setenv("FAKE_QMD_ARGV_LOG", str(log))
    return log
