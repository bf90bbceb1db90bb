"""The qmd tier: BM25 `qmd search` over the scope's collections, a per-keyword `lex:` retry
when BM25's AND semantics find nothing, and hybrid `qmd query` only when its models exist
(without them it hangs forever retrying a download).

One query costs one qmd process (two when the retry runs): collection roots come from
qmd's `index.yml`, read directly, and the freshness check runs beside the search. For BM25
it usually costs none: qmd_fts runs qmd's own FTS5 query on its index file when the index
schema and the qmd version are ones it knows (set TIERSCOPE_QMD_FAST_PATH=0 to always use
the CLI).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..models import Hit, TierOutcome, TierStatus
from ..process import ProcessResult, run_bounded
from ..project import is_inside
from .base import Deadline, Probe, TierRequest, not_installed
from .grep_rank import FileMatches, best_window, query_terms, word_start_regexes
from .qmd_fts import fast_path_supported, fts_expression, open_index, search_index
from .qmd_index import (
    DEFAULT_MODELS,
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

NOT_INSTALLED = not_installed("qmd")
MODES = ("search", "query")
UP_TO_DATE = "qmd: index up to date"
# How many stale file names a probe lists; the counts are always complete.
STALE_FILES_SHOWN = 20
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
    found = tuple(
        rooted(registry.collections[n], request.root) for n in names if n in registry.collections
    )
    missing = tuple(n for n in names if n not in registry.collections)
    unavailable = "" if found else _not_found(missing)
    index_missing = not locations.index_file.is_file()
    return QmdPlan(binary, locations, registry, found, missing, unavailable, index_missing)


def rooted(collection: Collection, root: Path) -> Collection:
    """The collection with a relative path resolved as qmd resolves it when the tier runs
    it: against its working directory, the project root."""
    if collection.root.expanduser().is_absolute():
        return replace(collection, root=collection.root.expanduser())
    return replace(collection, root=root / collection.root)


def mode_decision(
    configured: str, plan: QmdPlan, collections: tuple[Collection, ...]
) -> tuple[str | None, str]:
    """The mode a query runs in (None for an unknown mode) and, when it is not the
    configured one, why: a hybrid `query` needs every model and every embedding, and
    without them it would hang or rank by vectors that do not exist."""
    if configured not in MODES:
        return None, ""
    if configured == "search":
        return configured, ""
    models = model_state(plan.locations, plan.registry)
    if not models.complete:
        which = f"missing {', '.join(models.missing)}"
        if len(models.missing) == models.total:
            which = "none"
        return "search", f"hybrid query needs models ({which} in {models.models_dir})"
    gap = embedding_gap(plan.locations.index_file, [c.name for c in collections])
    if gap is not None and gap[0]:
        return "search", f"{gap[0]} of {gap[1]} documents have no embeddings (run qmd embed)"
    return configured, ""


def creation_hint(name: str, request: TierRequest) -> str:
    """The command that creates a missing collection, run in the project root: its folder
    guessed from the scope's own paths when the scope has one collection."""
    folder = "<folder>"
    if len(request.scope.qmd_collections) == 1:
        candidates = (*request.scope.ck_paths, *request.scope.grep_paths)
        directories = [p if p.is_dir() else p.parent for p in candidates if p.exists()]
        if directories:
            relative = os.path.relpath(directories[0], request.root)
            folder = shlex.quote(Path(relative).as_posix())
    return f"qmd collection add {folder} --name {shlex.quote(name)} (in the project root)"


def describe_index(collection: Collection, freshness: Freshness) -> str:
    """One collection's index in words: up to date, how far behind, or why unknown."""
    if not collection.root.is_dir():
        return f"folder {collection.root} is missing (moved or deleted?)"
    if freshness.problem:
        return f"not checked: {freshness.problem}"
    if freshness.behind:
        noun = "file" if freshness.behind == 1 else "files"
        return f"{freshness.behind} {noun} behind ({freshness.describe()})"
    if freshness.method == "mtimes":
        return "up to date (judged by file times: the index schema is unknown)"
    noun = "document" if freshness.indexed == 1 else "documents"
    return f"up to date ({freshness.indexed} {noun})"


