"""The Doctor view's tier table: for each tier, usable here or not, why, version, path."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from textual.content import Content
from textual.widget import Widget
from textual.widgets import Static

from tierscope.doctor import TierReport

from .probe_details import detail_lines
from .short_path import short_path
from .tier_style import tier_style

HEADINGS = ("tier", "usable", "reason", "version", "path")


def verdict(tier: TierReport) -> Content:
    """✓ usable / ✗ not usable, and a second line when `tiers:` leaves the tier out."""
    mark = (
        Content.styled("✓ usable", "$success bold")
        if tier.usable
        else Content.styled("✗ not usable", "$error")
    )
    if tier.enabled:
        return mark
    return Content.assemble(mark, "\n", ("not in tiers", "$foreground-muted italic"))


def reason_cell(tier: TierReport, root: Path) -> Content:
    """The reason, then the details every scope shares (qmd's index, the store's size)."""
    lines = detail_lines(tier.shared_details(), root)
    if not lines:
        return Content(tier.reason)
    return Content.assemble(tier.reason, "\n", ("\n".join(lines), "$foreground-muted italic"))


def tier_cells(tier: TierReport, root: Path) -> tuple[Content, ...]:
    """The five cells of one tier's row."""
    return (
        Content.styled(tier.name, tier_style(tier.name)),
        verdict(tier),
        reason_cell(tier, root),
        Content.styled(tier.version or "-", "" if tier.version else "$foreground-muted"),
        Content.styled(short_path(tier.path), "$foreground-muted"),
    )


class TierTable(Widget):
    """A grid whose reason and path columns wrap instead of running off the screen."""

    DEFAULT_CSS = """
    TierTable {
        layout: grid;
        grid-size: 5;
        grid-columns: auto auto 1fr auto 1fr;
        grid-rows: auto;
        grid-gutter: 0 2;
        height: auto;
    }
    TierTable > Static {
        height: auto;
    }
    TierTable > .heading {
        color: $foreground-muted;
        text-style: bold underline;
    }
    """

    async def show(self, tiers: Sequence[TierReport], root: Path) -> None:
        """Replace the rows with one per tier in `tiers` (paths shown relative to `root`)."""
        cells = [Static(heading, classes="heading") for heading in HEADINGS]
        for tier in tiers:
            cells.extend(
                Static(cell, classes=f"tier-{tier.name}") for cell in tier_cells(tier, root)
            )
        await self.remove_children()
        await self.mount_all(cells)
