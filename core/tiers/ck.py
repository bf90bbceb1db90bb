"""The ck tier: hybrid/semantic/lexical code search through the `ck` binary (0.7.x)."""

from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from ..executables import find_executable
from ..ignore_rules import BUILTIN_EXCLUDED_DIRS
from ..models import Hit, TierOutcome, TierStatus, count_hits
from ..process import ProcessResult, run_bounded
from ..ranking.matching import regex_escape
from .base import Deadline, Probe, TierRequest, not_installed
from .span_hits import refresh_spans

NOT_INSTALLED = not_installed("ck")
# Reciprocal-rank fusion with k=60 peaks at 1/61 from each arm: the best possible hybrid score.
HYBRID_MAX = 2 / 61
MODES = ("hybrid", "sem", "lex")
THRESHOLD_MEANING = {"hybrid": "raw RRF", "sem": "cosine", "lex": "normalised BM25"}


@dataclass(frozen=True, slots=True)
class ParsedOutput:
    """Hits read from ck's JSONL, plus what could not be used."""

    hits: tuple[Hit, ...]
    dropped_lines: int
    outside_root: int
    private: int


class CkTier:
    name = "ck"

    def probe(self, request: TierRequest) -> Probe:
        """Usable when `ck` is on PATH and the scope has at least one existing ck path."""
        binary = find_executable("ck")
        if binary is None:
            return Probe(False, NOT_INSTALLED)
        if not request.scope.ck_paths:
            return Probe(False, f"scope {request.scope.name} has no ck path", path=binary)
        existing = [p for p in request.scope.ck_paths if p.exists()]
        if not existing:
            missing = ", ".join(_relative(p, request.root) for p in request.scope.ck_paths)
            return Probe(False, f"ck path does not exist: {missing}", path=binary)
        # ck builds its index on the first run, so a missing `.ck/` is not a reason to skip.
        indexed = {_relative(p, request.root): _has_index(p) for p in existing}
        return Probe(True, f"ck at {binary}", path=binary, details={"indexed": indexed})

    def search(self, request: TierRequest, deadline: Deadline) -> TierOutcome:
        """Run ck once over the scope's ck paths and map its JSONL to hits."""
        started = time.monotonic()
        probe = self.probe(request)
        if not probe.usable or probe.path is None:
            return self._outcome(TierStatus.UNAVAILABLE, probe.reason, started)
        settings = request.config.ck
        if settings.mode not in MODES:
            reason = f"unsupported ck mode {settings.mode!r} (use hybrid, sem or lex)"
            return self._outcome(TierStatus.ERROR, reason, started)
        paths = [p for p in request.scope.ck_paths if p.exists()]
        excludes = exclude_patterns(tuple(paths), request.private_paths)
        argv = (
            probe.path,
            f"--{settings.mode}",
            "--topk",
            str(settings.limit),
            "--threshold",
            str(settings.threshold),
            "--jsonl",
            *(part for pattern in excludes for part in ("--exclude", pattern)),
            "--",
            literal_pattern(request.query, settings.mode),
            *(_relative(p, request.root) for p in paths),
        )
        notes = [
            f"{settings.mode} threshold {settings.threshold} ({THRESHOLD_MEANING[settings.mode]})",
            *(
                f"ck path does not exist, skipped: {_relative(p, request.root)}"
                for p in request.scope.ck_paths
                if p not in paths
            ),
        ]
        allowed = deadline.remaining()
        if deadline.cancelled:
            return self._outcome(TierStatus.ERROR, "cancelled", started, argv, notes)
        if allowed <= 0:
            return self._outcome(TierStatus.TIMEOUT, "no time left", started, argv, notes)
        result = run_bounded(argv, deadline, cwd=request.root)
        return self._judge(result, request, allowed, started, argv, notes)

    def _judge(
        self,
        result: ProcessResult,
        request: TierRequest,
        allowed: float,
        started: float,
        argv: tuple[str, ...],
        notes: list[str],
    ) -> TierOutcome:
        """Turn a finished ck process into exactly one status with its reason."""

        def outcome(status: TierStatus, reason: str) -> TierOutcome:
            return self._outcome(status, reason, started, argv, notes)

        if result.launch_error:
            return outcome(TierStatus.ERROR, f"ck could not start: {result.launch_error}")
        if result.cancelled:
            return outcome(TierStatus.ERROR, "cancelled")
        if result.timed_out:
            return outcome(TierStatus.TIMEOUT, f"timed out after {allowed:.1f} s")
        if result.truncated:
            notes.append(f"ck output capped at {len(result.stdout)} bytes; the rest ignored")
        elif result.returncode == 1:
            if "No matches found" in result.stderr_text:
                return outcome(TierStatus.EMPTY, "no matches")
            return outcome(TierStatus.ERROR, _detailed_error(result))
        elif result.returncode == 2:
            return outcome(TierStatus.ERROR, f"ck usage error: {result.first_stderr_line()}")
        elif result.returncode != 0:
            return outcome(TierStatus.ERROR, _crash_reason(result))

        parsed = _parse_jsonl(
            result.stdout,
            request,
            request.config.ck.mode,
            complete_only=result.truncated,
        )
        if parsed.outside_root:
            notes.append(f"{parsed.outside_root} results outside the project root ignored")
        if parsed.private:
            notes.append(f"{parsed.private} results in tierscope's own state ignored")
        hits, span_notes = refresh_spans(request, parsed.hits)
        notes += span_notes
        dropped = (
            f"; {parsed.dropped_lines} malformed lines dropped" if parsed.dropped_lines else ""
        )
        if hits:
            status = TierStatus.SERVED
            reason = f"{count_hits(len(hits))} ({request.config.ck.mode}){dropped}"
        else:
            status, reason = TierStatus.EMPTY, f"no hits{dropped}"
        return TierOutcome(
            tier=self.name,
            status=status,
            reason=reason,
            latency_ms=_elapsed_ms(started),
            hits=hits,
            argv=argv,
            dropped_lines=parsed.dropped_lines,
            notes=tuple(notes),
        )

    def _outcome(
        self,
        status: TierStatus,
        reason: str,
        started: float,
        argv: tuple[str, ...] = (),
        notes: list[str] | None = None,
    ) -> TierOutcome:
        return TierOutcome(
            tier=self.name,
            status=status,
            reason=reason,
            latency_ms=_elapsed_ms(started),
            argv=argv,
            notes=tuple(notes or ()),
        )


