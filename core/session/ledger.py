"""A session's file, `<trajectory dir>/sessions/<id>.jsonl`: one JSON line per answered
query and per clearing, each carrying the session's running totals.

The file lies in the project's log directory, which is untrusted (DESIGN §7): the
`sessions` folder and the file are opened without following a link, the file without
blocking and only when it is a regular file. One process at a time holds the file's lock
from reading what the session has received to writing what it is sent now, so two
processes answering in one session never both send a section as new. Reads are bounded:
a query reads backwards only to the last clearing, and never more than
MAX_SEGMENT_BYTES.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import stat
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ..trajectory.writer import write_fully
from .names import is_session_id

SESSIONS_DIR = "sessions"
SUFFIX = ".jsonl"
QUERY = "query"
CLEARING = "clearing"
# A query reads at most this much of its session, newest first: about a thousand queries
# without a clearing. Sections sent before that are forgotten (and may be sent again).
MAX_SEGMENT_BYTES = 4 << 20
# `session show` reads at most this much of one session, its newest lines.
MAX_LEDGER_BYTES = 64 << 20
_CHUNK = 64 << 10
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC | os.O_NOFOLLOW
_FILE_FLAGS = os.O_CLOEXEC | os.O_NOFOLLOW | os.O_NONBLOCK
_REOPEN_ATTEMPTS = 3


class SessionUnavailable(Exception):
    """The session's file cannot be used; the message says why, in one line."""


@dataclass(frozen=True, slots=True)
class Segment:
    """What a session holds since its last clearing: the query records, oldest first;
    the newest record of all (a query or the clearing itself, for the running totals);
    and whether MAX_SEGMENT_BYTES stopped the reading before the clearing was found."""

    records: tuple[dict, ...] = ()
    last: dict | None = None
    clipped: bool = False


@dataclass(frozen=True, slots=True)
class SessionFile:
    """One session's ledger file."""

    session: str
    path: Path
    size: int
    mtime: float
    last: dict | None = field(default=None, compare=False)


def sessions_dir(log_dir: Path) -> Path:
    return log_dir / SESSIONS_DIR


@contextlib.contextmanager
def locked_ledger(
    log_dir: Path, session: str, wait: float, cancelled: Callable[[], bool] = lambda: False
) -> Iterator[int]:
    """A read-write, append-only descriptor of the session's file (created with its folder
    when missing), exclusively locked. Waits at most `wait` seconds for another process's
    turn, less when `cancelled()` turns true. Raises SessionUnavailable."""
    fd = _open_locked(log_dir, session, wait, cancelled)
    try:
        yield fd
    finally:
        os.close(fd)  # closing releases the lock


def _open_locked(log_dir: Path, session: str, wait: float, cancelled: Callable[[], bool]) -> int:
    deadline = time.monotonic() + max(wait, 0.0)
    for _attempt in range(_REOPEN_ATTEMPTS):
        fd = _open_file(log_dir, session, os.O_RDWR | os.O_APPEND | os.O_CREAT, create=True)
        try:
            _lock(fd, deadline, cancelled)
            # A file unlinked while we waited (removed by hand) would swallow our line.
            if os.fstat(fd).st_nlink > 0:
                return fd
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)
    raise SessionUnavailable(f"session {session}: its file kept being removed")


def _lock(fd: int, deadline: float, cancelled: Callable[[], bool]) -> None:
    pause = 0.002
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            pass
        now = time.monotonic()
        if now >= deadline or cancelled():
            raise SessionUnavailable("another process kept the session locked past the timeout")
        time.sleep(min(pause, deadline - now))
        pause = min(pause * 2, 0.05)


def _open_file(log_dir: Path, session: str, mode: int, *, create: bool) -> int:
    if not is_session_id(session):
        raise SessionUnavailable("not a valid session id")  # callers check first; never a path
    name = session + SUFFIX
    folder = _open_dir(log_dir, create=create)
    try:
        fd = os.open(name, mode | _FILE_FLAGS, 0o644, dir_fd=folder)
    except OSError as exc:
        raise SessionUnavailable(_why(name, exc)) from None
    finally:
        os.close(folder)
    kind = os.fstat(fd).st_mode
    if not stat.S_ISREG(kind):
        os.close(fd)
        raise SessionUnavailable(f"{SESSIONS_DIR}/{name} is not a regular file")
    return fd


