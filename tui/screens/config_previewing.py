"""The Config view's preview: the query run twice in a thread worker, with the saved
settings and with the edited ones, the worker only posting messages."""

from __future__ import annotations

import threading
from collections.abc import Callable

from textual import work
from textual.content import Content
from textual.message import Message

from tierscope.api import Project, QueryOptions
from tierscope.config.model import Config
from tierscope.debugging import report_exception
from tierscope.models import QueryResult

from ..widgets.config_preview import PreviewPanel
from .screen_part import ScreenPart


class PreviewFinished(Message):
    """Both runs of a preview ended; `preview_id` says which preview."""

    def __init__(self, preview_id: int, saved: QueryResult, edited: QueryResult) -> None:
        super().__init__()
        self.preview_id = preview_id
        self.saved = saved
        self.edited = edited


class PreviewFailed(Message):
    """The engine raised: a programming error, shown as one line rather than a crash."""

    def __init__(self, preview_id: int, error: str) -> None:
        super().__init__()
        self.preview_id = preview_id
        self.error = error


class ConfigPreviewing(ScreenPart):
    """The preview part of `ConfigScreen` (ctrl+r, the Preview tab)."""

    engine: Project
    edited: Config  # the settings as edited, saved or not
    _preview_id: int
    _preview_cancel: threading.Event | None
    action_show_tab: Callable[[str], None]

    def action_preview(self) -> None:
        """Show the preview and run it; with no query typed yet, put the cursor there."""
        self.action_show_tab("preview-tab")
        self.query_one(PreviewPanel).request()

    def on_preview_panel_requested(self, message: PreviewPanel.Requested) -> None:
        if self._preview_cancel is not None:
            self._preview_cancel.set()
        self._preview_id += 1
        self._preview_cancel = threading.Event()
        self._preview(self._preview_id, message.options, self.edited, self._preview_cancel)

    @work(thread=True, exclusive=True, group="config-preview", exit_on_error=False)
    def _preview(
        self, preview_id: int, options: QueryOptions, edited: Config, cancel: threading.Event
    ) -> None:
        try:
            saved = self.engine.run(options, cancel=cancel, trajectory=False)
            changed = self.engine.with_config(edited).run(options, cancel=cancel, trajectory=False)
        except Exception as exc:
            # The engine turns what a user can cause into outcomes, so this is a bug: say
            # it in one line instead of tearing the workbench down.
            report_exception("workbench: a config preview run raised", also=self.log.error)
            self.post_message(PreviewFailed(preview_id, f"{type(exc).__name__}: {exc}"))
            return
        if not cancel.is_set():
            self.post_message(PreviewFinished(preview_id, saved, changed))

    async def on_preview_finished(self, message: PreviewFinished) -> None:
        if message.preview_id == self._preview_id:
            await self.query_one(PreviewPanel).show(message.saved, message.edited)

    def on_preview_failed(self, message: PreviewFailed) -> None:
        if message.preview_id == self._preview_id:
            self.query_one(PreviewPanel).set_summary(
                [Content.styled(f"the preview failed: {message.error}", "$error")]
            )
