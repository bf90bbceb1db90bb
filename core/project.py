"""The project root and containment: every path tierscope searches lies inside it."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path


def find_root(explicit: str | None = None, cwd: Path | None = None) -> Path:
    """--root > `git rev-parse --show-toplevel` of the cwd > the cwd (resolved)."""
    if explicit:
        return Path(explicit).expanduser().resolve()
    here = (cwd or Path.cwd()).resolve()
    top = _git_toplevel(here)
    return top if top is not None else here


def _git_toplevel(here: Path) -> Path | None:
    # Walk up for .git first: spawning git costs ~2 ms but a missing git costs nothing.
    for candidate in (here, *here.parents):
        if (candidate / ".git").exists():
            break
    else:
        return None
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--show-toplevel"],
            cwd=here,
            capture_output=True,
            text=True,
            timeout=2,
            env={**os.environ, "GIT_OPTIONAL_LOCKS": "0"},
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if out.returncode != 0 or not out.stdout.strip():
        return None
    return Path(out.stdout.strip()).resolve()


def is_inside(path: Path, root: Path) -> bool:
    """Component-wise containment of resolved paths: /repo-evil is not inside /repo."""
    try:
        path.relative_to(root)
    except ValueError:
        return False
    return True


def contain(raw: str, root: Path) -> tuple[Path | None, str]:
    """Resolve a root-relative config path (symlinks followed) and check it stays inside.

    Returns (path, "") when usable, else (None, reason).
    """
    candidate = Path(raw).expanduser()
    if not candidate.is_absolute():
        candidate = root / candidate
    resolved = candidate.resolve()
    if not is_inside(resolved, root):
        return None, f"{raw}: outside the project root ({resolved})"
    return resolved, ""


def relative_source(path: Path, root: Path) -> str:
    """Root-relative POSIX path for display and for Hit.source."""
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()
