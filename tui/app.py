"""The workbench App. It registers the themes, turns each view's Screen module into an app
mode, and routes messages between views — nothing else. Each view lives in its own module
under `tui/screens/` and is imported only when first shown.

A view module `tierscope.tui.screens.<module>` provides a Screen class constructed as
`ScreenClass(engine)` (the project it works on); listing it in `VIEWS` is all it takes to
appear in the footer, the command palette and the help. Views whose module is not present
are left out. A view that can hold unsaved edits implements `HoldsUnsavedWork`
(`tui/unsaved_work.py`), and quitting asks about them first.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
from collections.abc import Iterable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, ClassVar, cast

from textual import work
from textual.actions import parse
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.worker import WorkerState

from tierscope.scopes import offered_scopes
from tierscope.themes.builtin import BUILTIN_THEMES, DEFAULT_THEME, VARIABLE_DEFAULTS
from tierscope.themes.user import load_user_themes

from .control_pictures import draw_control_characters_visibly
from .messages import ConfigSaved, ReplayQuery, ShowView
from .parsed_css import remember_parsed_css
from .preferences import Preferences, load_preferences, save_preferences, user_themes_dir
from .query_runner import QueryEngine
from .unsaved_work import HoldsUnsavedWork

if TYPE_CHECKING:
    from .screens.query import QueryScreen

EXIT_AFTER_FIRST_PAINT = "TIERSCOPE_EXIT_AFTER_FIRST_PAINT"


@dataclass(frozen=True, slots=True)
class View:
    """One working view: its mode name, title, key, and where its Screen class lives."""

    mode: str
    title: str
    key: str
    module: str
    screen: str
    description: str


VIEWS: tuple[View, ...] = (
    View("query", "Query", "f2", "query", "QueryScreen", "ask and watch the tiers fall through"),
    View(
        "trajectories",
        "Trajectories",
        "f3",
        "trajectories",
        "TrajectoriesScreen",
        "browse what skills asked",
    ),
    View("config", "Config", "f4", "config", "ConfigScreen", "tune scopes, budgets, timeouts"),
    View("doctor", "Doctor", "f5", "doctor", "DoctorScreen", "which tiers work here, and why"),
    View("store", "Store", "f6", "store", "StoreScreen", "the context store"),
)


def present_views(views: Iterable[View]) -> tuple[View, ...]:
    """The views whose module exists (checked without importing it)."""
    return tuple(
        view
        for view in views
        if importlib.util.find_spec(f"tierscope.tui.screens.{view.module}") is not None
    )


class TierscopeApp(App[None]):
    """The tierscope workbench."""

    CSS_PATH = "app.tcss"
    TITLE = "tierscope"
    DEFAULT_MODE = "query"
    # Every view lays itself out for narrow (80 columns, the default terminal) and short
    # (24 rows) terminals by these classes: stacked panes, fewer columns. (Textual declares
    # both as `ClassVar[...] | None`, which type checkers read as instance variables.)
    HORIZONTAL_BREAKPOINTS: ClassVar[list[tuple[int, str]]] = [(0, "-narrow"), (100, "-wide")]  # type: ignore[misc]
    VERTICAL_BREAKPOINTS: ClassVar[list[tuple[int, str]]] = [(0, "-short"), (32, "-tall")]  # type: ignore[misc]

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1", "help", "Help"),
        *(Binding(view.key, f"view('{view.mode}')", view.title) for view in VIEWS),
        Binding("ctrl+t", "change_theme", "Theme", show=False),
        Binding("ctrl+q", "quit", "Quit", show=False, priority=True),
    ]

    def __init__(
        self,
        engine: QueryEngine,
        *,
        theme: str | None = None,
        views: Iterable[View] = VIEWS,
        notices: Iterable[str] = (),
    ) -> None:
        """`notices`: what the command that opened the workbench has to say (where the
        demo's copy lives, whether qmd is there), shown in the app rather than only on a
        terminal the app covers."""
        remember_parsed_css()
        draw_control_characters_visibly()
        super().__init__()
        self.engine = engine
        self.notices = tuple(notices)
        self.views = present_views(views)
        self.view_screens: dict[str, Screen] = {}
        self.startup_warnings: list[str] = []
        for view in self.views:
            self.add_mode(view.mode, partial(self._make_view, view))
        self.sub_title = str(engine.root)
        self._register_themes()
        self.preferences = load_preferences()
        self.theme = self._initial_theme(theme)

    # Views -----------------------------------------------------------------------------

    def _make_view(self, view: View) -> Screen:
        module = importlib.import_module(f"tierscope.tui.screens.{view.module}")
        screen = getattr(module, view.screen)(self.engine)
        # The classes Textual gives a screen of this size at its first resize, given now,
        # so its widgets are styled for them as they mount rather than again after.
        screen.update_classes(self._breakpoint_classes(), update=False)
        self.view_screens[view.mode] = screen
        return screen

    def _breakpoint_classes(self) -> dict[str, bool]:
        """The classes of the app's breakpoints (no view sets its own) for its size, as
        Textual's Screen works them out: for each dimension, the largest edge reached."""
        width, height = self.size
        classes: dict[str, bool] = {}
        for dimension, breakpoints in (
            (width, self.HORIZONTAL_BREAKPOINTS),
            (height, self.VERTICAL_BREAKPOINTS),
        ):
            reached = [(edge, name) for edge, name in breakpoints if dimension >= edge]
            applies = max(reached)[1] if reached else None
            classes.update({name: name == applies for _edge, name in breakpoints})
        return classes

    def _query_view(self) -> QueryScreen:
        """The Query view, once built (the "query" mode is always the QueryScreen)."""
        return cast("QueryScreen", self.view_screens["query"])

    def action_view(self, mode: str) -> None:
        if mode in {view.mode for view in self.views}:
            self.switch_mode(mode)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "view":
            return parameters[0] in {view.mode for view in self.views}
        return True

    async def on_show_view(self, message: ShowView) -> None:
        self.action_view(message.view)

    async def on_replay_query(self, message: ReplayQuery) -> None:
        """A logged query goes to the Query view, which loads and runs it."""
        await self.switch_mode("query")
        self._query_view().load_options(message.options, logged=message.logged)

    async def on_config_saved(self, message: ConfigSaved) -> None:
        """New settings apply from the next query on; the other views drew the old ones
        (scopes, tiers, defaults), so each is built afresh the next time it is shown."""
        self.engine.config = message.config
        for view in self.views:
            if view.mode not in self.view_screens or view.mode == self.current_mode:
                continue
            del self.view_screens[view.mode]
            await self.remove_mode(view.mode)
            self.add_mode(view.mode, partial(self._make_view, view))

    async def action_quit(self) -> None:
        """Quit; first, each view holding unsaved edits asks: save, discard, or stay."""
        asking = (worker for worker in self.workers if worker.group == "quit")
        if not any(worker.state is WorkerState.RUNNING for worker in asking):
            self._quit_unless_kept()

    @work(group="quit")
    async def _quit_unless_kept(self) -> None:
        from .screens.unsaved_changes import DISCARD, SAVE, UnsavedChangesDialog

        for view in self.views:
            screen = self.view_screens.get(view.mode)
            if not isinstance(screen, HoldsUnsavedWork):
                continue
            target = screen.unsaved_changes()
            if target is None:
                continue
            answer = await self.push_screen_wait(UnsavedChangesDialog(target))
            if answer == SAVE:
                await self.switch_mode(view.mode)
                if not await screen.save_changes():
                    return
            elif answer != DISCARD:
                return
        self.exit()

    def action_help(self) -> None:
        """The keys of the view on show, one row per action (hidden ones too, and the keys
        its widgets document in HELP_KEYS), then the workbench's own keys."""
        from .screens.help import HelpScreen, key_rows

        if isinstance(self.screen, HelpScreen):
            return
        view = self.screen
        here = key_rows(type(view).BINDINGS, self.get_key_display)
        here += list(getattr(view, "HELP_KEYS", ()))
        everywhere = key_rows(
            [
                binding
                for binding in Binding.make_bindings(TierscopeApp.BINDINGS)
                if self.check_action(*parse(binding.action)[1:])
            ],
            self.get_key_display,
        )
        if self.ENABLE_COMMAND_PALETTE:
            palette = Binding(self.COMMAND_PALETTE_BINDING, "command_palette", "Command palette")
            everywhere.append((self.get_key_display(palette), palette.description))
        self.push_screen(HelpScreen(view.TITLE or "this view", here, everywhere))

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        for view in self.views:
            yield SystemCommand(
                f"View: {view.title}", view.description, partial(self.action_view, view.mode)
            )
        for scope in offered_scopes(self.engine.config, self.engine.root):
            yield SystemCommand(
                f"Scope: {scope}",
                "Use this scope in the Query view (re-runs the current query)",
                partial(self._choose_scope, scope),
            )

    async def _choose_scope(self, scope: str) -> None:
        await self.switch_mode("query")
        self._query_view().choose_scope(scope)

    # Themes ----------------------------------------------------------------------------

    def get_theme_variable_defaults(self) -> dict[str, str]:
        # Textual's own themes lack our variables; these keep every stylesheet valid.
        return dict(VARIABLE_DEFAULTS)

    def _register_themes(self) -> None:
        for theme in BUILTIN_THEMES:
            self.register_theme(theme)
        found = load_user_themes(user_themes_dir(), frozenset(self.available_themes))
        for theme in found.themes:
            self.register_theme(theme)
        self.startup_warnings.extend(found.warnings)

    def _initial_theme(self, requested: str | None) -> str:
        """--theme > the remembered theme > tierscope-dark. An unknown name is passed
        over with a warning naming the theme used instead."""
        passed_over = []
        chosen = DEFAULT_THEME
        for name, origin in ((requested, "--theme"), (self.preferences.theme, "saved theme")):
            if not name:
                continue
            if name in self.available_themes:
                chosen = name
                break
            passed_over.append(f"{origin} {name!r} is not a known theme")
        self.startup_warnings.extend(f"{warning}; using {chosen}" for warning in passed_over)
        return chosen

    def _remember_theme(self, theme: object) -> None:
        """Save a theme chosen in the app (ctrl+t, the palette); --theme is for one run."""
        name = getattr(theme, "name", None)
        if not name or name == self.preferences.theme:
            return
        self.preferences = Preferences(theme=name)
        warning = save_preferences(self.preferences)
        if warning:
            self.notify(warning, severity="warning")

    # Lifecycle -------------------------------------------------------------------------

    def on_mount(self) -> None:
        self.theme_changed_signal.subscribe(self, self._remember_theme)
        for problem in self.engine.config.problems:
            self.startup_warnings.append(f"config {problem}")
        if self.notices:
            # One toast for them all: stacked toasts would cover a small terminal's results.
            self.notify("\n".join(self.notices), timeout=10)
        for warning in self.startup_warnings:
            self.notify(warning, severity="warning", timeout=8)

    def on_ready(self) -> None:
        if os.environ.get(EXIT_AFTER_FIRST_PAINT) == "1":
            self.exit()
