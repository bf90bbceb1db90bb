"""Above the results: a session skills have queried in, to compare the result with — which
hits it has received already, so a headless query in it would send them as references.

Shown only when the project has sessions. Choosing one never makes the workbench answer
in it: the workbench only looks.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.message import Message
from textual.widgets import Label, Select, Static


class SessionPicker(Horizontal):
    """A session to compare with (or none), and what it has of the result."""

    DEFAULT_CSS = """
    SessionPicker {
        display: none;
        height: 1;
        padding: 0 1;
    }
    SessionPicker Label {
        padding: 0 1 0 0;
        color: $foreground-muted;
    }
    SessionPicker #session {
        width: 18;
    }
    SessionPicker #session-summary {
        width: 1fr;
        margin-left: 1;
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    """

    class Chosen(Message):
        """The session to compare with changed (None: no session)."""

        def __init__(self, session: str | None) -> None:
            super().__init__()
            self.session = session

    def __init__(self, sessions: list[str], **kwargs) -> None:
        super().__init__(**kwargs)
        # Known before the first layout, so the view does not shift when it shows.
        self.sessions = list(sessions)
        self.display = bool(sessions)

    def compose(self) -> ComposeResult:
        yield Label("Session")
        yield Select(
            [(session, session) for session in self.sessions],
            prompt="no session",
            id="session",
            compact=True,
        )
        yield Static(id="session-summary")

    def set_sessions(self, sessions: list[str]) -> None:
        """Offer `sessions` (shown only when there are some), keeping the one chosen while
        it is still there."""
        if sessions == self.sessions:
            return
        shown = bool(sessions) or self.chosen() is not None
        if self.display != shown:
            self.display = shown
        self.sessions = list(sessions)
        select = self.query_one("#session", Select)
        chosen = self.chosen()
        with select.prevent(Select.Changed):
            select.set_options([(session, session) for session in sessions])
            if chosen in sessions:
                select.value = chosen
        if chosen is not None and chosen not in sessions:
            self.post_message(self.Chosen(None))

    def choose(self, session: str | None) -> None:
        select = self.query_one("#session", Select)
        if session is None:
            select.clear()
        else:
            select.value = session

    def chosen(self) -> str | None:
        value = self.query_one("#session", Select).value
        return value if isinstance(value, str) else None

    def show_summary(self, text: str, style: str = "$warning", tooltip: str = "") -> None:
        summary = self.query_one("#session-summary", Static)
        summary.update(Content.styled(text, style))
        summary.tooltip = tooltip or None

    def on_select_changed(self, event: Select.Changed) -> None:
        event.stop()
        self.post_message(self.Chosen(self.chosen()))
