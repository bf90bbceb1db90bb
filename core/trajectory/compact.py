"""Retention for a trajectory directory: gzip old `.jsonl` files, delete old archives.

Planning only looks; applying changes files. A plan names every file with what would
happen to it and why, so `--dry-run` can print it unchanged. Today's files, files written
in the last minute and files locked by a writer are never touched.
"""

from __future__ import annotations

import fcntl
import gzip
import os
import shutil
import time
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import BinaryIO

from tierscope.config.model import TrajectorySettings

from .paths import list_logs, parse_log_name

GZIP = "gzip"
DELETE = "delete"
SKIP = "skip"
KEEP = "keep"
DONE = "done"
SKIPPED = "skipped"
FAILED = "failed"
RECENT_SECONDS = 60
_DAY = 86400.0
_COPY_BLOCK = 1 << 20
# A log is opened without following a link (one may replace it after planning).
_READ_FLAGS = os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW


@dataclass(frozen=True, slots=True)
class CompactAction:
    """What compaction does to one file (GZIP, DELETE, SKIP or KEEP) and why."""

    path: Path
    action: str
    reason: str

    @property
    def changes(self) -> bool:
        return self.action in (GZIP, DELETE)


@dataclass(frozen=True, slots=True)
class CompactPlan:
    directory: Path
    actions: tuple[CompactAction, ...]
    compression_level: int

    @property
    def changes(self) -> tuple[CompactAction, ...]:
        return tuple(action for action in self.actions if action.changes)


@dataclass(frozen=True, slots=True)
class CompactOutcome:
    """How applying one action went: DONE, SKIPPED (the file changed state since it was
    planned) or FAILED (the file system refused), with why in `message`."""

    action: CompactAction
    status: str
    message: str = ""


def plan_compaction(
    directory: Path, settings: TrajectorySettings, *, now: float | None = None
) -> CompactPlan:
    """What retention would do to each `.jsonl` / `.jsonl.gz` file directly in `directory`.

    `.jsonl` older than `retention_days` (by mtime) -> GZIP; `.jsonl.gz` older than
    `archive_days` -> DELETE; everything else KEEP or SKIP with the reason.
    """
    moment = time.time() if now is None else now
    actions: list[CompactAction] = []
    # Regular files only (list_logs): a link named like a log would have its target,
    # anywhere on the machine, archived into the log folder.
    for path in sorted(info.path for info in list_logs(directory)):
        action = _plan_one(path, settings, moment)
        if action is not None:
            actions.append(action)
    level = min(max(settings.compression_level, 1), 9)
    return CompactPlan(directory, tuple(actions), level)


def apply_compaction(plan: CompactPlan, *, now: float | None = None) -> list[CompactOutcome]:
    """Carry out the GZIP and DELETE actions of `plan`, re-checking each file first."""
    moment = time.time() if now is None else now
    outcomes = []
    for action in plan.changes:
        if action.action == GZIP:
            outcomes.append(_gzip(action, plan.compression_level, moment))
        else:
            outcomes.append(_delete(action, moment))
    return outcomes


def _plan_one(path: Path, settings: TrajectorySettings, now: float) -> CompactAction | None:
    name = path.name
    if name.endswith(".jsonl"):
        kind, limit = GZIP, settings.retention_days
    elif name.endswith(".jsonl.gz"):
        kind, limit = DELETE, settings.archive_days
    else:
        return None
    try:
        mtime = path.stat().st_mtime
    except OSError as exc:
        return CompactAction(path, SKIP, f"cannot read its age ({exc.strerror})")
    protected = _protected(path, mtime, now) or ("locked by a writer" if _locked(path) else "")
    if protected:
        return CompactAction(path, SKIP, protected)
    age = (now - mtime) / _DAY
    if age <= limit:
        days = "retention_days" if kind == GZIP else "archive_days"
        return CompactAction(path, KEEP, f"{age:.0f} days old, {days} is {limit}")
    if kind == GZIP:
        archive = path.with_name(name + ".gz")
        if archive.exists():
            return CompactAction(path, SKIP, f"{archive.name} already exists")
        return CompactAction(path, GZIP, f"{age:.0f} days old > retention_days {limit}")
    return CompactAction(path, DELETE, f"{age:.0f} days old > archive_days {limit}")


