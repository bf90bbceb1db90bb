"""Plain data that flows through a query: request -> tier outcomes -> result.

Every stage of the engine takes and returns these frozen dataclasses, so the CLI, the
workbench, the trajectory logger and the tests all observe the same run.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path


class TierStatus(StrEnum):
    """How one tier ended for one query. Exactly one per tier."""

    SERVED = "served"
    EMPTY = "empty"
    UNAVAILABLE = "unavailable"
    TIMEOUT = "timeout"
    ERROR = "error"
    SKIPPED = "skipped"
    DISABLED = "disabled"


def noun_for(count: int, singular: str, plural: str = "") -> str:
    """The noun for `count` things: `singular` for one, else `plural` (the singular with
    an `s` unless given)."""
    return singular if count == 1 else plural or f"{singular}s"


def count_hits(count: int) -> str:
    """ "1 hit", "3 hits": how every tier's reason counts what it found."""
    return f"{count} {noun_for(count, 'hit')}"


def estimate_tokens(text: str) -> int:
    """Token estimate shared by every budget: max(ceil(words x 1.3), ceil(characters / 4)).

    Words x 1.3 is the seed's rule for prose; dense text (tables, JSON, code) has few
    spaces and would be undercounted about twice by it, so characters / 4 is a floor."""
    return max(math.ceil(len(text.split()) * 1.3), math.ceil(len(text) / 4))


_LEFT_OUT_END = " not shown]"


def left_out_marker(first: int, last: int) -> str:
    """The line that stands, inside a hit's content, for lines `first`-`last` (1-based) of
    its file left out between two of its passages."""
    lines = f"line {first}" if first == last else f"lines {first}-{last}"
    return f"[{lines}{_LEFT_OUT_END}"


def left_out_lines(line: str) -> tuple[int, int] | None:
    """The lines a `left_out_marker` line stands for, else None."""
    if not (line.startswith("[line") and line.endswith(_LEFT_OUT_END)):
        return None
    numbers = line[1 : -len(_LEFT_OUT_END)].removeprefix("lines ").removeprefix("line ")
    parts = numbers.split("-")
    if not (1 <= len(parts) <= 2 and all(part.isdigit() for part in parts)):
        return None
    return int(parts[0]), int(parts[-1])


def numbered_lines(content: str, first: int, last: int) -> list[tuple[int | None, str]] | None:
    """The lines of a hit's content spanning lines `first`-`last` of its file, each with
    its line number (None for a `left_out_marker` line, which stands for the lines left
    out between two passages), when they map onto that span, else None."""
    numbered: list[tuple[int | None, str]] = []
    number = first
    for line in content.split("\n"):
        left_out = left_out_lines(line)
        if left_out is not None and left_out[0] == number and left_out[1] >= number:
            numbered.append((None, line))
            number = left_out[1] + 1
        else:
            numbered.append((number, line))
            number += 1
    return numbered if number == last + 1 else None


def shown_line_ranges(content: str, first: int, last: int) -> list[tuple[int, int]]:
    """The line ranges of a hit spanning lines `first`-`last` that its content shows: the
    span without the lines its `left_out_marker` lines stand for (the whole span when the
    content does not map onto it)."""
    numbered = numbered_lines(content, first, last)
    if numbered is None:
        return [(first, last)]
    ranges: list[tuple[int, int]] = []
    for number, _ in numbered:
        if number is None:
            continue
        if ranges and ranges[-1][1] == number - 1:
            ranges[-1] = (ranges[-1][0], number)
        else:
            ranges.append((number, number))
    return ranges


