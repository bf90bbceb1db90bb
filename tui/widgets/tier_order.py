"""The tier order of the config form: which tiers run, and in which fallback order.

Every known tier has a row; switched-off tiers sit below the ones in use. Moving or
switching a tier posts the new `tiers:` list.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import Button, Checkbox, Label, Static

from tierscope.config.model import DEFAULT_TIERS, KNOWN_TIERS, ConfigProblem

from .setting_field import matches


def tier_order(listed: Iterable[str]) -> list[str]:
    """The known tiers in `listed` (in that order, once each), then the rest."""
    used = [tier for tier in dict.fromkeys(listed) if tier in KNOWN_TIERS]
    return used + [tier for tier in KNOWN_TIERS if tier not in used]


class TierOrder(Vertical):
    """One row per known tier: on/off, move up, move down."""

    DEFAULT_CSS = """
    TierOrder {
        height: auto;
    }
    TierOrder > Horizontal {
        height: 1;
    }
    TierOrder .tier-position {
        width: 4;
        color: $foreground-muted;
    }
    TierOrder Checkbox {
        width: 12;
    }
    TierOrder Button {
        min-width: 5;
        margin-left: 1;
    }
    TierOrder #tier-order-message {
        height: auto;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("shift+up", "move(-1)", "Tier earlier"),
        Binding("shift+down", "move(1)", "Tier later"),
    ]

    class Changed(Message):
        """The tiers in use, in fallback order."""

        def __init__(self, tiers: tuple[str, ...]) -> None:
            super().__init__()
            self.tiers = tiers

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.order = list(tier_order(DEFAULT_TIERS))
        self.used = set(DEFAULT_TIERS)

    def compose(self) -> ComposeResult:
        for tier in self.order:
            with Horizontal(id=f"order-{tier}"):
                yield Label("", classes="tier-position")
                yield Checkbox(tier, value=tier in self.used, compact=True, id=f"use-{tier}")
                # Mouse targets; the keyboard moves the focused tier with shift+↑/↓.
                for direction, arrow, when in (("up", "▲", "earlier"), ("down", "▼", "later")):
                    tooltip = f"run {tier} {when}"
                    button = Button(arrow, compact=True, id=f"{direction}-{tier}", tooltip=tooltip)
                    button.can_focus = False
                    yield button
        yield Static(id="tier-order-message")

    def on_mount(self) -> None:
        self._arrange()

    def show(self, tiers: Iterable[str]) -> None:
        """Show `tiers` (the file's list, or the default) as the ones in use."""
        listed = [str(tier).strip().lower() for tier in tiers]
        if tier_order(listed) == self.order and self.tiers() == tuple(listed):
            return  # moving rows re-lays the form out: only when something moved
        self.order = tier_order(listed)
        self.used = {tier for tier in listed if tier in KNOWN_TIERS}
        with self.prevent(Checkbox.Changed):
            for tier in KNOWN_TIERS:
                self.query_one(f"#use-{tier}", Checkbox).value = tier in self.used
        self._arrange()

    def show_problems(self, problems: Iterable[ConfigProblem]) -> None:
        found = [problem for problem in problems if matches(problem, "tiers")]
        message = self.query_one("#tier-order-message", Static)
        message.display = bool(found)
        if not found:
            return
        lines = [
            Content.styled(
                f"{'✗' if problem.severity == 'error' else '⚠'} {problem.message}",
                "$error" if problem.severity == "error" else "$warning",
            )
            for problem in found
        ]
        message.update(Content("\n").join(lines))

    def tiers(self) -> tuple[str, ...]:
        return tuple(tier for tier in self.order if tier in self.used)

    def _arrange(self) -> None:
        """Rows in order; in-use tiers numbered by their place in the fall-through."""
        in_use = self.tiers()
        for index, tier in enumerate(self.order):
            row = self.query_one(f"#order-{tier}", Horizontal)
            if index:
                self.move_child(row, after=self.query_one(f"#order-{self.order[index - 1]}"))
            else:
                self.move_child(row, before=0)
            position = f"{in_use.index(tier) + 1}." if tier in in_use else "–"
            row.query_one(".tier-position", Label).update(position)

    def _move(self, tier: str, step: int) -> None:
        used = list(self.tiers())
        if tier not in used:
            return
        index = used.index(tier)
        target = index + step
        if not 0 <= target < len(used):
            return
        used[index], used[target] = used[target], used[index]
        self.order = tier_order(used)
        self._changed()

    def action_move(self, step: int) -> None:
        focused = self.screen.focused
        if isinstance(focused, Checkbox) and focused in self.query(Checkbox):
            self._move((focused.id or "").removeprefix("use-"), step)

    def _changed(self) -> None:
        # Tiers in use always come first, so the list on screen reads as the fall-through.
        self.order = tier_order(self.tiers())
        self._arrange()
        self.post_message(self.Changed(self.tiers()))

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        event.stop()
        tier = (event.checkbox.id or "").removeprefix("use-")
        if event.value:
            self.used.add(tier)
        else:
            self.used.discard(tier)
        self._changed()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        action, _, tier = (event.button.id or "").partition("-")
        self._move(tier, -1 if action == "up" else 1)
