"""Paths as a person wants to read them in a narrow column."""

from __future__ import annotations

from pathlib import Path


def short_path(path: str | Path | None, root: Path | None = None) -> str:
    """Root-relative when inside `root`, `~/…` when inside the home folder, else as is;
    "-" for no path."""
    if path is None or str(path) == "":
        return "-"
    path = Path(path)
    if root is not None:
        try:
            return path.relative_to(root).as_posix() or "."
        except ValueError:
            pass
    try:
        return f"~/{path.relative_to(Path.home()).as_posix()}"
    except (ValueError, RuntimeError):
        return str(path)
