"""The bundled demo project: "harbor", a small service that schedules container
deployments, laid out the Loa way (grimoires, skills, config, trajectories).

`tierscope demo`, the README's examples and the screenshots all run against a fresh
copy made by `materialise`, never against the packaged files themselves.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from datetime import date
from pathlib import Path

TRAJECTORY_DIR = Path("grimoires/loa/a2a/trajectory")
_TRAJECTORY_NAME = re.compile(r"^(?P<agent>.+)-(?P<day>\d{4}-\d{2}-\d{2})\.jsonl$")


def demo_source() -> Path:
    """The packaged demo project folder (read-only in spirit: copy it before use)."""
    return Path(__file__).resolve().parent / "project"


def materialise(dest: Path, *, today: date | None = None) -> Path:
    """Copy the demo project into `dest` and return the project path.

    `dest` is created if missing; an existing non-empty directory (or a file) is refused
    with a ValueError, so nothing of the user's is ever overwritten. The copy gets
    `git init` when git is available, so root discovery finds it from any subfolder;
    without git it still works with `--root`.

    Trajectory files keep their dates, except the newest one, which is renamed to
    `today` (default: the current date) so that today's view has content. Only the file
    name changes; the records inside keep their original timestamps.
    """
    dest = Path(dest).expanduser()
    _refuse_unless_empty(dest)
    dest.mkdir(parents=True, exist_ok=True)
    shutil.copytree(
        demo_source(),
        dest,
        dirs_exist_ok=True,
        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"),
    )
    _move_newest_trajectory_to(dest / TRAJECTORY_DIR, today or date.today())
    _git_init(dest)
    return dest.resolve()


def _refuse_unless_empty(dest: Path) -> None:
    if not dest.exists():
        return
    if not dest.is_dir():
        raise ValueError(f"{dest} exists and is not a directory; choose a new or empty folder")
    if any(dest.iterdir()):
        raise ValueError(f"{dest} is not empty; choose a new or empty folder for the demo")


def _move_newest_trajectory_to(folder: Path, today: date) -> None:
    dated = [
        (match["day"], match["agent"], path)
        for path in folder.glob("*.jsonl")
        if (match := _TRAJECTORY_NAME.match(path.name))
    ]
    if not dated:
        return
    _, agent, newest = max(dated)
    target = folder / f"{agent}-{today.isoformat()}.jsonl"
    if not target.exists():
        newest.rename(target)


def _git_init(dest: Path) -> None:
    git = shutil.which("git")
    if git is None:
        return
    # A failed init only costs automatic root discovery; the demo itself still works.
    try:
        subprocess.run([git, "init", "-q"], cwd=dest, capture_output=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return
