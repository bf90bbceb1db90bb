"""Counting the query's terms with Python, for when ripgrep is missing: the same file
selection (project_walk) and the same matching (TermMatcher) as the ripgrep search."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

from ..config.model import Config
from ..files import BinaryFile, Unreadable, read_text_file
from ..project import is_inside, relative_source
from ..ranking.matching import TermMatcher
from ..ranking.scope_counts import Candidates
from ..scopes import included
from .base import Deadline, TierRequest

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..project_walk import WalkedFile

CHECK_EVERY = 32


class ScanStopped(Exception):
    """The deadline passed or the query was cancelled mid-scan."""


def scan_candidates(request: TierRequest, matcher: TermMatcher, deadline: Deadline) -> Candidates:
    """Every file of the scope read once and counted. Raises ScanStopped at the deadline."""
    root = request.root
    settings = request.config
    candidates = Candidates()

    def should_stop() -> bool:
        return deadline.expired() or deadline.cancelled

    for base in request.scope.grep_paths:
        walked = walk_searched(base, root, settings, request.private_paths, should_stop=should_stop)
        for index, found in enumerate(walked):
            if index % CHECK_EVERY == 0 and should_stop():
                raise ScanStopped
            if found.size > settings.grep.max_filesize:
                continue
            source = relative_source(found.path, root)
            if not included(source, request.scope.include):
                continue
            try:
                source.encode("utf-8")
            except UnicodeEncodeError:  # a name that is not UTF-8 cannot be a source
                continue
            count_file(candidates, source, found.path, root, settings.grep.max_filesize, matcher)
        if should_stop():
            raise ScanStopped
    return candidates


def count_file(
    candidates: Candidates, source: str, path: Path, root: Path, limit: int, matcher: TermMatcher
) -> None:
    """Reads one file of the scope and adds what a search counts of it to `candidates`:
    a binary file is searched for nothing, as ripgrep counts it; one that cannot be read
    is not searched."""
    try:
        document = read_text_file(path, root, limit)
    except BinaryFile:
        candidates.documents += 1
        return
    except Unreadable:
        return
    candidates.documents += 1
    candidates.total_bytes += document.searched
    counts = matcher.count(document.text)
    if counts:
        candidates.frequencies[source] = counts
        candidates.lengths[source] = document.size


def walk_searched(
    place: Path,
    root: Path,
    config: Config,
    private_paths: tuple[Path, ...],
    *,
    should_stop: Callable[[], bool] = lambda: False,
    visited: list[Path] | None = None,
) -> Iterator[WalkedFile]:
    """The files under `place` a search reads, by the pure-Python walk (project_walk.py):
    the config's filtering, tierscope's private paths left out; any size."""
    from ..project_walk import walk_files  # the walk: not for the term index's few files

    def is_private(path: Path) -> bool:
        return any(is_inside(path, p) for p in private_paths)

    for found in walk_files(
        place,
        root,
        include_ignored=config.filtering.include_ignored,
        machine_data=config.filtering.include_machine_data,
        skip=is_private,
        should_stop=should_stop,
        visited=visited,
    ):
        if not is_private(found.path):
            yield found
