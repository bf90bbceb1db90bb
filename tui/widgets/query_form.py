"""The query form: text, scope, budget, timeout, skill and per-tier switches.

It turns what was typed into `QueryOptions` (None for every field left empty, so the
engine's precedence rules apply exactly as for the headless command) or a one-line
problem, and can be filled back from options (replaying a logged query).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import Button, Checkbox, Input, Label, Select, Static

from tierscope.api import QueryOptions
from tierscope.config.model import Config

SKILL_NAME = re.compile(r"^[a-z0-9_-]+$")


@dataclass(frozen=True, slots=True)
class FormReading:
    """The form's options, or why they cannot be run."""

    options: QueryOptions | None
    problem: str = ""


def parse_budget(text: str) -> int | None:
    """A budget the user typed: a positive integer, else None."""
    try:
        value = int(text.strip())
    except ValueError:
        return None
    return value if value > 0 else None


class QueryForm(Vertical):
    """Everything a query can be asked with."""

    DEFAULT_CSS = """
    QueryForm {
        height: auto;
        padding: 0 1;
    }
    QueryForm Horizontal {
        height: 1;
    }
    QueryForm #form-top {
        margin-bottom: 1;
    }
    QueryForm #form-text {
        width: 1fr;
    }
    QueryForm #form-settings {
        width: auto;
    }
    QueryForm #form-run {
        margin-bottom: 1;
    }
    QueryForm Label {
        padding: 0 1 0 0;
        color: $foreground-muted;
    }
    QueryForm .spaced {
        padding: 0 1 0 2;
    }
    QueryForm #query {
        width: 1fr;
    }
    QueryForm #scope {
        width: 20;
    }
    QueryForm #budget {
        width: 8;
    }
    QueryForm #timeout {
        width: 6;
    }
    QueryForm #skill {
        width: 16;
    }
    QueryForm Checkbox {
        margin-right: 1;
    }
    QueryForm Button {
        margin-left: 2;
        min-width: 10;
    }
    QueryForm #run-status {
        width: 1fr;
        margin-left: 2;
        text-align: right;
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    """

    class Submitted(Message):
        """Run these options."""

        def __init__(self, options: QueryOptions) -> None:
            super().__init__()
            self.options = options

    class Invalid(Message):
        """The form cannot be run as it stands; `problem` says why in one line."""

        def __init__(self, problem: str) -> None:
            super().__init__()
            self.problem = problem

    class BudgetEdited(Message):
        """The user edited the budget field (re-pack without re-running). Keystrokes can
        queue several of these: the handler reads the field (`typed_budget`) instead of
        trusting a value that may already be stale."""

    def __init__(self, config: Config, scopes: tuple[str, ...] | None = None, **kwargs) -> None:
        """`scopes`: the scopes to offer (default: every scope of the config). A scope of
        the config left out is still shown when a replayed query names it."""
        super().__init__(**kwargs)
        self.config = config
        self.scopes = tuple(config.scopes) if scopes is None else scopes

    def compose(self) -> ComposeResult:
        config = self.config
        # The text and the settings share a row on a wide terminal and stack on a narrow
        # one (the view's stylesheet turns #form-top vertical).
        with Horizontal(id="form-top"):
            with Horizontal(id="form-text"):
                yield Label("Query")
                yield Input(placeholder="what to look for, then Enter", id="query", compact=True)
            with Horizontal(id="form-settings"):
                yield Label("Scope", classes="spaced first-setting")
                yield Select(
                    [(name, name) for name in self.scopes],
                    prompt="default",
                    id="scope",
                    compact=True,
                )
                yield Label("Budget", classes="spaced")
                yield Input(
                    placeholder=str(config.default_budget),
                    id="budget",
                    type="integer",
                    compact=True,
                )
                yield Label("Timeout", classes="spaced")
                yield Input(
                    placeholder=f"{config.timeout_seconds:g}",
                    id="timeout",
                    type="number",
                    compact=True,
                )
                yield Label("Skill", classes="spaced")
                yield Input(placeholder="none", id="skill", compact=True)
        with Horizontal(id="form-run"):
            yield Label("Tiers")
            for tier in config.tiers:
                yield Checkbox(tier, value=True, id=f"use-{tier}", compact=True)
            yield Button("Run ⏎", id="run", compact=True, variant="primary")
            yield Button("All tiers", id="run-all", compact=True)
            yield Static(id="run-status")

    def on_mount(self) -> None:
        self.query_one("#query", Input).focus()

    def read(self, *, all_tiers: bool = False) -> FormReading:
        """The options the form describes, or the first problem with them."""
        text = self.query_one("#query", Input).value.strip()
        if not text:
            return FormReading(None, "type a query first")
        scope = self.query_one("#scope", Select).value
        budget_text = self.query_one("#budget", Input).value.strip()
        budget = parse_budget(budget_text) if budget_text else None
        if budget_text and budget is None:
            return FormReading(None, f"budget must be a positive integer, got {budget_text!r}")
        timeout_text = self.query_one("#timeout", Input).value.strip()
        timeout = None
        if timeout_text:
            try:
                timeout = float(timeout_text)
            except ValueError:
                timeout = -1.0
            if timeout <= 0:
                return FormReading(None, f"timeout must be a positive number, got {timeout_text!r}")
        skill = self.query_one("#skill", Input).value.strip() or None
        if skill is not None and not SKILL_NAME.match(skill):
            return FormReading(None, f"skill must match ^[a-z0-9_-]+$, got {skill!r}")
        chosen = tuple(
            tier for tier in self.config.tiers if self.query_one(f"#use-{tier}", Checkbox).value
        )
        if not chosen:
            return FormReading(None, "turn on at least one tier")
        options = QueryOptions(
            text=text,
            scope=scope if isinstance(scope, str) else None,
            budget=budget,
            timeout=timeout,
            skill=skill,
            tiers=None if chosen == self.config.tiers else chosen,
            all_tiers=all_tiers,
        )
        return FormReading(options)

    def submit(self, *, all_tiers: bool = False) -> None:
        reading = self.read(all_tiers=all_tiers)
        if reading.options is None:
            self.post_message(self.Invalid(reading.problem))
        else:
            self.post_message(self.Submitted(reading.options))

    def load(self, options: QueryOptions) -> None:
        """Fill the form from `options` (e.g. a query replayed from a trajectory)."""
        self.query_one("#query", Input).value = options.text
        if options.scope in self.config.scopes:
            self.set_scope(options.scope)
        else:
            self.query_one("#scope", Select).clear()
        self.query_one("#budget", Input).value = (
            "" if options.budget is None else str(options.budget)
        )
        self.query_one("#timeout", Input).value = (
            ""
            if options.timeout is None
            else (
                f"{options.timeout:g}" if not isinstance(options.timeout, str) else options.timeout
            )
        )
        self.query_one("#skill", Input).value = options.skill or ""
        wanted = set(options.tiers) if options.tiers is not None else set(self.config.tiers)
        for tier in self.config.tiers:
            self.query_one(f"#use-{tier}", Checkbox).value = tier in wanted

    def set_scope(self, scope: str) -> None:
        """Select `scope`, a scope of the config; one not offered is added to the choices
        (a replayed query may name a scope whose paths do not exist here)."""
        if scope not in self.config.scopes:
            return
        select = self.query_one("#scope", Select)
        if scope not in self.scopes:
            self.scopes = (*self.scopes, scope)
            select.set_options([(name, name) for name in self.scopes])
        select.value = scope

    def has_query(self) -> bool:
        return bool(self.query_one("#query", Input).value.strip())

    def typed_budget(self) -> int | None:
        """The budget the field holds, when it is a positive integer."""
        return parse_budget(self.query_one("#budget", Input).value)

    def set_budget(self, limit: int) -> None:
        """Show `limit` in the budget field (after the meter was dragged). Never while the
        user is typing there, and without reporting it as an edit: the field showing a
        limit must not ask for that limit again."""
        field = self.query_one("#budget", Input)
        if field.has_focus or parse_budget(field.value) == limit:
            return
        with field.prevent(Input.Changed):
            field.value = str(limit)

    def set_status(
        self, text: str, style: str = "$foreground-muted", tooltip: str | None = None
    ) -> None:
        """One line of status; `tooltip` for more than the line can hold."""
        status = self.query_one("#run-status", Static)
        status.update(Content.styled(text, style))
        status.tooltip = tooltip

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.submit()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.submit(all_tiers=event.button.id == "run-all")

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id != "budget":
            return
        event.stop()
        if parse_budget(event.value) is not None:
            self.post_message(self.BudgetEdited())
