"""Write a query's `intent` line before the tiers run and its `execute` line after, as an
event sink — the same events the workbench draws."""

from __future__ import annotations

import time
from pathlib import Path

from ..events import QueryEvent, QueryFinished, QueryStarted
from ..models import SessionOutcome
from .writer import append_records


def utc_timestamp() -> str:
    """Now, in UTC, to the millisecond: `2026-11-23T09:15:02.517Z`. From `time`, not
    `datetime`, which a query would import for this alone (~1 ms)."""
    seconds, nanoseconds = divmod(time.time_ns(), 1_000_000_000)
    whole = time.strftime("%Y-%m-%dT%H:%M:%S.", time.gmtime(seconds))
    return whole + f"{nanoseconds // 1_000_000:03d}Z"


class TrajectoryRecorder:
    """Appends to one trajectory file. Never raises: the first problem becomes `warning`."""

    def __init__(self, path: Path, agent: str, root: Path) -> None:
        self.path = path
        self.agent = agent
        self.root = root
        self.warning: str | None = None

    def __call__(self, event: QueryEvent) -> None:
        if isinstance(event, QueryStarted):
            request = event.request
            session = {"session": request.session} if request.session else {}
            self._append(
                {
                    "ts": utc_timestamp(),
                    "agent": self.agent,
                    "phase": "intent",
                    "query_id": event.query_id,
                    "query": request.text,
                    "scope": request.scope,
                    "budget": request.budget,
                    "tiers": list(request.tiers),
                    "skill": request.skill,
                    "root": str(self.root),
                    **session,
                }
            )
        elif isinstance(event, QueryFinished):
            result = event.result
            self._append(
                {
                    "ts": utc_timestamp(),
                    "agent": self.agent,
                    "phase": "execute",
                    "query_id": event.query_id,
                    "query": result.request.text,
                    "scope": result.request.scope,
                    "mode": result.served_by or "none",
                    "served_by": result.served_by,
                    "result_count": len(result.hits),
                    "tiers": [
                        {
                            "tier": o.tier,
                            "status": o.status.value,
                            "latency_ms": round(o.latency_ms, 1),
                            "count": len(o.hits),
                            "reason": o.reason,
                        }
                        for o in result.outcomes
                    ],
                    "budget": {
                        "used": result.budget.used,
                        "limit": result.budget.limit,
                        "dropped": len(result.budget.dropped),
                    },
                    "total_ms": round(result.total_ms, 1),
                    **(_session_fields(result.session) if result.session else {}),
                }
            )

    def _append(self, record: dict) -> None:
        warning = append_records(self.path, [record])
        if warning and self.warning is None:
            self.warning = warning


def _session_fields(session: SessionOutcome) -> dict:
    """The execute line's account of its session: the totals after this query, what it
    did not send again, and each served hit's source, span, content hash and tokens."""
    fields = {
        "session": session.session,
        "session_tokens": session.total,
        "accumulated": session.accumulated,
        "repeats": session.repeats,
        "saved": session.saved,
        "over": list(session.over),
        "served": [hit.to_dict() for hit in session.served],
    }
    if not session.kept:
        fields["session_kept"] = False
    return fields
