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
from .slash_wrap import PathText
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


def version_and_path(tier: TierReport) -> Content:
    """The version and path columns as one line, for under the reason on a narrow screen."""
    known = [part for part in (tier.version, tier.path and short_path(tier.path)) if part]
    return Content.styled(" · ".join(known), "$foreground-muted")


class TierTable(Widget):
    """A grid whose reason and path columns wrap instead of running off the screen. On a
    narrow terminal the version and path columns give way to a line under the reason."""

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
    TierTable > .narrow-only {
        display: none;
    }
    TierTable > .narrow-gap {
        column-span: 2;
    }
    TierTable.-narrow {
        grid-size: 3;
        grid-columns: auto auto 1fr;
    }
    TierTable.-narrow > .wide-only {
        display: none;
    }
    TierTable.-narrow > .narrow-only {
        display: block;
    }
    """

    NARROW = 90

    async def show(self, tiers: Sequence[TierReport], root: Path) -> None:
        """Replace the rows with one per tier in `tiers` (paths shown relative to `root`)."""
        wide_only = ("", "", "", "wide-only", "wide-only")
        cells = [
            Static(heading, classes=f"heading {extra}")
            for heading, extra in zip(HEADINGS, wide_only, strict=True)
        ]
        for tier in tiers:
            cells.extend(
                PathText(cell, classes=f"tier-{tier.name} {extra}")
                for cell, extra in zip(tier_cells(tier, root), wide_only, strict=True)
            )
            if tier.version or tier.path:
                cells.append(Static(classes="narrow-only narrow-gap"))
                cells.append(PathText(version_and_path(tier), classes="narrow-only"))
        await self.remove_children()
        await self.mount_all(cells)

    def on_resize(self) -> None:
        self.set_class(self.size.width < self.NARROW, "-narrow")
