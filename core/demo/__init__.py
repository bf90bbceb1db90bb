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
    with a ValueError, so nothing of the user's is ever overwritten. When git is available
    the copy becomes a repository with one commit (logs and indexes ignored), so root
    discovery finds it from any subfolder and `git diff` shows the user's own changes;
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


# What a session writes into the demo (logs, the project-local qmd index, a ck index) is
# not part of the project: `git diff` then shows only what the user changed.
_DEMO_GITIGNORE = "grimoires/loa/a2a/trajectory/\n.qmd/\n.ck/\n"


def _git_init(dest: Path) -> None:
    """Make the copy a git repository with everything committed, so root discovery works
    from any subfolder and `git diff` shows exactly what the user changed since."""
    git = shutil.which("git")
    if git is None:
        return
    (dest / ".gitignore").write_text(_DEMO_GITIGNORE, encoding="utf-8")
    identity = ["-c", "user.name=tierscope demo", "-c", "user.email=demo@tierscope.invalid"]
    steps = (
        [git, "init", "-q"],
        [git, "add", "-A"],
        [git, *identity, "commit", "-q", "--no-gpg-sign", "-m", "tierscope demo project"],
    )
    # A failed step only costs automatic root discovery or a clean diff; the demo works.
    for argv in steps:
        try:
            done = subprocess.run(argv, cwd=dest, capture_output=True, timeout=20, check=False)
        except (OSError, subprocess.SubprocessError):
            return
        if done.returncode != 0:
            return
