"""One query's answer inside its session: repeats replaced by references (or left out,
or allowed), the over-session policy applied to the budget, the hits packed, the tokens
added to the session's running totals and the thresholds crossed named in the seed's
terms (seed 004 §3.4: accumulated → synthesize and clear; session → stop and
synthesize)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..budget import apply_budget
from ..config.model import SessionSettings, TokenBudgets
from ..models import BudgetReport, Hit, ServedHit, SessionOutcome, estimate_tokens
from .ledger import Segment
from .memory import NEW, PART, Assessment, SessionMemory, full_runs, reference_text

ACCUMULATED = "accumulated"
SESSION = "session"
# The running totals every record of a session's file carries.
TOTALS = ("accumulated", "total", "queries", "repeats_total", "saved_total", "past")
QUERY_CHARS = 500  # a query's text kept in the session's file


@dataclass(frozen=True, slots=True)
class SessionState:
    """A session as its file says it is, before this query."""

    memory: SessionMemory
    accumulated: int = 0  # tokens since the last clearing
    total: int = 0  # tokens in the session
    queries: int = 0
    repeats_total: int = 0
    saved_total: int = 0
    past: int = 0  # queries answered while over the session threshold
    clipped: bool = False

    @classmethod
    def from_segment(cls, segment: Segment) -> SessionState:
        return cls(
            SessionMemory.from_records(segment.records),
            clipped=segment.clipped,
            **totals_of(segment.last),
        )


def totals_of(record: dict | None) -> dict[str, int]:
    """The running totals of a record; 0 for any that is missing or not a count (the
    file is untrusted)."""
    record = record or {}
    totals: dict[str, int] = {}
    for name in TOTALS:
        value = record.get(name)
        ok = isinstance(value, int) and not isinstance(value, bool) and value >= 0
        totals[name] = value if ok and isinstance(value, int) else 0
    return totals


@dataclass(frozen=True, slots=True)
class SessionAnswer:
    """The packed answer, what the session says about it, and its hits as the session's
    file records them."""

    report: BudgetReport
    outcome: SessionOutcome
    hit_records: tuple[dict, ...]
    state: SessionState
    past: int  # queries answered over the session threshold, this one included


def answer_in_session(
    session: str,
    hits: Sequence[Hit],
    limit: int,
    state: SessionState,
    settings: SessionSettings,
    budgets: TokenBudgets,
) -> SessionAnswer:
    """Pack `hits` (deduplicated, best first) into `limit` for a session in `state`."""
    over_before = state.total > budgets.session
    policy_note = ""
    if over_before and settings.over_session == "refuse":
        limit = 0
        policy_note = "; answered [] (session.over_session: refuse)"
    elif over_before and settings.over_session == "shrink":
        limit >>= state.past + 1
        policy_note = f"; budget cut to {limit:,} tokens (session.over_session: shrink)"

    assessments = [state.memory.assess(hit) for hit in hits]
    allow = settings.repeats == "allow"
    sent_for: dict[int, Assessment] = {}  # id(sent hit) -> its assessment
    to_send: list[Hit] = []
    sent_of: dict[int, Hit | None] = {}  # id(found hit) -> what is sent for it
    for assessment in assessments:
        sent = _sent(assessment, settings.repeats)
        sent_of[id(assessment.hit)] = sent
        if sent is not None:
            sent_for[id(sent)] = assessment
            to_send.append(sent)
    report = apply_budget(to_send, limit)

    # Saved: what the answer without a session would have sent again.
    repeats = saved = 0
    if not allow:
        by_hit = {id(a.hit): a for a in assessments}
        for entry in apply_budget(hits, limit).included:
            if by_hit[id(entry.hit)].kind == NEW:
                continue
            repeats += 1
            sent = sent_of[id(entry.hit)]
            saved += entry.tokens - (estimate_tokens(sent.content) if sent is not None else 0)

    served: list[ServedHit] = []
    records: list[dict] = []
    for entry in report.included:
        assessment = sent_for[id(entry.hit)]
        repeat = _repeat_label(assessment.kind, allow)
        hit = entry.hit
        served.append(
            ServedHit(
                hit.source,
                hit.line_start,
                hit.line_end,
                assessment.content_hash,
                entry.tokens,
                repeat,
            )
        )
        records.append(_hit_record(assessment, entry.tokens, repeat))

    accumulated = state.accumulated + report.used
    total = state.total + report.used
    over = tuple(
        name
        for name, value, threshold in (
            (ACCUMULATED, accumulated, budgets.accumulated),
            (SESSION, total, budgets.session),
        )
        if value > threshold
    )
    notes = []
    if ACCUMULATED in over:
        notes.append(
            f"session {session}: {accumulated:,} tokens since the last clearing, over the"
            f" accumulated threshold of {budgets.accumulated:,}: synthesize and clear"
            f" (then: tierscope session clear {session})"
        )
    if SESSION in over:
        notes.append(
            f"session {session}: {total:,} tokens served, over the session threshold of"
            f" {budgets.session:,}: stop and synthesize{policy_note}"
        )
    if state.clipped:
        notes.append(
            f"session {session}: only its newest lines were read (no clearing for a long"
            " while); sections sent before them may be sent again"
        )
    outcome = SessionOutcome(
        session=session,
        served=tuple(served),
        repeats=repeats,
        saved=saved,
        accumulated=accumulated,
        total=total,
        over=over,
        notes=tuple(notes),
        limit=limit,
    )
    return SessionAnswer(report, outcome, tuple(records), state, state.past + over_before)


def _sent(assessment: Assessment, policy: str) -> Hit | None:
    """What is sent for a hit: itself, its new lines, a reference, or nothing."""
    hit = assessment.hit
    if assessment.kind == NEW or policy == "allow":
        return hit
    if assessment.kind == PART:
        return replace(hit, content=assessment.content)
    if policy == "skip":
        return None
    return replace(hit, content=reference_text(assessment.where))


def _repeat_label(kind: str, allow: bool) -> str:
    if kind == NEW:
        return ""
    if allow:
        return "allowed"
    return "part" if kind == PART else "reference"


def _hit_record(assessment: Assessment, tokens: int, repeat: str) -> dict:
    hit = assessment.hit
    runs: tuple[tuple[int, str], ...]
    if repeat == "reference":
        sent, runs = "reference", ()
    elif repeat == "allowed":
        sent, runs = "full", full_runs(hit)
    else:
        sent, runs = ("part" if repeat == "part" else "full"), assessment.runs
    record: dict[str, object] = {
        "source": hit.source,
        "start": hit.line_start,
        "end": hit.line_end,
        "hash": assessment.content_hash,
        "tokens": tokens,
        "sent": sent,
    }
    if runs:
        record["runs"] = [[first, hashes] for first, hashes in runs]
    return record


def query_record(answer: SessionAnswer, *, ts: str, query_id: str, agent: str, query: str) -> dict:
    """The line a query adds to its session's file."""
    state, outcome, report = answer.state, answer.outcome, answer.report
    return {
        "kind": "query",
        "ts": ts,
        "query_id": query_id,
        "agent": agent,
        "query": query[:QUERY_CHARS],
        "used": report.used,
        "limit": report.limit,
        "repeats": outcome.repeats,
        "saved": outcome.saved,
        "over": list(outcome.over),
        "accumulated": outcome.accumulated,
        "total": outcome.total,
        "queries": state.queries + 1,
        "repeats_total": state.repeats_total + outcome.repeats,
        "saved_total": state.saved_total + outcome.saved,
        "past": answer.past,
        "hits": list(answer.hit_records),
    }
