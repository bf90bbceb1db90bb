"""Counting the query's terms from the term index (term_index.py) instead of reading
every file. The scope's files are the index's listing while it holds (cached_listing.py),
else ripgrep lists them again (the same selection as the counting run); each file's `stat`
is checked against the index, and only the files changed since `tierscope index` (or
never indexed) are read. Too many changed files and the index is not used: the counting
run reads them all, as without an index."""

from __future__ import annotations

import os
from pathlib import Path

from ..ranking.matching import TermMatcher
from ..ranking.scope_counts import Candidates
from ..scopes import included
from .base import Deadline, TierRequest
from .cached_listing import cached_files
from .grep_scan import count_file
from .term_index import FIELDS, NOT_READ, BrokenIndex, TermIndex, index_path, stat_key

# Past either, reading the changed files costs about what a full search does.
LIVE_FILES_LIMIT = 500
LIVE_BYTES_LIMIT = 8_000_000
CHECK_EVERY = 1024  # files between two looks at the deadline


def matched_tokens(matcher: TermMatcher, index: TermIndex) -> dict[int, dict[str, int]]:
    """Per token of the index holding a match, the term keys its matches count for and
    how many times. The matcher finds in the index's token list (one per line) the
    matches it would find in any text made of those tokens: no match crosses a character
    a token cannot hold (term_index.TOKEN)."""
    keys_by_token: dict[int, dict[str, int]] = {}
    for start, text in matcher.matches(index.vocabulary):
        keys = matcher.keys_of(text)
        if not keys:
            continue
        per_token = keys_by_token.setdefault(index.token_at(start), {})
        for key in keys:
            per_token[key] = per_token.get(key, 0) + 1
    return keys_by_token


class IndexStopped(Exception):
    """The deadline passed or the query was cancelled while listing or reading files."""


def indexed_candidates(
    rg: str | None, request: TierRequest, matcher: TermMatcher, deadline: Deadline, notes: list[str]
) -> tuple[Candidates | None, tuple[str, ...]]:
    """The scope's term counts from the index, and the listing's argv; None (with the
    reason in `notes`, unless there is no index at all) when it cannot be used. Raises
    IndexStopped."""
    try:
        index = TermIndex.open(index_path(request.root))
    except (FileNotFoundError, NotADirectoryError):
        return None, ()
    except (BrokenIndex, OSError) as exc:
        notes.append(f"term index not used: {exc}")
        return None, ()
    with index:
        if index.root != str(request.root):
            notes.append("term index not used: it is another project's")
            return None, ()
        counting = _IndexedCount(rg, request, matcher, deadline, notes, index)
        try:
            return counting.run(), counting.argv
        except BrokenIndex as exc:
            notes.append(f"term index not used: {exc}")
            return None, ()


