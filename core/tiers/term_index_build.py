"""Building the term index (term_index.py): every file any scope's grep tier can search,
listed the way the counting run selects them, read once and its tokens counted."""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from ..config.model import Config
from ..files import BinaryFile, Unreadable, read_text_file
from ..models import ResolvedScope
from ..process import run_bounded
from ..project import relative_source
from .base import Deadline
from .cached_listing import record_listing, watched_paths
from .grep import find_ripgrep
from .term_index import (
    BINARY,
    NEVER,
    NOT_READ,
    RACY_NS,
    TEXT,
    IndexedFile,
    Postings,
    TermIndex,
    count_tokens,
    index_path,
    stat_key,
    write_index,
)


@dataclass(frozen=True)
class BuiltIndex:
    """What `build_term_index` did."""

    path: str
    files: int
    binary: int
    unreadable: int
    racy: int  # modified just before being read: read again at every query
    tokens: int
    bytes_read: int
    index_bytes: int
    seconds: float
    # The listing is kept (queries need not list the files): the walk and ripgrep listed
    # the same files, and no file came or went while the index was built.
    listing_kept: bool
    waited: float = 0.0  # seconds waited for files modified just before they were read


# How long ripgrep may take to list the files (a million files take it about 20 s).
LISTING_SECONDS = 120.0


class ListingFailed(Exception):
    """The project's files could not be listed (the reason is the message)."""


def build_term_index(
    root: Path,
    config: Config,
    scopes: Iterable[ResolvedScope],
    private_paths: tuple[Path, ...],
    *,
    should_stop: Callable[[], bool] = lambda: False,
) -> BuiltIndex | None:
    """Reads every file the grep tier can search in `scopes` (and the whole root) and
    writes the index; None when `should_stop` said so first. Raises ListingFailed."""
    started = time.monotonic()
    places = _places(root, scopes)
    walked, visited = _walk(root, config, places, private_paths)
    rg = find_ripgrep()
    if rg is not None:
        sources = _ripgrep_sources(rg, root, config, places, private_paths)
        agreed = set(sources) == {source for found in walked.values() for source in found}
    else:
        sources = list(dict.fromkeys(source for found in walked.values() for source in found))
        agreed = True
    files: list[IndexedFile] = []
    postings = Postings()
    reader = _Reader(root, config.grep.max_filesize, postings)
    try:
        for position, source in enumerate(sources):
            if position % 64 == 0 and should_stop():
                return None
            found = reader.read(source)
            if found is not None:
                reader.keep(found, files)
        waited = reader.settle(files, should_stop)
        if waited is None:
            return None
    finally:
        reader.close()
    listing = None
    if agreed:
        number_of = {entry.path: number for number, entry in enumerate(files)}
        listed = {
            place: [number_of[source] for source in found if source in number_of]
            for place, found in walked.items()
        }
        watched = watched_paths(root, listed, visited)
        # An ignore file written just before (a project just copied) is waited out too.
        newest = max((_mtime(root / path) for path in watched), default=0)
        slept = _wait_until(newest + RACY_NS, should_stop)
        if slept is None:
            return None
        waited += slept
        trusted_before = time.time_ns() - RACY_NS
        listing = record_listing(root, config, private_paths, listed, watched, trusted_before)
        # The folders' `stat`s were taken after the walk: they vouch for its listing only
        # if a second walk, after them, lists the same files (none came or went between).
        if _walk(root, config, places, private_paths)[0] != walked:
            listing, agreed = None, False
    path = index_path(root)
    size = write_index(path, root, time.time_ns(), files, postings, listing)
    distinct = len(postings.by_token)
    limit = config.grep.max_filesize
    return BuiltIndex(
        path=path,
        files=len(files),
        binary=sum(entry.kind == BINARY for entry in files),
        unreadable=reader.unstated
        + sum(entry.kind == NOT_READ and entry.size <= limit for entry in files),
        racy=sum(entry.mtime_ns == NEVER for entry in files),
        tokens=distinct,
        bytes_read=sum(entry.searched for entry in files),
        index_bytes=size,
        seconds=time.monotonic() - started,
        listing_kept=agreed,
        waited=waited,
    )


