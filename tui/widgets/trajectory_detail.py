"""The Trajectories view's detail pane: the selected line as pretty, highlighted JSON with
every field it has; for a query, its `intent` and `execute` lines together; for a
malformed line, its parse error and the line as written."""

from __future__ import annotations

import json

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.highlight import highlight
from textual.widgets import Static

from tierscope.trajectory.records import TrajectoryEntry
from tierscope.trajectory.replay import LoggedQuery, QueryPair

# Longer lines are shown cut, as written: pretty-printing megabytes would stall the UI.
SHOWN_CHARACTERS = 20_000


def pretty_json(record: dict) -> Content:
    """Indented, highlighted JSON of `record`, keys in the order written."""
    text = json.dumps(record, indent=2, ensure_ascii=False, default=str)
    if len(text) > SHOWN_CHARACTERS:
        return Content(text[:SHOWN_CHARACTERS]) + Content.styled(
            f"\n… {len(text) - SHOWN_CHARACTERS:,} more characters", "$foreground-muted"
        )
    return highlight(text, language="json")


def run_summary(logged: LoggedQuery) -> Content:
    """`grep served · 8 hits · 1,876/2,000 tokens` of a logged query's execute line."""
    ran = logged.ran
    if ran is None:
        return Content.styled("no execute line found: still running, or cut off", "$warning")
    parts = [f"{ran.served_by} served" if ran.served_by else "no tier had hits"]
    if ran.result_count is not None:
        parts.append(f"{ran.result_count} hit{'' if ran.result_count == 1 else 's'}")
    if ran.budget_used is not None:
        limit = f"/{ran.budget_limit:,}" if ran.budget_limit is not None else ""
        parts.append(f"{ran.budget_used:,}{limit} tokens")
    return Content.styled(" · ".join(parts), "$success" if ran.served_by else "$warning")


def _heading(entry: TrajectoryEntry, file_name: str, *, linked: bool = False) -> Content:
    """`execute · line 12 of implement-….jsonl`; the other half of a query is named as
    such (`its intent · line 11`)."""
    what = f"its {entry.phase}" if linked else entry.phase or "line"
    where = f" · line {entry.line_no}" + ("" if linked else f" of {file_name}")
    return Content.assemble((what, "bold $primary"), (where, "$foreground-muted"))


def malformed_detail(entry: TrajectoryEntry, file_name: str) -> Content:
    """The parse error, what could be recovered, and the line as written."""
    parts = [
        Content.assemble(
            (f"line {entry.line_no} of {file_name}", "bold"), (" — malformed", "bold $error")
        ),
        Content.styled(entry.error, "$error"),
    ]
    if entry.raw:
        parts += [Content.styled("\nrecovered fields", "$foreground-muted"), pretty_json(entry.raw)]
    shown = entry.text[:SHOWN_CHARACTERS]
    cut = len(entry.text) - len(shown)
    parts += [
        Content.styled("\nthe line as written", "$foreground-muted"),
        Content(shown or "(empty)"),
    ]
    if cut:
        parts.append(Content.styled(f"… {cut:,} more characters", "$foreground-muted"))
    return Content("\n").join(parts)


def entry_detail(
    entry: TrajectoryEntry,
    file_name: str,
    pair: QueryPair | None = None,
    logged: LoggedQuery | None = None,
) -> Content:
    """Everything about one line; for a query, what it found, then the line, then the
    other line of the same query."""
    if entry.flagged:
        return malformed_detail(entry, file_name)
    parts: list[Content] = []
    if logged is not None:
        parts += [
            Content.assemble((f'"{logged.text}"', "bold"), "  ", run_summary(logged)),
            Content.styled("r replays it in the Query view", "$foreground-muted"),
            Content(""),
        ]
    parts += [_heading(entry, file_name), pretty_json(entry.raw)]
    halves = (pair.intent, pair.execute) if pair is not None else ()
    for other in halves:
        if other is not None and other.line_no != entry.line_no:
            parts += [Content(""), _heading(other, file_name, linked=True), pretty_json(other.raw)]
    return Content("\n").join(parts)


class TrajectoryDetail(VerticalScroll):
    """The selected line in full; a hint when none is selected."""

    DEFAULT_CSS = """
    TrajectoryDetail {
        padding: 0 1;
    }
    TrajectoryDetail > Static {
        height: auto;
    }
    """

    def compose(self) -> ComposeResult:
        yield Static(id="trajectory-detail-body")

    def show(self, content: Content | None) -> None:
        body = self.query_one("#trajectory-detail-body", Static)
        if content is None:
            body.update(Content.styled("Select a line to see it in full.", "$foreground-muted"))
        else:
            body.update(content)
        self.scroll_home(animate=False)
