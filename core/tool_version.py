"""What `<tool> --version` says, asked once per installed binary.

Asking can cost a process start of a few hundred milliseconds (qmd starts Node), so the
answer is kept on disk, keyed by the binary's real path, modification time and size: a
reinstall or upgrade asks again, every other run reads the remembered line.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from .deadline import Deadline
from .debugging import report_exception
from .file_replace import replace_file
from .process import run_bounded
from .project import user_dir

CACHE_NAME = "tool-versions.json"


def tool_version(binary: str | None, deadline: Deadline) -> str | None:
    """The first non-empty line `binary --version` prints; None for anything that is not
    an executable file, or that does not answer successfully within the deadline."""
    if not binary or not os.path.isfile(binary) or not os.access(binary, os.X_OK):
        return None
    real = os.path.realpath(binary)
    stat = os.stat(real)
    key = f"{real}:{stat.st_mtime_ns}:{stat.st_size}"
    cache = user_dir("cache") / CACHE_NAME
    known = _read(cache)
    if key in known:
        return known[key]
    result = run_bounded((binary, "--version"), deadline)
    if result.returncode is None:  # timed out, cancelled or not started: ask next time
        return None
    lines = result.stdout.decode("utf-8", "replace").splitlines()
    version = None
    if result.returncode == 0:
        version = next((line.strip()[:100] for line in lines if line.strip()), None)
    # Entries for binaries that no longer exist (upgraded, removed) are dropped on write.
    known = {k: v for k, v in known.items() if os.path.exists(k.rsplit(":", 2)[0])}
    known[key] = version
    _write(cache, known)
    return version


def _read(cache: Path) -> dict[str, str | None]:
    try:
        data = json.loads(cache.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError):
        report_exception(f"cannot read the tool version cache {cache}; asking again")
        return {}
    return data if isinstance(data, dict) else {}


def _write(cache: Path, known: dict[str, str | None]) -> None:
    """Atomic replace, so a parallel reader sees the old file or the new, never half."""
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        replace_file(cache, json.dumps(known).encode("utf-8"))
    except OSError:
        report_exception(f"cannot write the tool version cache {cache}")
