"""Running a query off the UI thread: one run at a time, each with its own cancel flag.

The worker body (`execute_run`) only calls the engine and posts messages; it never touches
a widget. Starting a run sets the previous run's cancel event, so a hung tier of an old
query is abandoned as soon as a new query is typed.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from textual import log
from textual.message import Message

from tierscope.config.model import Config
from tierscope.debugging import report_exception
from tierscope.events import QueryEvent, QueryFinished

from .messages import QueryFinishedMessage, RunCancelled, RunFailed, message_for

if TYPE_CHECKING:
    from collections.abc import Sequence

    from tierscope.api import QueryOptions
    from tierscope.events import EventSink
    from tierscope.models import Hit, QueryResult
    from tierscope.session.memory import Assessment


# The agent the workbench's queries are logged under. A query replayed from a skill's log
# keeps the skill's settings, but it is a person trying it, not the skill asking: it must
# not count toward that skill's session budget.
WORKBENCH_AGENT = "workbench"


class QueryEngine(Protocol):
    """What the workbench needs of `tierscope.api.Project` (tests pass a fake one)."""

    root: Path
    config: Config

    def run(
        self,
        options: QueryOptions,
        *,
        on_event: EventSink | None = None,
        cancel: threading.Event | None = None,
        trajectory: bool = True,
        agent: str | None = None,
    ) -> QueryResult: ...

    def sessions(self) -> list[str]: ...

    def session_preview(self, session: str, hits: Sequence[Hit]) -> list[Assessment]: ...


@dataclass(frozen=True, slots=True)
class QueryRun:
    """One submitted query: its id, what was asked, and the flag that stops it."""

    run_id: int
    options: QueryOptions
    cancel: threading.Event


class QueryRunner:
    """Hands out runs and remembers which one is current."""

    def __init__(self) -> None:
        self._current: QueryRun | None = None
        self._last_id = 0

    def begin(self, options: QueryOptions) -> QueryRun:
        """A new current run; the previous one (if any) is told to stop."""
        self.cancel()
        self._last_id += 1
        self._current = QueryRun(self._last_id, options, threading.Event())
        return self._current

    def cancel(self) -> bool:
        """Stop the current run. True when there was one still going."""
        run = self._current
        if run is None or run.cancel.is_set():
            return False
        run.cancel.set()
        return True

    def finish(self, run_id: int) -> None:
        """Forget the current run once its result (or failure) has arrived."""
        if self._current is not None and self._current.run_id == run_id:
            self._current = None

    def is_current(self, run_id: int) -> bool:
        return self._current is not None and self._current.run_id == run_id

    @property
    def running(self) -> bool:
        return self._current is not None and not self._current.cancel.is_set()


def execute_run(engine: QueryEngine, run: QueryRun, post: Callable[[Message], Any]) -> None:
    """Run the query, posting one message per engine event; never raises.

    Ends with exactly one of: QueryFinishedMessage, RunCancelled or RunFailed.
    """
    finished = False

    def on_event(event: QueryEvent) -> None:
        nonlocal finished
        if run.cancel.is_set():
            return
        if isinstance(event, QueryFinished):
            finished = True
        post(message_for(run.run_id, event))

    try:
        result = engine.run(
            run.options, on_event=on_event, cancel=run.cancel, agent=WORKBENCH_AGENT
        )
    except Exception as exc:
        # The engine promises outcomes for user-caused problems, so this is a bug; show it
        # as one line in the workbench instead of tearing the UI down.
        report_exception("workbench: a query run raised", also=log.error)
        post(RunFailed(run.run_id, f"{type(exc).__name__}: {exc}"))
        return
    if run.cancel.is_set():
        post(RunCancelled(run.run_id))
    elif not finished:
        post(QueryFinishedMessage(run.run_id, QueryFinished(result.query_id, result)))
