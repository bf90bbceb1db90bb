"""A logged query read back: its `intent` and `execute` lines found together, what to ask
to run it again, and what it found when it ran."""

from __future__ import annotations

from dataclasses import dataclass

from .filters import EntryFilter
from .index import LineIndex
from .records import TrajectoryEntry, text_field

INTENT = "intent"
EXECUTE = "execute"
# How far from a query's line its other half is looked for. Parallel skills interleave
# their lines, but a query's two lines are written within one run of the engine.
PAIR_WINDOW = 2000


@dataclass(frozen=True, slots=True)
class QueryPair:
    """The two lines one query wrote; either may be missing (a run still going, a line
    cut off, a file written by something else)."""

    intent: TrajectoryEntry | None
    execute: TrajectoryEntry | None


@dataclass(frozen=True, slots=True)
class LoggedTier:
    """One tier of a logged run: `{tier, status, count}` of the execute line."""

    tier: str
    status: str
    count: int | None


@dataclass(frozen=True, slots=True)
class LoggedRun:
    """What a logged query found when it ran, from its execute line; `where` names the
    line (`implement-2026-11-23.jsonl:12`)."""

    where: str
    ts: str
    served_by: str | None
    result_count: int | None
    tiers: tuple[LoggedTier, ...]
    budget_used: int | None
    budget_limit: int | None


@dataclass(frozen=True, slots=True)
class LoggedQuery:
    """What a logged query asked (None: not logged, so the usual precedence applies) and,
    when its execute line was found, what it found."""

    text: str
    scope: str | None
    budget: int | None
    skill: str | None
    ran: LoggedRun | None


def find_pair(index: LineIndex, i: int, window: int = PAIR_WINDOW) -> QueryPair:
    """The intent and execute lines of the query that line `i` belongs to, looked for up
    to `window` lines away (an intent's execute after it, an execute's intent before it).
    A line that is neither half of a query gives a pair of whatever it is, if either."""
    entry = index.line(i)
    if entry.flagged or entry.phase not in (INTENT, EXECUTE):
        return QueryPair(None, None)
    if not entry.query_id:
        return QueryPair(entry, None) if entry.phase == INTENT else QueryPair(None, entry)
    if entry.phase == INTENT:
        wanted = EntryFilter(phase=EXECUTE, text=entry.query_id)
        found = index.matches(wanted, i + 1, stop=i + 1 + window)
        return QueryPair(entry, _same_query(index, found, entry.query_id))
    wanted = EntryFilter(phase=INTENT, text=entry.query_id)
    found = index.matches(wanted, i - 1, reverse=True, stop=i - 1 - window)
    return QueryPair(_same_query(index, found, entry.query_id), entry)


def _same_query(index: LineIndex, candidates, query_id: str) -> TrajectoryEntry | None:
    # The text test matches the id anywhere in a line; only the query's own id counts.
    for k in candidates:
        other = index.line(k)
        if other.query_id == query_id and not other.flagged:
            return other
    return None


def logged_query(pair: QueryPair, file_name: str) -> LoggedQuery | None:
    """What to ask to run the pair's query again (intent fields first, the execute line's
    where the intent has none) and what it found; None when neither line names a query."""
    intent = pair.intent.raw if pair.intent is not None else {}
    execute = pair.execute.raw if pair.execute is not None else {}
    text = text_field(intent, "query") or text_field(execute, "query")
    if not text.strip():
        return None
    scope = text_field(intent, "scope") or text_field(execute, "scope") or None
    budget = _count(intent.get("budget"))
    if budget is None and isinstance(execute.get("budget"), dict):
        budget = _count(execute["budget"].get("limit"))
    skill = intent.get("skill")
    ran = _logged_run(pair.execute, file_name) if pair.execute is not None else None
    return LoggedQuery(
        text=text,
        scope=scope,
        budget=budget,
        skill=skill if isinstance(skill, str) and skill else None,
        ran=ran,
    )


def _logged_run(entry: TrajectoryEntry, file_name: str) -> LoggedRun:
    record = entry.raw
    served = record.get("served_by")
    tiers = record.get("tiers")
    return LoggedRun(
        where=f"{file_name}:{entry.line_no}",
        ts=entry.ts,
        served_by=served if isinstance(served, str) and served else None,
        result_count=entry.result_count,
        tiers=tuple(
            LoggedTier(
                text_field(tier, "tier"), text_field(tier, "status"), _count(tier.get("count"))
            )
            for tier in (tiers if isinstance(tiers, list) else ())
            if isinstance(tier, dict)
        ),
        budget_used=entry.budget_used,
        budget_limit=entry.budget_limit,
    )


def _count(value: object) -> int | None:
    """A whole, non-negative number, else None."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        return None
    return value
