"""Textual messages of the workbench.

A query runs in a worker thread; everything it reports reaches the widgets as one of these
messages, posted from the thread and handled on the UI's event loop. Each carries the
`run_id` of the run that produced it, so a screen can ignore the late messages of a run it
has already replaced.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message

from tierscope.events import (
    BudgetApplied,
    QueryEvent,
    QueryFinished,
    QueryStarted,
    TierFinished,
    TierStarted,
)

if TYPE_CHECKING:
    from tierscope.api import QueryOptions
    from tierscope.config.model import Config
    from tierscope.models import Hit
    from tierscope.trajectory.replay import LoggedQuery


class RunMessage(Message):
    """Something that happened during one run of a query."""

    def __init__(self, run_id: int) -> None:
        super().__init__()
        self.run_id = run_id


class QueryStartedMessage(RunMessage):
    def __init__(self, run_id: int, event: QueryStarted) -> None:
        super().__init__(run_id)
        self.event = event


class TierStartedMessage(RunMessage):
    def __init__(self, run_id: int, event: TierStarted) -> None:
        super().__init__(run_id)
        self.event = event


class TierFinishedMessage(RunMessage):
    def __init__(self, run_id: int, event: TierFinished) -> None:
        super().__init__(run_id)
        self.event = event


class BudgetAppliedMessage(RunMessage):
    def __init__(self, run_id: int, event: BudgetApplied) -> None:
        super().__init__(run_id)
        self.event = event


class QueryFinishedMessage(RunMessage):
    def __init__(self, run_id: int, event: QueryFinished) -> None:
        super().__init__(run_id)
        self.event = event


class RunCancelled(RunMessage):
    """The run stopped because a newer query (or the user) cancelled it."""


class RunFailed(RunMessage):
    """The engine raised: a programming error, shown as one line rather than a crash."""

    def __init__(self, run_id: int, error: str) -> None:
        super().__init__(run_id)
        self.error = error


class SessionLooked(Message):
    """What of a result's hits `session` has already received: hit -> "repeat" or
    "part" (a hit not in it is new), with where each repeat was provided."""

    def __init__(self, query_id: str, session: str, seen: dict[Hit, tuple[str, str]]) -> None:
        super().__init__()
        self.query_id = query_id
        self.session = session
        self.seen = seen


_MESSAGE_FOR_EVENT: dict[type, type] = {
    QueryStarted: QueryStartedMessage,
    TierStarted: TierStartedMessage,
    TierFinished: TierFinishedMessage,
    BudgetApplied: BudgetAppliedMessage,
    QueryFinished: QueryFinishedMessage,
}


def message_for(run_id: int, event: QueryEvent) -> RunMessage:
    """The message that carries `event` of run `run_id` to the UI."""
    return _MESSAGE_FOR_EVENT[type(event)](run_id, event)


class ReplayQuery(Message):
    """Ask the Query view to load these options and run them (e.g. from a trajectory);
    `logged` is what the trajectory says the query found then, to show beside now."""

    def __init__(self, options: QueryOptions, logged: LoggedQuery | None = None) -> None:
        super().__init__()
        self.options = options
        self.logged = logged


class ShowView(Message):
    """Ask the App to switch to the view named `view` (a mode name such as "query")."""

    def __init__(self, view: str) -> None:
        super().__init__()
        self.view = view


class ConfigSaved(Message):
    """The config file was saved: `config` is what it now says, for every view."""

    def __init__(self, config: Config) -> None:
        super().__init__()
        self.config = config
