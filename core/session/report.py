"""A session as `tierscope session show` tells it: each query's tokens, the accumulated
curve with its clearings, the repeats avoided and tokens saved, and where a threshold was
crossed."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..config.model import TokenBudgets
from .ledger import CLEARING, QUERY, SessionFile
from .packing import ACCUMULATED, SESSION, totals_of


@dataclass(frozen=True, slots=True)
class SessionEvent:
    """One query or clearing of a session, with the running totals after it. `crossed`
    names the thresholds this query took the session over (not over just before)."""

    kind: str  # "query" | "clearing"
    ts: str
    agent: str
    query: str = ""
    used: int = 0
    limit: int = 0
    hits: int = 0
    references: int = 0
    repeats: int = 0
    saved: int = 0
    accumulated: int = 0
    total: int = 0
    over: tuple[str, ...] = ()
    crossed: tuple[str, ...] = ()
    cleared_tokens: int = 0

    def to_dict(self) -> dict:
        record: dict[str, object] = {"kind": self.kind, "ts": self.ts, "agent": self.agent}
        if self.kind == CLEARING:
            record["cleared_tokens"] = self.cleared_tokens
        else:
            record.update(
                query=self.query,
                tokens=self.used,
                limit=self.limit,
                hits=self.hits,
                references=self.references,
                repeats=self.repeats,
                saved=self.saved,
                over=list(self.over),
                crossed=list(self.crossed),
            )
        record.update(accumulated=self.accumulated, total=self.total)
        return record


@dataclass(frozen=True, slots=True)
class SessionReport:
    session: str
    limits: TokenBudgets
    events: tuple[SessionEvent, ...]
    clipped: bool = False
    totals: dict[str, int] = field(default_factory=dict)

    @property
    def queries(self) -> tuple[SessionEvent, ...]:
        return tuple(event for event in self.events if event.kind == QUERY)

    @property
    def clearings(self) -> int:
        return sum(event.kind == CLEARING for event in self.events)

    @property
    def agents(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(event.agent for event in self.events if event.agent))

    def crossings(self) -> list[tuple[str, int, SessionEvent]]:
        """(threshold, query number from 1, the query) for each crossing, in order."""
        found: list[tuple[str, int, SessionEvent]] = []
        for number, event in enumerate(self.queries, start=1):
            found.extend((name, number, event) for name in event.crossed)
        return found

    def to_dict(self) -> dict:
        return {
            "session": self.session,
            "thresholds": {
                "single_search": self.limits.single_search,
                "accumulated": self.limits.accumulated,
                "session": self.limits.session,
            },
            "queries": self.totals.get("queries", len(self.queries)),
            "clearings": self.clearings,
            "tokens": self.totals.get("total", 0),
            "accumulated": self.totals.get("accumulated", 0),
            "repeats_avoided": self.totals.get("repeats_total", 0),
            "tokens_saved": self.totals.get("saved_total", 0),
            "agents": list(self.agents),
            "crossed": [
                {
                    "threshold": name,
                    "query": number,
                    "ts": event.ts,
                    "value": event.accumulated if name == ACCUMULATED else event.total,
                }
                for name, number, event in self.crossings()
            ],
            "clipped": self.clipped,
            "events": [event.to_dict() for event in self.events],
        }


def session_report(
    session: str, records: list[dict], limits: TokenBudgets, clipped: bool = False
) -> SessionReport:
    """The report of a session from its file's records, oldest first. Every value is
    checked (the file is untrusted); a record of another kind is passed over."""
    events: list[SessionEvent] = []
    previous: tuple[str, ...] = ()
    for record in records:
        kind = record.get("kind")
        totals = totals_of(record)
        ts, agent = _text(record.get("ts")), _text(record.get("agent"))
        if kind == CLEARING:
            events.append(
                SessionEvent(
                    CLEARING,
                    ts,
                    agent,
                    accumulated=0,
                    total=totals["total"],
                    cleared_tokens=_count(record.get("cleared_tokens")),
                )
            )
            previous = tuple(name for name in previous if name != ACCUMULATED)
            continue
        if kind != QUERY:
            continue
        over = tuple(name for name in (ACCUMULATED, SESSION) if name in _names(record.get("over")))
        listed = record.get("hits")
        hits = listed if isinstance(listed, list) else []
        events.append(
            SessionEvent(
                QUERY,
                ts,
                agent,
                query=_text(record.get("query")),
                used=_count(record.get("used")),
                limit=_count(record.get("limit")),
                hits=len(hits),
                references=sum(isinstance(h, dict) and h.get("sent") == "reference" for h in hits),
                repeats=_count(record.get("repeats")),
                saved=_count(record.get("saved")),
                accumulated=totals["accumulated"],
                total=totals["total"],
                over=over,
                crossed=tuple(name for name in over if name not in previous),
            )
        )
        previous = over
    last = next((r for r in reversed(records) if r.get("kind") in (QUERY, CLEARING)), None)
    return SessionReport(session, limits, tuple(events), clipped, totals_of(last))


def over_now(totals: dict[str, int], limits: TokenBudgets) -> tuple[str, ...]:
    """The thresholds a session's running totals exceed."""
    return tuple(
        name
        for name, value, threshold in (
            (ACCUMULATED, totals["accumulated"], limits.accumulated),
            (SESSION, totals["total"], limits.session),
        )
        if value > threshold
    )


def listing_row(found: SessionFile, limits: TokenBudgets) -> dict:
    """One session of `tierscope session list`."""
    totals = totals_of(found.last)
    last = found.last or {}
    return {
        "session": found.session,
        "queries": totals["queries"],
        "tokens": totals["total"],
        "accumulated": totals["accumulated"],
        "repeats_avoided": totals["repeats_total"],
        "tokens_saved": totals["saved_total"],
        "last": _text(last.get("ts")),
        "over": list(over_now(totals, limits)),
        "path": str(found.path),
    }


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def _count(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def _names(value: object) -> set[str]:
    return {item for item in value if isinstance(item, str)} if isinstance(value, list) else set()
