"""The help screen: what the workbench is for, the keys that work right now, and the mouse."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

INTRO = """\
# tierscope workbench

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
- **Command palette** (**ctrl+p**): switch scope, theme or view.
- **Mouse**: click fields, rows, tabs and the keys in the footer; drag the budget bar.
"""


def help_markdown(keys: list[tuple[str, str]]) -> str:
    """The help text with a table of the keys active where help was opened."""
    rows = "\n".join(f"| `{key}` | {description} |" for key, description in keys)
    return f"{INTRO}\n## Keys here\n\n| key | does |\n|---|---|\n{rows}\n"


class HelpScreen(ModalScreen[None]):
    """Dismissed with Escape, F1 or q."""

    CSS_PATH = "help.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,f1,q", "dismiss", "Close help")]

    def __init__(self, keys: list[tuple[str, str]], **kwargs) -> None:
        super().__init__(**kwargs)
        self.keys = keys

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Markdown(help_markdown(self.keys))
