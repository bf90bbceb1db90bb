"""Finding a command on PATH, as `shutil.which` does, without importing shutil: every
headless query asks for rg, qmd and ck, and shutil (with the archive modules it pulls in)
costs a query more than the search of a small project."""

from __future__ import annotations

import os
import stat


def find_executable(name: str, path: str | None = None) -> str | None:
    """The first `name` on PATH (or `path`) that is a regular file we may execute."""
    search = os.environ.get("PATH", os.defpath) if path is None else path
    for directory in search.split(os.pathsep):
        candidate = os.path.join(directory or os.curdir, name)
        try:
            if stat.S_ISREG(os.stat(candidate).st_mode) and os.access(candidate, os.X_OK):
                return candidate
        except OSError:
            continue
    return None
