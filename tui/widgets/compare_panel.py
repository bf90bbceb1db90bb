"""Compare: every tier's own hits for the same query, side by side ("run all tiers")."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import HorizontalScroll, VerticalScroll
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Static

from tierscope.models import Hit, TierOutcome, count_hits

from .short_path import fit_path
from .tier_row import format_ms
from .tier_style import status_style, tier_style

SNIPPET_LINES = 2


def hit_location(hit: Hit) -> str:
    if hit.line_start is None:
        return hit.source
    return f"{hit.source}:{hit.line_start}"


def column_content(outcome: TierOutcome, width: int = 0) -> Content:
    """One tier's column: a header (status, latency, reason) and its ranked hits; with a
    `width`, each hit's path is cut in its folders to fit, keeping the file name."""
    header = Content.assemble(
        (outcome.tier, tier_style(outcome.tier)),
        " ",
        (outcome.status.value, status_style(outcome.status.value)),
        f" · {count_hits(len(outcome.hits))} · {format_ms(outcome.latency_ms)}\n",
        (outcome.reason, "$foreground-muted"),
        "\n",
    )
    blocks = [header]
    for rank, hit in enumerate(outcome.hits, 1):
        lines = [line.strip() for line in hit.content.splitlines() if line.strip()]
        snippet = "\n".join(f"    {line}" for line in lines[:SNIPPET_LINES])
        head = f"{rank:>2} {hit.score:.3f} "
        location = hit_location(hit)
        if width:
            location = fit_path(location, width - len(head))
        blocks.append(
            Content.assemble(
                (f"{rank:>2} ", "$foreground-muted"),
                (f"{hit.score:.3f} ", "$accent"),
                (location, "$foreground bold"),
                "\n",
                (snippet, "$foreground-muted"),
            )
        )
    if not outcome.hits:
        blocks.append(Content.styled("no hits", "$foreground-muted italic"))
    return Content("\n").join(blocks)


class OutcomeText(Widget):
    """One tier's column text, fitted to the width it is drawn at."""

    DEFAULT_CSS = """
    OutcomeText {
        height: auto;
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    """

    def __init__(self, outcome: TierOutcome) -> None:
        super().__init__()
        self.outcome = outcome

    def render(self) -> Content:
        return column_content(self.outcome, self.content_region.width)


class ComparePanel(HorizontalScroll):
    """One scrollable column per tier that ran, in fallback order."""

    DEFAULT_CSS = """
    ComparePanel {
        height: 1fr;
    }
    ComparePanel > .compare-column {
        width: 1fr;
        min-width: 32;
        height: 1fr;
        padding: 0 1;
        border-right: vkey $foreground 25%;
    }
    ComparePanel > #compare-hint {
        width: 1fr;
        padding: 1 2;
        color: $foreground-muted;
    }
    """

    def compose(self) -> ComposeResult:
        yield self._hint()

    @staticmethod
    def _hint() -> Static:
        return Static(
            "Press ctrl+r (or “Run all tiers”) to run every tier and compare their hits.",
            id="compare-hint",
        )

    async def clear(self) -> None:
        """Drop the columns (they belong to an earlier query) and show the hint again."""
        await self.remove_children()
        await self.mount(self._hint())

    async def show(self, outcomes: tuple[TierOutcome, ...]) -> None:
        """Replace the columns with one per outcome."""
        await self.remove_children()
        columns = []
        for outcome in outcomes:
            column = VerticalScroll(classes="compare-column", id=f"compare-{outcome.tier}")
            column.compose_add_child(OutcomeText(outcome))
            columns.append(column)
        await self.mount_all(columns)
