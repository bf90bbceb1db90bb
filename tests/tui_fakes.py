"""A scripted stand-in for `tierscope.api.Project`, so workbench tests never depend on real
tools or timing: every tier's outcome and latency is fixed in advance."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field, replace
from pathlib import Path

from tierscope.api import Project, QueryOptions
from tierscope.budget import apply_budget
from tierscope.config.model import Config
from tierscope.events import (
    BudgetApplied,
    QueryFinished,
    QueryStarted,
    TierFinished,
    TierStarted,
)
from tierscope.models import Hit, QueryResult, TierOutcome, TierStatus

FAKE_ROOT = Path("/srv/harbor")


def grep_hits() -> tuple[Hit, ...]:
    return (
        Hit(
            "grimoires/loa/prd.md",
            0.91,
            "## Token budget\n\nEvery **query** is cut to a token budget so a skill never "
            "floods its context. The budget is counted as words × 1.3.",
            "grep",
            12,
            16,
        ),
        Hit(
            "grimoires/loa/sdd.md",
            0.74,
            "- The budget manager packs hits best first\n- A hit that does not fit is "
            "skipped; later, smaller hits may still fit\n- `apply_budget` never exceeds "
            "the limit",
            "grep",
            40,
            43,
        ),
        Hit(
            "grimoires/loa/NOTES.md",
            0.52,
            " ".join(["Long notes about the token budget and how deployments are scheduled"] * 6),
            "grep",
            3,
            9,
        ),
        Hit(
            ".claude/skills/implement/SKILL.md",
            0.33,
            "> Ask for context with a small budget first, then widen it.",
            "grep",
            7,
            7,
        ),
    )


def ck_hits() -> tuple[Hit, ...]:
    return (
        Hit("src/scheduler/budget.py", 0.88, "def pack(hits, limit):\n    ...", "ck", 1, 2),
        Hit("grimoires/loa/prd.md", 0.61, "Every query is cut to a token budget.", "ck", 12, 13),
    )


def qmd_hits() -> tuple[Hit, ...]:
    return (Hit("grimoires/loa/sdd.md", 0.8, "# Budget\nThe budget manager.", "qmd", 1, 2),)


def fallthrough_outcomes() -> tuple[TierOutcome, ...]:
    """qmd is not installed, ck times out, grep serves."""
    return (
        TierOutcome("qmd", TierStatus.UNAVAILABLE, "qmd not installed", 0.4),
        TierOutcome("ck", TierStatus.TIMEOUT, "ck: timed out after 5.0 s", 5000.0),
        TierOutcome("grep", TierStatus.SERVED, "4 hits (ripgrep)", 21.5, grep_hits()),
    )


def compare_outcomes() -> tuple[TierOutcome, ...]:
    """Every tier ran and found something (run all tiers)."""
    return (
        TierOutcome("qmd", TierStatus.SERVED, "1 hit (qmd search)", 118.0, qmd_hits()),
        TierOutcome("ck", TierStatus.SERVED, "2 hits (ck --hybrid)", 342.0, ck_hits()),
        TierOutcome("grep", TierStatus.SERVED, "4 hits (ripgrep)", 21.5, grep_hits()),
    )


@dataclass
class FakeEngine:
    """Runs a fixed script of outcomes through the real precedence rules and budget.

    `block_tier` makes that tier hang until the run is cancelled (like a hung subprocess);
    `tier_running` is set once it hangs.
    """

    outcomes: tuple[TierOutcome, ...] = field(default_factory=fallthrough_outcomes)
    all_tier_outcomes: tuple[TierOutcome, ...] = field(default_factory=compare_outcomes)
    root: Path = FAKE_ROOT
    config: Config = field(default_factory=Config)
    block_tier: str | None = None
    runs: list[QueryOptions] = field(default_factory=list)
    cancels: list[threading.Event] = field(default_factory=list)
    tier_running: threading.Event = field(default_factory=threading.Event)

    def run(
        self,
        options: QueryOptions,
        *,
        on_event=None,
        cancel: threading.Event | None = None,
        trajectory: bool = True,
    ) -> QueryResult:
        self.runs.append(options)
        emit = on_event or (lambda _event: None)
        cancel = cancel or threading.Event()
        self.cancels.append(cancel)
        request = Project(self.root, config=self.config).prepare(options).request
        query_id = f"q-{len(self.runs):08x}"
        emit(QueryStarted(query_id, request))
        script = self.all_tier_outcomes if request.all_tiers else self.outcomes
        finished: list[TierOutcome] = []
        served = None
        for outcome in script:
            if served is not None and not request.all_tiers:
                outcome = TierOutcome(outcome.tier, TierStatus.SKIPPED, "an earlier tier served")
                finished.append(outcome)
                emit(TierFinished(query_id, outcome))
                continue
            emit(TierStarted(query_id, outcome.tier, request.timeout))
            if outcome.tier == self.block_tier:
                self.tier_running.set()
                cancel.wait(timeout=30)
                outcome = TierOutcome(outcome.tier, TierStatus.ERROR, "cancelled", 1.0)
            finished.append(outcome)
            emit(TierFinished(query_id, outcome))
            if cancel.is_set():
                break
            if outcome.status is TierStatus.SERVED and served is None:
                served = outcome.tier
        hits = [hit for outcome in finished for hit in outcome.hits]
        if not request.all_tiers:
            hits = [hit for hit in hits if hit.tier == served]
        report = apply_budget(hits, request.budget)
        emit(BudgetApplied(query_id, report))
        result = QueryResult(
            query_id=query_id,
            request=request,
            scope=None,
            outcomes=tuple(finished),
            budget=report,
            served_by=served,
            total_ms=sum(outcome.latency_ms for outcome in finished) + 3.1,
        )
        emit(QueryFinished(query_id, result))
        return replace(result)
