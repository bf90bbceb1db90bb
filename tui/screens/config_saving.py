"""Saving in the Config view: refuse (saying why) what cannot be saved, name a file changed
on disk before offering anything, show the diff, write atomically when confirmed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual import work

from tierscope.api import Project
from tierscope.config.document import ConfigDocument
from tierscope.config.edit_errors import ConfigConflict, ConfigEditError
from tierscope.config.loader import load_config
from tierscope.config.model import ConfigProblem
from tierscope.models import noun_for

from ..config_text import changed_lines, introduced_errors, shown_diff
from ..messages import ConfigSaved
from ..widgets.config_preview import PreviewPanel
from ..widgets.short_path import short_path
from .config_dialogs import conflict_dialog, disk_diff_dialog, save_dialog
from .screen_part import ScreenPart


class ConfigSaving(ScreenPart):
    """The saving part of `ConfigScreen` (ctrl+s, and quitting with unsaved edits)."""

    engine: Project
    path: Path  # the config file
    document: ConfigDocument
    loaded_text: str
    baseline: list[ConfigProblem]
    problems: list[ConfigProblem]
    editor_problem: ConfigProblem | None
    broken: ConfigEditError | None
    unreadable: str | None
    load: Callable[[], None]
    redraw: Callable[[], None]
    _validate: Callable[[], list[ConfigProblem]]
    _disk_text: Callable[[], str | None]

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
        if self.unreadable is not None:
            self.notify(
                f"Not saved: {name} cannot be read ({self.unreadable}), so it is not written over.",
                severity="error",
            )
            return False
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
                f"Not saved: the edits introduce {count} {noun_for(count, 'error')} "
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