@dataclass(frozen=True, slots=True)
class Hit:
    """One piece of context. `source` is a root-relative POSIX path; `score` is in [0, 1]."""

    source: str
    score: float
    content: str
    tier: str
    line_start: int | None = None
    line_end: int | None = None
    # Why it ranks where it does (--explain): each matched term and what it added to the
    # score. Not part of the hit's identity.
    terms: tuple[tuple[str, float], ...] = field(default=(), compare=False)

    @property
    def tokens(self) -> int:
        return estimate_tokens(self.content)

    def public(self) -> dict:
        """The four keys of the headless JSON contract, nothing more."""
        return {
            "source": self.source,
            "score": round(self.score, 4),
            "content": self.content,
            "tier": self.tier,
        }

    def detailed(self) -> dict:
        return {
            **self.public(),
            "line_start": self.line_start,
            "line_end": self.line_end,
            "tokens": self.tokens,
            **(
                {"terms": {term: round(part, 4) for term, part in self.terms}} if self.terms else {}
            ),
        }


@dataclass(frozen=True, slots=True)
class RefusedPath:
    """A configured path that was not searched, and why (outside the root, missing...)."""

    path: str
    reason: str


@dataclass(frozen=True, slots=True)
class ResolvedScope:
    """A scope turned into concrete, contained, absolute places for each tier."""

    name: str
    qmd_collections: tuple[str, ...]
    ck_paths: tuple[Path, ...]
    grep_paths: tuple[Path, ...]
    refused: tuple[RefusedPath, ...] = ()
    notes: tuple[str, ...] = ()
    include: tuple[str, ...] = ()  # file globs; empty: every file
    # Why the built-in default was replaced by the project's own files ("" = as configured).
    adapted: str = ""
    # Why nothing can be searched: the scope names paths and none exists ("" = some does).
    missing: str = ""

    def to_dict(self, root: Path) -> dict:
        def rel(p: Path) -> str:
            try:
                return p.relative_to(root).as_posix() or "."
            except ValueError:
                return str(p)

        return {
            "name": self.name,
            "qmd_collections": list(self.qmd_collections),
            "ck_paths": [rel(p) for p in self.ck_paths],
            "grep_paths": [rel(p) for p in self.grep_paths],
            "refused": [{"path": r.path, "reason": r.reason} for r in self.refused],
            "notes": list(self.notes),
            "include": list(self.include),
            "adapted": self.adapted,
            "missing": self.missing,
        }


@dataclass(frozen=True, slots=True)
class FilteredHit:
    """A hit removed by context filtering (exclude glob, archive zone, low signal)."""

    source: str
    tier: str
    reason: str


@dataclass(frozen=True, slots=True)
class TierOutcome:
    """What one tier did for one query."""

    tier: str
    status: TierStatus
    reason: str
    latency_ms: float = 0.0
    hits: tuple[Hit, ...] = ()
    argv: tuple[str, ...] = ()
    dropped_lines: int = 0
    filtered: tuple[FilteredHit, ...] = ()
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        return {
            "tier": self.tier,
            "status": self.status.value,
            "reason": self.reason,
            "latency_ms": round(self.latency_ms, 1),
            "count": len(self.hits),
            "argv": list(self.argv),
            "dropped_lines": self.dropped_lines,
            "filtered": [
                {"source": f.source, "tier": f.tier, "reason": f.reason} for f in self.filtered
            ],
            "notes": list(self.notes),
        }


@dataclass(frozen=True, slots=True)
class BudgetEntry:
    """A hit as the budget saw it: kept or dropped, with its cost."""

    hit: Hit
    tokens: int
    reason: str = ""

    def to_dict(self) -> dict:
        return {
            "source": self.hit.source,
            "tier": self.hit.tier,
            "score": round(self.hit.score, 4),
            "tokens": self.tokens,
            "line_start": self.hit.line_start,
            "line_end": self.hit.line_end,
            "reason": self.reason,
        }


@dataclass(frozen=True, slots=True)
class BudgetReport:
    """The result of packing hits into a token budget."""

    limit: int
    used: int
    included: tuple[BudgetEntry, ...]
    dropped: tuple[BudgetEntry, ...]

    @property
    def hits(self) -> tuple[Hit, ...]:
        return tuple(entry.hit for entry in self.included)

    def to_dict(self) -> dict:
        return {
            "limit": self.limit,
            "used": self.used,
            "included": len(self.included),
            "dropped": [entry.to_dict() for entry in self.dropped],
        }


