"""Replacing a file whole, atomically: a reader sees the old file or the new one, never
half of either, and a crash leaves the old file (or none) in place. Every file tierscope
writes whole goes through `replace_file` (the config, the tool version and dataclass code
caches, the workbench's preferences and saved copies), and a file that must not exist yet
(the config `tierscope init` writes) through `create_file`."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

_TEMPORARY_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


def replace_file(
    target: str | os.PathLike[str],
    data: bytes,
    *,
    new_file_mode: int = 0o666,
    refuse_read_only: bool = False,
) -> None:
    """Write `data` to `target` through a temporary file in the same directory (created
    exclusively, never through a symbolic link), fsync it, rename it over `target`, and
    fsync the directory. A file replaced keeps its mode; a new file gets `new_file_mode`
    minus the umask. With `refuse_read_only`, a read-only `target` raises PermissionError
    (see `refuse_if_read_only`) and is left as it is. Raises OSError when the write
    fails; the temporary file never outlives a failure."""
    target = Path(target)
    if refuse_read_only:
        refuse_if_read_only(target)
    try:
        mode: int | None = stat.S_IMODE(target.stat().st_mode)
    except FileNotFoundError:
        mode = None
    temporary = _temporary_beside(target)
    try:
        # An existing file's exact mode is set after the write; until then nobody else
        # may read the temporary file.
        _write_new(temporary, data, new_file_mode if mode is None else 0o600, then_mode=mode)
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    fsync_directory(target.parent)


# A file system without hard links answers link() with one of these.
_NO_HARD_LINKS = frozenset(
    code
    for code in (errno.EPERM, getattr(errno, "ENOTSUP", None), getattr(errno, "EOPNOTSUPP", None))
    if code is not None
)


def create_file(target: str | os.PathLike[str], data: bytes, *, new_file_mode: int = 0o666) -> None:
    """Write `data` as a new file at `target`, atomically (a temporary file, fsync, hard
    link), never replacing what is there: a file, a directory or a symbolic link at the
    path (dangling or not) raises FileExistsError, and nothing is written through a link.
    On a file system without hard links the file is created exclusively and written in
    place: never replacing or following anything, but a reader may see it half written."""
    target = Path(target)
    temporary = _temporary_beside(target)
    try:
        _write_new(temporary, data, new_file_mode)
        try:
            # link() never follows a link at the target and fails when anything is there;
            # a rename would replace it.
            os.link(temporary, target, follow_symlinks=False)
        except OSError as exc:
            if exc.errno not in _NO_HARD_LINKS:
                raise
            _write_new(target, data, new_file_mode)
    finally:
        temporary.unlink(missing_ok=True)
    fsync_directory(target.parent)


def _temporary_beside(target: Path) -> Path:
    return target.with_name(f".{target.name}.{os.urandom(6).hex()}.tmp")


def _write_new(path: Path, data: bytes, mode: int, *, then_mode: int | None = None) -> None:
    """Create `path` (exclusively, never through a symbolic link) with `data`, flushed to
    disk; `then_mode` is set after the write when given. Nothing at `path` is touched when
    it cannot be created; a file this call created is removed when its write fails."""
    descriptor = os.open(path, _TEMPORARY_FLAGS, mode)
    try:
        with os.fdopen(descriptor, "wb") as out:
            out.write(data)
            out.flush()
            if then_mode is not None:
                os.fchmod(out.fileno(), then_mode)
            os.fsync(out.fileno())
    except BaseException:
        path.unlink(missing_ok=True)
        raise


def refuse_if_read_only(target: Path) -> None:
    """Raise PermissionError when `target` is read-only: its mode grants nobody write
    access (even root: the owner marked it so), or this process may not write it. A
    rename would replace such a file regardless, since only the directory is checked."""
    try:
        mode = target.stat().st_mode
    except FileNotFoundError:
        return
    effective = os.access in os.supports_effective_ids
    if not mode & 0o222 or not os.access(target, os.W_OK, effective_ids=effective):
        raise PermissionError(
            errno.EACCES,
            f"{target.name} is read-only (mode {stat.S_IMODE(mode):04o}); not replaced",
        )


def fsync_directory(directory: Path) -> None:
    """Make a rename durable; not every platform can open a directory."""
    try:
        descriptor = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)
