"""Append trajectory records so that parallel processes never interleave and a failing
disk never fails a query.

The log path lies inside the project tree, which is untrusted (DESIGN §7): a symlink
planted there must not redirect our writes, and a FIFO must not block the query. So the
file is opened without following a link, without blocking, and used only when it is a
regular file.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import stat
from pathlib import Path

_OPEN_FLAGS = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW | os.O_NONBLOCK
_REOPEN_ATTEMPTS = 3


def append_records(path: Path, records: list[dict]) -> str | None:
    """Append each record to `path` as one JSON line.

    Every line goes out in a single `write()` on an `O_APPEND` descriptor while an exclusive
    `flock` is held, so lines from parallel processes never interleave. Parent folders are
    created. Values JSON cannot represent natively are written as their `str()`.

    Never raises for a failing file system (read-only, missing, full) or an unserialisable
    record: returns a one-line warning instead, and None when every record was written.
    """
    lines: list[bytes] = []
    problems: list[str] = []
    for number, record in enumerate(records, start=1):
        try:
            # The stdlib encoder: a query writes two small lines, and importing orjson
            # (which imports json, uuid and platform) costs more than encoding them.
            text = json.dumps(record, default=str, ensure_ascii=False, separators=(",", ":"))
            lines.append(text.encode("utf-8") + b"\n")
        except (TypeError, ValueError) as exc:
            problems.append(f"record {number} not serialisable ({exc})")
    if lines:
        try:
            _append_lines(path, lines)
        except OSError as exc:
            problems.insert(0, f"cannot write {path}: {_why(path, exc)}")
    if not problems:
        return None
    return "; ".join(problems)


def _why(path: Path, exc: OSError) -> str:
    """A one-line reason for a failed append, naming what is in the way."""
    if exc.errno == errno.ELOOP:
        return f"{path.name} is a symbolic link; not followed"
    if exc.errno == errno.ENXIO:
        return f"{path.name} is a FIFO, not a regular file"
    if exc.errno in (errno.EEXIST, errno.ENOTDIR):
        for parent in (path.parent, *path.parent.parents):
            if parent.exists() and not parent.is_dir():
                return f"{parent} is a file, not a directory"
    return exc.strerror or str(exc)


def _append_lines(path: Path, lines: list[bytes]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = _open_locked(path)
    try:
        whole = os.fstat(fd).st_size
        try:
            # A writer that died mid-line leaves a partial last line; end it first so our
            # first record does not get glued onto it and lost with it.
            if _ends_without_newline(path, fd):
                write_fully(fd, b"\n")
                whole += 1
            for line in lines:
                write_fully(fd, line)
                whole += len(line)
        except OSError:
            # A full disk can take part of a line: cut it off, so the file holds only the
            # whole lines (a reader would flag a cut line as malformed forever).
            os.ftruncate(fd, whole)
            raise
    finally:
        os.close(fd)  # closing releases the lock


def _open_locked(path: Path) -> int:
    """An O_APPEND descriptor of `path`, exclusively locked, still linked at `path`.

    Compaction may gzip and unlink a file while we wait for its lock; writing to the old
    inode would lose the lines, so reopen when the path no longer leads to it.
    """
    for _attempt in range(_REOPEN_ATTEMPTS):
        fd = os.open(path, _OPEN_FLAGS, 0o644)
        try:
            kind = os.fstat(fd).st_mode
            if not stat.S_ISREG(kind):
                what = "a FIFO" if stat.S_ISFIFO(kind) else "a device or socket"
                raise OSError(errno.EINVAL, f"{path.name} is {what}, not a regular file")
            fcntl.flock(fd, fcntl.LOCK_EX)
            if _still_at(path, fd):
                return fd
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)
    raise OSError(f"{path} kept being replaced while waiting for its lock")


def _still_at(path: Path, fd: int) -> bool:
    opened = os.fstat(fd)
    if opened.st_nlink == 0:
        return False
    try:
        current = os.stat(path)
    except FileNotFoundError:
        return False
    return (current.st_dev, current.st_ino) == (opened.st_dev, opened.st_ino)


def _ends_without_newline(path: Path, fd: int) -> bool:
    size = os.fstat(fd).st_size
    if size == 0:
        return False
    # The append descriptor is write-only; the lock we hold keeps `path` on the same inode.
    try:
        reader = os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        if not _same_file(os.fstat(reader), os.fstat(fd)):
            return False
        return os.pread(reader, 1, size - 1) != b"\n"
    except OSError:
        return False
    finally:
        os.close(reader)


def _same_file(first: os.stat_result, second: os.stat_result) -> bool:
    return (first.st_dev, first.st_ino) == (second.st_dev, second.st_ino)


def write_fully(fd: int, data: bytes) -> None:
    """Write all of `data` to `fd` (a short write is continued)."""
    # A regular file takes the whole line in one write; the loop only guards the rare
    # short write (signal, nearly full disk), and the lock keeps it contiguous anyway.
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]
