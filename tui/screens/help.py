"""The help screen: the keys of the view it was opened from (one line per action), the keys
that work everywhere, then what the workbench is for."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Markdown, Static

KeyRow = tuple[str, str]

ABOUT = """\
## About

One query goes to **qmd** (markdown search), then **ck** (code search), then **grep**,
falling through on *not installed*, *timeout*, *error* or *no results*. The answer is cut to
a token budget — exactly what `tierscope query … --json` prints for a skill.

- **Query**: type, press **Enter**. Watch each tier wait, run against its timeout, and
  end as served / empty / unavailable / timeout / error / skipped / disabled.
- **Budget**: drag the bar (or focus it with **ctrl+g** and use **←/→**, **shift** for
  bigger steps), or edit the budget field: the cut moves at once, no tier runs again.
- **Compare**: **ctrl+r** runs every tier and shows their hits side by side.
- **Copy**: **ctrl+y** copies the result as the JSON the headless command prints;
  **ctrl+l** copies that command.
- **Mouse**: click fields, rows, tabs and the keys in the footer; drag the budget bar.
"""


def key_rows(bindings: Iterable[BindingType], display: Callable[[Binding], str]) -> list[KeyRow]:
    """One row per described action, its keys joined (`← / -`), in the order declared."""
    rows: dict[tuple[str, str], list[str]] = {}
    for binding in Binding.make_bindings(bindings):
        if not binding.description:
            continue
        keys = rows.setdefault((binding.action, binding.description), [])
        shown = display(binding)
        if shown not in keys:
            keys.append(shown)
    return [(" / ".join(keys), description) for (_action, description), keys in rows.items()]


def key_lines(rows: list[KeyRow]) -> Content:
    """One line per key: the key in a column of its own, then what it does."""
    width = max((len(key) for key, _description in rows), default=0) + 2
    return Content("\n").join(
        Content.assemble((key.ljust(width), "$accent bold"), description)
        for key, description in rows
    )


class HelpScreen(ModalScreen[None]):
    """Dismissed with Escape, F1 or q."""

    CSS_PATH = "help.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,f1,q", "dismiss", "Close help")]

    def __init__(self, view: str, here: list[KeyRow], everywhere: list[KeyRow], **kwargs) -> None:
        super().__init__(**kwargs)
        self.view = view
        self.here = here
        self.everywhere = everywhere

    @property
    def keys(self) -> list[KeyRow]:
        """Every row the help lists."""
        return [*self.here, *self.everywhere]

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(f"Keys in {self.view}", classes="help-heading")
            yield Static(key_lines(self.here), classes="help-keys")
            yield Static("Everywhere", classes="help-heading")
            yield Static(key_lines(self.everywhere), classes="help-keys")
            yield Markdown(ABOUT)
