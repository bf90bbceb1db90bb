"""What `pip install` ships: every package of the source tree, so an installed tierscope
imports what the checkout imports."""

from __future__ import annotations

import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FOLDERS = {"tierscope": "core", "tierscope.tui": "tui", "tierscope.themes": "themes"}


def test_every_package_folder_is_listed_in_pyproject():
    listed = set(
        tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    found = set()
    for package, folder in FOLDERS.items():
        for init in (REPO / folder).rglob("__init__.py"):
            relative = init.parent.relative_to(REPO / folder)
            if "project" in relative.parts:  # the demo project's own source, shipped as data
                continue
            found.add(".".join((package, *relative.parts)))
    assert found - listed == set()
    assert listed - found == set()
