"""The Config view's questions: save this diff? the file changed on disk — reload, or see
how it differs from the edits?"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static
from textual.widgets.button import ButtonVariant

from tierscope.models import noun_for

from ..widgets.config_diff import ConfigDiff


@dataclass(frozen=True, slots=True)
class DialogChoice:
    """A button of a dialog: what it answers, what it says, how it looks."""

    answer: str
    label: str
    variant: ButtonVariant = "default"


class ConfigDialog(ModalScreen[str | None]):
    """A title, a message, optionally a diff, and buttons; dismissed with the answer of
    the button pressed, or None on Escape."""

    CSS_PATH = "config_dialogs.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss(None)", "Cancel")]

    def __init__(
        self,
        title: str,
        message: str,
        choices: tuple[DialogChoice, ...],
        *,
        diff: str | None = None,
        **kwargs,
    ) -> None:
        super().__init__(**kwargs)
        self.title_text = title
        self.message = message
        self.choices = choices
        self.diff = diff

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="-with-diff" if self.diff is not None else ""):
            with Vertical(id="dialog-head"):
                yield Static(self.title_text, id="dialog-title")
                yield Static(self.message, id="dialog-message")
            if self.diff is not None:
                with VerticalScroll(id="dialog-diff"):
                    yield ConfigDiff()
            with Horizontal(id="dialog-buttons"):
                for choice in self.choices:
                    yield Button(choice.label, id=choice.answer, variant=choice.variant)

    def on_mount(self) -> None:
        if self.diff is not None:
            self.query_one(ConfigDiff).show(self.diff)
        self.query_one(f"#{self.choices[0].answer}", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id)


SAVE = DialogChoice("save", "Save", "primary")
RELOAD = DialogChoice("reload", "Reload (drop my edits)", "warning")
SHOW_DIFF = DialogChoice("diff", "Show the difference")
KEEP_EDITING = DialogChoice("keep", "Keep editing")
CANCEL = DialogChoice("cancel", "Cancel")


def save_dialog(name: str, diff: str, changed: int, creating: bool) -> ConfigDialog:
    """Confirm a save of `changed` lines, showing exactly what it changes."""
    what = "creates" if creating else "changes"
    message = (
        f"Saving {what} {changed} {noun_for(changed, 'line')} of {name}; every other "
        "line of the file, comments included, stays as it is."
    )
    return ConfigDialog(f"Save {name}?", message, (SAVE, CANCEL), diff=diff)


def conflict_dialog(name: str) -> ConfigDialog:
    """The file changed on disk since it was loaded: nothing was written."""
    message = (
        f"{name} changed on disk after the Config view loaded it, so nothing was written: "
        "saving would lose that change. Reload it (your edits are dropped), or compare "
        "your edits with the file as it is now."
    )
    return ConfigDialog("The file changed on disk", message, (SHOW_DIFF, RELOAD, KEEP_EDITING))


def disk_diff_dialog(name: str, diff: str) -> ConfigDialog:
    """The edits against the file as it is on disk now (- on disk, + edited)."""
    message = f"- lines are {name} as it is on disk now, + lines are your edits."
    choices = (KEEP_EDITING, RELOAD)
    return ConfigDialog("Your edits against the file on disk", message, choices, diff=diff)
