"""The Config view: edit the `qmd_context:` section in a form or as raw YAML, see every
problem as you type, preview a query with the unsaved settings, and save — after seeing
the diff — without touching any other line of the file.

The screen owns one `ConfigDocument` (the file's text, edited key by key); the form and
the YAML editor both write to it and are redrawn from it, so they never disagree. The
preview runs in a thread worker that only posts messages.
"""

from __future__ import annotations

import difflib
import re
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Header, Static, TabbedContent, TabPane, Tabs, TextArea

from tierscope.api import Project, QueryOptions
from tierscope.config.document import ConfigConflict, ConfigDocument, ConfigEditError
from tierscope.config.loader import PROJECT_CONFIG_NAMES, load_config, parse_config
from tierscope.config.model import Config, ConfigProblem, ConfigSource
from tierscope.config.validate import validate
from tierscope.models import QueryResult

from ..messages import ConfigSaved
from ..widgets.config_form import ConfigForm
from ..widgets.config_preview import PreviewPanel
from ..widgets.config_problems import ProblemList
from ..widgets.named_entries import NamedEntries
from ..widgets.setting_field import NOT_SET, SettingField
from ..widgets.short_path import short_path
from ..widgets.tier_order import TierOrder
from ..widgets.workbench_footer import WorkbenchFooter
from ..widgets.yaml_editor import YamlEditor
from .config_dialogs import conflict_dialog, disk_diff_dialog, save_dialog

EDITED_REASON = "unsaved edits in the Config view"
EDITOR_LINE = re.compile(r"\bline (\d+)")


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


def config_target(engine: Project) -> Path:
    """The file the view edits: the config in use, else `<root>/.tierscope.yaml`, which
    saving creates (the first name config discovery looks for)."""
    path = engine.config.source.path
    return path if path is not None else engine.root / PROJECT_CONFIG_NAMES[0]


def changed_lines(before: str, after: str) -> int:
    """How many lines an edit touched: a replaced line counts once, like an added or a
    removed one."""
    matcher = difflib.SequenceMatcher(None, before.splitlines(), after.splitlines(), False)
    return sum(
        max(end - start, new_end - new_start)
        for tag, start, end, new_start, new_end in matcher.get_opcodes()
        if tag != "equal"
    )


def shown_diff(document: ConfigDocument, name: str) -> str:
    """The document's diff against the disk, its headers naming the file as the view does."""
    diff = document.diff()
    return diff.replace(str(document.path), name, 2) if document.path is not None else diff


def with_section_text(document: ConfigDocument, section: str) -> str:
    """The document's text with `section` in place of its `qmd_context:` block (added at
    the end when it has none), taken as it is: it need not parse."""
    text = document.text
    if section and not section.endswith("\n"):
        section += "\n"
    first_line = document.section_first_line()
    if first_line is None:
        return text + ("\n" if text and not text.endswith("\n") else "") + section
    start = 0
    for _ in range(first_line - 1):
        start = text.index("\n", start) + 1
    return text[:start] + section + text[start + len(document.section_text()) :]


def in_file_lines(message: str, first_line: int) -> str:
    """A parser's message about the editor's text with its line numbers made the file's
    (the editor shows the section from line `first_line` of the file)."""
    return EDITOR_LINE.sub(lambda found: f"line {int(found[1]) + first_line - 1}", message)


def plural(count: int, template: str) -> str:
    """`template` with the count in place of {} and an s when it is not 1."""
    return template.format(count) + ("" if count == 1 else "s")


def introduced_errors(
    before: list[ConfigProblem], after: list[ConfigProblem]
) -> list[ConfigProblem]:
    """Errors of `after` that `before` did not have (the file's old errors never block)."""
    known = {(problem.key, problem.message) for problem in before}
    return [
        problem
        for problem in after
        if problem.severity == "error" and (problem.key, problem.message) not in known
    ]


