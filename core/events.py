"""Events a query emits as it runs. The CLI ignores them, the workbench draws them live,
the trajectory logger writes them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .models import BudgetReport, QueryRequest, QueryResult, TierOutcome


@dataclass(frozen=True, slots=True)
class QueryStarted:
    query_id: str
    request: QueryRequest


@dataclass(frozen=True, slots=True)
class TierStarted:
    query_id: str
    tier: str
    timeout: float


@dataclass(frozen=True, slots=True)
class TierFinished:
    query_id: str
    outcome: TierOutcome


@dataclass(frozen=True, slots=True)
class BudgetApplied:
    query_id: str
    report: BudgetReport


@dataclass(frozen=True, slots=True)
class QueryFinished:
    query_id: str
    result: QueryResult


QueryEvent = QueryStarted | TierStarted | TierFinished | BudgetApplied | QueryFinished
EventSink = Callable[[QueryEvent], None]


def ignore_event(_event: QueryEvent) -> None:
    """The default sink: headless runs do not need events."""
