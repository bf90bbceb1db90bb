"""The user cache files tierscope keeps as marshal data (the dataclass code cache, the
parsed config cache): where they live, and reading one within bounds. A missing, broken,
oversized or planted file reads as empty and costs only the work it would have saved."""

from __future__ import annotations

import marshal
import os

from .debugging import report_exception

FILE_LIMIT = 4 * 1024 * 1024  # a cache larger than this is ignored, and rewritten
_OPEN_FLAGS = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | os.O_CLOEXEC


def cache_path(name: str) -> str:
    """`<$XDG_CACHE_HOME or ~/.cache>/tierscope/<name>` (a relative XDG_CACHE_HOME is
    ignored, as the XDG spec says)."""
    base = os.environ.get("XDG_CACHE_HOME", "").strip()
    if not base or not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "tierscope", name)


def load_dict(path: str, what: str) -> dict:
    """The dict marshalled at `path` (never through a symlink, at most FILE_LIMIT bytes),
    else {}. `what` names the cache in a debugging report."""
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except FileNotFoundError:
        return {}
    except OSError:
        report_exception(f"cannot open the {what} {path}")
        return {}
    try:
        if os.fstat(fd).st_size > FILE_LIMIT:
            return {}
        with os.fdopen(fd, "rb", closefd=False) as handle:
            # Read whole, then parsed: `marshal.load` would read a file object a piece
            # at a time, some milliseconds for a cache of many small values.
            loaded = marshal.loads(handle.read(FILE_LIMIT + 1))
    except (OSError, EOFError, ValueError, TypeError):
        report_exception(f"cannot read the {what} {path}; doing the work as usual")
        return {}
    finally:
        os.close(fd)
    return loaded if isinstance(loaded, dict) else {}