def stale_files(results: list[Freshness]) -> list[str]:
    """`<collection>: <change> <path>` for the first stale files, then how many more."""
    lines = [
        f"{r.collection}: {label} {path}"
        for r in results
        for label, paths in (("changed", r.changed), ("added", r.added), ("removed", r.removed))
        for path in paths
    ]
    if len(lines) <= STALE_FILES_SHOWN:
        return lines
    return [*lines[:STALE_FILES_SHOWN], f"... and {len(lines) - STALE_FILES_SHOWN} more"]


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
        """Usable when qmd is on PATH, the scope's collections exist and an index exists.

        Never starts qmd. The details say where qmd keeps its state, which models are on
        disk, what a query would run, and how each collection's index compares with its
        files (staleness counts, the stale files, embeddings) — the doctor's material."""
        plan = plan_for(request)
        if plan.binary is None or not request.scope.qmd_collections:
            return Probe(False, plan.unavailable, path=plan.binary)
        models = model_state(plan.locations, plan.registry)
        details: dict = {
            "config_file": str(plan.locations.config_file),
            "index_file": str(plan.locations.index_file),
            "project_local": plan.locations.project_local,
            "models_dir": str(plan.locations.models_dir),
            "models_present": [role for role in DEFAULT_MODELS if role not in models.missing],
            "models_missing": list(models.missing),
            "collections": {c.name: str(c.root) for c in plan.collections},
            "missing": list(plan.missing),
        }
        if plan.missing:
            details["create_with"] = [creation_hint(name, request) for name in plan.missing]
        if plan.registry.problem:
            reason = f"qmd: {plan.registry.problem}; collections will be asked from qmd"
            return Probe(True, reason, path=plan.binary, details=details)
        if plan.unavailable:
            return Probe(False, plan.unavailable, path=plan.binary, details=details)
        if plan.index_missing:
            reason = f"qmd: no index at {plan.locations.index_file} (run qmd update)"
            return Probe(False, reason, path=plan.binary, details=details)
        mode, why = mode_decision(request.config.qmd.mode, plan, plan.collections)
        if mode is None:
            details["mode"] = f"unsupported qmd mode {request.config.qmd.mode!r}"
        else:
            how = "search (BM25)" if mode == "search" else "query (hybrid)"
            details["mode"] = f"{how}; {why}" if why else how
        index_file = plan.locations.index_file
        results = [check_freshness(c, index_file) for c in plan.collections]
        details["freshness"] = {
            c.name: describe_index(c, r) for c, r in zip(plan.collections, results, strict=True)
        }
        if any(r.behind for r in results):
            details["stale_files"] = stale_files(results)
        details["embeddings"] = {
            name: f"{gap[1] - gap[0]} of {gap[1]} documents embedded"
            for name in details["collections"]
            if (gap := embedding_gap(index_file, [name])) is not None and gap[1]
        }
        reason = staleness_note(results) or UP_TO_DATE
        if plan.missing:
            reason = f"{_not_found(plan.missing)}; the others: {reason.removeprefix('qmd: ')}"
        return Probe(True, reason, path=plan.binary, details=details)

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
        keywords = query_terms(text)
        if mode == "search":
            direct = self.search_index_directly(plan, collections, text, keywords)
            if direct is not None:
                entries, how = direct
                return self.conclude(entries, roots, how, freshness)
        scope_flags = tuple(flag for c in collections for flag in ("-c", c.name))
        limit = str(self.request.config.qmd.limit)
        self.argv = (plan.binary, mode, "--json", "-n", limit, *scope_flags, "--", text)
        failed, entries = self.call(self.argv)
        if failed is not None:
            return self.finish(*failed, freshness)
        how = "BM25 search" if mode == "search" else "hybrid query"

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
        return self.conclude(entries, roots, how, freshness)

    def conclude(
        self, entries: list[dict], roots: dict[str, Path], how: str, freshness: _FreshnessCheck
    ) -> TierOutcome:
        hits = self.to_hits(entries, roots)
        if len(hits) > 1 and all(hit.score == 0 for hit in hits):
            # FTS5 gives a word found in most documents of a small collection a weight of
            # ~1e-6, so qmd's |bm25|/(1+|bm25|) is 0 for every hit. A flat list of zeros
            # tells a skill nothing; 1/rank (qmd's own convention for ranked lists) keeps
            # qmd's order visible in the scores.
            hits = tuple(replace(hit, score=round(1 / rank, 4)) for rank, hit in
                         enumerate(hits, start=1))  # fmt: skip
            self.notes.append(
                "qmd: every BM25 score was 0 (each query word occurs in most documents of a"
                " small collection); scores are 1/rank of qmd's order"
            )
        dropped = f"; {self.dropped} malformed entries dropped" if self.dropped else ""
        if hits:
            noun = "hit" if len(hits) == 1 else "hits"
            reason = f"{len(hits)} {noun} ({how}){dropped}"
            return self.finish(TierStatus.SERVED, reason, freshness, hits)
        reason = "no hits" if entries else "no matches"
        return self.finish(TierStatus.EMPTY, f"{reason} ({how}){dropped}", freshness)

    def search_index_directly(
        self,
        plan: QmdPlan,
        collections: tuple[Collection, ...],
        text: str,
        keywords: tuple[str, ...],
    ) -> tuple[list[dict], str] | None:
        """qmd's BM25 search (and the per-keyword retry) run on qmd's index file, as entries
        shaped like `qmd search --json` output; None when the CLI must answer instead."""
        if os.environ.get("TIERSCOPE_QMD_FAST_PATH") == "0" or plan.binary is None:
            return None
        index_file = plan.locations.index_file
        conn = open_index(index_file)
        if conn is None:
            return None
        if not fast_path_supported(plan.binary, self.deadline):
            conn.close()
            return None
        names = [c.name for c in collections]
        limit = self.request.config.qmd.limit
        try:
            expression = fts_expression(text.split())
            if expression is None:
                return [], "BM25 search (index)"
            self.argv = ("qmd-index", str(index_file), "MATCH", expression)
            matches = search_index(conn, names, expression, limit, self.deadline)
            how = "BM25 search (index)"
            retry = fts_expression(keywords, any_term=True)
            if matches == [] and len(text.split()) >= 2 and retry:
                self.notes.append(
                    f"qmd search (AND of every word) found nothing; retried with any keyword:"
                    f" {retry}"
                )
                self.argv = ("qmd-index", str(index_file), "MATCH", retry)
                matches = search_index(conn, names, retry, limit, self.deadline)
                how = "per-keyword retry (index)"
        finally:
            conn.close()
        if matches is None:
            self.notes.append("qmd: reading the index failed or ran out of time; used the CLI")
            return None
        self.notes.append(
            f"qmd: read {index_file} directly (the query `qmd search` runs, without starting Node)"
        )
        words = tuple(w.lower() for w in text.split()) or keywords
        return [_as_search_entry(m, words) for m in matches], how

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
                found.append(rooted(collection, self.request.root))
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
            detail = result.launch_error or error_line(result) or f"exit {result.returncode}"
            self.notes.append(f"qmd: refresh failed: {detail}")
        else:
            self.notes.append(
                f"qmd: index refreshed (qmd update, {result.elapsed_ms / 1000:.1f} s)"
            )
        return None

    def choose_mode(self, plan: QmdPlan, collections: tuple[Collection, ...]) -> str | None:
        """The configured mode, or `search` when a hybrid query could not work here."""
        mode, why = mode_decision(self.request.config.qmd.mode, plan, collections)
        if why:
            self.notes.append(f"qmd: {why}; used BM25 search")
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
        line = error_line(result)
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


