"""Tokens injected per session — or, for queries that named none, per agent per day —
accumulated over time and checked against the seed 004 thresholds (`token_budgets`), as
plain data a chart can draw.

Each `execute` line adds its `budget.used` to the running totals. `accumulated` restarts
at 0 after a `clearing` line (seed 004 §3.4: clearing synthesises and drops the results);
`session` only grows. Lines that name a session (`tierscope query --session`) form that
session's series whatever agent wrote them, and their own running totals
(`accumulated`, `session_tokens`) are used: they count the session's lines in every file,
also those not on show.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import Protocol

from tierscope.config.model import TokenBudgets

from .filters import EntryFilter
from .records import TrajectoryEntry, day_of

SINGLE_SEARCH = "single_search"
ACCUMULATED = "accumulated"
SESSION = "session"
THRESHOLDS = (SINGLE_SEARCH, ACCUMULATED, SESSION)


@dataclass(frozen=True, slots=True)
class BudgetPoint:
    """The running totals right after one query (or one clearing) of an agent.

    `over` names the thresholds exceeded at this point, in THRESHOLDS order.
    """

    line_no: int
    ts: str
    timestamp: float | None
    query_id: str
    query: str
    used: int
    accumulated: int
    session: int
    over: tuple[str, ...] = ()
    cleared: bool = False
    agent: str = ""
    repeats: int = 0  # sections this query did not send again (sessions only)
    saved: int = 0  # tokens of repeated content it did not send


@dataclass(frozen=True, slots=True)
class BudgetSeries:
    """One agent's day, or one session (`session` set, `agent` the first to query in
    it): its points in time order."""

    agent: str
    day: date | None
    points: tuple[BudgetPoint, ...]
    session: str = ""

    @property
    def agents(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(point.agent for point in self.points if point.agent))

    @property
    def repeats(self) -> int:
        return sum(point.repeats for point in self.points)

    @property
    def saved(self) -> int:
        return sum(point.saved for point in self.points)

    @property
    def session_total(self) -> int:
        return self.points[-1].session if self.points else 0

    @property
    def peak_accumulated(self) -> int:
        return max((point.accumulated for point in self.points), default=0)

    @property
    def exceeded(self) -> tuple[str, ...]:
        """Every threshold exceeded at some point of the day, in THRESHOLDS order."""
        seen = {name for point in self.points for name in point.over}
        return tuple(name for name in THRESHOLDS if name in seen)

    def first_over(self, threshold: str) -> BudgetPoint | None:
        """The point where `threshold` was first exceeded, if ever."""
        return next((point for point in self.points if threshold in point.over), None)


@dataclass(frozen=True, slots=True)
class BudgetTimeline:
    limits: TokenBudgets
    series: tuple[BudgetSeries, ...]


class LineSource(Protocol):
    """A LineIndex or a MergedView."""

    def matches(self, wanted: EntryFilter, start: int = 0, *, reverse: bool = False): ...

    def line(self, i: int) -> TrajectoryEntry: ...


def budget_timeline(entries: Iterable[TrajectoryEntry], limits: TokenBudgets) -> BudgetTimeline:
    """Series per session, and per (agent, day) for lines without one, from `execute`
    lines with `budget.used` and `clearing` lines, in any order (each series is put in
    time order); other lines are ignored. Series come by day (a session's first day), a
    day's sessions first, then by agent."""
    groups: dict[tuple[str, str, date | None], list[TrajectoryEntry]] = {}
    for entry in entries:
        if not _counts(entry):
            continue
        session = _session_of(entry)
        key = ("", session, None) if session else (entry.agent, "", day_of(entry.raw.get("ts")))
        groups.setdefault(key, []).append(entry)
    series = []
    for (agent, session, day), members in groups.items():
        points = _accumulate(members, limits)
        if session:
            first = points[0]
            agent, day = first.agent, day_of(first.ts)
        series.append(BudgetSeries(agent, day, points, session))
    series.sort(key=lambda one: (one.day or date.min, not one.session, one.agent, one.session))
    return BudgetTimeline(limits, tuple(series))


def _session_of(entry: TrajectoryEntry) -> str:
    session = entry.raw.get("session")
    return session if isinstance(session, str) else ""


def budget_timeline_of(source: LineSource, limits: TokenBudgets) -> BudgetTimeline:
    """The timeline of everything in an index or merged view (reads only the lines that
    count)."""
    wanted = (EntryFilter(phase="execute"), EntryFilter(phase="clearing"))
    entries = (source.line(i) for each in wanted for i in source.matches(each))
    return budget_timeline(entries, limits)


def _counts(entry: TrajectoryEntry) -> bool:
    if entry.flagged:
        return False
    return entry.phase == "clearing" or (entry.phase == "execute" and entry.budget_used is not None)


def _accumulate(members: list[TrajectoryEntry], limits: TokenBudgets) -> tuple[BudgetPoint, ...]:
    ordered = sorted(
        members, key=lambda entry: entry.timestamp if entry.timestamp is not None else 0.0
    )
    accumulated = session = 0
    points: list[BudgetPoint] = []
    for entry in ordered:
        raw = entry.raw
        cleared = entry.phase == "clearing"
        used = 0 if cleared else max(entry.budget_used or 0, 0)
        accumulated = 0 if cleared else accumulated + used
        session += used
        if _session_of(entry):
            # The session's own totals: its lines in files not on show count too.
            accumulated = 0 if cleared else _count(raw.get("accumulated"), accumulated)
            session = _count(raw.get("session_tokens"), session)
        over = tuple(
            name
            for name, value, limit in (
                (SINGLE_SEARCH, used, limits.single_search),
                (ACCUMULATED, accumulated, limits.accumulated),
                (SESSION, session, limits.session),
            )
            if value > limit
        )
        points.append(
            BudgetPoint(
                line_no=entry.line_no,
                ts=entry.ts,
                timestamp=entry.timestamp,
                query_id=entry.query_id,
                query=entry.query,
                used=used,
                accumulated=accumulated,
                session=session,
                over=over,
                cleared=cleared,
                agent=entry.agent,
                repeats=_count(raw.get("repeats"), 0),
                saved=_count(raw.get("saved"), 0),
            )
        )
    return tuple(points)


def _count(value: object, default: int) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    return default
