"""Running a query set through the engine: every tier runs for every query (so each
tier's own ranking is measured), and the ladder's answer is what a skill would receive."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from ..api import Project, QueryOptions
from ..models import Hit, QueryResult, TierStatus
from .metrics import (
    QueryEvaluation,
    RankedAnswer,
    RankedHit,
    Summary,
    normalise_passage,
    summarise,
)
from .queryset import KnownItemQuery

RAN = (TierStatus.SERVED, TierStatus.EMPTY)


@dataclass(frozen=True, slots=True)
class TierSummary:
    tier: str
    ran: int  # queries the tier answered (served or empty), over which `summary` is taken
    other: dict[str, int]  # status -> queries where it did not run (unavailable, timeout...)
    summary: Summary


@dataclass(frozen=True, slots=True)
class EvaluationReport:
    evaluations: tuple[QueryEvaluation, ...]
    ladder: Summary
    groups: dict[str, Summary]  # "scope docs", "short", ... -> the ladder over that group
    tiers: tuple[TierSummary, ...]

    def misses(self) -> list[QueryEvaluation]:
        """Queries whose expected file the ladder did not put first."""
        return [e for e in self.evaluations if e.ladder.rank_of(e.query.expected) != 1]

    def passage_misses(self) -> list[QueryEvaluation]:
        """Queries whose answer served a file holding the passage without showing it."""
        return [e for e in self.evaluations if e.passage_miss() is not None]


def evaluate(
    project: Project,
    queries: Sequence[KnownItemQuery],
    *,
    scope: str | None = None,
    tiers: tuple[str, ...] | None = None,
    budget: int | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> EvaluationReport:
    """Run every query (rows without a scope use `scope`) and score the answers."""
    evaluations: list[QueryEvaluation] = []
    for number, query in enumerate(with_passage_files(project.root, queries), start=1):
        query = replace(query, scope=query.scope or scope)  # reported as it ran
        result = project.run(
            QueryOptions(
                text=query.text,
                scope=query.scope,
                budget=budget,
                tiers=tiers,
                all_tiers=True,
            ),
            trajectory=False,
        )
        evaluations.append(_evaluation(query, result))
        if on_progress is not None:
            on_progress(number, len(queries))
    return summarise_all(evaluations)


def with_passage_files(root: Path, queries: Sequence[KnownItemQuery]) -> list[KnownItemQuery]:
    """Each query with the expected files that really hold its passage."""
    texts: dict[str, str] = {}

    def text_of(source: str) -> str:
        if source not in texts:
            try:
                texts[source] = normalise_passage(
                    (root / source).read_text(encoding="utf-8", errors="replace")
                )
            except OSError:
                texts[source] = ""
        return texts[source]

    return [
        replace(
            query,
            passage_files=tuple(
                f for f in query.expected if normalise_passage(query.passage) in text_of(f)
            ),
        )
        if query.passage
        else query
        for query in queries
    ]


def summarise_all(evaluations: list[QueryEvaluation]) -> EvaluationReport:
    ladder = summarise((e.query, e.ladder) for e in evaluations)
    groups: dict[str, Summary] = {}
    for key in _group_keys(evaluations):
        members = [e for e in evaluations if key in _keys_of(e)]
        groups[key] = summarise((e.query, e.ladder) for e in members)
    tier_names = list(dict.fromkeys(name for e in evaluations for name in e.tiers))
    tier_summaries = []
    for name in tier_names:
        ran = [e for e in evaluations if e.tiers[name].status in RAN]
        other: dict[str, int] = {}
        for e in evaluations:
            status = e.tiers[name].status
            if status not in RAN:
                other[status] = other.get(status, 0) + 1
        summary = summarise((e.query, e.tiers[name]) for e in ran)
        tier_summaries.append(TierSummary(name, len(ran), other, summary))
    return EvaluationReport(tuple(evaluations), ladder, groups, tuple(tier_summaries))


def _keys_of(evaluation: QueryEvaluation) -> tuple[str, str]:
    return (f"scope {evaluation.query.scope or '(default)'}", evaluation.query.length)


def _group_keys(evaluations: list[QueryEvaluation]) -> list[str]:
    scopes = sorted({_keys_of(e)[0] for e in evaluations})
    lengths = [k for k in ("short", "long") if any(e.query.length == k for e in evaluations)]
    return [*scopes, *lengths]


def _answer(hits: Sequence[Hit], latency_ms: float, status: str = "") -> RankedAnswer:
    ranked = tuple(RankedHit(h.source, h.content, h.tokens, h.line_start, h.line_end) for h in hits)
    return RankedAnswer(ranked, latency_ms, status)


def _evaluation(query: KnownItemQuery, result: QueryResult) -> QueryEvaluation:
    tiers = {
        outcome.tier: _answer(
            sorted(outcome.hits, key=lambda h: -h.score), outcome.latency_ms, outcome.status
        )
        for outcome in result.outcomes
        if outcome.status is not TierStatus.DISABLED
    }
    # The ladder stops at the first tier that serves: its latency is the tiers up to it.
    latency = 0.0
    for outcome in result.outcomes:
        latency += outcome.latency_ms
        if outcome.tier == result.served_by:
            break
    ladder = _answer(result.hits, latency, result.refused.message if result.refused else "")
    return QueryEvaluation(query, ladder, result.served_by, tiers)
