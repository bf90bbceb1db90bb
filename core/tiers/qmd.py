"""The qmd tier: BM25 `qmd search` over the scope's collections, a per-keyword `lex:` retry
when BM25's AND semantics find nothing, and hybrid `qmd query` only when its models exist
(without them it hangs forever retrying a download).

One query costs one qmd process (two when the retry runs): collection roots come from
qmd's `index.yml`, read directly, and the freshness check runs beside the search.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..models import Hit, TierOutcome, TierStatus
from ..process import ProcessResult, run_bounded
from ..project import is_inside
from .base import Deadline, Probe, TierRequest
from .grep_rank import query_terms
from .qmd_index import (
    Collection,
    Freshness,
    QmdLocations,
    Registry,
    check_freshness,
    collection_from_show,
    embedding_gap,
    locate,
    model_state,
    read_registry,
    staleness_note,
)

NOT_INSTALLED = "qmd not installed (not on PATH)"
MODES = ("search", "query")
# How long a finished search waits for the freshness check still walking the collection.
FRESHNESS_WAIT_SECONDS = 1.0
_SNIPPET_HEADER = re.compile(r"^@@ -(\d+),(\d+) @@[^\n]*(?:\n|$)")
# A JSON object that starts an array element: after `[`, `,` or at the start of a line.
_ELEMENT_START = re.compile(r"(?:^|[\[,])[ \t\r\n]*\{", re.MULTILINE)
_DECODER = json.JSONDecoder()
# stderr lines qmd prints on every run (an optional native package it lacks, embedding
# hints): never the reason a call failed.
_STDERR_NOISE = ("Cannot find package 'sqlite-vec", "Warning:", "QMD Warning:")
_NOT_FOUND = re.compile(r"Collection not found: (\S+)")


@dataclass(frozen=True, slots=True)
class QmdPlan:
    """What a query would use: the binary, qmd's files, and the scope's collections."""

    binary: str | None
    locations: QmdLocations
    registry: Registry
    collections: tuple[Collection, ...] = ()
    missing: tuple[str, ...] = ()
    unavailable: str = ""  # why the tier cannot run at all ("" = it can)
    index_missing: bool = False


def plan_for(request: TierRequest) -> QmdPlan:
    """Resolve the scope's collections from qmd's own config, without starting qmd."""
    locations = locate(request.root)
    binary = shutil.which("qmd")
    if binary is None:
        return QmdPlan(None, locations, Registry(), unavailable=NOT_INSTALLED)
    registry = read_registry(locations.config_file)
    names = request.scope.qmd_collections
    if not names:
        reason = f"scope {request.scope.name} has no qmd collection"
        return QmdPlan(binary, locations, registry, unavailable=reason)
    if registry.problem:
        # Unknown until qmd itself is asked (`qmd collection show`).
        return QmdPlan(binary, locations, registry)
    found = tuple(registry.collections[n] for n in names if n in registry.collections)
    missing = tuple(n for n in names if n not in registry.collections)
    unavailable = "" if found else _not_found(missing)
    index_missing = not locations.index_file.is_file()
    return QmdPlan(binary, locations, registry, found, missing, unavailable, index_missing)


def _not_found(names: tuple[str, ...]) -> str:
    if len(names) == 1:
        return f"qmd: collection {names[0]} not found"
    return f"qmd: collections {', '.join(names)} not found"


def literal_text(query: str) -> str:
    """The query with qmd's search syntax disarmed: a leading `-` (negation) and `"`
    (phrases) are removed, so text like `-v "x` is searched for its words."""
    words = (token.replace('"', "").lstrip("-") for token in query.split())
    return " ".join(word for word in words if word)


def lex_document(keywords: tuple[str, ...]) -> str:
    """A structured qmd query: one `lex:` line per keyword, combined as OR by qmd."""
    return "\n".join(f"lex: {keyword}" for keyword in keywords)


class QmdTier:
    name = "qmd"

    def probe(self, request: TierRequest) -> Probe:
        """Usable when qmd is on PATH, the scope's collections exist and an index exists."""
        plan = plan_for(request)
        if plan.unavailable:
            return Probe(False, plan.unavailable, path=plan.binary)
        details = {
            "config_file": str(plan.locations.config_file),
            "index_file": str(plan.locations.index_file),
            "models_dir": str(plan.locations.models_dir),
            "collections": {c.name: str(c.root) for c in plan.collections},
            "missing": list(plan.missing),
            "models_missing": list(model_state(plan.locations, plan.registry).missing),
        }
        if plan.registry.problem:
            reason = f"qmd: {plan.registry.problem}; collections will be asked from qmd"
            return Probe(True, reason, path=plan.binary, details=details)
        if plan.index_missing:
            reason = f"qmd: no index at {plan.locations.index_file} (run qmd update)"
            return Probe(False, reason, path=plan.binary, details=details)
        return Probe(True, f"qmd at {plan.binary}", path=plan.binary, details=details)

    def search(self, request: TierRequest, deadline: Deadline) -> TierOutcome:
        """Search the scope's collections; never starts a call that would hang."""
        return _Search(request, deadline).run()


