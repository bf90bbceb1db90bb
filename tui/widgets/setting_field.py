"""One setting of the config form: a label, the control that edits it, and the problem
with its current value, if any, beside it.

A field shows what the *file* says (empty when the file does not set the key) with the
value that applies instead as its placeholder. Clearing a number, list or choice removes
its key (the default applies again); clearing a text field writes "" (no collection, no
path), which is a setting of its own.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.message import Message
from textual.suggester import SuggestFromList
from textual.widget import Widget
from textual.widgets import Input, Label, Select, Static

from tierscope.config.document import parse_value
from tierscope.config.edit_errors import ConfigEditError
from tierscope.config.model import ConfigProblem
from tierscope.config.schema import Setting

NOT_SET = object()  # the file does not set the key
LABEL_WIDTH = 18  # the label's column (SettingField's CSS): a longer label wraps

TEXT_KINDS = ("integer", "number", "text", "list")
CHOICE_KINDS = ("choice", "switch")
# The field kind that edits each type of value (see tierscope.config.value_kinds).
FIELD_KINDS = {
    "boolean": "switch",
    "string": "text",
    "strings": "list",
    "integer": "integer",
    "number": "number",
    "choice": "choice",
}


@dataclass(frozen=True, slots=True)
class FieldSpec:
    """What one field edits: its key (dotted, under qmd_context; for a scope or an
    override, the key inside the entry), its label and the kind of value it holds."""

    key: str
    label: str
    kind: str  # integer | number | text | list | choice | switch
    choices: tuple[str, ...] = ()

    @classmethod
    def of(cls, setting: Setting, key: str | None = None) -> FieldSpec:
        """The field that edits `setting`, under `key` (default: the setting's name)."""
        kind = setting.kind
        return cls(key or setting.name, setting.label, FIELD_KINDS[kind.type], kind.choices)


def value_text(value: object) -> str:
    """A value as the field shows it: lists comma-separated, booleans as YAML spells them."""
    if value is NOT_SET or value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return ", ".join(value_text(item) for item in value)
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def typed_value(kind: str, text: str) -> object:
    """What a field's text means for the file; NOT_SET for an empty field. Numbers are
    read as YAML (so `2500` is an int and `2k` stays text for the validator to name)."""
    text = text.strip()
    if not text:
        return NOT_SET
    if kind == "list":
        return [item.strip() for item in text.split(",") if item.strip()]
    if kind in ("integer", "number"):
        try:
            value = parse_value(text)
        except ConfigEditError:
            return text
        return value if isinstance(value, int | float | str) else text
    if kind == "switch":
        return text == "true"
    return text


def empty_value(kind: str) -> object:
    """What a field the user emptied means: "" for text (an empty collection or path is a
    setting of its own), otherwise NOT_SET — the key goes and its default applies."""
    return "" if kind == "text" else NOT_SET


def matches(problem: ConfigProblem, key: str) -> bool:
    """Whether `problem` is about `key` or something inside it (`grep_paths.0`)."""
    return bool(key) and (problem.key == key or problem.key.startswith(f"{key}."))


class SettingField(Horizontal):
    """Label, control, and the first problem of its key."""

    DEFAULT_CSS = """
    SettingField {
        height: auto;
    }
    SettingField > .field-label {
        width: 18;  /* LABEL_WIDTH */
        color: $foreground-muted;
    }
    SettingField > Input, SettingField > Select {
        width: 24;
    }
    SettingField > .field-message {
        width: 1fr;
        height: auto;
        padding: 0 0 0 2;
    }
    SettingField.-error > .field-label {
        color: $error;
    }
    SettingField.-warning > .field-label {
        color: $warning;
    }
    """

    class Edited(Message):
        """The user changed a field: `value` is NOT_SET when it was cleared."""

        def __init__(self, field: SettingField, key: str, value: object) -> None:
            super().__init__()
            self.field = field
            self.key = key
            self.value = value

        @property
        def control(self) -> SettingField:
            return self.field

    def __init__(
        self,
        spec: FieldSpec,
        *,
        key: str | None = None,
        default: object = NOT_SET,
        suggestions: Iterable[str] = (),
        **kwargs,
    ) -> None:
        super().__init__(**kwargs)
        self.spec = spec
        self.key = spec.key if key is None else key
        self.default = default
        self.suggestions = tuple(suggestions)
        self._emptied = False  # the user cleared the field and has not left it yet
        self._message: tuple[ConfigProblem | None, int] = (None, 0)

    @staticmethod
    def rows(spec: FieldSpec) -> int:
        """The rows a field takes while it shows no message: its label's, wrapped."""
        return max(1, len(Content(spec.label).wrap(LABEL_WIDTH)))

    def compose(self) -> ComposeResult:
        yield Label(self.spec.label, classes="field-label")
        default = value_text(self.default)
        if self.spec.kind in CHOICE_KINDS:
            choices = ("true", "false") if self.spec.kind == "switch" else self.spec.choices
            yield Select(
                [(choice, choice) for choice in choices],
                prompt=f"default ({default})" if default else "default",
                compact=True,
                id="control",
            )
        else:
            suggester = (
                SuggestFromList(self.suggestions, case_sensitive=False)
                if self.suggestions
                else None
            )
            yield Input(
                placeholder=default or "not set",
                compact=True,
                suggester=suggester,
                id="control",
            )
        yield Static(classes="field-message")

    @property
    def control(self) -> Widget:
        return self.query_one("#control")

    def show(
        self, value: object, *, default: object | None = None, replace_typing: bool = False
    ) -> None:
        """Show the file's `value` (NOT_SET: the key is absent). A field with the cursor
        in it is not rewritten (unless `replace_typing`: the file was loaded again): what
        comes back may be the echo of an older keystroke (edits queue up on a busy
        machine), and the field is written to the file again when the cursor leaves it."""
        control = self.control
        if default is not None:
            self.default = default
            shown = value_text(default)
            if isinstance(control, Input) and control.placeholder != (shown or "not set"):
                control.placeholder = shown or "not set"
            elif isinstance(control, Select):
                prompt = f"default ({shown})" if shown else "default"
                if control.prompt != prompt:
                    control.prompt = prompt
        if isinstance(control, Input) and control.has_focus and not replace_typing:
            return
        self._emptied = False
        text = value_text(value)
        with self.prevent(Input.Changed, Select.Changed):
            if isinstance(control, Select):
                if text in self._choices():
                    control.value = text
                else:
                    control.clear()
            elif isinstance(control, Input) and control.value != text:
                control.value = text

    def text(self) -> str:
        control = self.control
        if isinstance(control, Select):
            return "" if control.is_blank() else str(control.value)
        return control.value if isinstance(control, Input) else ""

    def show_problems(self, problems: Iterable[ConfigProblem]) -> None:
        """Show the first problem about this field's key, and how many more there are."""
        found = [problem for problem in problems if matches(problem, self.key)]
        self.show_message(found[0] if found else None, len(found))

    def show_message(self, problem: ConfigProblem | None, count: int = 1) -> None:
        self.set_class(problem is not None and problem.severity == "error", "-error")
        self.set_class(problem is not None and problem.severity == "warning", "-warning")
        shown = (problem, count)
        if shown == self._message:
            return  # an update re-lays the form out: only when the message changes
        self._message = shown
        message = self.query_one(".field-message", Static)
        if problem is None:
            message.update("")
            return
        mark, style = ("✗", "$error") if problem.severity == "error" else ("⚠", "$warning")
        more = f"  (+{count - 1} more)" if count > 1 else ""
        message.update(Content.styled(f"{mark} {problem.message}{more}", style))

    def _choices(self) -> tuple[str, ...]:
        return ("true", "false") if self.spec.kind == "switch" else self.spec.choices

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        value = typed_value(self.spec.kind, event.value)
        # Emptying a field removes its key, and a key added back lands at the end of its
        # mapping: so the removal waits until the field is left, not while retyping.
        self._emptied = value is NOT_SET
        if value is not NOT_SET:
            self.post_message(self.Edited(self, self.key, value))

    def on_input_blurred(self, event: Input.Blurred) -> None:
        event.stop()
        self._post_current()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self._post_current()

    def _post_current(self) -> None:
        """Write what the field shows, whatever edits were handled before: the file then
        holds exactly the text the field keeps."""
        value = typed_value(self.spec.kind, self.text())
        if value is NOT_SET:
            if not self._emptied:
                return
            value = empty_value(self.spec.kind)
        self._emptied = False
        self.post_message(self.Edited(self, self.key, value))

    def on_select_changed(self, event: Select.Changed) -> None:
        event.stop()
        self.post_message(self.Edited(self, self.key, typed_value(self.spec.kind, self.text())))
