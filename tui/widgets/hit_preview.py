"""Preview of the selected hit: file:line, tier, score, budget verdict, what the chosen
session has of it, then the content (markdown rendered, code as written) with the query's
terms highlighted."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Static

from .budget_meter import entry_label
from .markdown_content import highlight_terms, query_terms, render_hit
from .results_table import RankedEntry
from .slash_wrap import PathText
from .tier_style import tier_style


class HitPreview(VerticalScroll):
    """Shows one ranked hit; empty with a hint when nothing is selected."""

    DEFAULT_CSS = """
    HitPreview {
        height: 1fr;
        padding: 0 1;
    }
    HitPreview > #preview-location {
        height: auto;
        margin-bottom: 1;
    }
    HitPreview > #preview-body {
        height: auto;
    }
    """

    def compose(self) -> ComposeResult:
        yield PathText(id="preview-location")
        yield Static(id="preview-body")

    def show(self, ranked: RankedEntry | None, query: str) -> None:
        location = self.query_one("#preview-location", PathText)
        body = self.query_one("#preview-body", Static)
        if ranked is None:
            location.update(Content.styled("Select a result to preview it.", "$foreground-muted"))
            body.update("")
            return
        hit = ranked.entry.hit
        verdict = (
            ("kept by the budget", "$budget-ok")
            if ranked.kept
            else (f"dropped: {ranked.entry.reason}", "$budget-over")
        )
        seen = ""
        if ranked.seen == "repeat":
            seen = f"\nthe session has it: a headless query sends {ranked.where} as a reference"
        elif ranked.seen == "part":
            seen = "\nthe session has some of its lines: a headless query leaves them out"
        location.update(
            Content.assemble(
                (entry_label(ranked.entry), "$foreground bold underline"),
                "\n",
                (hit.tier, tier_style(hit.tier)),
                f" · score {hit.score:.3f} · {ranked.entry.tokens} tokens · ",
                verdict,
                (seen, "$warning"),
            )
        )
        body.update(highlight_terms(render_hit(hit.content, hit.source), query_terms(query)))
        self.scroll_home(animate=False)
