"""The real engine with scripted tiers, so workbench tests never depend on real tools or
timing: `ScriptedProject` is a `tierscope.api.Project` whose tiers answer with fixed
outcomes after fake latencies, on a fake clock. Everything else — precedence, fall-through,
skip and cancel reasons, filtering, dedup, the budget, the events, the trajectory — is the
engine's own (`run_tiers`), exactly as the headless command runs it."""

from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path

from tierscope.api import Project, QueryOptions
from tierscope.config.model import Config
from tierscope.models import Hit, QueryResult, TierOutcome, TierStatus
from tierscope.tiers.base import Deadline, Probe, TierRequest

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
        TierOutcome("qmd", TierStatus.UNAVAILABLE, "qmd not installed (not on PATH)", 0.4),
        TierOutcome("ck", TierStatus.TIMEOUT, "ck: timed out after 5.0 s", 5000.0),
        TierOutcome("grep", TierStatus.SERVED, "4 hits (ripgrep)", 21.5, grep_hits()),
    )


def compare_outcomes() -> tuple[TierOutcome, ...]:
    """Every tier finds something (to compare them with run all tiers)."""
    return (
        TierOutcome("qmd", TierStatus.SERVED, "1 hit (BM25 search)", 118.0, qmd_hits()),
        TierOutcome("ck", TierStatus.SERVED, "2 hits (ck --hybrid)", 342.0, ck_hits()),
        TierOutcome("grep", TierStatus.SERVED, "4 hits (ripgrep)", 21.5, grep_hits()),
    )


class FakeClock:
    """Seconds that pass only when a scripted tier says its search took them."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class ScriptedTier:
    """Answers every search with `outcome`, its latency passing on the fake clock. A
    hanging tier waits until the query is cancelled or its deadline passes, like a hung
    subprocess, and says so as the real tiers do."""

    def __init__(
        self,
        outcome: TierOutcome,
        clock: FakeClock,
        *,
        hang: bool = False,
        running: threading.Event | None = None,
    ) -> None:
        self.name = outcome.tier
        self.outcome = outcome
        self.clock = clock
        self.hang = hang
        self.running = running or threading.Event()

    def probe(self, request: TierRequest) -> Probe:
        usable = self.outcome.status is not TierStatus.UNAVAILABLE
        return Probe(usable, self.outcome.reason)

    def search(self, request: TierRequest, deadline: Deadline) -> TierOutcome:
        if self.hang:
            self.running.set()
            cancelled = deadline.cancel.wait(deadline.remaining())
            if cancelled:
                return TierOutcome(self.name, TierStatus.ERROR, "cancelled", 1.0)
            seconds = request.timeout
            return TierOutcome(
                self.name, TierStatus.TIMEOUT, f"{self.name}: timed out after {seconds} s"
            )
        self.clock.advance(self.outcome.latency_ms / 1000)
        return self.outcome


class ScriptedProject(Project):
    """A project on the real engine whose tiers follow a script (`outcomes`, by tier; a
    tier not in the script finds nothing). `hang` names a tier that hangs until cancelled;
    `tier_running` is set once it does. Every run's options and cancel flag are kept."""

    def __init__(
        self,
        outcomes: tuple[TierOutcome, ...] | None = None,
        *,
        root: Path = FAKE_ROOT,
        config: Config | None = None,
        hang: str | None = None,
    ) -> None:
        self.clock_source = FakeClock()
        super().__init__(
            root,
            config=config if config is not None else Config(),
            tier_factory=self._tier,
            clock=self.clock_source,
        )
        self.outcomes = fallthrough_outcomes() if outcomes is None else outcomes
        self.hang = hang
        self.tier_running = threading.Event()
        self.runs: list[QueryOptions] = []
        self.cancels: list[threading.Event | None] = []

    def trajectory_dir(self) -> Path:
        """The configured directory as it is: the scripted project's root is fictional,
        so a test's log folder cannot lie inside it (the real rule, that a configured
        folder out of the root is not used, is tested on real projects)."""
        configured = self.config.trajectory.dir.strip()
        return Path(configured) if configured else super().trajectory_dir()

    def _tier(self, name: str) -> ScriptedTier:
        outcome = next(
            (outcome for outcome in self.outcomes if outcome.tier == name),
            TierOutcome(name, TierStatus.EMPTY, "no matches", 1.0),
        )
        return ScriptedTier(
            replace(outcome),
            self.clock_source,
            hang=name == self.hang,
            running=self.tier_running,
        )

    def run(self, options: QueryOptions, **kwargs) -> QueryResult:
        self.runs.append(options)
        self.cancels.append(kwargs.get("cancel"))
        return super().run(options, **kwargs)

    def served_outcome(self) -> TierOutcome:
        """The scripted outcome of the tier that serves when tiers fall through."""
        return next(outcome for outcome in self.outcomes if outcome.hits)


SESSION = "impl-hb-52"


def project_with_a_session(trajectory_dir: Path) -> ScriptedProject:
    """A scripted project whose session SESSION has been sent three of the four grep hits
    (a skill asked "token budget" with a budget of 100)."""
    from tierscope.config.model import TrajectorySettings

    project = ScriptedProject(config=Config(trajectory=TrajectorySettings(dir=str(trajectory_dir))))
    result = project.run(QueryOptions(text="token budget", budget=100, session=SESSION))
    assert [hit.source for hit in result.hits] == [
        "grimoires/loa/prd.md",
        "grimoires/loa/sdd.md",
        ".claude/skills/implement/SKILL.md",
    ]
    project.runs.clear()
    return project