@dataclass(frozen=True, slots=True)
class QueryRequest:
    """A fully resolved query: every precedence rule has already been applied."""

    text: str
    scope: str
    budget: int
    timeout: float
    tiers: tuple[str, ...]
    skill: str | None = None
    all_tiers: bool = False
    refresh: bool = False
    session: str | None = None  # a checked session id (see tierscope.session.names)


@dataclass(frozen=True, slots=True)
class ServedHit:
    """One hit of an answer as its session remembers it. `content_hash` is the hash of the
    section as found (before any part of it was left out); `tokens` what was sent.
    `repeat` is "" for new context, "reference" when the section had been provided and
    only a reference was sent, "part" when the provided lines were left out, "allowed"
    when it was sent again in full (`session.repeats: allow`)."""

    source: str
    line_start: int | None
    line_end: int | None
    content_hash: str
    tokens: int
    repeat: str = ""

    def to_dict(self) -> dict:
        record = {
            "source": self.source,
            "line_start": self.line_start,
            "line_end": self.line_end,
            "hash": self.content_hash,
            "tokens": self.tokens,
        }
        if self.repeat:
            record["repeat"] = self.repeat
        return record


@dataclass(frozen=True, slots=True)
class SessionOutcome:
    """What a query's session did: the sections it did not send again, the tokens served
    so far (`accumulated` since the last clearing, `total` in the session, this query
    included), the thresholds now exceeded and the one-line notes saying so.

    `kept` is False when the session's memory could not be used (its file could not be
    locked or written): the query was answered as without a session, and a note says why.
    `limit` is the budget the answer was cut to, after the over-session policy."""

    session: str
    kept: bool = True
    served: tuple[ServedHit, ...] = ()
    repeats: int = 0
    saved: int = 0
    accumulated: int = 0
    total: int = 0
    over: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    limit: int = 0

    def to_dict(self) -> dict:
        return {
            "session": self.session,
            "kept": self.kept,
            "repeats": self.repeats,
            "saved": self.saved,
            "accumulated": self.accumulated,
            "total": self.total,
            "over": list(self.over),
            "limit": self.limit,
            "notes": list(self.notes),
            "served": [hit.to_dict() for hit in self.served],
        }


class RefusalReason(StrEnum):
    """Why a query was not run at all."""

    NO_QUERY = "no query"
    DISABLED = "disabled"
    DISABLED_FOR_SKILL = "disabled for skill"
    BAD_BUDGET = "bad budget"
    BAD_TIMEOUT = "bad timeout"
    UNKNOWN_SCOPE = "unknown scope"


@dataclass(frozen=True, slots=True)
class Refusal:
    """A query not run: the reason, for code to act on, and the message, for people."""

    reason: RefusalReason
    message: str

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True, slots=True)
class QueryResult:
    """Everything a query produced: kept hits, every tier's outcome, the budget cut."""

    query_id: str
    request: QueryRequest
    scope: ResolvedScope | None
    outcomes: tuple[TierOutcome, ...]
    budget: BudgetReport
    served_by: str | None
    total_ms: float
    deduplicated: int = 0
    notes: tuple[str, ...] = field(default_factory=tuple)
    # Diagnostics for stderr (bad --skill, unwritable trajectory dir, ...).
    warnings: tuple[str, ...] = field(default_factory=tuple)
    # Set when the query was not run at all (unknown scope, disabled, bad budget).
    refused: Refusal | None = None
    # Set when the query named a session (--session, $TIERSCOPE_SESSION, an MCP client).
    session: SessionOutcome | None = None

    @property
    def hits(self) -> tuple[Hit, ...]:
        return self.budget.hits

    def outcome(self, tier: str) -> TierOutcome | None:
        return next((o for o in self.outcomes if o.tier == tier), None)
