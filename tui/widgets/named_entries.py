"""A table of named entries of the config (scopes, skill overrides) with an editor for one.

Highlighting a row loads that entry into the fields below it; each field edit goes to the
file at once (`SettingField.Edited` with the entry's dotted key). "New" starts a draft
that is only written when added, so a half-typed name never becomes a key of the file;
the draft's fields are checked as they are typed all the same (`DraftChanged`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import ClassVar

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import Button, DataTable, Input, Label, Static

from tierscope.config.model import ConfigProblem

from .setting_field import NOT_SET, FieldSpec, SettingField, matches, typed_value

FileValue = Callable[[str], object]  # dotted key under qmd_context -> value or NOT_SET


class NamedEntries(Vertical):
    """Subclasses name the group (`scopes`), the noun, the fields and the table cells."""

    DEFAULT_CSS = """
    NamedEntries {
        height: auto;
    }
    NamedEntries > DataTable {
        height: auto;
        max-height: 12;
        margin-bottom: 1;
    }
    NamedEntries > .entry-name-row {
        height: 1;
    }
    NamedEntries .entry-name-label {
        width: 18;
        color: $foreground-muted;
    }
    NamedEntries .entry-name-row Input {
        width: 24;
    }
    NamedEntries > .entry-buttons {
        height: 1;
        padding-left: 18;
    }
    NamedEntries .entry-buttons Button {
        margin-right: 2;
        min-width: 8;
    }
    NamedEntries .entry-name-message {
        width: 1fr;
        padding: 0 0 0 2;
    }
    """

    group = ""
    noun = ""
    columns: tuple[str, ...] = ()
    column_widths: ClassVar[dict[str, int]] = {}  # columns cut to a width (others fit)
    fields: tuple[FieldSpec, ...] = ()

    class Added(Message):
        def __init__(self, group: str, name: str, body: dict[str, object]) -> None:
            super().__init__()
            self.group = group
            self.name = name
            self.body = body

    class Removed(Message):
        def __init__(self, group: str, name: str) -> None:
            super().__init__()
            self.group = group
            self.name = name

    class DraftChanged(Message):
        """A new entry being typed: check it without writing it."""

        def __init__(self, editor: NamedEntries, name: str, body: dict[str, object]) -> None:
            super().__init__()
            self.editor = editor
            self.name = name
            self.body = body

    class EntryChosen(Message):
        """The user highlighted an entry; the screen loads it with the file's values."""

        def __init__(self, editor: NamedEntries, name: str) -> None:
            super().__init__()
            self.editor = editor
            self.name = name

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.entries: dict[str, object] = {}
        self.in_file: set[str] = set()
        self.selected: str | None = None
        self.draft = False
        self.problems: tuple[ConfigProblem, ...] = ()
        self._rows: list[tuple] = []  # what the table shows
        self._name_shown: tuple[str | None, bool] = (None, True)  # the name's message

    # -- what subclasses say -----------------------------------------------------------

    def cells(self, name: str, entry: object) -> tuple[str, ...]:
        """The table cells of one entry after its name (one per column)."""
        raise NotImplementedError

    def defaults(self, name: str, entry: object | None) -> dict[str, object]:
        """What applies to each field of `name` when the file does not set it."""
        raise NotImplementedError

    def name_problem(self, name: str) -> str | None:
        """Why `name` cannot be a new entry, or None."""
        if not name:
            return f"type a name for the new {self.noun}"
        if "." in name or any(character.isspace() for character in name):
            return f"a {self.noun} name cannot contain dots or spaces"
        if name in self.entries:
            return f"{self.noun} {name!r} already exists; pick it in the table to edit it"
        return None

    def origin(self, name: str) -> str:
        return "file" if name in self.in_file else "built-in"

    # -- drawing -----------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        table: DataTable[str | Content] = DataTable(
            cursor_type="row", zebra_stripes=True, id=f"{self.group}-table"
        )
        table.add_column("", key="mark")
        table.add_column(self.noun, key="name")
        for column in self.columns:
            table.add_column(column, key=column, width=self.column_widths.get(column))
        table.add_column("from", key="from")
        yield table
        with Horizontal(classes="entry-name-row"):
            yield Label(self.noun, classes="entry-name-label")
            yield Input(placeholder=f"new {self.noun} name", compact=True, id="entry-name")
            yield Static(classes="entry-name-message")
        defaults = self.defaults("", None)
        for spec in self.fields:
            default = defaults.get(spec.key, NOT_SET)
            yield SettingField(spec, key="", default=default, id=f"entry-{spec.key}")
        # After the fields, so the cursor goes name, fields, Add when typing a new one.
        with Horizontal(classes="entry-buttons"):
            yield Button(f"New {self.noun}", compact=True, id="entry-new")
            yield Button("Add", compact=True, variant="success", id="entry-add")
            yield Button("Remove", compact=True, variant="error", id="entry-remove")

    @property
    def table(self) -> DataTable:
        return self.query_one(DataTable)

    def show(
        self,
        entries: Mapping[str, object],
        in_file: Iterable[str],
        file_value: FileValue,
        problems: Iterable[ConfigProblem],
    ) -> None:
        """Redraw the table and the fields of the entry being edited."""
        self.entries = dict(entries)
        self.in_file = set(in_file)
        self.problems = tuple(problems)
        rows = [
            (self._mark(name), name, *self.cells(name, entry), self.origin(name))
            for name, entry in self.entries.items()
        ]
        if rows != self._rows:  # most edits change one field, not the table
            self._rows = rows
            table = self.table
            with self.prevent(DataTable.RowHighlighted):
                table.clear()
                for name, cells in zip(self.entries, rows, strict=True):
                    table.add_row(*cells, key=name)
        if self.draft:
            self._check_draft()
            return
        if self.selected not in self.entries:
            self.selected = next(iter(self.entries), None)
        self._load(self.selected, file_value)

    def select(self, name: str, file_value: FileValue) -> None:
        """Edit the existing entry `name` (its values replace whatever the fields hold)."""
        self.draft = False
        self.selected = name
        self._load(name, file_value, replace_typing=True)

    def _load(
        self, name: str | None, file_value: FileValue, *, replace_typing: bool = False
    ) -> None:
        table = self.table
        if name is not None and name in self.entries:
            with self.prevent(DataTable.RowHighlighted):
                table.move_cursor(row=table.get_row_index(name))
        name_input = self.query_one("#entry-name", Input)
        with self.prevent(Input.Changed):
            name_input.value = name or ""
        name_input.disabled = True
        self.query_one("#entry-add", Button).disabled = True
        self.query_one("#entry-remove", Button).disabled = name is None
        self._name_message(None)
        defaults = self.defaults(name, self.entries.get(name)) if name else {}
        for spec in self.fields:
            field = self.query_one(f"#entry-{spec.key}", SettingField)
            field.key = f"{self.group}.{name}.{spec.key}" if name else ""
            field.disabled = name is None
            value = file_value(field.key) if name else NOT_SET
            field.show(value, default=defaults.get(spec.key, ""), replace_typing=replace_typing)
            field.show_problems(self.problems)

    def start_draft(self) -> None:
        """Clear the fields for a new entry and put the cursor in its name."""
        self.draft = True
        self.selected = None
        name_input = self.query_one("#entry-name", Input)
        name_input.disabled = False
        with self.prevent(Input.Changed):
            name_input.value = ""
        self.query_one("#entry-add", Button).disabled = False
        self.query_one("#entry-remove", Button).disabled = True
        defaults = self.defaults("", None)
        for spec in self.fields:
            field = self.query_one(f"#entry-{spec.key}", SettingField)
            field.key = ""
            field.disabled = False
            field.show(NOT_SET, default=defaults.get(spec.key, ""), replace_typing=True)
            field.show_message(None)
        name_input.focus()
        self._name_message(None)

    def draft_body(self) -> dict[str, object]:
        body = {}
        for spec in self.fields:
            text = self.query_one(f"#entry-{spec.key}", SettingField).text()
            value = typed_value(spec.kind, text)
            if value is not NOT_SET:
                body[spec.key] = value
        return body

    def draft_name(self) -> str:
        return self.query_one("#entry-name", Input).value.strip()

    def show_draft_problems(self, problems: Iterable[ConfigProblem]) -> None:
        """Problems the draft would have once added, beside its fields."""
        name = self.draft_name()
        problems = tuple(problems)
        for spec in self.fields:
            key = f"{self.group}.{name}.{spec.key}"
            found = [problem for problem in problems if matches(problem, key)]
            field = self.query_one(f"#entry-{spec.key}", SettingField)
            field.show_message(found[0] if found else None, len(found))

    def _check_draft(self) -> None:
        name = self.draft_name()
        problem = self.name_problem(name)
        self._name_message(problem, error=bool(name))
        if problem is None:
            self.post_message(self.DraftChanged(self, name, self.draft_body()))

    def _name_message(self, problem: str | None, *, error: bool = True) -> None:
        if (problem, error) == self._name_shown:
            return  # an update lays the form out again: only when the message changes
        self._name_shown = (problem, error)
        message = self.query_one(".entry-name-message", Static)
        if problem is None:
            message.update("")
        else:
            style = "$error" if error else "$foreground-muted"
            message.update(Content.styled(f"{'✗ ' if error else ''}{problem}", style))

    def _mark(self, name: str) -> Content:
        key = f"{self.group}.{name}"
        found = [problem for problem in self.problems if matches(problem, key)]
        if any(problem.severity == "error" for problem in found):
            return Content.styled("✗", "$error")
        return Content.styled("⚠", "$warning") if found else Content("")

    def _add(self) -> None:
        name = self.draft_name()
        problem = self.name_problem(name)
        if problem is not None:
            self._name_message(problem)
            return
        self.post_message(self.Added(self.group, name, self.draft_body()))

    def added(self, name: str, file_value: FileValue) -> None:
        """The draft was written as `name`: edit it like any other entry from now on."""
        self.draft = False
        self.select(name, file_value)

    # -- events ------------------------------------------------------------------------

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        if event.row_key.value is not None and event.row_key.value != self.selected:
            self.post_message(self.EntryChosen(self, str(event.row_key.value)))

    def on_setting_field_edited(self, event: SettingField.Edited) -> None:
        if not event.key:  # a draft's field: nothing is written until it is added
            event.stop()
            if self.draft:
                self._check_draft()

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "entry-name":
            event.stop()
            self._check_draft()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if self.draft:
            self._add()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "entry-new":
            self.start_draft()
        elif event.button.id == "entry-add":
            self._add()
        elif event.button.id == "entry-remove" and self.selected is not None:
            self.post_message(self.Removed(self.group, self.selected))
