"""The Config view: edit the `qmd_context:` section in a form or as raw YAML, see every
problem as you type, preview a query with the unsaved settings, and save — after seeing
the diff — without touching any other line of the file.

The screen owns one `ConfigDocument` (the file's text, edited key by key); the form and
the YAML editor both write to it and are redrawn from it, so they never disagree. The
preview (config_previewing.py) runs in a thread worker that only posts messages; saving
lives in config_saving.py.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from os.path import lexists
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Header, Static, TabbedContent, TabPane, Tabs, TextArea

from tierscope.api import Project
from tierscope.config.document import ConfigDocument
from tierscope.config.edit_errors import ConfigEditError
from tierscope.config.loader import parse_config
from tierscope.config.model import Config, ConfigProblem, ConfigSource
from tierscope.config.validate import validate

from ..config_text import (
    changed_lines,
    config_target,
    disk_text,
    in_file_lines,
    plural,
    with_section_text,
)
from ..widgets.config_form import ConfigForm
from ..widgets.config_preview import PreviewPanel
from ..widgets.config_problems import ProblemList
from ..widgets.named_entries import NamedEntries
from ..widgets.setting_field import NOT_SET, SettingField
from ..widgets.short_path import short_path
from ..widgets.tier_order import TierOrder
from ..widgets.workbench_footer import WorkbenchFooter
from ..widgets.yaml_editor import YamlEditor
from .config_previewing import ConfigPreviewing
from .config_saving import ConfigSaving
from .view_screen import ViewScreen

EDITED_REASON = "unsaved edits in the Config view"


class ConfigScreen(ConfigPreviewing, ConfigSaving, ViewScreen):
    """Tune scopes, budgets, timeouts and overrides, and see their effect before saving."""

    CSS_PATH = "config.tcss"
    TITLE = "Config"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "Save"),
        Binding("ctrl+r", "preview", "Preview"),
        # F8: the editor keeps F6 and F7 (select line, select all) for itself.
        Binding("f8", "toggle_yaml", "Form/YAML"),
    ]

    def __init__(self, engine: Project, **kwargs) -> None:
        super().__init__(**kwargs)
        self.engine = engine
        self.path = config_target(engine)
        self.document = ConfigDocument.from_text("", self.path)
        self.loaded_text = ""
        self.baseline: list[ConfigProblem] = []  # the problems the file had when loaded
        self.problems: list[ConfigProblem] = []
        self.editor_problem: ConfigProblem | None = None
        self.broken: ConfigEditError | None = None  # the file itself is not valid YAML
        # Why the file was not read (too large, not a regular file, a link out of the
        # project): it is never saved over.
        self.unreadable: str | None = None
        self.edited: Config = engine.config
        self._groups: dict[str, object] = {}  # file_value's reading of the current text
        self._groups_text: str | None = None
        self._preview_id = 0
        self._preview_cancel: threading.Event | None = None
        self._status_parts: list[str | tuple[str, str]] = []

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="config-status")
        with Horizontal(id="config-body"):
            with TabbedContent(id="config-tabs", initial="form-tab"):
                with TabPane("Form", id="form-tab"):
                    yield ConfigForm(id="config-form")
                with TabPane("YAML", id="yaml-tab"):
                    yield YamlEditor(id="yaml-editor")
                with TabPane("Preview", id="preview-tab"):
                    yield PreviewPanel(id="config-preview")
            with Vertical(id="problems-box"):
                yield ProblemList(id="problems")
        yield WorkbenchFooter()

    def on_mount(self) -> None:
        self.query_one("#problems-box").border_title = "Problems"
        self.query_one("#problems-box").border_subtitle = "Enter shows where"
        self.load()

    def on_screen_resume(self) -> None:
        # Shown again: pick up a change made on disk meanwhile, unless there are edits. A
        # file still there and still unread reads as None: nothing changed.
        on_disk = self._disk_text()
        still_unread = on_disk is None and self.unreadable is not None and lexists(self.path)
        if self.unsaved_changes() is None and on_disk != self.document.text and not still_unread:
            self.load()
        query_view = getattr(self.app, "view_screens", {}).get("query")
        options = getattr(query_view, "options", None)
        if options is not None:
            self.query_one(PreviewPanel).suggest_query(options.text)

    # Loading and drawing ----------------------------------------------------------------

    def load(self) -> None:
        """Read the file again; edits not saved are dropped."""
        self.unreadable = None
        try:
            self.document = ConfigDocument.load(self.path, self.engine.root)
        except OSError as exc:
            self.document = ConfigDocument.from_text("", self.path)
            self.unreadable = exc.strerror or str(exc)
            self.notify(f"cannot read {self.path}: {self.unreadable}", severity="error")
        self.loaded_text = self.document.text
        self.editor_problem = None
        self.baseline = self._validate()
        self.redraw(replace_typing=True)

    def held_text(self) -> str:
        """The whole file as this view holds it: the document, except that while the YAML
        editor's text does not parse, that text stands in place of the section."""
        if self.editor_problem is None:
            return self.document.text
        return with_section_text(self.document, self.query_one(YamlEditor).text)

    def unsaved_changes(self) -> str | None:
        """The file's name when the view holds edits not on disk yet (in the form or in
        the YAML editor, parsed or not), else None."""
        if self.held_text() == self.loaded_text:
            return None
        return short_path(self.path, self.engine.root)

    def _validate(self) -> list[ConfigProblem]:
        return validate(self.document, self.engine.root)

    def _disk_text(self) -> str | None:
        return disk_text(self.path, self.engine.root)

    def file_value(self, key: str) -> object:
        """The file's value at a dotted key under qmd_context; NOT_SET when absent."""
        group, _, rest = key.partition(".")
        # A redraw asks for every field; each group is read from the text once per edit.
        if self._groups_text != self.document.text:
            self._groups, self._groups_text = {}, self.document.text
        if group not in self._groups:
            try:
                self._groups[group] = self.document.get(group, NOT_SET)
            except ConfigEditError:
                self._groups[group] = NOT_SET
        value = self._groups[group]
        for part in rest.split(".") if rest else ():
            if not isinstance(value, Mapping):
                return NOT_SET
            names = [name for name in value if str(name) == part]
            if not names:
                return NOT_SET
            value = value[names[-1]]
        return value

    def _names_in_file(self) -> Mapping[str, list[str]]:
        names = {}
        for group in ("scopes", "skill_overrides"):
            value = self.file_value(group)
            names[group] = [str(name) for name in value] if isinstance(value, Mapping) else []
        return names

    def redraw(
        self, *, form: bool = True, editor: bool = True, replace_typing: bool = False
    ) -> None:
        """Validate the document and draw it everywhere (but where the edit came from);
        with `replace_typing`, the form field being typed in shows the file too."""
        document = self.document
        self.problems = self._validate()
        self.edited = parse_config(document.render(), ConfigSource(document.path, EDITED_REASON))
        try:
            section, first_line = document.section_text(), document.section_first_line() or 1
            self.broken = None
        except ConfigEditError as exc:
            section, first_line, self.broken = document.text, 1, exc
        config_form = self.query_one(ConfigForm)
        config_form.disabled = self.broken is not None
        if form and self.broken is None:
            config_form.show(
                self.file_value,
                self.edited,
                self._names_in_file(),
                self.problems,
                replace_typing=replace_typing,
            )
        self.query_one(PreviewPanel).offer_scopes(self.edited.scopes)
        yaml_editor = self.query_one(YamlEditor)
        yaml_editor.read_only = self.broken is not None
        if editor:
            yaml_editor.show(section, first_line)
            self.editor_problem = None  # text that did not parse is no longer shown
        self._show_problems()

    def _show_problems(self) -> None:
        problems = ([self.editor_problem] if self.editor_problem else []) + self.problems
        self.query_one(ProblemList).show(problems)
        self._show_status(problems)

    def _show_status(self, problems: list[ConfigProblem]) -> None:
        name = short_path(self.path, self.engine.root)
        document = self.document
        held = self.held_text()
        unsaved = held != self.loaded_text
        parts: list[str | tuple[str, str]] = [(name, "bold")]
        if self.unreadable is not None:
            parts.append((f"  cannot be read ({self.unreadable}); not saved over", "$error"))
        elif self.broken is not None:
            parts.append(
                (
                    f"  not valid YAML ({self.broken}); fix it in a text editor — it is "
                    "read again when this view is shown",
                    "$error",
                )
            )
        elif unsaved:
            count = changed_lines(self.loaded_text, held)
            parts.append((plural(count, "  {} line") + " changed, unsaved", "$accent"))
        elif not document.exists:
            parts.append(("  does not exist yet; saving creates it", "$foreground-muted"))
        else:
            parts.append(("  saved", "$foreground-muted"))
        errors = sum(problem.severity == "error" for problem in problems)
        warnings = len(problems) - errors
        parts.append(("  ·  ", "$foreground-muted"))
        muted = "$foreground-muted"
        parts.append((plural(errors, "✗ {} error"), "$error" if errors else muted))
        parts.append((plural(warnings, "  ⚠ {} warning"), "$warning" if warnings else muted))
        if parts != self._status_parts:  # one row whatever it says: no layout needed
            self._status_parts = parts
            self.query_one("#config-status", Static).update(Content.assemble(*parts), layout=False)
        self.sub_title = f"{name}{' (unsaved)' if unsaved else ''}"

    # Editing in the form ----------------------------------------------------------------

    def _edit(self, key: str, value: object, field: SettingField | None = None) -> bool:
        """Write one key (NOT_SET removes it); a refused edit is shown, not raised."""
        current = self.file_value(key)
        if value is not NOT_SET and current == value and type(current) is type(value):
            return False  # the field echoes the file (e.g. redrawn): nothing to write
        try:
            if value is NOT_SET:
                self.document.unset(key)
            else:
                self.document.set(key, value)
        except ConfigEditError as exc:
            problem = ConfigProblem(str(exc), str(self.path), exc.line, key)
            if field is not None:
                field.show_message(problem)
            else:
                self.notify(str(problem), severity="error")
            return False
        return True

    @on(SettingField.Edited)
    def _setting_edited(self, message: SettingField.Edited) -> None:
        if self._edit(message.key, message.value, message.field):
            self.redraw()

    @on(TierOrder.Changed)
    def _tiers_changed(self, message: TierOrder.Changed) -> None:
        if self._edit("tiers", list(message.tiers)):
            self.redraw()

    @on(NamedEntries.EntryChosen)
    def _entry_chosen(self, message: NamedEntries.EntryChosen) -> None:
        message.editor.select(message.name, self.file_value)

    @on(NamedEntries.DraftChanged)
    def _draft_changed(self, message: NamedEntries.DraftChanged) -> None:
        # Check the new entry as it would be written, in a copy of the document.
        candidate = ConfigDocument.from_text(self.document.text, self.path)
        try:
            candidate.set(f"{message.editor.group}.{message.name}", message.body)
        except ConfigEditError:
            return
        message.editor.show_draft_problems(validate(candidate, self.engine.root))

    @on(NamedEntries.Added)
    def _entry_added(self, message: NamedEntries.Added) -> None:
        editor = self._entries_editor(message.group)
        if not message.body:
            self.notify(f"Fill in at least one field of the new {editor.noun}.", severity="warning")
            return
        if self._edit(f"{message.group}.{message.name}", message.body):
            self.redraw()
            editor.added(message.name, self.file_value)

    @on(NamedEntries.Removed)
    def _entry_removed(self, message: NamedEntries.Removed) -> None:
        editor = self._entries_editor(message.group)
        try:
            removed = self.document.unset(f"{message.group}.{message.name}")
        except ConfigEditError as exc:
            self.notify(str(exc), severity="error")
            return
        if not removed:
            self.notify(
                f"{editor.noun} {message.name} is built in: it can be changed, not removed.",
                severity="warning",
            )
            return
        self.redraw()

    def _entries_editor(self, group: str) -> NamedEntries:
        return next(editor for editor in self.query(NamedEntries) if editor.group == group)

    # Editing the YAML -------------------------------------------------------------------

    @on(TextArea.Changed, "#yaml-editor")
    def _yaml_edited(self, message: TextArea.Changed) -> None:
        if self.broken is not None:
            return
        text = message.text_area.text
        if not text.strip() and not self.document.section_text():
            return
        try:
            self.document.set_section_text(text)
        except ConfigEditError as exc:
            start = self.query_one(YamlEditor).line_number_start
            line = start + exc.line - 1 if exc.line is not None else None
            reason = in_file_lines(str(exc), start)
            self.editor_problem = ConfigProblem(
                f"YAML editor: {reason}; the form shows the last valid text",
                str(self.path),
                line,
            )
            self._show_problems()
            return
        self.editor_problem = None
        self.redraw(editor=False)

    # Problems ---------------------------------------------------------------------------

    @on(ProblemList.Chosen)
    def _problem_chosen(self, message: ProblemList.Chosen) -> None:
        problem = message.problem
        tabs = self.query_one(TabbedContent)
        form = self.query_one(ConfigForm)
        if tabs.active == "form-tab" and problem.key and form.focus_key(problem.key):
            return
        if problem.line is not None:
            tabs.active = "yaml-tab"
            editor = self.query_one(YamlEditor)
            editor.go_to_line(problem.line)
            editor.focus()

    @on(TabbedContent.TabActivated)
    def _tab_activated(self, message: TabbedContent.TabActivated) -> None:
        # The preview's two columns need the width the problems list takes.
        self.set_class(message.pane.id == "preview-tab", "-previewing")

    def action_toggle_yaml(self) -> None:
        active = self.query_one(TabbedContent).active
        self.action_show_tab("form-tab" if active == "yaml-tab" else "yaml-tab")

    def action_show_tab(self, tab: str) -> None:
        # The cursor goes with the tab: a cursor left in the hidden pane would take it back.
        self.set_focus(None)
        tabs = self.query_one(TabbedContent)
        tabs.active = tab
        if tab == "yaml-tab":
            self.query_one(YamlEditor).focus()
        else:
            tabs.query_one(Tabs).focus()
