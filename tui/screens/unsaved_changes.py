"""The question asked before quitting while a view holds edits not saved yet."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

SAVE = "save"
DISCARD = "discard"
CANCEL = "cancel"


class UnsavedChangesDialog(ModalScreen[str]):
    """Save / Discard and quit / Cancel; dismissed with SAVE, DISCARD or CANCEL (Escape)."""

    CSS_PATH = "unsaved_changes.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", f"dismiss({CANCEL!r})", "Cancel")]

    def __init__(self, target: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self.target = target

    def compose(self) -> ComposeResult:
        with Vertical(id="unsaved-dialog"):
            yield Static(f"Unsaved changes to {self.target}", id="unsaved-title")
            yield Static("Save them before quitting, or quit and lose them?")
            with Horizontal(id="unsaved-buttons"):
                yield Button("Save", id=SAVE, variant="primary")
                yield Button("Discard and quit", id=DISCARD, variant="error")
                yield Button("Cancel", id=CANCEL)

    def on_mount(self) -> None:
        self.query_one(f"#{SAVE}", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id)
