"""The Doctor view's scopes: for each scope, what every tier would search there (qmd
collections, ck paths, grep paths), whether that tier can, and the paths the scope refused
or noted (a missing path, a `ck_path` inside `.ck/`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from textual.app import ComposeResult
from textual.containers import Container, Vertical
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Static

from tierscope.doctor import TierReport
from tierscope.models import ResolvedScope
from tierscope.tiers.base import Probe

from .probe_details import detail_lines, own_details
from .slash_wrap import PathText
from .tier_style import tier_style

# Where each tier looks, as named by `ResolvedScope.to_dict`.
PLACE_KEYS = {"qmd": "qmd_collections", "ck": "ck_paths", "grep": "grep_paths"}
NOWHERE = {"qmd": "no collection", "ck": "no ck path", "grep": "no existing path"}
# The store holds entries, not files: a scope does not narrow it.
STORE_PLACE = "every entry (not narrowed by scope)"


def place(tier: str, resolved: Mapping[str, object]) -> Content:
    """What `tier` searches in a scope (`resolved` is `ResolvedScope.to_dict`)."""
    if tier == "store":
        return Content.styled(STORE_PLACE, "$foreground-muted")
    key = PLACE_KEYS.get(tier)
    places = resolved.get(key) if key else None
    if not isinstance(places, list) or not places:
        return Content.styled(NOWHERE.get(tier, "-"), "$foreground-muted")
    return Content(", ".join(map(str, places)))


def probe_cell(probe: Probe | None, tier: TierReport, root: Path) -> Content:
    """✓/✗ with the scope's own reason and details. The tier table already gives the
    shared reason and details, so a scope that only repeats them says usable / not usable."""
    if probe is None:
        return Content.styled("not checked", "$foreground-muted")
    style = "$success" if probe.usable else "$error"
    mark = "✓" if probe.usable else "✗"
    if probe.reason == tier.reason:
        text = Content.styled(f"{mark} {'usable' if probe.usable else 'not usable'}", style)
    else:
        text = Content.assemble((f"{mark} ", style), probe.reason)
    lines = detail_lines(own_details(probe.details, tier.shared_details()), root)
    if not lines:
        return text
    return Content.assemble(text, "\n", ("\n".join(lines), "$foreground-muted italic"))


class ScopeCard(Vertical):
    """One scope: a row per tier, then its refused paths and notes."""

    DEFAULT_CSS = """
    ScopeCard {
        height: auto;
        border: round $foreground 25%;
        border-title-color: $foreground;
        border-title-style: bold;
        padding: 0 1;
    }
    ScopeCard > .scope-tiers {
        layout: grid;
        grid-size: 3;
        grid-columns: auto 1fr 1fr;
        grid-rows: auto;
        grid-gutter: 0 2;
        height: auto;
    }
    ScopeCard Static {
        height: auto;
    }
    """

    def __init__(self, scope: ResolvedScope, root: Path, tiers: Sequence[TierReport]) -> None:
        super().__init__()
        self.scope = scope
        self.root = root
        self.tiers = tiers
        self.border_title = scope.name

    def compose(self) -> ComposeResult:
        resolved = self.scope.to_dict(self.root)
        with Container(classes="scope-tiers"):
            for tier in self.tiers:
                yield Static(Content.styled(tier.name, tier_style(tier.name)))
                yield PathText(place(tier.name, resolved))
                yield PathText(probe_cell(tier.by_scope.get(self.scope.name), tier, self.root))
        for refused in self.scope.refused:
            yield PathText(
                Content.assemble(("! refused ", "$error bold"), f"{refused.path}: {refused.reason}")
            )
        for note in self.scope.notes:
            yield PathText(Content.assemble(("! note ", "$warning bold"), note))


class ScopeDetails(Widget):
    """Every scope of the report, one card each."""

    DEFAULT_CSS = """
    ScopeDetails {
        height: auto;
    }
    """

    async def show(
        self, scopes: Mapping[str, ResolvedScope], root: Path, tiers: Sequence[TierReport]
    ) -> None:
        """Replace the cards with one per scope in `scopes`."""
        await self.remove_children()
        await self.mount_all(ScopeCard(scope, root, tiers) for scope in scopes.values())