def _open_dir(log_dir: Path, *, create: bool) -> int:
    try:
        if create:
            log_dir.mkdir(parents=True, exist_ok=True)
        parent = os.open(log_dir, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as exc:
        raise SessionUnavailable(f"cannot use {log_dir}: {exc.strerror or exc}") from None
    try:
        try:
            return os.open(SESSIONS_DIR, _DIR_FLAGS, dir_fd=parent)
        except FileNotFoundError:
            if not create:
                raise SessionUnavailable("no sessions yet") from None
            with contextlib.suppress(FileExistsError):
                os.mkdir(SESSIONS_DIR, 0o755, dir_fd=parent)
            return os.open(SESSIONS_DIR, _DIR_FLAGS, dir_fd=parent)
    except SessionUnavailable:
        raise
    except OSError as exc:
        raise SessionUnavailable(_why(SESSIONS_DIR, exc, folder=True)) from None
    finally:
        os.close(parent)


def _why(name: str, exc: OSError, *, folder: bool = False) -> str:
    if exc.errno == errno.ELOOP or (folder and exc.errno == errno.ENOTDIR):
        what = "a symbolic link or not a directory" if folder else "a symbolic link"
        return f"{name} is {what}; not followed"
    if exc.errno == errno.ENXIO:
        return f"{name} is a FIFO, not a regular file"
    if exc.errno == errno.ENOENT:
        return f"no session file {name}"
    return f"cannot open {name}: {exc.strerror or exc}"


def read_segment(fd: int, limit: int = MAX_SEGMENT_BYTES) -> Segment:
    """The session's records since its last clearing, read backwards from the end of the
    file and at most `limit` bytes of it. A line cut short (a writer that died mid-line)
    and lines that are not JSON objects are passed over."""
    records: list[dict] = []
    last: dict | None = None
    for record in _backwards(fd, limit):
        if last is None:
            last = record
        if record.get("kind") == CLEARING:
            return Segment(tuple(reversed(records)), last)
        if record.get("kind") == QUERY:
            records.append(record)
    size = os.fstat(fd).st_size
    return Segment(tuple(reversed(records)), last, clipped=size > limit)


def _backwards(fd: int, limit: int) -> Iterator[dict]:
    """The whole lines of `fd`, newest first, parsed, within the last `limit` bytes."""
    end = os.fstat(fd).st_size
    stop = max(0, end - limit)
    if end and os.pread(fd, 1, end - 1) != b"\n":
        # Drop a partial last line: back to the newline before it.
        end = _line_start(fd, end, stop)
    carry = b""
    while end > stop:
        start = max(stop, end - _CHUNK)
        data = os.pread(fd, end - start, start) + carry
        lines = data.split(b"\n")
        # The first piece may begin mid-line unless the chunk starts a line.
        at_line_start = start == 0 or os.pread(fd, 1, start - 1) == b"\n"
        carry = b"" if at_line_start else lines.pop(0)
        for line in reversed(lines):
            record = _parse(line)
            if record is not None:
                yield record
        end = start


def _line_start(fd: int, end: int, stop: int) -> int:
    """Where the line holding byte `end - 1` starts (not before `stop`)."""
    position = end
    while position > stop:
        start = max(stop, position - _CHUNK)
        data = os.pread(fd, position - start, start)
        found = data.rfind(b"\n")
        if found >= 0:
            return start + found + 1
        position = start
    return stop


def _parse(line: bytes) -> dict | None:
    if not line.strip():
        return None
    try:
        value = json.loads(line)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def append_record(fd: int, record: dict) -> None:
    """Append `record` as one line (the lock is held). A partial last line left by a
    writer that died is ended first; a write cut short by a full disk is cut off, so the
    file holds only whole lines. Raises OSError."""
    line = json.dumps(record, ensure_ascii=False, separators=(",", ":"), default=str)
    data = line.encode("utf-8", "surrogatepass") + b"\n"
    size = os.fstat(fd).st_size
    if size and os.pread(fd, 1, size - 1) != b"\n":
        data = b"\n" + data
    try:
        write_fully(fd, data)
    except OSError:
        os.ftruncate(fd, size)
        raise


def newest_record(fd: int) -> dict | None:
    """The newest whole record of an open session file (its running totals)."""
    return next(_backwards(fd, _CHUNK * 4), None)


def read_last(log_dir: Path, session: str) -> dict | None:
    """The newest record of a session, without the lock; None when the session has none
    yet or its file cannot be read."""
    try:
        fd = _open_file(log_dir, session, os.O_RDONLY, create=False)
    except SessionUnavailable:
        return None
    try:
        return newest_record(fd)
    except OSError:
        return None
    finally:
        os.close(fd)


def peek_segment(log_dir: Path, session: str) -> Segment:
    """`read_segment` without the lock, for a look (the workbench's preview); an empty
    segment when the session has no file or it cannot be read."""
    try:
        fd = _open_file(log_dir, session, os.O_RDONLY, create=False)
    except SessionUnavailable:
        return Segment()
    try:
        return read_segment(fd)
    except OSError:
        return Segment()
    finally:
        os.close(fd)


def read_records(log_dir: Path, session: str) -> tuple[list[dict], bool]:
    """Every record of a session, oldest first, and whether the file was longer than
    MAX_LEDGER_BYTES (then only its newest records). Raises SessionUnavailable."""
    fd = _open_file(log_dir, session, os.O_RDONLY, create=False)
    try:
        records = list(_backwards(fd, MAX_LEDGER_BYTES))
        clipped = os.fstat(fd).st_size > MAX_LEDGER_BYTES
    except OSError as exc:
        raise SessionUnavailable(f"cannot read session {session}: {exc.strerror}") from None
    finally:
        os.close(fd)
    records.reverse()
    return records, clipped


def list_sessions(log_dir: Path, *, totals: bool = True) -> list[SessionFile]:
    """The sessions of a log directory, most recent first, with their newest record
    (their running totals) unless `totals` is False."""
    try:
        folder = _open_dir(log_dir, create=False)
    except SessionUnavailable:
        return []
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    finally:
        os.close(folder)
    found: list[SessionFile] = []
    for name in names:
        session = name.removesuffix(SUFFIX)
        if session == name or not is_session_id(session):
            continue
        path = sessions_dir(log_dir) / name
        try:
            info = path.lstat()
        except OSError:
            continue
        if not stat.S_ISREG(info.st_mode):
            continue
        last = read_last(log_dir, session) if totals else None
        found.append(SessionFile(session, path, info.st_size, info.st_mtime, last))
    found.sort(key=lambda one: (-one.mtime, one.session))
    return found
