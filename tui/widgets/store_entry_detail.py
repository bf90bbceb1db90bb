"""The Store view's detail pane: everything about one entry — its run, when it was written,
task, loop, file:line — then its content, pretty JSON for the structured types."""

from __future__ import annotations

import json

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.highlight import highlight
from textual.widgets import Static

from tierscope.store.context_types import TEXT_TYPES
from tierscope.store.entries import ContextEntry

from .store_entries import entry_location, type_variable

LABEL_WIDTH = 8


def entry_facts(entry: ContextEntry) -> Content:
    """`#id type`, then one labelled line per field the entry has."""
    facts = [
        ("run", entry.run_id),
        ("written", entry.created_at),
        ("task", entry.task_id),
        ("loop", entry.loop_id),
        ("at", entry_location(entry)),
    ]
    heading = Content.assemble(
        (f"#{entry.id} ", "$foreground-muted"),
        (entry.type, f"${type_variable(entry.type)} bold"),
    )
    lines = [heading]
    lines += [
        Content.assemble((label.ljust(LABEL_WIDTH), "$foreground-muted"), value)
        for label, value in facts
        if value
    ]
    return Content("\n").join(lines)


def entry_body(entry: ContextEntry) -> Content:
    """Plain text for the text types; indented, highlighted JSON for the others (as stored,
    if it is somehow not JSON)."""
    if entry.type in TEXT_TYPES:
        return Content(entry.content)
    try:
        data = json.loads(entry.content)
    except ValueError:
        return Content(entry.content)
    return highlight(json.dumps(data, indent=2, ensure_ascii=False), language="json")


class EntryDetail(VerticalScroll):
    """One entry in full; a hint when none is selected."""

    DEFAULT_CSS = """
    EntryDetail {
        padding: 0 1;
    }
    EntryDetail > Static {
        height: auto;
    }
    EntryDetail > #entry-facts {
        margin-bottom: 1;
    }
    """

    def compose(self) -> ComposeResult:
        yield Static(id="entry-facts")
        yield Static(id="entry-body")

    def show(self, entry: ContextEntry | None) -> None:
        facts = self.query_one("#entry-facts", Static)
        body = self.query_one("#entry-body", Static)
        if entry is None:
            facts.update(Content.styled("Select an entry to see it in full.", "$foreground-muted"))
            body.update("")
        else:
            facts.update(entry_facts(entry))
            body.update(entry_body(entry))
        self.scroll_home(animate=False)
