"""The public API shared by the CLI, the workbench, the MCP server and third parties:
a `Project` (root + config) that runs `QueryOptions` through the engine."""

from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from .config.loader import load_config
from .config.model import KNOWN_TIERS, Config
from .events import EventSink, QueryEvent, ignore_event
from .models import BudgetReport, Hit, QueryRequest, QueryResult, Refusal, RefusalReason
from .project import find_root
from .scopes import DEFAULT_SCOPE, missing_warning, resolve_scope

# `typing` is not imported at run time: a query never needs it, and it costs ~3 ms.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from .session.keeper import SessionKeeper
    from .session.memory import Assessment
    from .tiers.base import Tier

SKILL_NAME = re.compile(r"^[a-z0-9_-]+$")


@dataclass(frozen=True, slots=True)
class QueryOptions:
    """What a caller asked for. None means "not given": the precedence rules decide
    (explicit value > skill override > config file > built-in default)."""

    text: str = ""
    scope: str | None = None
    # A number, or the text a person typed (a command line): `prepare` reads it.
    budget: int | str | None = None
    timeout: float | str | None = None
    skill: str | None = None
    tiers: tuple[str, ...] | None = None
    all_tiers: bool = False
    refresh: bool = False
    session: str | None = None  # "" or None: no session


NOT_A_BUDGET = -1


