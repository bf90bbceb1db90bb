"""The user cache files tierscope keeps as marshal data (the dataclass code cache, the
parsed config cache): where they live, and reading one within bounds. A missing, broken,
oversized or planted file reads as empty and costs only the work it would have saved."""

from __future__ import annotations

import marshal
import os
import sys

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


def data_cache_path(name: str) -> str | None:
    """`cache_path(name)` for a cache of data (parsed configs, qmd's vocabulary), or None
    when caching is off: Python told not to write bytecode, or TIERSCOPE_NO_CODE_CACHE."""
    if sys.flags.dont_write_bytecode or os.environ.get("TIERSCOPE_NO_CODE_CACHE"):
        return None
    return cache_path(name)


def keep_entry(path: str, key: object, value: object, most: int, what: str) -> None:
    """Put `key: value` last in the dict marshalled at `path`, dropping the oldest entries
    past `most`, and write it whole; a failure is reported and otherwise silent (the work
    is done again next time). `what` names the cache in the report."""
    from .file_replace import replace_file

    entries = load_dict(path, what)
    entries.pop(key, None)
    entries[key] = value
    while len(entries) > most:
        del entries[next(iter(entries))]
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        replace_file(path, marshal.dumps(entries), new_file_mode=0o600)
    except (OSError, ValueError):
        report_exception(f"cannot write the {what} {path}")


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