SNIPPET_LINES = 5


def _as_search_entry(match, words: tuple[str, ...]) -> dict:
    """An index match in the shape of one `qmd search --json` result: the snippet is the
    document's best window of lines for the query words, under qmd's `@@` header."""
    lines = match.body.split("\n")
    found = FileMatches(match.path)
    patterns = word_start_regexes(words)
    for number, line in enumerate(lines, start=1):
        found.add_line(number, line.lower(), patterns)
    if found.lines:
        start, end, _, _ = best_window(found, SNIPPET_LINES)
    else:
        start, end = 1, SNIPPET_LINES
    end = min(end, len(lines))
    window = "\n".join(lines[start - 1 : end])
    return {
        "file": f"qmd://{match.collection}/{match.path}",
        "score": round(match.score, 2),
        "title": match.title,
        "line": start,
        "snippet": f"@@ -{start},{end - start + 1} @@\n{window}",
    }


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


def error_line(result: ProcessResult) -> str:
    """The line saying why qmd failed: a Node error if there is one, else the first line
    that is not qmd's everyday noise."""
    lines = [line.strip() for line in result.stderr_text.splitlines() if line.strip()]
    meaningful = [line for line in lines if not line.startswith(_STDERR_NOISE)]
    error = next((line for line in meaningful if re.match(r"^\w*Error\b", line)), "")
    return (error or (meaningful[0] if meaningful else ""))[:200]
