"""Where trajectory logs live and what each file is called."""

from __future__ import annotations

import os
import re
import stat
import time
from dataclasses import dataclass
from pathlib import Path
from stat import S_ISREG

from tierscope.config.model import Config
from tierscope.project import contain, is_inside, project_key, user_dir

# `datetime` is imported where a day is parsed, not by every query (~1 ms).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from datetime import date

DEFAULT_AGENT = "tierscope"
LOA_TRAJECTORY_DIR = Path("grimoires/loa/a2a/trajectory")
LOG_SUFFIXES = (".jsonl", ".jsonl.gz")

_UNSAFE_AGENT_CHARS = re.compile(r"[^a-z0-9_-]+")
_LOG_NAME = re.compile(r"^(?P<agent>.+)-(?P<day>\d{4}-\d{2}-\d{2})\.jsonl(?P<gz>\.gz)?$")


def default_dir(root: Path, config: Config) -> Path:
    """The trajectory directory of a project.

    `trajectory.dir` from config (relative to the root) when set and inside the root; else
    `grimoires/loa/a2a/trajectory/` when `<root>/grimoires/loa/` exists; else a per-project
    folder under the user state dir, named after the root so two projects never share one.
    A path that leads out of the root (absolute, `..`, or through a symbolic link) is never
    used: the project's config does not choose where on the machine tierscope writes
    (`config validate` and `doctor` report it).
    """
    configured = config.trajectory.dir.strip()
    if configured and contain(configured, root.resolve())[0] is not None:
        path = Path(configured).expanduser()
        return path if path.is_absolute() else root / path
    loa = root / LOA_TRAJECTORY_DIR
    if (root / "grimoires" / "loa").is_dir() and is_inside(loa.resolve(), root.resolve()):
        return loa
    return user_dir("state") / "projects" / project_key(root) / "trajectory"


def log_file(directory: Path, agent: str, day: date) -> Path:
    """`<directory>/<agent>-<YYYY-MM-DD>.jsonl`."""
    return directory / f"{agent}-{day.isoformat()}.jsonl"


def todays_log_file(directory: Path, agent: str) -> Path:
    """`log_file` for today's (local) date."""
    return directory / f"{agent}-{time.strftime('%Y-%m-%d')}.jsonl"


def agent_name(skill: str | None) -> str:
    """The agent a query is logged under: the skill, else $LOA_AGENT_NAME, else "tierscope".

    Names are lower-cased and reduced to [a-z0-9-] so they are safe in a file name, and
    `_` becomes `-` because `review_sprint` and `review-sprint` are the same skill (one log,
    one agent in every view); a name with nothing left falls through to the next candidate.
    """
    for candidate in (skill, os.environ.get("LOA_AGENT_NAME")):
        cleaned = _sanitise(candidate or "")
        if cleaned:
            return cleaned
    return DEFAULT_AGENT


def _sanitise(name: str) -> str:
    return _UNSAFE_AGENT_CHARS.sub("-", name.strip().lower().replace("_", "-")).strip("-")


@dataclass(frozen=True, slots=True)
class LogName:
    """What a trajectory file name says about its content."""

    agent: str
    day: date
    compressed: bool


def parse_log_name(name: str) -> LogName | None:
    """`implement-2026-11-23.jsonl(.gz)` -> LogName; None for any other name."""
    match = _LOG_NAME.match(name)
    if match is None:
        return None
    from datetime import date

    try:
        day = date.fromisoformat(match["day"])
    except ValueError:
        return None
    return LogName(match["agent"], day, match["gz"] is not None)


def is_log_file(path: Path) -> bool:
    """A `.jsonl` or `.jsonl.gz` file, by name."""
    return path.name.endswith(LOG_SUFFIXES)


@dataclass(frozen=True, slots=True)
class LogFileInfo:
    """One trajectory file as a directory listing shows it. `agent` is "" and `day` None
    for a JSONL file whose name does not follow `<agent>-<YYYY-MM-DD>.jsonl`."""

    path: Path
    agent: str
    day: date | None
    size: int
    mtime: float
    compressed: bool


def directory_problem(directory: Path) -> str | None:
    """Why `directory` cannot hold logs although something is in its place (a file, a
    FIFO, a file where a parent folder should be); None when it is a directory or absent."""
    for path in (*reversed(directory.parents), directory):
        try:
            mode = path.stat().st_mode
        except FileNotFoundError:
            return None
        except OSError as exc:
            return f"{path}: {exc.strerror or exc}"
        if not stat.S_ISDIR(mode):
            if stat.S_ISREG(mode):
                kind = "a file"
            else:
                kind = "a FIFO" if stat.S_ISFIFO(mode) else "a device or socket"
            return f"{path} is {kind}, not a directory"
    return None


def list_logs(directory: Path) -> list[LogFileInfo]:
    """The `.jsonl` and `.jsonl.gz` files directly in `directory` (regular files, never a
    link), newest day first, then by agent; [] when the directory does not exist or cannot
    be read."""
    try:
        candidates = [path for path in directory.iterdir() if is_log_file(path)]
    except OSError:
        return []
    found: list[LogFileInfo] = []
    for path in candidates:
        try:
            stat = path.lstat()
        except OSError:
            continue  # removed (or compacted) while listing
        if not S_ISREG(stat.st_mode):
            continue  # a folder, a FIFO, or a link (to a file anywhere on the machine)
        name = parse_log_name(path.name)
        found.append(
            LogFileInfo(
                path=path,
                agent=name.agent if name else "",
                day=name.day if name else None,
                size=stat.st_size,
                mtime=stat.st_mtime,
                compressed=path.name.endswith(".gz"),
            )
        )
    from datetime import date

    found.sort(key=lambda info: (info.agent, info.path.name))
    found.sort(key=lambda info: info.day or date.fromtimestamp(info.mtime), reverse=True)
    return found