def exclude_patterns(search_paths: tuple[Path, ...], private: tuple[Path, ...]) -> tuple[str, ...]:
    """ck `--exclude` patterns that keep tierscope's own state out of ck's search.

    Dropping such hits afterwards is not enough: the trajectory log repeats every query
    word for word, so it tops ck's fused ranking and pushes real answers out of the top k.
    ck reads the patterns as gitignore globs relative to each search path: each private
    path inside a search path becomes one, anchored with a leading `/`, its glob
    characters escaped. (A pattern for one search path also applies to the others; it
    could only hide the same relative path there, which is vanishingly unlikely.)
    """
    patterns: list[str] = []
    for search in search_paths:
        for path in private:
            if path == search or search not in path.parents:
                continue
            relative = _GLOB_SPECIAL.sub(r"\\\g<0>", path.relative_to(search).as_posix())
            # gitignore drops trailing spaces unless escaped.
            stripped = relative.rstrip(" ")
            pattern = "/" + stripped + "\\ " * (len(relative) - len(stripped))
            if pattern not in patterns:
                patterns.append(pattern)
    return tuple(patterns)


_GLOB_SPECIAL = re.compile(r"[\\*?\[]")


def literal_pattern(query: str, mode: str) -> str:
    """The query as ck should see it. In hybrid mode ck also runs the pattern as a regex,
    so `foo(` would be a regex error: escape it so user text is searched literally."""
    return regex_escape(query) if mode == "hybrid" else query


