"""The query pipeline: tiers in order (falling through), filter, dedup, budget — emitting
events along the way. Pure orchestration; every stage lives in its own module."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from . import shutdown
from .budget import apply_budget, snippets_fitting
from .config.model import Config
from .deadline import Deadline
from .debugging import report_exception
from .dedup import deduplicate, facts_under
from .events import (
    BudgetApplied,
    EventSink,
    QueryFinished,
    QueryStarted,
    TierFinished,
    TierStarted,
)
from .filtering import ContextFilter
from .models import (
    FilteredHit,
    Hit,
    QueryRequest,
    QueryResult,
    ResolvedScope,
    TierOutcome,
    TierStatus,
    count_hits,
)
from .tiers.base import TierRequest
from .tiers.registry import load_tier

# `typing` is not imported at run time: a query never needs it, and it costs ~3 ms.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from .session.keeper import SessionKeeper
    from .tiers.base import Tier

STANDARD_TIERS = ("qmd", "ck", "grep")


def run_tiers(
    request: QueryRequest,
    *,
    query_id: str,
    root: Path,
    config: Config,
    scope: ResolvedScope,
    private_paths: tuple[Path, ...],
    on_event: EventSink,
    cancel: threading.Event | None = None,
    tier_factory: Callable[[str], Tier] = load_tier,
    clock: Callable[[], float] = time.monotonic,
    session: SessionKeeper | None = None,
) -> QueryResult:
    """Run `request` through its tiers; the first tier with a hit serves (every tier runs
    with `all_tiers`). Returns the result after emitting every event. `tier_factory` and
    `clock` (seconds, for `total_ms`) are where tests put scripted tiers and fake time.

    With a `session`, the answer is packed in the session's turn (what it has received is
    referenced, not sent again), which lasts until the execute event has been handled."""
    started = clock()
    cancel = cancel or threading.Event()
    on_event(QueryStarted(query_id, request))
    context_filter = ContextFilter(root, config.filtering, private_paths)
    outcomes: list[TierOutcome] = []
    served_by: str | None = None
    served_hits: tuple[Hit, ...] = ()
    tier_config = snippets_fitting(config, request.budget)
    for name in request.tiers:
        if cancel.is_set() or shutdown.requested():
            outcome = TierOutcome(name, TierStatus.SKIPPED, "query cancelled")
        elif served_by and not request.all_tiers:
            outcome = TierOutcome(name, TierStatus.SKIPPED, f"{served_by} served")
        else:
            on_event(TierStarted(query_id, name, request.timeout))
            tier_request = TierRequest(
                query=request.text,
                root=root,
                scope=scope,
                config=tier_config,
                timeout=request.timeout,
                private_paths=private_paths,
                refresh=request.refresh,
                context_filter=context_filter,
            )
            outcome = _run_one(tier_factory, name, tier_request, request.timeout, cancel)
            outcome = _apply_filter(outcome, context_filter)
            if outcome.hits and served_by is None:
                served_by, served_hits = name, outcome.hits
        outcomes.append(outcome)
        on_event(TierFinished(query_id, outcome))
    for name in STANDARD_TIERS:
        if name not in request.tiers:
            outcome = TierOutcome(name, TierStatus.DISABLED, "not in the tier list")
            outcomes.append(outcome)
            on_event(TierFinished(query_id, outcome))

    hits, removed = deduplicate(served_hits, *facts_under(root))
    turns = session.turn() if session is not None else contextlib.nullcontext()
    with turns as turn:
        if turn is None:
            report, session_outcome = apply_budget(hits, request.budget), None
        else:
            report, session_outcome = turn.pack(hits, request.budget)
        on_event(BudgetApplied(query_id, report))
        result = QueryResult(
            query_id=query_id,
            request=request,
            scope=scope,
            outcomes=tuple(outcomes),
            budget=report,
            served_by=served_by,
            total_ms=(clock() - started) * 1000,
            deduplicated=removed,
            notes=scope.notes,
            session=session_outcome,
        )
        on_event(QueryFinished(query_id, result))
        if turn is not None:
            turn.record(result)
    return result


def _run_one(
    tier_factory: Callable[[str], Tier],
    name: str,
    tier_request: TierRequest,
    timeout: float,
    cancel: threading.Event,
) -> TierOutcome:
    started = time.monotonic()
    try:
        tier = tier_factory(name)
        outcome = tier.search(tier_request, Deadline.after(timeout, cancel))
    except Exception as exc:  # a broken tier must never break the query: fall through
        report_exception(f"tier {name} raised; it ends as an error and the next tier runs")
        return TierOutcome(
            name,
            TierStatus.ERROR,
            f"internal error: {type(exc).__name__}: {exc}",
            latency_ms=(time.monotonic() - started) * 1000,
        )
    if outcome.hits and outcome.status is not TierStatus.SERVED:
        outcome = replace(outcome, status=TierStatus.SERVED)
    return outcome


def _apply_filter(outcome: TierOutcome, context_filter: ContextFilter) -> TierOutcome:
    if not outcome.hits:
        return outcome
    kept: list[Hit] = []
    filtered = list(outcome.filtered)
    for hit in outcome.hits:
        reason = context_filter.reason_to_exclude(hit.source)
        if reason:
            filtered.append(FilteredHit(hit.source, outcome.tier, reason))
        else:
            kept.append(hit)
    if len(kept) == len(outcome.hits):
        return outcome
    removed = len(outcome.hits) - len(kept)
    if kept:
        # The tier counted what it found; say what filtering left, so count and reason agree.
        reason = f"{outcome.reason}; {removed} filtered, {count_hits(len(kept))} left"
        return replace(outcome, hits=tuple(kept), filtered=tuple(filtered), reason=reason)
    return replace(
        outcome,
        status=TierStatus.EMPTY,
        reason=f"{count_hits(len(outcome.hits))}, all filtered",
        hits=(),
        filtered=tuple(filtered),
    )