@dataclass
class _Search:
    """One query through the qmd tier, from plan to outcome."""

    request: TierRequest
    deadline: Deadline
    started: float = field(default_factory=time.monotonic)
    notes: list[str] = field(default_factory=list)
    argv: tuple[str, ...] = ()
    dropped: int = 0
    allowed: float = 0.0  # seconds the tier had when it started, for the timeout reason

    def __post_init__(self) -> None:
        self.allowed = self.deadline.remaining()

    def run(self) -> TierOutcome:
        plan = plan_for(self.request)
        refresh = self.request.refresh or self.request.config.qmd.refresh
        if plan.unavailable:
            return self.finish(TierStatus.UNAVAILABLE, plan.unavailable)
        assert plan.binary is not None
        if plan.index_missing and not refresh:
            reason = f"qmd: no index at {plan.locations.index_file} (run qmd update)"
            return self.finish(TierStatus.UNAVAILABLE, reason)
        collections, missing = plan.collections, plan.missing
        if plan.registry.problem:
            self.notes.append(f"qmd: {plan.registry.problem}; asked qmd collection show")
            asked = self.ask_collections(plan.binary)
            if isinstance(asked, TierOutcome):
                return asked
            collections, missing = asked
        if missing:
            self.notes.append(f"{_not_found(missing)}; searched the others")
        if refresh:
            failed = self.refresh(plan.binary)
            if failed is not None:
                return failed

        mode = self.choose_mode(plan, collections)
        if mode is None:
            mode_name = self.request.config.qmd.mode
            return self.finish(TierStatus.ERROR, f"unsupported qmd mode {mode_name!r}")
        freshness = _FreshnessCheck(collections, plan.locations.index_file)
        text = literal_text(self.request.query)
        if not re.search(r"\w", text):
            return self.finish(TierStatus.EMPTY, "no searchable words in the query", freshness)
        roots = {c.name: Path(os.path.realpath(c.root)) for c in collections}
        scope_flags = tuple(flag for c in collections for flag in ("-c", c.name))
        limit = str(self.request.config.qmd.limit)
        self.argv = (plan.binary, mode, "--json", "-n", limit, *scope_flags, "--", text)
        failed, entries = self.call(self.argv)
        if failed is not None:
            return self.finish(*failed, freshness)
        how = "BM25 search" if mode == "search" else "hybrid query"

        keywords = query_terms(text)
        if not entries and mode == "search" and len(text.split()) >= 2 and keywords:
            self.notes.append(
                f"qmd search (AND of every word) found nothing; retried with per-keyword"
                f" lex: lines; first call: {shlex.join(self.argv)}"
            )
            lex = lex_document(keywords)
            self.argv = (plan.binary, "query", "--no-rerank", "--json", "-n", limit)
            self.argv += (*scope_flags, "--", lex)
            failed, entries = self.call(self.argv)
            if failed is not None:
                return self.finish(*failed, freshness)
            how = "per-keyword lex retry"

        hits = self.to_hits(entries, roots)
        dropped = f"; {self.dropped} malformed entries dropped" if self.dropped else ""
        if hits:
            noun = "hit" if len(hits) == 1 else "hits"
            reason = f"{len(hits)} {noun} ({how}){dropped}"
            return self.finish(TierStatus.SERVED, reason, freshness, hits)
        reason = "no hits" if entries else "no matches"
        return self.finish(TierStatus.EMPTY, f"{reason} ({how}){dropped}", freshness)

    def ask_collections(
        self, binary: str
    ) -> tuple[tuple[Collection, ...], tuple[str, ...]] | TierOutcome:
        """Collections from `qmd collection show`, for when index.yml cannot be read."""
        found: list[Collection] = []
        missing: list[str] = []
        for name in self.request.scope.qmd_collections:
            argv = (binary, "collection", "show", name)
            result = run_bounded(argv, self.deadline, cwd=self.request.root)
            failure = self.failure(result)
            collection = collection_from_show(name, result.stdout.decode("utf-8", "replace"))
            if collection is not None and failure is None:
                found.append(collection)
            elif failure is not None and failure[0] in (TierStatus.TIMEOUT, TierStatus.ERROR):
                self.argv = argv
                return self.finish(*failure)
            else:
                missing.append(name)
        if not found:
            return self.finish(TierStatus.UNAVAILABLE, _not_found(tuple(missing)))
        return tuple(found), tuple(missing)

    def refresh(self, binary: str) -> TierOutcome | None:
        """Run `qmd update` within the deadline; a failed update is a note, not the end."""
        argv = (binary, "update")
        result = run_bounded(argv, self.deadline, cwd=self.request.root)
        if result.timed_out:
            self.argv = argv
            reason = f"timed out after {self.allowed:.1f} s (during qmd update)"
            return self.finish(TierStatus.TIMEOUT, reason)
        if result.cancelled:
            self.argv = argv
            return self.finish(TierStatus.ERROR, "cancelled")
        if result.launch_error or result.returncode != 0:
            detail = result.launch_error or _error_line(result) or f"exit {result.returncode}"
            self.notes.append(f"qmd: refresh failed: {detail}")
        else:
            self.notes.append(
                f"qmd: index refreshed (qmd update, {result.elapsed_ms / 1000:.1f} s)"
            )
        return None

    def choose_mode(self, plan: QmdPlan, collections: tuple[Collection, ...]) -> str | None:
        """The configured mode, or `search` when a hybrid query could not work here."""
        mode = self.request.config.qmd.mode
        if mode not in MODES:
            return None
        if mode == "search":
            return mode
        models = model_state(plan.locations, plan.registry)
        if not models.complete:
            which = (
                "none"
                if len(models.missing) == models.total
                else f"missing {', '.join(models.missing)}"
            )
            self.notes.append(
                f"qmd: hybrid query needs models ({which} in {models.models_dir}); used BM25 search"
            )
            return "search"
        gap = embedding_gap(plan.locations.index_file, [c.name for c in collections])
        if gap is not None and gap[0]:
            self.notes.append(
                f"qmd: {gap[0]} of {gap[1]} documents have no embeddings (run qmd embed);"
                " used BM25 search"
            )
            return "search"
        return mode

    def call(self, argv: tuple[str, ...]) -> tuple[tuple[TierStatus, str] | None, list[dict]]:
        """Run one qmd search-like call: (failure, []) or (None, its result entries)."""
        result = run_bounded(argv, self.deadline, cwd=self.request.root)
        failure = self.failure(result)
        if failure is not None:
            return failure, []
        if result.truncated:
            self.notes.append(f"qmd output capped at {len(result.stdout)} bytes; the rest ignored")
        entries, dropped = parse_results(result.stdout)
        self.dropped += dropped
        return None, entries

    def failure(self, result: ProcessResult) -> tuple[TierStatus, str] | None:
        """The status a finished qmd process ends the tier with, or None when it worked."""
        if result.launch_error:
            return TierStatus.ERROR, f"qmd could not start: {result.launch_error}"
        if result.cancelled:
            return TierStatus.ERROR, "cancelled"
        if result.timed_out:
            return TierStatus.TIMEOUT, f"timed out after {self.allowed:.1f} s"
        if result.returncode == 0:
            return None
        not_found = _NOT_FOUND.search(result.stderr_text)
        if not_found:
            return TierStatus.UNAVAILABLE, _not_found((not_found.group(1),))
        code = result.returncode
        if code is not None and code < 0:
            return TierStatus.ERROR, f"qmd killed by signal {-code}"
        line = _error_line(result)
        return TierStatus.ERROR, f"qmd exited with code {code}" + (f": {line}" if line else "")

    def to_hits(self, entries: list[dict], roots: dict[str, Path]) -> tuple[Hit, ...]:
        """Map qmd results to root-relative hits, dropping what cannot be placed."""
        min_score = self.request.config.qmd.min_score
        project_root = Path(os.path.realpath(self.request.root))
        hits: list[Hit] = []
        outside = private = below = 0
        for entry in entries:
            place = split_uri(entry["file"])
            root = roots.get(place[0]) if place else None
            if place is None or root is None:
                self.dropped += 1
                continue
            path = Path(os.path.normpath(root / place[1]))
            if not is_inside(path, project_root):
                outside += 1
                continue
            if any(is_inside(path, p) for p in self.request.private_paths):
                private += 1
                continue
            score = min(1.0, max(0.0, float(entry["score"])))
            if score < min_score:
                below += 1
                continue
            content, line_start, line_end = snippet_content(entry)
            source = path.relative_to(project_root).as_posix()
            hits.append(Hit(source, score, content, "qmd", line_start, line_end))
        if outside:
            self.notes.append(f"{outside} results outside the project root ignored")
        if private:
            self.notes.append(f"{private} results in tierscope's own state ignored")
        if below:
            self.notes.append(f"{below} results below min_score {min_score} dropped")
        hits.sort(key=lambda hit: hit.score, reverse=True)
        return tuple(hits)

    def finish(
        self,
        status: TierStatus,
        reason: str,
        freshness: _FreshnessCheck | None = None,
        hits: tuple[Hit, ...] = (),
    ) -> TierOutcome:
        notes = list(self.notes)
        if freshness is not None:
            note = freshness.note(self.deadline)
            if note:
                notes.append(note)
        return TierOutcome(
            tier="qmd",
            status=status,
            reason=reason,
            latency_ms=(time.monotonic() - self.started) * 1000,
            hits=hits,
            argv=self.argv,
            dropped_lines=self.dropped,
            notes=tuple(notes),
        )