class ConfigScreen(Screen):
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
        self.edited: Config = engine.config
        self._groups: dict[str, object] = {}  # file_value's reading of the current text
        self._groups_text: str | None = None
        self._preview_id = 0
        self._preview_cancel: threading.Event | None = None

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
        # Shown again: pick up a change made on disk meanwhile, unless there are edits.
        if self.unsaved_changes() is None and self._disk_text() != self.document.text:
            self.load()
        query_view = getattr(self.app, "view_screens", {}).get("query")
        options = getattr(query_view, "options", None)
        if options is not None:
            self.query_one(PreviewPanel).suggest_query(options.text)

    # Loading and drawing ----------------------------------------------------------------

    def load(self) -> None:
        """Read the file again; edits not saved are dropped."""
        try:
            self.document = ConfigDocument.load(self.path)
        except OSError as exc:
            self.document = ConfigDocument.from_text("", self.path)
            self.notify(f"cannot read {self.path}: {exc.strerror}", severity="error")
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
        try:
            return self.path.read_bytes().decode("utf-8", "surrogateescape")
        except OSError:
            return None

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
        if self.broken is not None:
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
        self.query_one("#config-status", Static).update(Content.assemble(*parts))
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
            message = in_file_lines(str(exc), start)
            self.editor_problem = ConfigProblem(
                f"YAML editor: {message}; the form shows the last valid text",
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

    # Preview ----------------------------------------------------------------------------

    def action_preview(self) -> None:
        """Show the preview and run it; with no query typed yet, put the cursor there."""
        self.action_show_tab("preview-tab")
        self.query_one(PreviewPanel).request()

    @on(PreviewPanel.Requested)
    def _preview_requested(self, message: PreviewPanel.Requested) -> None:
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

    # Saving -----------------------------------------------------------------------------

    def action_save(self) -> None:
        """Show the diff of the edits and save them when confirmed."""
        self._save_when_confirmed()

    @work(exclusive=True, group="config-save")
    async def _save_when_confirmed(self) -> None:
        await self.save_changes()

    async def save_changes(self) -> bool:
        """Refuse (saying why) edits that cannot be saved; otherwise show their diff and
        write them when confirmed. True once the file holds the edits."""
        if not self._can_save():
            return False
        if self._changed_on_disk():
            # Offering the diff first would offer to revert the other writer's change.
            self._show_conflict()
            return False
        document = self.document
        name = short_path(self.path, self.engine.root)
        dialog = save_dialog(
            name,
            shown_diff(document, name),
            changed_lines(self._disk_text() or "", document.text),
            creating=not document.exists,
        )
        if await self.app.push_screen_wait(dialog) != "save":
            return False
        return await self._write()

    def _can_save(self) -> bool:
        """Whether the edits can be saved as they are; when not, the user is told why."""
        name = short_path(self.path, self.engine.root)
        if self.broken is not None:
            self.notify(f"{name} is not valid YAML; nothing to save.", severity="error")
            return False
        if self.editor_problem is not None:
            self.notify(
                f"Not saved: the YAML editor has a problem at line {self.editor_problem.line}.",
                severity="error",
            )
            return False
        if not self.document.changed:
            self.notify("Nothing to save: no edits since the file was loaded.")
            return False
        errors = introduced_errors(self.baseline, self.problems)
        if errors:
            count = len(errors)
            self.notify(
                f"Not saved: the edits introduce {count} error{'s' if count != 1 else ''} "
                f"(first: {errors[0].key or 'line ' + str(errors[0].line)}: {errors[0].message}).",
                severity="error",
            )
            return False
        return True

    async def _write(self) -> bool:
        """Write the edits; a file changed on disk meanwhile is never overwritten."""
        name = short_path(self.path, self.engine.root)
        try:
            self.document.save()
        except ConfigConflict:  # written by someone else while the diff was on show
            self._show_conflict()
            return False
        except (OSError, ConfigEditError) as exc:
            reason = getattr(exc, "strerror", None) or exc
            self.notify(f"Not saved: cannot write {name} ({reason}).", severity="error")
            return False
        self.loaded_text = self.document.text
        self.baseline = self._validate()
        self.redraw()
        self.post_message(ConfigSaved(load_config(self.engine.root, self.engine.config_path)))
        await self.query_one(PreviewPanel).clear(
            "Saved: the saved settings are the edited ones now. Edit again, then preview."
        )
        self.notify(f"Saved {name}; queries use the new settings from now on.", title="Saved")
        return True

    def _changed_on_disk(self) -> bool:
        """Whether the file on disk is no longer the one the view loaded (or last saved)."""
        on_disk = self._disk_text()
        if on_disk is None:
            return self.document.exists
        return not self.document.exists or on_disk != self.loaded_text

    def _show_conflict(self) -> None:
        name = short_path(self.path, self.engine.root)
        self.app.push_screen(conflict_dialog(name), self._conflict_answered)

    def _conflict_answered(self, answer: str | None) -> None:
        name = short_path(self.path, self.engine.root)
        if answer == "reload":
            self.load()
            self.notify(f"Reloaded {name} from disk; your edits were dropped.")
        elif answer == "diff":
            self.app.push_screen(
                disk_diff_dialog(name, shown_diff(self.document, name)), self._conflict_answered
            )
