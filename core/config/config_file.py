"""A config file on disk, for the one writer (`ConfigDocument`): reading it within
bounds, its digest, and the edit lock held around reading, editing and replacing it."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import threading
from collections.abc import Iterator
from pathlib import Path

from .edit_errors import ConfigEditError
from .loader import read_config_bytes

UTF8_BOM = b"\xef\xbb\xbf"

_held: dict[Path, int] = {}  # directory -> how deeply this process holds its lock
_holding = threading.RLock()


def write_target(config: Path) -> Path:
    """The file that saving `config` replaces: the file itself, or the one a symbolic link
    at its path names when that lies in the link's own folder or below. A link out of its
    folder (planted to a dotfile, or to another project's settings) is never written
    through: ConfigEditError."""
    at = Path(os.path.abspath(config))
    resolved = at.resolve()
    if not resolved.is_relative_to(at.parent.resolve()):
        raise ConfigEditError(
            f"{at.name} is a symbolic link out of its folder (to {resolved});"
            " not written through it"
        )
    return resolved


@contextlib.contextmanager
def edit_lock(config: Path) -> Iterator[None]:
    """Hold the edit lock of the config file at `config` until the block ends.

    Reading the file, editing it and replacing it must happen under one lock, or two
    editors that both read the old file each save their own change and one is lost. The
    lock is an `flock` on the file's directory, because the file itself is replaced
    (a lock on it would stay with the old inode) and a lock file would litter the project.
    Re-entrant within a process, and it serialises the threads of one process too.
    """
    directory = Path(os.path.abspath(config)).parent
    with _holding:
        if directory in _held:
            _held[directory] += 1
            try:
                yield
            finally:
                _held[directory] -= 1
            return
        try:
            descriptor = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError:
            # An unreadable directory cannot be locked; the digest check still refuses
            # to overwrite a change made meanwhile.
            descriptor = None
        try:
            if descriptor is not None:
                fcntl.flock(descriptor, fcntl.LOCK_EX)
            _held[directory] = 1
            yield
        finally:
            _held.pop(directory, None)
            if descriptor is not None:
                os.close(descriptor)  # closing releases the lock


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def digest_on_disk(path: Path) -> str | None:
    """sha256 of the file as it is now; None when absent. A file that cannot be read
    within bounds has a digest no loaded document matches."""
    try:
        return sha256(read_config_bytes(path))
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"unreadable: {exc}"
