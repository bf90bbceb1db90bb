"""Lay the `tierscope` package out as one folder tree of links (core/ as `tierscope`, tui/
and themes/ inside it), as the wheel installs it, for tools that read packages from
folders rather than through the editable install: the type checker and the import-layer
contract. Prints the folder to put on the search path."""

from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAPPING = {"": ROOT / "core", "tui": ROOT / "tui", "themes": ROOT / "themes"}


def stage(target: Path) -> Path:
    package = target / "tierscope"
    if package.exists():
        shutil.rmtree(package)
    package.mkdir(parents=True)
    for entry in MAPPING[""].iterdir():
        if entry.name != "__pycache__":
            (package / entry.name).symlink_to(entry)
    for name, source in MAPPING.items():
        if name:
            (package / name).symlink_to(source)
    return target


if __name__ == "__main__":
    print(stage(ROOT / ".cache" / "staged"))