def _parse_jsonl(
    stdout: bytes, request: TierRequest, mode: str, *, complete_only: bool
) -> ParsedOutput:
    """Map ck's `--jsonl` lines to hits sorted by score; malformed lines are counted, not fatal."""
    lines = stdout.split(b"\n")
    if complete_only:
        # The last line was cut by the output cap, not broken by ck.
        lines = lines[:-1]
    hits: list[Hit] = []
    dropped = outside = private = 0
    for raw in lines:
        if not raw.strip():
            continue
        record = _record(raw)
        if record is None:
            dropped += 1
            continue
        path, line_start, line_end, snippet, score = record
        source = _source(path, request.root)
        if source is None:
            outside += 1
            continue
        if _is_private(request.root / source, request.private_paths):
            private += 1
            continue
        hits.append(
            Hit(
                source=source,
                score=_normalise(score, mode),
                content=snippet.rstrip(),
                tier="ck",
                line_start=line_start,
                line_end=line_end,
            )
        )
    hits.sort(key=lambda hit: hit.score, reverse=True)
    return ParsedOutput(tuple(hits), dropped, outside, private)


def _record(raw: bytes) -> tuple[str, int, int, str, float | None] | None:
    """(path, line_start, line_end, snippet, score) of one valid line, else None."""
    try:
        record = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(record, dict):
        return None
    path = record.get("path")
    span = record.get("span")
    if not isinstance(path, str) or not path or not isinstance(span, dict):
        return None
    line_start, line_end = span.get("line_start"), span.get("line_end")
    if not isinstance(line_start, int) or not isinstance(line_end, int):
        return None
    if isinstance(line_start, bool) or isinstance(line_end, bool):
        return None
    snippet = record.get("snippet", "")
    score = record.get("score")
    if not isinstance(snippet, str):
        return None
    if score is not None and (isinstance(score, bool) or not isinstance(score, int | float)):
        return None
    return path, line_start, line_end, snippet, score


def _normalise(score: float | None, mode: str) -> float:
    """Put a ck score on tierscope's [0, 1] scale; ck omits negative scores, read as 0."""
    if score is None:
        return 0.0
    if mode == "hybrid":
        score = score / HYBRID_MAX
    return min(1.0, max(0.0, float(score)))


def _source(path: str, root: Path) -> str | None:
    """ck prints the search path (relative to the cwd, which is the root) joined with the file."""
    candidate = Path(path)
    if not candidate.is_absolute():
        candidate = root / candidate
    normalised = Path(os.path.normpath(candidate))
    try:
        relative = normalised.relative_to(root)
    except ValueError:
        return None
    source = PurePosixPath(*relative.parts).as_posix()
    return None if source == "." else source


def _is_private(path: Path, private_paths: tuple[Path, ...]) -> bool:
    return any(path == p or p in path.parents for p in private_paths)


def _relative(path: Path, root: Path) -> str:
    try:
        relative = path.relative_to(root)
    except ValueError:
        return str(path)
    return relative.as_posix() if relative.parts else "."


def _has_index(path: Path) -> bool:
    """Whether ck will find an index: `.ck/` at the path or its nearest ancestor."""
    if os.environ.get("CK_INDEX_DIR"):
        return Path(os.environ["CK_INDEX_DIR"]).is_dir()
    start = path if path.is_dir() else path.parent
    return any((d / ".ck").is_dir() for d in (start, *start.parents))


def ck_indexes_in(root: Path, folders: tuple[str, ...]) -> tuple[str, ...]:
    """The root and top-level folders holding a `.ck/` index (a stat each)."""
    places = [".", *(name for name in folders if name not in BUILTIN_EXCLUDED_DIRS)]
    return tuple(
        place
        for place in places
        if os.path.isdir(root / place / ".ck") and not os.path.islink(root / place / ".ck")
    )


def _detailed_error(result: ProcessResult) -> str:
    """ck's DETAILED ERROR line, completed by its last line when it ends in a colon."""
    lines = [line.strip() for line in result.stderr_text.splitlines() if line.strip()]
    detailed = next((line for line in lines if line.startswith("DETAILED ERROR")), "")
    if not detailed:
        return lines[0][:200] if lines else "ck exited with code 1"
    if detailed.endswith(":") and lines[-1] != detailed:
        detailed = f"{detailed} {lines[-1]}"
    return detailed[:200]


def _crash_reason(result: ProcessResult) -> str:
    code = result.returncode
    if code is not None and code < 0:
        return f"ck killed by signal {-code} (exit code {code})"
    detail = result.first_stderr_line()
    return f"ck exited with code {code}" + (f": {detail}" if detail else "")


def _elapsed_ms(started: float) -> float:
    return (time.monotonic() - started) * 1000
