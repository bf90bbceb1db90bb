"""The project root and containment: every path tierscope searches lies inside it."""

from __future__ import annotations

import os
import stat
import sys
import zlib
from pathlib import Path


def find_root(explicit: str | None = None, cwd: Path | None = None) -> Path:
    """--root > the git top level of the cwd > the cwd (resolved)."""
    if explicit:
        return Path(explicit).expanduser().resolve()
    here = (cwd or Path.cwd()).resolve()
    top = git_toplevel(here)
    return top if top is not None else here


def root_problem(explicit: str | None) -> str | None:
    """Why an explicit `--root` cannot be a project root (None when it can): it must name
    an existing folder. A missing root would otherwise answer every query with a silent
    `[]`, and `doctor` would find nothing wrong with it."""
    if not explicit:
        return None
    try:
        info = os.stat(Path(explicit).expanduser())
    except (FileNotFoundError, NotADirectoryError):
        return f"--root {explicit}: no such folder"
    except OSError as exc:
        return f"--root {explicit}: {exc.strerror or exc}"
    if not stat.S_ISDIR(info.st_mode):
        return f"--root {explicit}: not a folder"
    return None


def git_toplevel(here: Path) -> Path | None:
    """The working tree `git rev-parse --show-toplevel` would name: the nearest folder
    holding a `.git` directory, or a `.git` file (worktrees and submodules). Found by
    looking rather than by starting git, which would cost every query a process."""
    for candidate in (here, *here.parents):
        if (candidate / ".git").exists():
            return candidate
    return None


def is_inside(path: Path, root: Path) -> bool:
    """Component-wise containment of resolved (or normalised) absolute paths: /repo-evil
    is not inside /repo. Compared as strings: Path.relative_to costs ~20 µs a call, and
    the tiers check every result."""
    inner, outer = os.fspath(path), os.fspath(root)
    if inner == outer:
        return True
    prefix = outer if outer.endswith(os.sep) else outer + os.sep
    return inner.startswith(prefix)


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


_XDG = {
    "data": ("XDG_DATA_HOME", ".local/share"),
    "state": ("XDG_STATE_HOME", ".local/state"),
    "cache": ("XDG_CACHE_HOME", ".cache"),
    "config": ("XDG_CONFIG_HOME", ".config"),
}


def user_dir(kind: str) -> Path:
    """tierscope's per-user folder of `kind` (data, state, cache, config).

    On Linux this is the XDG rule platformdirs applies, computed directly: it is on every
    query's path, and importing platformdirs (which imports `platform`) costs more than the
    query's own work on a small project. Elsewhere platformdirs decides.
    """
    if sys.platform.startswith("linux"):
        variable, fallback = _XDG[kind]
        base = os.environ.get(variable, "").strip()
        if not base or not os.path.isabs(base):
            base = os.path.join(os.path.expanduser("~"), fallback)
        return Path(base) / "tierscope"
    import platformdirs

    return Path(getattr(platformdirs, f"user_{kind}_dir")("tierscope"))


def project_key(root: Path) -> str:
    """A stable folder name for a project: its name plus 8 hex of a checksum of its path
    (two projects called `app` stay apart; a person can still tell which is which)."""
    checksum = zlib.crc32(str(root).encode("utf-8", "surrogateescape"))
    return f"{root.name or 'root'}-{checksum:08x}"


def inside_index_dir(path: Path, root: Path) -> bool:
    """True for a path inside a `.ck/` index directory below the root (a project that
    itself lives under some `.ck` folder is not affected)."""
    return ".ck" in path.relative_to(root).parts
