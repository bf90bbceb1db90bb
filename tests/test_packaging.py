"""What `pip install` ships: every package of the source tree, so an installed tierscope
imports what the checkout imports."""

from __future__ import annotations

import subprocess
import sys
import tomllib
import zipfile
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


def test_building_the_wheel_warns_of_no_package_left_out(tmp_path):
    # The demo project's folders (`project/src/harbor`) are data shipped by package-data;
    # setuptools' include-package-data took them for packages left out and printed a
    # screenful of warnings at every `pip install`.
    built = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--quiet",
            "-w",
            str(tmp_path),
            str(REPO),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stderr
    assert "absent from the `packages` configuration" not in built.stderr
    (wheel,) = tmp_path.glob("tierscope-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "tierscope/demo/project/src/harbor/api.py" in names
