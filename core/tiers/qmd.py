"""The qmd tier: qmd finds the documents of the scope's collections that hold any query
term (one FTS5 query on qmd's own index file when its schema and version are known, else
one `qmd query` of per-keyword `lex:` lines), and the ranking core ranks them from the
files themselves (qmd_rank). Hybrid `qmd query` runs only when its models exist (without
them it hangs forever retrying a download).

Collection roots come from qmd's `index.yml`, read directly, and the freshness check runs
beside the search. Set TIERSCOPE_QMD_FAST_PATH=0 to always use the CLI.
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..models import Hit, TierOutcome, TierStatus, count_hits
from ..process import run_bounded
from ..ranking.analysis import Term, query_terms, words_stood_for, written_forms
from .base import Deadline, Probe, TierRequest
from .qmd_cli import (
    QmdCall,
    call_failure,
    call_qmd,
    error_line,
    lex_document,
    literal_text,
    split_uri,
)
from .qmd_collections import Collection, collection_from_show
from .qmd_freshness import FreshnessCheck
from .qmd_fts import search_index
from .qmd_plan import QmdPlan, mode_decision, not_found, plan_for, rooted
from .qmd_probe import probe_qmd
from .qmd_rank import FoundDocument, collection_size, rank_found

# Documents asked of qmd per query: every one holding a query term in a collection of
# this size or less, the best by qmd's own BM25 beyond it.
CANDIDATES = 200


class QmdTier:
    name = "qmd"

    def probe(self, request: TierRequest) -> Probe:
        """Usable when qmd is on PATH, the scope's collections exist and an index exists;
        the details are the doctor's material (see qmd_probe)."""
        return probe_qmd(request)

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
    # Per term key, the collections' documents holding it, when the index's candidates
    # were cut at CANDIDATES (qmd_fts.IndexSearch).
    frequencies: dict[str, int] | None = None

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
            self.notes.append(f"{not_found(missing)}; searched the others")
        if refresh:
            failed = self.refresh(plan.binary)
            if failed is not None:
                return failed

        mode = self.choose_mode(plan, collections)
        if mode is None:
            mode_name = self.request.config.qmd.mode
            return self.finish(TierStatus.ERROR, f"unsupported qmd mode {mode_name!r}")
        freshness = FreshnessCheck(collections, plan.locations.index_file)
        text = literal_text(self.request.query)
        terms = query_terms(text)
        if not re.search(r"\w", text) or not terms:
            return self.finish(TierStatus.EMPTY, "no searchable words in the query", freshness)
        roots = {c.name: Path(os.path.realpath(c.root)) for c in collections}
        if mode == "query":
            return self.hybrid(plan.binary, collections, text, terms, roots, freshness)
        found = self.found_in_index(plan, collections, terms, roots)
        how = "BM25 over the documents holding any term (index)"
        if found is None:
            call = self.call(lex_query_argv(plan.binary, collections, terms))
            if call.failure is not None:
                return self.finish(*call.failure, freshness)
            found = self.documents(call.entries, roots)
            how = "BM25 over the documents holding any term (qmd query lex:)"
        return self.ranked(terms, found, self.size(collections, freshness), how, freshness)

    def size(
        self, collections: tuple[Collection, ...], freshness: FreshnessCheck
    ) -> tuple[int, int]:
        """The collections' files and bytes: from the freshness check's walk, which every
        query makes anyway, else from a walk of their own."""
        walked = freshness.size(self.deadline)
        return walked if walked is not None else collection_size(collections)

    def ranked(
        self,
        terms: tuple[Term, ...],
        found: list[FoundDocument],
        size: tuple[int, int],
        how: str,
        freshness: FreshnessCheck,
    ) -> TierOutcome:
        ranked = rank_found(
            self.request, terms, found, size, "qmd", self.request.config.qmd.limit,
            self.deadline, self.frequencies,
        )  # fmt: skip
        self.notes += ranked.notes
        dropped = f"; {self.dropped} malformed entries dropped" if self.dropped else ""
        if ranked.hits:
            reason = f"{count_hits(len(ranked.hits))} ({how}){dropped}"
            return self.finish(TierStatus.SERVED, reason, freshness, ranked.hits, ranked.filtered)
        reason = "no hits" if found else "no matches"
        return self.finish(
            TierStatus.EMPTY, f"{reason} ({how}){dropped}", freshness, filtered=ranked.filtered
        )

    def hybrid(
        self,
        binary: str,
        collections: tuple[Collection, ...],
        text: str,
        terms: tuple[Term, ...],
        roots: dict[str, Path],
        freshness: FreshnessCheck,
    ) -> TierOutcome:
        """qmd's own hybrid ranking (models present): its order and scores are kept, the
        content is each file's best section as it is now."""
        scope_flags = tuple(flag for c in collections for flag in ("-c", c.name))
        limit = str(self.request.config.qmd.limit)
        call = self.call((binary, "query", "--json", "-n", limit, *scope_flags, "--", text))
        if call.failure is not None:
            return self.finish(*call.failure, freshness)
        found = self.documents(call.entries, roots)
        ranked = rank_found(
            self.request, terms, found, self.size(collections, freshness), "qmd",
            self.request.config.qmd.limit, self.deadline,
        )  # fmt: skip
        self.notes += ranked.notes
        scores: dict[Path, float] = {}
        for entry, document in zip(call.entries, found, strict=False):
            scores.setdefault(document.path, min(1.0, max(0.0, float(entry["score"]))))
        root = Path(os.path.realpath(self.request.root))
        hits = sorted(
            (
                Hit(h.source, scores.get(root / h.source, h.score), h.content, h.tier,
                    h.line_start, h.line_end, h.terms)
                for h in ranked.hits
            ),
            key=lambda hit: -hit.score,
        )  # fmt: skip
        if hits:
            reason = f"{count_hits(len(hits))} (hybrid query)"
            return self.finish(TierStatus.SERVED, reason, freshness, tuple(hits), ranked.filtered)
        return self.finish(TierStatus.EMPTY, "no matches (hybrid query)", freshness)

    def found_in_index(
        self,
        plan: QmdPlan,
        collections: tuple[Collection, ...],
        terms: tuple[Term, ...],
        roots: dict[str, Path],
    ) -> list[FoundDocument] | None:
        """The documents holding any term, from qmd's index file; None when the CLI must
        answer instead (fast path off, unknown schema or version, SQLite trouble)."""
        if os.environ.get("TIERSCOPE_QMD_FAST_PATH") == "0" or plan.binary is None:
            return None
        index_file = plan.locations.index_file
        names = [c.name for c in collections]
        found = search_index(plan.binary, index_file, names, terms, CANDIDATES, self.deadline)
        if found.expression is not None:
            self.argv = ("qmd-index", str(index_file), "MATCH", found.expression)
        if found.note:
            self.notes.append(found.note)
        if found.documents is None:
            return None
        self.frequencies = found.frequencies
        return [
            FoundDocument(Path(os.path.normpath(roots[d.collection] / d.path)), d.hash)
            for d in found.documents
            if d.collection in roots
        ]

    def documents(self, entries: list[dict], roots: dict[str, Path]) -> list[FoundDocument]:
        """The files qmd's results name, on disk; results that cannot be placed are
        dropped and counted."""
        found: list[FoundDocument] = []
        for entry in entries:
            place = split_uri(entry["file"])
            root = roots.get(place[0]) if place else None
            if place is None or root is None:
                self.dropped += 1
                continue
            docid = entry.get("docid")
            digest = docid[1:] if isinstance(docid, str) and docid.startswith("#") else None
            found.append(FoundDocument(Path(os.path.normpath(root / place[1])), digest or None))
        return found

    def ask_collections(
        self, binary: str
    ) -> tuple[tuple[Collection, ...], tuple[str, ...]] | TierOutcome:
        """Collections from `qmd collection show`, for when index.yml cannot be read."""
        found: list[Collection] = []
        missing: list[str] = []
        for name in self.request.scope.qmd_collections:
            argv = (binary, "collection", "show", name)
            result = run_bounded(argv, self.deadline, cwd=self.request.root)
            failure = call_failure(result, self.allowed)
            collection = collection_from_show(name, result.stdout.decode("utf-8", "replace"))
            if collection is not None and failure is None:
                found.append(rooted(collection, self.request.root))
            elif failure is not None and failure[0] in (TierStatus.TIMEOUT, TierStatus.ERROR):
                self.argv = argv
                return self.finish(*failure)
            else:
                missing.append(name)
        if not found:
            return self.finish(TierStatus.UNAVAILABLE, not_found(tuple(missing)))
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

    def call(self, argv: tuple[str, ...]) -> QmdCall:
        self.argv = argv
        call = call_qmd(argv, self.deadline, self.request.root, self.allowed)
        self.dropped += call.dropped
        if call.truncated_at is not None:
            self.notes.append(f"qmd output capped at {call.truncated_at} bytes; the rest ignored")
        return call

    def finish(
        self,
        status: TierStatus,
        reason: str,
        freshness: FreshnessCheck | None = None,
        hits: tuple[Hit, ...] = (),
        filtered: tuple = (),
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
            filtered=filtered,
            notes=tuple(notes),
        )


def lex_query_argv(
    binary: str, collections: tuple[Collection, ...], terms: tuple[Term, ...]
) -> tuple[str, ...]:
    """One `qmd query` of per-keyword `lex:` lines (OR-combined by qmd, no models needed);
    a word is sent in each way it is written (British and American spellings, irregular
    forms), an abbreviation or an everyday word with the words it stands for."""
    keywords = tuple(
        dict.fromkeys(
            form
            for term in terms
            for form in (*written_forms(term.word), *words_stood_for(term.word))
        )
    )
    scope_flags = tuple(flag for c in collections for flag in ("-c", c.name))
    return (
        binary, "query", "--no-rerank", "--json", "-n", str(CANDIDATES), *scope_flags,
        "--", lex_document(keywords),
    )  # fmt: skip
