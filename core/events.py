"""Events a query emits as it runs. The CLI ignores them, the workbench draws them live,
the trajectory logger writes them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .models import BudgetReport, QueryRequest, QueryResult, TierOutcome


@dataclass(frozen=True, slots=True)
class QueryStarted:
    """Before the first tier runs."""

    query_id: str
    request: QueryRequest


@dataclass(frozen=True, slots=True)
class TierStarted:
    """A tier begins (a tier that is skipped or disabled never starts)."""

    query_id: str
    tier: str
    timeout: float


@dataclass(frozen=True, slots=True)
class TierFinished:
    """A tier ended, in its one status."""

    query_id: str
    outcome: TierOutcome


@dataclass(frozen=True, slots=True)
class BudgetApplied:
    """The served hits were cut to the token budget."""

    query_id: str
    report: BudgetReport


@dataclass(frozen=True, slots=True)
class QueryFinished:
    """The whole result, after the budget."""

    query_id: str
    result: QueryResult


QueryEvent = QueryStarted | TierStarted | TierFinished | BudgetApplied | QueryFinished
EventSink = Callable[[QueryEvent], None]


def ignore_event(_event: QueryEvent) -> None:
    """The default sink: headless runs do not need events."""
