"""The preview of unsaved settings: one query run twice, with the saved settings and with
the edited ones, side by side — each tier's status, the hits and the budget cut — under a
summary of what the edits change."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.suggester import SuggestFromList
from textual.widgets import Button, Input, Label, Static

from tierscope.api import QueryOptions
from tierscope.models import QueryResult, count_hits

from .budget_meter import BudgetMeter
from .query_form import SKILL_NAME
from .tier_pipeline import TierPipeline
from .tier_row import format_ms


@dataclass(frozen=True, slots=True)
class ResultFacts:
    """What a reader compares between two runs of one query."""

    budget: int
    served_by: str | None
    refused: str | None
    statuses: dict[str, str]
    kept: int
    kept_tokens: int
    dropped: int

    @classmethod
    def of(cls, result: QueryResult) -> ResultFacts:
        report = result.budget
        return cls(
            budget=report.limit,
            served_by=result.served_by,
            refused=result.refused.message if result.refused else None,
            statuses={outcome.tier: outcome.status.value for outcome in result.outcomes},
            kept=len(report.included),
            kept_tokens=report.used,
            dropped=len(report.dropped),
        )


def refusal(reason: str | None) -> str:
    return f"refused ({reason})" if reason else "answered"


def hits_text(count: int, tokens: int) -> str:
    return f"{count_hits(count)} ({tokens:,} tokens)"


def compare_results(saved: QueryResult, edited: QueryResult) -> list[Content]:
    """One line per thing the edits change for this query: budget, who serves, each
    tier's status, what the budget keeps and drops; one line saying so when nothing does."""
    before, after = ResultFacts.of(saved), ResultFacts.of(edited)
    lines: list[Content] = []

    def change(label: str, old: str, new: str) -> None:
        lines.append(
            Content.assemble(
                (f"{label:<10}", "$foreground-muted"),
                (old, "$foreground"),
                (" → ", "$accent bold"),
                (new, "$foreground bold"),
            )
        )

    if before.refused != after.refused:
        change("answer", refusal(before.refused), refusal(after.refused))
    if before.budget != after.budget:
        change("budget", f"{before.budget:,} tokens", f"{after.budget:,} tokens")
    if before.served_by != after.served_by:
        change("served by", before.served_by or "no tier", after.served_by or "no tier")
    if not (before.refused or after.refused):
        # A refused query runs no tier: its statuses would only repeat the refusal.
        for tier in dict.fromkeys([*before.statuses, *after.statuses]):
            old, new = before.statuses.get(tier, "not run"), after.statuses.get(tier, "not run")
            if old != new:
                change(tier, old, new)
    if (before.kept, before.kept_tokens) != (after.kept, after.kept_tokens):
        old_kept = hits_text(before.kept, before.kept_tokens)
        change("kept", old_kept, hits_text(after.kept, after.kept_tokens))
    if before.dropped != after.dropped:
        change("dropped", str(before.dropped), str(after.dropped))
    if not lines:
        lines.append(
            Content.styled("The edits do not change this query's answer.", "$foreground-muted")
        )
    return lines


def result_status(result: QueryResult) -> Content:
    """One line: who served, kept/dropped, time; or why the query was refused."""
    if result.refused:
        return Content.styled(f"refused: {result.refused.message}", "$warning")
    served = f"{result.served_by} served" if result.served_by else "no tier had hits"
    report = result.budget
    return Content.styled(
        f"{served} · {len(report.included)} kept · {len(report.dropped)} dropped"
        f" · {format_ms(result.total_ms)}",
        "$success" if result.served_by else "$warning",
    )


