"""The base of the workbench's views (Query, Config, Doctor...): one screen per view,
built the first time the view is shown and kept."""

from __future__ import annotations

from textual import events, on
from textual.screen import Screen


class ViewScreen(Screen[None]):
    """A view's screen. Textual restyles every widget of a screen each time it is shown,
    in case the styles changed while it was hidden (a new theme). When a view is shown
    for the first time, its widgets were styled as they were mounted, a moment before, so
    that restyle (twice: once as the view's mode starts, once as it is switched to) would
    only repeat the work of building the view. It is skipped until the view has once been
    hidden; from then on every showing restyles as Textual does."""

    _hidden_once = False

    @on(events.ScreenSuspend)
    def _note_hidden(self) -> None:
        self._hidden_once = True

    @on(events.ScreenResume)
    def _keep_the_styles_just_applied(self, event: events.ScreenResume) -> None:
        if not self._hidden_once:
            event.refresh_styles = False
