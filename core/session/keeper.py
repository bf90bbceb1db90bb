"""A query's turn in its session, and a session's clearing.

The engine runs the tiers first, then takes the session's turn: the lock is held from
reading what the session has received, through packing the answer and writing the
trajectory's execute line, to writing the session's own line. Another process answering
in the same session waits for it (at most the query's timeout), then sees what this one
sent.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from ..budget import apply_budget
from ..config.model import SessionSettings, TokenBudgets
from ..models import BudgetReport, Hit, QueryResult, SessionOutcome
from .ledger import (
    SessionUnavailable,
    append_record,
    locked_ledger,
    newest_record,
    peek_segment,
    read_last,
    read_segment,
)
from .memory import Assessment, SessionMemory
from .packing import (
    SESSION,
    SessionAnswer,
    SessionState,
    answer_in_session,
    query_record,
    totals_of,
)


class SessionTurn:
    """The session's lock, held: pack this query's answer, then record it."""

    def __init__(self, keeper: SessionKeeper, fd: int, state: SessionState) -> None:
        self.keeper = keeper
        self.fd = fd
        self.state = state
        self.answer: SessionAnswer | None = None

    def pack(self, hits: Sequence[Hit], limit: int) -> tuple[BudgetReport, SessionOutcome]:
        keeper = self.keeper
        self.answer = answer_in_session(
            keeper.session, hits, limit, self.state, keeper.settings, keeper.budgets
        )
        return self.answer.report, self.answer.outcome

    def record(self, result: QueryResult) -> None:
        """Add the answered query to the session's file (a failure becomes the keeper's
        warning: the answer stands, the session forgets it)."""
        from ..trajectory.recorder import utc_timestamp

        if self.answer is None:
            return
        record = query_record(
            self.answer,
            ts=utc_timestamp(),
            query_id=result.query_id,
            agent=self.keeper.agent,
            query=result.request.text,
        )
        try:
            append_record(self.fd, record)
        except OSError as exc:
            self.keeper.warning = (
                f"session {self.keeper.session} did not record this answer: "
                f"{exc.strerror or exc}; its sections may be sent again"
            )


class UnkeptTurn:
    """No lock, no memory: the answer is packed as without a session, and says why."""

    def __init__(self, keeper: SessionKeeper, reason: str) -> None:
        self.keeper = keeper
        self.reason = reason

    def pack(self, hits: Sequence[Hit], limit: int) -> tuple[BudgetReport, SessionOutcome]:
        note = (
            f"session {self.keeper.session} not used: {self.reason}; answered as without a session"
        )
        outcome = SessionOutcome(self.keeper.session, kept=False, notes=(note,), limit=limit)
        return apply_budget(hits, limit), outcome

    def record(self, result: QueryResult) -> None:
        pass


@dataclass
class SessionKeeper:
    """Everything a query needs to take its turn in a session."""

    log_dir: Path
    session: str
    settings: SessionSettings
    budgets: TokenBudgets
    agent: str
    wait: float  # seconds, at most, for another process's turn
    cancelled: Callable[[], bool] = lambda: False
    warning: str | None = None

    def refusal(self) -> SessionOutcome | None:
        """With `session.over_session: refuse`, a session already past its threshold is
        answered [] before any tier runs (read without the lock; the turn checks again)."""
        if self.settings.over_session != "refuse":
            return None
        totals = totals_of(read_last(self.log_dir, self.session))
        if totals["total"] <= self.budgets.session:
            return None
        note = (
            f"session {self.session}: {totals['total']:,} tokens served, over the session"
            f" threshold of {self.budgets.session:,}: stop and synthesize; answered []"
            " (session.over_session: refuse)"
        )
        return SessionOutcome(
            self.session,
            accumulated=totals["accumulated"],
            total=totals["total"],
            over=(SESSION,),
            notes=(note,),
        )

    @contextlib.contextmanager
    def turn(self) -> Iterator[SessionTurn | UnkeptTurn]:
        stack = contextlib.ExitStack()
        try:
            fd = stack.enter_context(
                locked_ledger(self.log_dir, self.session, self.wait, self.cancelled)
            )
            segment = read_segment(fd)
        except (SessionUnavailable, OSError) as exc:
            stack.close()
            yield UnkeptTurn(self, _reason(exc))
            return
        with stack:
            yield SessionTurn(self, fd, SessionState.from_segment(segment))


def _reason(exc: Exception) -> str:
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    return str(exc)


def preview(log_dir: Path, session: str, hits: Sequence[Hit]) -> list[Assessment]:
    """What of each hit `session` has received (read-only, no lock: a look, not a turn)."""
    memory = SessionMemory.from_records(peek_segment(log_dir, session).records)
    return [memory.assess(hit) for hit in hits]


@dataclass(frozen=True, slots=True)
class Clearing:
    """A recorded clearing: the tokens it cleared and the session's total, which goes on."""

    session: str
    cleared_tokens: int
    total: int
    warning: str | None = None


def clear_session(
    log_dir: Path, session: str, *, agent: str, summary: str, wait: float, day: date | None = None
) -> Clearing:
    """Record a clearing (seed 004 §3.4): the accumulated count restarts at 0 and the
    sections sent before may be sent again; the session's total goes on. Appends the
    `clearing` line to the session's file and to the agent's trajectory. Raises
    SessionUnavailable when the session has no file or it cannot be locked."""
    from ..trajectory.paths import log_file
    from ..trajectory.recorder import utc_timestamp
    from ..trajectory.writer import append_records

    if read_last(log_dir, session) is None:
        raise SessionUnavailable(f"no session {session} here")
    with locked_ledger(log_dir, session, wait) as fd:
        totals = totals_of(newest_record(fd))
        ts = utc_timestamp()
        cleared = totals["accumulated"]
        record = {
            "kind": "clearing",
            "ts": ts,
            "agent": agent,
            "cleared_tokens": cleared,
            "summary": summary,
            **totals,
            "accumulated": 0,
        }
        try:
            append_record(fd, record)
        except OSError as exc:
            raise SessionUnavailable(f"cannot write session {session}: {exc.strerror}") from None
        warning = append_records(
            log_file(log_dir, agent, day or date.today()),
            [
                {
                    "ts": ts,
                    "agent": agent,
                    "phase": "clearing",
                    "session": session,
                    "cleared_tokens": cleared,
                    "session_tokens": totals["total"],
                    "summary": summary,
                }
            ],
        )
    return Clearing(session, cleared, totals["total"], warning)