class _IndexedCount:
    def __init__(self, rg, request, matcher, deadline, notes, index: TermIndex) -> None:
        self.rg = rg
        self.request = request
        self.matcher = matcher
        self.deadline = deadline
        self.notes = notes
        self.index = index
        self.candidates = Candidates()
        self.fresh = bytearray(len(index.raw_paths))  # 1: unchanged since it was indexed
        self.changed: list[str] = []  # to read now
        self.changed_bytes = 0
        self.argv: tuple[str, ...] = ()

    def run(self) -> Candidates | None:
        request = self.request
        numbers, why = cached_files(
            self.index,
            request.root,
            request.scope.grep_paths,
            request.config,
            request.private_paths,
        )
        if numbers is not None:
            self.check_listed(numbers)
        elif not self.list_again(why):
            return None
        if len(self.changed) > LIVE_FILES_LIMIT or self.changed_bytes > LIVE_BYTES_LIMIT:
            self.notes.append(
                f"term index not used: {len(self.changed)} files changed since it was built"
                " (`tierscope index` brings it up to date)"
            )
            return None
        self.count_indexed()
        self.count_changed()
        self.notes.append(
            f"term index: {sum(self.fresh)} files as indexed, {len(self.changed)} read again"
        )
        return self.candidates

    def check_listed(self, numbers: list[int]) -> None:
        """The files of the index's listing: unchanged ones counted from it, the others
        to be read. This loop runs for every file of a large project at every query: a
        `stat` by the path's bytes, compared field by field with the index's numbers."""
        index = self.index
        include = self.request.scope.include
        if include:
            paths = index.paths
            numbers = [number for number in numbers if included(paths[number], include)]
        limit = self.request.config.grep.max_filesize
        names, was = index.raw_paths, index.numbers
        fresh = self.fresh
        documents = total_bytes = 0
        stat = os.stat
        root_fd = os.open(self.request.root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            for chunk in range(0, len(numbers), CHECK_EVERY):
                if self.deadline.expired() or self.deadline.cancelled:
                    raise IndexStopped
                for number in numbers[chunk : chunk + CHECK_EVERY]:
                    try:
                        info = stat(names[number], dir_fd=root_fd)
                    except OSError:
                        continue  # gone: its folder's `stat` would have said so, but just now
                    at = FIELDS * number
                    size = info.st_size
                    if (
                        info.st_mtime_ns != was[at + 1]
                        or size != was[at]
                        or info.st_ctime_ns != was[at + 2]
                        or info.st_ino != was[at + 3]
                    ):
                        self.sort(None, index.path(number), False, size)
                        continue
                    if size > limit or was[at + 4] == NOT_READ:
                        continue  # not searched; or unreadable then, and unchanged since
                    fresh[number] = 1
                    documents += 1
                    total_bytes += was[at + 5]
        finally:
            os.close(root_fd)
        self.candidates.documents += documents
        self.candidates.total_bytes += total_bytes

    def sort(self, number: int | None, source: str, unchanged: bool, size: int) -> None:
        """Counts a listed file from the index (`number`, `unchanged`), or puts it among
        those to read (no `number`: not indexed; or changed)."""
        if size > self.request.config.grep.max_filesize:
            return  # not searched
        if number is None or not unchanged:
            self.changed.append(source)
            self.changed_bytes += size
            return
        kind = self.index.kind(number)
        if kind == NOT_READ:
            return  # unreadable then, and unchanged since
        self.fresh[number] = 1
        self.candidates.documents += 1
        self.candidates.total_bytes += self.index.searched(number)

    def list_again(self, why: str) -> bool:
        """The scope's files listed by ripgrep, the indexed files' `stat`s taken meanwhile;
        False when that cannot be done."""
        if self.index.listing is not None:
            self.notes.append(f"term index: listing the files again: {why}")
        if self.rg is None:
            return False
        import threading

        now: list = []
        taking = threading.Thread(target=self._stat_indexed, args=(now,), daemon=True)
        taking.start()
        try:
            listed = self.listing()
        finally:
            taking.join()
        if listed is None:
            return False
        known = {path: number for number, path in enumerate(self.index.paths)}
        root = str(self.request.root)
        for position, source in enumerate(listed):
            if position % CHECK_EVERY == 0 and (self.deadline.expired() or self.deadline.cancelled):
                raise IndexStopped
            number = known.get(source)
            if number is not None and now[number]:
                self.sort(number, source, True, self.index.size(number))
                continue
            try:
                size = os.stat(os.path.join(root, source)).st_size
            except OSError:
                continue  # gone since it was listed
            self.sort(None, source, False, size)
        return True

    def _stat_indexed(self, into: list) -> None:
        """Per indexed file, whether its `stat` is as when it was read."""
        was = self.index.stat_keys()
        try:
            root_fd = os.open(self.request.root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError:
            into.extend([False] * len(was))
            return
        try:
            for path, before in zip(self.index.paths, was, strict=True):
                if before is None:
                    into.append(False)
                    continue
                try:
                    info = os.stat(path, dir_fd=root_fd)
                except OSError:
                    into.append(False)
                    continue
                into.append(stat_key(info) == before)
        finally:
            os.close(root_fd)

    def listing(self) -> list[str] | None:
        # Imported only here: with the index's listing, a query starts no process.
        from ..process import run_bounded
        from .grep_ripgrep import files_argv, listed_paths

        request = self.request
        self.argv = argv = files_argv(
            self.rg,
            request.root,
            request.scope.grep_paths,
            request.scope.include,
            request.config,
            request.private_paths,
        )
        result = run_bounded(argv, self.deadline, cwd=request.root)
        if result.cancelled or result.timed_out:
            raise IndexStopped
        if result.launch_error or result.returncode not in (0, 1, 2) or result.truncated:
            self.notes.append("term index not used: ripgrep could not list the files")
            return None
        return listed_paths(result.stdout)

    def count_indexed(self) -> None:
        """The unchanged files' counts: each token holding a match counts for its files."""
        index = self.index
        token_keys = matched_tokens(self.matcher, index)
        fresh = self.fresh
        by_file: dict[int, dict[str, int]] = {}
        for token, keys in token_keys.items():
            for number, occurrences in index.postings(token):
                if not fresh[number]:
                    continue
                counts = by_file.get(number)
                if counts is None:
                    counts = by_file[number] = {}
                for key, times in keys.items():
                    counts[key] = counts.get(key, 0) + occurrences * times
        frequencies = self.candidates.frequencies
        for number, counts in by_file.items():
            frequencies[index.path(number)] = counts

    def count_changed(self) -> None:
        """The changed and new files, read now, as the counting run would read them."""
        root = self.request.root
        limit = self.request.config.grep.max_filesize
        candidates = self.candidates
        for position, source in enumerate(self.changed):
            if position % 32 == 0 and (self.deadline.expired() or self.deadline.cancelled):
                raise IndexStopped
            count_file(candidates, source, Path(root, source), root, limit, self.matcher)
