"""Running a query set through the engine: every tier runs for every query (so each
tier's own ranking is measured), and the ladder's answer is what a skill would receive."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from ..api import Project, QueryOptions
from ..files import SYMBOLIC_LINK, Unreadable, read_text_file
from ..models import Hit, QueryResult, TierStatus
from ..ranking.notebooks import is_notebook, notebook_view
from ..ranking.roff_text import manual_name, readable
from ..ranking.spans import document_kind
from .metrics import (
    QueryEvaluation,
    RankedAnswer,
    RankedHit,
    Summary,
    normalise_passage,
    summarise,
)
from .queryset import KnownItemQuery
from .scope_gaps import not_searched

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
    problems: tuple[str, ...] = ()  # of the query set (checked_queries)

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
    checked, problems = checked_queries(project.root, queries, project.config.grep.max_filesize)
    for number, query in enumerate(checked, start=1):
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
        if result.scope is not None and query.expected:
            problems += not_searched(project, query, result.scope)
        if on_progress is not None:
            on_progress(number, len(queries))
    return replace(summarise_all(evaluations), problems=tuple(problems))


def checked_queries(
    root: Path, queries: Sequence[KnownItemQuery], max_bytes: int
) -> tuple[list[KnownItemQuery], list[str]]:
    """Each query with the expected files that really hold its passage, and the problems
    of the set: an expected file that cannot be read in the project (a typo reads as a
    ranking miss otherwise), a passage in none of them. Files are read as any project file
    is (inside the root, regular, at most `max_bytes`), and as its snippets show it (a
    notebook's cells, a manual page without its roff markup: `_as_served`); a passage
    copied from a manual page's markup is looked for as it is served."""
    texts: dict[str, str | None] = {}
    reasons: dict[str, str] = {}

    def text_of(source: str) -> str | None:
        if source not in texts:
            try:
                document = read_text_file(root / source, root, max_bytes)
                texts[source] = normalise_passage(_as_served(document.text, source))
            except Unreadable as exc:
                texts[source] = None
                reason = str(exc)
                if reason == "no longer exists":
                    reason = "not in the project"
                elif reason == SYMBOLIC_LINK:
                    reason = _link_reason(root, source)
                reasons[source] = reason
        return texts[source]

    checked: list[KnownItemQuery] = []
    problems: list[str] = []
    for query in queries:
        for source in query.expected:
            if text_of(source) is None:
                problems.append(f"line {query.line}: expected file {source}: {reasons[source]}")
        if query.passage:
            passage = query.passage
            holding = _holding(passage, query.expected, text_of)
            if not holding and any(document_kind(f) == "roff" for f in query.expected):
                # Copied from a manual page's markup: looked for as the page is served.
                passage = readable(passage)
                holding = _holding(passage, query.expected, text_of)
            if not holding:
                problems.append(f"line {query.line}: the passage is in none of the expected files")
            query = replace(query, passage=passage, passage_files=holding)
        checked.append(query)
    return checked, problems


def _link_reason(root: Path, source: str) -> str:
    """Why an expected file that is a symbolic link is never served, with the file to
    name instead when the link leads to one inside the root (starship's
    `docs/guide/README.md`, a link to its `README.md`)."""
    target = Path(os.path.realpath(root / source))
    real_root = Path(os.path.realpath(root))
    if target.is_file() and target.is_relative_to(real_root):
        name = target.relative_to(real_root).as_posix()
        return f"a symbolic link to {name}, not followed: name {name}"
    return SYMBOLIC_LINK


def _holding(
    passage: str, expected: Sequence[str], text_of: Callable[[str], str | None]
) -> tuple[str, ...]:
    wanted = normalise_passage(passage)
    return tuple(source for source in expected if wanted in (text_of(source) or ""))


def _as_served(text: str, source: str) -> str:
    """A file's text as its snippets show it: a notebook's cells, not its JSON; a manual
    page's lines as read, not their roff markup."""
    if document_kind(source) == "roff":
        lines = text.splitlines()
        name = manual_name(lines)
        return "\n".join(readable(line, name) for line in lines)
    view = notebook_view(text) if is_notebook(source) else None
    return view.text if view is not None else text


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