class _FreshnessCheck:
    """Compares the collections' files with the index in a thread, while qmd searches."""

    def __init__(self, collections: tuple[Collection, ...], index_file: Path) -> None:
        self._results: list[Freshness] = []
        self._thread = threading.Thread(
            target=self._check, args=(collections, index_file), name="qmd-freshness", daemon=True
        )
        self._thread.start()

    def _check(self, collections: tuple[Collection, ...], index_file: Path) -> None:
        self._results.extend(check_freshness(c, index_file) for c in collections)

    def note(self, deadline: Deadline) -> str | None:
        """The staleness note, if the check finished in time; nothing when out of time."""
        wait = min(deadline.remaining(), FRESHNESS_WAIT_SECONDS)
        self._thread.join(timeout=wait)
        if not self._thread.is_alive():
            return staleness_note(self._results)
        if wait > 0:
            return "qmd: freshness not checked (the collection walk took too long)"
        return None


def parse_results(stdout: bytes) -> tuple[list[dict], int]:
    """qmd's JSON array as a list of usable result objects, plus how many entries (or
    stray lines) could not be used. A broken array is recovered element by element."""
    text = stdout.decode("utf-8", "replace")
    try:
        document = json.loads(text) if text.strip() else []
    except ValueError:
        return _recover(text)
    if not isinstance(document, list):
        return [], 1
    entries = [item for item in document if _usable(item)]
    return entries, len(document) - len(entries)


