"""The store tier: answers a query from the context store's entries (every run).

Entries are ranked by FTS5 bm25 over their content. Every word of the query must appear;
when no entry has them all, any word will do (bm25 still ranks entries with more of the
words first). The store is not made of scope paths, so the scope does not narrow it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from ..models import Hit, TierOutcome, TierStatus, count_hits
from ..project import relative_source
from ..store.entries import ContextEntry, readable_content
from ..store.location import store_path
from ..store.search_text import search_terms
from ..store.store import ContextStore, RankedEntry, StoreError, StoreInterrupted, StoreMissing
from .base import Deadline, Probe, TierRequest

NO_STORE_REASON = "store: no context store yet (tierscope context write ...)"


def bm25_score(bm25: float) -> float:
    """FTS5 bm25 (unbounded, better when more negative) mapped into [0, 1), higher better."""
    magnitude = abs(bm25)
    return magnitude / (1.0 + magnitude)


class StoreTier:
    name = "store"

    def probe(self, request: TierRequest) -> Probe:
        path = store_path(request.root, request.config)
        if not path.is_file():
            return Probe(False, NO_STORE_REASON, str(path))
        try:
            with ContextStore.open(path, create=False) as store:
                entries = store.count()
        except StoreError as exc:
            return Probe(False, f"store: {exc}", str(path))
        return Probe(True, f"store: {entries} entries", str(path), details={"entries": entries})

    def search(self, request: TierRequest, deadline: Deadline) -> TierOutcome:
        started = time.monotonic()
        path = store_path(request.root, request.config)
        if not search_terms(request.query):
            return self._outcome(started, TierStatus.EMPTY, "no searchable words in the query")

        def should_stop() -> bool:
            return deadline.expired() or deadline.cancelled

        try:
            with ContextStore.open(
                path, create=False, busy_timeout=max(deadline.remaining(), 0.001)
            ) as store:
                if should_stop():
                    raise StoreInterrupted("stopped before searching")
                ranked, matching = self._ranked(store, request, should_stop)
        except StoreMissing:
            return self._outcome(started, TierStatus.UNAVAILABLE, NO_STORE_REASON)
        except StoreInterrupted:
            why = "cancelled" if deadline.cancelled else f"timeout after {request.timeout:g}s"
            return self._outcome(started, TierStatus.TIMEOUT, f"search stopped: {why}")
        except StoreError as exc:
            return self._outcome(started, TierStatus.ERROR, str(exc))
        hits = tuple(self._hit(item, request.root) for item in ranked)
        if not hits:
            return self._outcome(started, TierStatus.EMPTY, "no entry matches the query")
        return self._outcome(
            started, TierStatus.SERVED, f"{count_hits(len(hits))} (bm25, {matching})", hits
        )

    def _ranked(
        self, store: ContextStore, request: TierRequest, should_stop: Callable[[], bool]
    ) -> tuple[tuple[RankedEntry, ...], str]:
        limit = request.config.store.limit
        ranked = store.search_ranked(request.query, limit, should_stop=should_stop)
        if ranked or len(search_terms(request.query)) < 2:
            return ranked, "all words"
        return store.search_ranked(
            request.query, limit, any_term=True, should_stop=should_stop
        ), "any word"

    def _hit(self, ranked: RankedEntry, root: Path) -> Hit:
        entry = ranked.entry
        return Hit(
            source=_source(entry, root),
            score=bm25_score(ranked.bm25),
            content=readable_content(entry),
            tier=self.name,
            line_start=entry.line,
            line_end=entry.line,
        )

    def _outcome(self, started: float, status: TierStatus, reason: str, hits=()) -> TierOutcome:
        return TierOutcome(
            tier=self.name,
            status=status,
            reason=reason,
            latency_ms=(time.monotonic() - started) * 1000,
            hits=tuple(hits),
        )


def _source(entry: ContextEntry, root: Path) -> str:
    """The entry's file, root-relative, when it has one; else `store:<type>/<id>`."""
    if not entry.file:
        return f"store:{entry.type}/{entry.id}"
    path = Path(entry.file)
    return relative_source(path, root) if path.is_absolute() else path.as_posix()