class PreviewColumn(Vertical):
    """One run of the preview: status, tier pipeline, budget meter."""

    DEFAULT_CSS = """
    PreviewColumn {
        width: 1fr;
        height: auto;
        border: round $foreground 25%;
        border-title-color: $foreground;
        border-title-style: bold;
        padding: 0 1;
    }
    PreviewColumn > .preview-result {
        height: 1;
        margin-bottom: 1;
    }
    """

    def __init__(self, title: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self.border_title = title

    def compose(self) -> ComposeResult:
        yield Static(classes="preview-result")
        yield BudgetMeter()

    async def show(self, result: QueryResult) -> None:
        """Draw `result`: a pipeline of the tiers it ran, then its budget cut."""
        self.query_one(".preview-result", Static).update(result_status(result))
        await self.query(TierPipeline).remove()
        if result.outcomes:
            tiers = tuple(outcome.tier for outcome in result.outcomes)
            pipeline = TierPipeline(tiers, result.request.timeout)
            pipeline.border_title = "Tiers"
            await self.mount(pipeline, after=self.query_one(".preview-result"))
            pipeline.show_outcomes(result.outcomes)
        self.query_one(BudgetMeter).show(result.budget, new_result=True)

    async def clear(self) -> None:
        self.query_one(".preview-result", Static).update("")
        await self.query(TierPipeline).remove()
        self.query_one(BudgetMeter).show(None)

    def on_budget_meter_limit_requested(self, event: BudgetMeter.LimitRequested) -> None:
        # The preview shows a cut; the budget itself is edited in the form.
        event.stop()


class PreviewPanel(Vertical):
    """Query and skill to preview with, the summary of changes, the two runs."""

    DEFAULT_CSS = """
    PreviewPanel {
        height: 1fr;
        padding: 0 1;
    }
    PreviewPanel > #preview-ask {
        height: 1;
        margin: 1 0;
    }
    PreviewPanel #preview-ask Label {
        padding: 0 1 0 0;
        color: $foreground-muted;
    }
    PreviewPanel #preview-query {
        width: 1fr;
    }
    PreviewPanel #preview-skill, PreviewPanel #preview-scope {
        width: 16;
    }
    PreviewPanel #preview-ask .spaced {
        padding: 0 1 0 2;
    }
    PreviewPanel #preview-run {
        margin-left: 2;
        min-width: 12;
    }
    PreviewPanel > #preview-summary {
        height: auto;
        border: round $accent 50%;
        border-title-color: $foreground;
        padding: 0 1;
    }
    PreviewPanel > #preview-columns {
        height: auto;
    }
    """

    class Requested(Message):
        """Run this query with the saved and with the edited settings."""

        def __init__(self, options: QueryOptions) -> None:
            super().__init__()
            self.options = options

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.results: tuple[QueryResult, QueryResult] | None = None  # saved, edited

    def compose(self) -> ComposeResult:
        with Horizontal(id="preview-ask"):
            yield Label("Query")
            yield Input(
                placeholder="a query to try the edits on, then Enter",
                id="preview-query",
                compact=True,
            )
            yield Label("Scope", classes="spaced")
            yield Input(placeholder="default", id="preview-scope", compact=True)
            yield Label("Skill", classes="spaced")
            yield Input(placeholder="none", id="preview-skill", compact=True)
            yield Button("Preview ⏎", id="preview-run", compact=True, variant="primary")
        yield Static(
            Content.styled(
                "Runs the query with the saved settings and with your unsaved edits; nothing "
                "is written, and no trajectory is logged.",
                "$foreground-muted",
            ),
            id="preview-summary",
        )
        with Horizontal(id="preview-columns"):
            yield PreviewColumn("Saved settings", id="preview-saved")
            yield PreviewColumn("Edited settings (unsaved)", id="preview-edited")

    def on_mount(self) -> None:
        self.query_one("#preview-summary").border_title = "What the edits change"

    def offer_scopes(self, scopes: Iterable[str]) -> None:
        """The scope names completed while typing (the edited settings' scopes)."""
        suggester = SuggestFromList(list(scopes), case_sensitive=False)
        self.query_one("#preview-scope", Input).suggester = suggester

    def suggest_query(self, text: str) -> None:
        """Fill the query field with `text` unless something is typed there already."""
        field = self.query_one("#preview-query", Input)
        if text and not field.value.strip():
            field.value = text

    def request(self) -> None:
        field = self.query_one("#preview-query", Input)
        text = field.value.strip()
        if not text:
            self.set_summary([Content.styled("Type a query to preview, then Enter.", "$warning")])
            field.focus()
            return
        scope = self.query_one("#preview-scope", Input).value.strip() or None
        skill = self.query_one("#preview-skill", Input).value.strip() or None
        if skill is not None and not SKILL_NAME.match(skill):
            self.set_summary(
                [Content.styled(f"skill must match ^[a-z0-9_-]+$, got {skill!r}", "$warning")]
            )
            return
        self.set_summary([Content.styled("running with both settings…", "$accent")])
        self.post_message(self.Requested(QueryOptions(text=text, scope=scope, skill=skill)))

    async def clear(self, note: str) -> None:
        """Forget the last runs (the settings they compared are gone); say why."""
        self.results = None
        self.set_summary([Content.styled(note, "$foreground-muted")])
        for column in self.query(PreviewColumn):
            await column.clear()

    def set_summary(self, lines: list[Content]) -> None:
        self.query_one("#preview-summary", Static).update(Content("\n").join(lines))

    async def show(self, saved: QueryResult, edited: QueryResult) -> None:
        """Draw both runs and what differs between them."""
        self.results = (saved, edited)
        self.set_summary(compare_results(saved, edited))
        await self.query_one("#preview-saved", PreviewColumn).show(saved)
        await self.query_one("#preview-edited", PreviewColumn).show(edited)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.request()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.request()