def _protected(path: Path, mtime: float, now: float) -> str:
    """Why a file must not be touched now, or ""."""
    named = parse_log_name(path.name)
    if named is not None and named.day in _todays(now):
        return "today's file"
    if now - mtime < RECENT_SECONDS:
        return "modified in the last minute"
    return ""


def _todays(now: float) -> set[date]:
    # Writers may name files by local or by UTC date; both are "today".
    return {datetime.fromtimestamp(now).date(), datetime.fromtimestamp(now, UTC).date()}


def _locked(path: Path) -> bool:
    try:
        fd = os.open(path, _READ_FLAGS)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        os.close(fd)  # also releases our test lock
    return False


def _gzip(action: CompactAction, level: int, now: float) -> CompactOutcome:
    source = action.path
    archive = source.with_name(source.name + ".gz")
    partial = source.with_name(f".{source.name}.gz.{os.getpid()}.partial")
    try:
        with os.fdopen(os.open(source, _READ_FLAGS), "rb") as reader:
            try:
                fcntl.flock(reader.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return CompactOutcome(action, SKIPPED, "locked by a writer")
            stat = os.fstat(reader.fileno())
            protected = _protected_while_locked(source, stat, now)
            if protected:
                return CompactOutcome(action, SKIPPED, protected)
            _write_archive(reader, partial, source.name, stat, level)
            # link() refuses to replace an archive that appeared meanwhile.
            os.link(partial, archive)
            # Unlinked while we hold the lock: a writer waiting on it sees the file gone
            # and reopens the path instead of writing into the archived inode.
            os.unlink(source)
    except FileExistsError:
        return CompactOutcome(action, SKIPPED, f"{archive.name} already exists")
    except FileNotFoundError:
        return CompactOutcome(action, SKIPPED, "no longer there")
    except OSError as exc:
        return CompactOutcome(action, FAILED, f"{exc.strerror or exc}")
    finally:
        partial.unlink(missing_ok=True)
    return CompactOutcome(action, DONE)


def _protected_while_locked(source: Path, stat: os.stat_result, now: float) -> str:
    protected = _protected(source, stat.st_mtime, now)
    if protected:
        return protected
    try:
        current = source.stat()
    except OSError:
        return "no longer there"
    if (current.st_dev, current.st_ino) != (stat.st_dev, stat.st_ino):
        return "replaced since planned"
    return ""


def _write_archive(
    reader: BinaryIO, partial: Path, name: str, stat: os.stat_result, level: int
) -> None:
    with open(partial, "wb") as raw:
        with gzip.GzipFile(
            filename=name, mode="wb", compresslevel=level, fileobj=raw, mtime=int(stat.st_mtime)
        ) as archive:
            shutil.copyfileobj(reader, archive, _COPY_BLOCK)
        raw.flush()
        os.fsync(raw.fileno())
    # The archive keeps the original's age, so archive_days counts from the last write.
    os.utime(partial, ns=(stat.st_atime_ns, stat.st_mtime_ns))


def _delete(action: CompactAction, now: float) -> CompactOutcome:
    try:
        protected = _protected(action.path, action.path.stat().st_mtime, now)
        if protected:
            return CompactOutcome(action, SKIPPED, protected)
        action.path.unlink()
    except FileNotFoundError:
        return CompactOutcome(action, SKIPPED, "no longer there")
    except OSError as exc:
        return CompactOutcome(action, FAILED, f"{exc.strerror or exc}")
    return CompactOutcome(action, DONE)