def read_budget(value: int | str | None) -> int | None:
    """The budget asked for: None when not given; typed text that is not a whole number
    of tokens (`abc`, `1.5`, `-5`) reads as NOT_A_BUDGET, which `prepare` refuses (the
    seed's script answers `[]`). 0 is a budget: nothing fits, the tiers still run."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, str):
        try:
            value = int(value.strip())
        except ValueError:
            return NOT_A_BUDGET
    return value if value >= 0 else NOT_A_BUDGET


def read_timeout(value: float | str | None) -> float | None:
    """The per-tier timeout asked for: typed text that is not a positive number of seconds
    reads as not given (the configured timeout applies, as in the seed's script); a
    number is kept as given (`prepare` refuses one that is not positive)."""
    if isinstance(value, str):
        try:
            seconds = float(value.strip())
        except ValueError:
            return None
        return seconds if seconds > 0 else None
    return value


@dataclass(frozen=True, slots=True)
class Prepared:
    """A request with every precedence rule applied, and why it must not run, if so."""

    request: QueryRequest
    refused: Refusal | None
    warnings: tuple[str, ...]


class Project:
    """One project root and its effective config. Never raises on a bad config file:
    its problems are in `config.problems`.

    `tier_factory` (tier name -> tier) and `clock` replace the real tiers and time, so a
    front end can be tested against the real engine with scripted tiers."""

    def __init__(
        self,
        root: str | Path | None = None,
        config_path: str | None = None,
        config: Config | None = None,
        *,
        tier_factory: Callable[[str], Tier] | None = None,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.root = find_root(str(root) if root is not None else None)
        self.config_path = config_path
        self.config = config if config is not None else load_config(self.root, config_path)
        self.tier_factory = tier_factory
        self.clock = clock

    def with_config(self, config: Config) -> Project:
        """The same project with other (e.g. unsaved) settings, for previews."""
        return Project(
            self.root,
            self.config_path,
            config,
            tier_factory=self.tier_factory,
            clock=self.clock,
        )

    def trajectory_dir(self) -> Path:
        from .trajectory.paths import default_dir

        return default_dir(self.root, self.config)

    def private_paths(self) -> tuple[Path, ...]:
        """tierscope's own state, never searched by any tier: the trajectory directory and
        the store's database files (not their folder, which may be the root itself)."""
        from .store.location import store_path

        database = store_path(self.root, self.config).resolve()
        suffixes = ("", "-wal", "-shm", "-journal")
        return (
            self.trajectory_dir().resolve(),
            *(database.with_name(database.name + suffix) for suffix in suffixes),
        )

    def prepare(self, options: QueryOptions) -> Prepared:
        """Apply every precedence rule; say why the query must not run, if it must not."""
        config = self.config
        warnings: list[str] = []
        skill = options.skill
        if skill is not None and not SKILL_NAME.match(skill):
            warnings.append(f"ignoring --skill {skill!r}: must match ^[a-z0-9_-]+$")
            skill = None
        session = options.session or None
        if session is not None:
            from .session.names import SESSION_ID_RULE, is_session_id

            if not is_session_id(session):
                warnings.append(f"ignoring session {session!r}: must be {SESSION_ID_RULE}")
                session = None
        override = config.skill_override(skill)
        scope = options.scope or (override.scope if override else None) or DEFAULT_SCOPE
        budget = read_budget(options.budget)
        if budget is None:
            budget = override.budget if override and override.budget else config.default_budget
        timeout = read_timeout(options.timeout)
        if timeout is None:
            timeout = config.timeout_seconds
        tiers = options.tiers if options.tiers is not None else config.tiers
        unknown = [t for t in tiers if t not in KNOWN_TIERS]
        if unknown:
            tiers = tuple(t for t in tiers if t in KNOWN_TIERS)
            fallback = "" if tiers else f"; using {', '.join(config.tiers)}"
            warnings.append(f"ignoring unknown tiers: {', '.join(unknown)}{fallback}")
            tiers = tiers or config.tiers
        request = QueryRequest(
            text=options.text.strip(),
            scope=scope,
            budget=budget,
            timeout=timeout,
            tiers=tuple(dict.fromkeys(tiers)),
            skill=skill,
            all_tiers=options.all_tiers,
            refresh=options.refresh,
            session=session,
        )
        refused = None
        if not request.text:
            refused = Refusal(RefusalReason.NO_QUERY, "no query")
        elif not config.enabled:
            refused = Refusal(
                RefusalReason.DISABLED, "disabled by config (qmd_context.enabled: false)"
            )
        elif override is not None and not override.enabled:
            refused = Refusal(
                RefusalReason.DISABLED_FOR_SKILL,
                f"disabled for skill {skill} (skill_overrides.{skill}.enabled: false)",
            )
        elif budget < 0:
            refused = Refusal(
                RefusalReason.BAD_BUDGET,
                f"budget must be a whole number of tokens, got {options.budget!r}",
            )
        elif timeout <= 0:
            refused = Refusal(RefusalReason.BAD_TIMEOUT, f"timeout must be positive, got {timeout}")
        elif scope not in config.scopes:
            refused = Refusal(RefusalReason.UNKNOWN_SCOPE, f"Invalid scope: {scope}")
        return Prepared(request, refused, tuple(warnings))

    def run(
        self,
        options: QueryOptions,
        *,
        on_event: EventSink | None = None,
        cancel: threading.Event | None = None,
        trajectory: bool = True,
        agent: str | None = None,
    ) -> QueryResult:
        """Run one query end to end. Never raises for anything a user can cause. The
        trajectory names `agent` when given (a front end logging its own queries), else the
        skill, $LOA_AGENT_NAME or "tierscope"."""
        from .engine import run_tiers
        from .tiers.registry import load_tier

        prepared = self.prepare(options)
        request = prepared.request
        warnings = list(prepared.warnings)
        query_id = f"q-{os.urandom(4).hex()}"
        if prepared.refused:
            return QueryResult(
                query_id=query_id,
                request=request,
                scope=None,
                outcomes=(),
                budget=BudgetReport(max(request.budget, 0), 0, (), ()),
                served_by=None,
                total_ms=0.0,
                warnings=tuple(warnings),
                refused=prepared.refused,
            )
        keeper = None
        if request.session is not None:
            keeper = self._keeper(request.session, request, agent, cancel)
            refusal = keeper.refusal()
            if refusal is not None:
                return QueryResult(
                    query_id=query_id,
                    request=request,
                    scope=None,
                    outcomes=(),
                    budget=BudgetReport(0, 0, (), ()),
                    served_by=None,
                    total_ms=0.0,
                    warnings=tuple(warnings),
                    session=refusal,
                )
        scope = resolve_scope(request.scope, self.config, self.root)
        sink = on_event or ignore_event
        recorder = None
        if trajectory and self.config.trajectory.enabled:
            recorder = self._recorder(request.skill, agent)
            sink = _fan_out(sink, recorder)
        result = run_tiers(
            request,
            query_id=query_id,
            root=self.root,
            config=self.config,
            scope=scope,
            private_paths=self.private_paths(),
            on_event=sink,
            cancel=cancel,
            tier_factory=self.tier_factory or load_tier,
            clock=self.clock or time.monotonic,
            session=keeper,
        )
        if keeper is not None and keeper.warning:
            warnings.append(keeper.warning)
        if recorder is not None and recorder.warning:
            warnings.append(f"trajectory not written: {recorder.warning}")
        for refused in scope.refused:
            warnings.append(f"scope {scope.name}: refused {refused.reason}")
        if scope.missing:
            warnings.append(missing_warning(scope, self.config, self.root))
        if warnings:
            result = replace(result, warnings=tuple(warnings))
        return result

    def _keeper(
        self,
        session: str,
        request: QueryRequest,
        agent: str | None,
        cancel: threading.Event | None,
    ) -> SessionKeeper:
        from . import shutdown
        from .session.keeper import SessionKeeper
        from .trajectory.paths import agent_name

        return SessionKeeper(
            log_dir=self.trajectory_dir(),
            session=session,
            settings=self.config.session,
            budgets=self.config.token_budgets,
            agent=agent or agent_name(request.skill),
            # Another process answering in the session is waited for as long as a tier.
            wait=request.timeout,
            cancelled=lambda: shutdown.requested() or (cancel is not None and cancel.is_set()),
        )

    def sessions(self) -> list[str]:
        """The sessions skills have queried in here, most recent first."""
        from .session.ledger import list_sessions

        return [found.session for found in list_sessions(self.trajectory_dir(), totals=False)]

    def session_preview(self, session: str, hits: Sequence[Hit]) -> list[Assessment]:
        """What of each hit `session` has already received, without taking a turn in it
        (the workbench's look at what a query would repeat). [] for an invalid id."""
        from .session.keeper import preview
        from .session.names import is_session_id

        if not is_session_id(session):
            return []
        return preview(self.trajectory_dir(), session, hits)

    def _recorder(self, skill: str | None, agent: str | None):
        from .trajectory.paths import agent_name, todays_log_file
        from .trajectory.recorder import TrajectoryRecorder

        agent = agent or agent_name(skill)
        return TrajectoryRecorder(todays_log_file(self.trajectory_dir(), agent), agent, self.root)


def _fan_out(first: EventSink, second: EventSink) -> EventSink:
    def sink(event: QueryEvent) -> None:
        second(event)
        first(event)

    return sink