def _recover(text: str) -> tuple[list[dict], int]:
    entries: list[dict] = []
    dropped = 0
    position = 0  # everything before this has been accounted for
    broken = False  # the text since `position` belongs to an element that did not decode
    for match in _ELEMENT_START.finditer(text):
        start = match.end() - 1
        if start < position:
            continue  # inside an element already decoded
        if not broken:
            dropped += _stray_lines(text[position : match.start()])
        try:
            item, end = _DECODER.raw_decode(text, start)
        except ValueError:
            # A broken element runs to the next element start: one entry dropped.
            dropped += 1
            position, broken = start + 1, True
            continue
        if _usable(item):
            entries.append(item)
        else:
            dropped += 1
        position, broken = end, False
    if not broken:
        dropped += _stray_lines(text[position:])
    return entries, dropped


def _stray_lines(segment: str) -> int:
    """Lines holding something besides the array's own brackets and commas."""
    return sum(1 for line in segment.splitlines() if line.strip(" \t\r[],"))


def _usable(item: object) -> bool:
    if not isinstance(item, dict):
        return False
    score = item.get("score")
    file = item.get("file")
    return (
        isinstance(file, str)
        and file.startswith("qmd://")
        and isinstance(score, int | float)
        and not isinstance(score, bool)
        and isinstance(item.get("snippet", ""), str)
    )


def split_uri(uri: str) -> tuple[str, str] | None:
    """`qmd://<collection>/<relative path>[?index=<name>]` -> (collection, relative path).
    The path is not percent-encoded: spaces and parentheses appear as they are."""
    collection, sep, relative = uri.removeprefix("qmd://").partition("/")
    head, mark, tail = relative.rpartition("?index=")
    if mark and "/" not in tail:
        relative = head
    if not sep or not collection or not relative:
        return None
    return collection, relative


def snippet_content(entry: dict) -> tuple[str, int | None, int | None]:
    """The snippet without its `@@ -start,count @@` header and surrounding blank lines, and
    the file lines it spans. Without a header, the span starts at the result's `line`."""
    snippet: str = entry.get("snippet", "")
    line = entry.get("line")
    start = line if isinstance(line, int) and not isinstance(line, bool) else None
    header = _SNIPPET_HEADER.match(snippet)
    if header:
        start = int(header.group(1))
        snippet = snippet[header.end() :]
    lines = snippet.split("\n")
    leading = next((i for i, text in enumerate(lines) if text.strip()), len(lines))
    lines = lines[leading:]
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines or start is None:
        return "\n".join(lines), start, start
    start += leading
    return "\n".join(lines), start, start + len(lines) - 1


def _error_line(result: ProcessResult) -> str:
    """The line saying why qmd failed: a Node error if there is one, else the first line
    that is not qmd's everyday noise."""
    lines = [line.strip() for line in result.stderr_text.splitlines() if line.strip()]
    meaningful = [line for line in lines if not line.startswith(_STDERR_NOISE)]
    error = next((line for line in meaningful if re.match(r"^\w*Error\b", line)), "")
    return (error or (meaningful[0] if meaningful else ""))[:200]