class _Reader:
    """Reads files for the index, each with its `stat`. A file modified within RACY_NS
    of being read is not trusted (a change in the same clock tick would not show in its
    `stat`); `settle` waits for that window to pass (at most RACY_NS: a project just
    cloned or copied is all such files) and reads those files again."""

    def __init__(self, root: Path, limit: int, postings: Postings) -> None:
        self.root = root
        self.limit = limit
        self.postings = postings
        self.fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        self.unstated = 0  # listed, then gone or unreachable
        self.racy: dict[int, int] = {}  # file number -> its mtime when read
        self.pending: dict[int, dict[str, int]] = {}  # the racy files' tokens, not added yet

    def read(self, source: str) -> tuple[IndexedFile, dict[str, int], int] | None:
        """The file's entry, its tokens, and its mtime when read (None: no `stat`)."""
        try:
            info = os.stat(source, dir_fd=self.fd)
        except OSError:
            self.unstated += 1
            return None
        kind, counted, size, read_mtime = TEXT, {}, 0, info.st_mtime_ns
        try:
            document = read_text_file(Path(self.root, source), self.root, self.limit)
            counted, size = count_tokens(document.text), document.searched
            read_mtime = document.mtime_ns
        except BinaryFile:
            kind = BINARY
        except Unreadable:  # too large, or cannot be read: looked at again once changed
            kind = NOT_READ
        mtime = info.st_mtime_ns
        trusted = mtime == read_mtime and mtime < time.time_ns() - RACY_NS
        kept_mtime = mtime if trusted else NEVER
        entry = IndexedFile(
            source, info.st_size, kept_mtime, info.st_ctime_ns, info.st_ino, kind, size
        )
        return entry, counted, mtime

    def keep(self, found, files: list[IndexedFile]) -> None:
        """Adds a file read: its tokens go to the postings, unless it is to be read again."""
        entry, counted, mtime = found
        number = len(files)
        files.append(entry)
        if entry.mtime_ns == NEVER:
            self.racy[number] = mtime
            self.pending[number] = counted
        else:
            self.postings.add(number, counted)

    def settle(self, files: list[IndexedFile], should_stop: Callable[[], bool]) -> float | None:
        """Seconds waited for the files read too soon after a change, which are then read
        again (None: `should_stop` said so meanwhile)."""
        slept: float | None = 0.0
        if self.racy:
            slept = _wait_until(max(self.racy.values()) + RACY_NS, should_stop)
            if slept is None:
                return None
            for number in self.racy:
                found = self.read(files[number].path)
                if found is not None:
                    files[number], self.pending[number] = found[0], found[1]
        for number, counted in self.pending.items():
            self.postings.add(number, counted)
        return slept

    def close(self) -> None:
        os.close(self.fd)


def _wait_until(time_ns: int, should_stop: Callable[[], bool]) -> float | None:
    """Sleeps until the clock is past `time_ns` (a file's mtime plus the racy window);
    the seconds slept, or None when `should_stop` said so first."""
    slept = 0.0
    while (left := time_ns + 1_000_000 - time.time_ns()) > 0:
        if should_stop():
            return None
        time.sleep(min(left, 100_000_000) / 1e9)
        slept += min(left, 100_000_000) / 1e9
    return slept


def _mtime(path: Path) -> int:
    """A watched path's mtime, 0 for a folder (its entries decide, whatever its age) or
    a path gone."""
    try:
        info = os.stat(path, follow_symlinks=False)
    except OSError:
        return 0
    return 0 if stat.S_ISDIR(info.st_mode) else info.st_mtime_ns


def _places(root: Path, scopes: Iterable[ResolvedScope]) -> tuple[Path, ...]:
    """The whole root, and every scope's paths (a scope naming a hidden or ignored folder
    searches it; the root's listing leaves it out)."""
    places = [root]
    for scope in scopes:
        places += [p for p in scope.grep_paths if p not in places]
    return tuple(places)


def _walk(
    root: Path, config: Config, places: tuple[Path, ...], private_paths: tuple[Path, ...]
) -> tuple[dict[str, list[str]], list[Path]]:
    """Per place (root-relative, "" the root), the files the pure-Python walk lists under
    it; and every folder whose entries it read."""
    from .grep_scan import walk_searched

    visited: list[Path] = []
    walked: dict[str, list[str]] = {}
    for place in places:
        found = walk_searched(place, root, config, private_paths, visited=visited)
        walked[relative_source(place, root)] = [relative_source(f.path, root) for f in found]
    return walked, visited


def _ripgrep_sources(
    rg: str, root: Path, config: Config, places: tuple[Path, ...], private_paths: tuple[Path, ...]
) -> list[str]:
    """The files under `places` ripgrep lists (no size cap), each once."""
    from .grep_ripgrep import files_argv, listed_paths

    argv = files_argv(rg, root, places, (), config, private_paths)
    result = run_bounded(argv, Deadline.after(LISTING_SECONDS), cwd=root)
    if result.timed_out:
        raise ListingFailed(
            f"ripgrep did not list the files within {LISTING_SECONDS:g} s"
            " (is an ignore file a FIFO? ripgrep waits for it to be written)"
        )
    if result.launch_error or result.returncode not in (0, 1, 2):
        raise ListingFailed(result.launch_error or result.first_stderr_line() or "ripgrep failed")
    if result.truncated:
        raise ListingFailed(f"ripgrep's listing is over {len(result.stdout)} bytes")
    return list(dict.fromkeys(listed_paths(result.stdout)))


def list_sources(
    root: Path, config: Config, places: tuple[Path, ...], private_paths: tuple[Path, ...]
) -> list[str]:
    """The files under `places` a search reads (no size cap), as root-relative paths, each
    once: ripgrep's listing, or the pure-Python walk's when ripgrep is missing."""
    rg = find_ripgrep()
    if rg is not None:
        return _ripgrep_sources(rg, root, config, places, private_paths)
    walked, _ = _walk(root, config, places, private_paths)
    return list(dict.fromkeys(source for found in walked.values() for source in found))


def index_freshness(index: TermIndex, project, scopes: Iterable[ResolvedScope]) -> dict:
    """How many of the files a build would read now are as the index holds them, changed
    (or new), and how many indexed files are no longer there."""
    root = project.root
    sources = list_sources(root, project.config, _places(root, scopes), project.private_paths())
    was = dict(zip(index.paths, index.stat_keys(), strict=True))
    unchanged = changed = 0
    for source in sources:
        before = was.pop(source, None)
        try:
            info = os.stat(Path(root, source))
        except OSError:
            continue
        if before is not None and stat_key(info) == before:
            unchanged += 1
        else:
            changed += 1
    return {
        "files": len(index.paths),
        "unchanged": unchanged,
        "changed": changed,
        "gone": len(was),
        "built_ns": index.built_ns,
    }
