"""Which theme variable colours a tier or a status, shared by every widget that shows them."""

from __future__ import annotations

from textual.app import App
from textual.color import Color

from tierscope.debugging import report_exception

THEMED_TIERS = frozenset({"qmd", "ck", "grep", "store"})

STATUS_STYLES: dict[str, str] = {
    "waiting": "$foreground-muted",
    "running": "$accent bold",
    "cancelled": "$foreground-muted italic",
    "served": "$success bold",
    "empty": "$foreground",
    "unavailable": "$foreground-muted",
    "timeout": "$warning bold",
    "error": "$error bold",
    "skipped": "$foreground-muted",
    "disabled": "$foreground 35%",
}


def tier_variable(tier: str) -> str:
    """The theme variable for a tier's colour (a tier without its own uses $secondary)."""
    return f"tier-{tier}" if tier in THEMED_TIERS else "secondary"


def tier_style(tier: str) -> str:
    """A Content style string for a tier's name."""
    return f"${tier_variable(tier)} bold"


def status_style(status: str) -> str:
    return STATUS_STYLES.get(status, "$foreground")


def theme_colour(app: App, variable: str) -> str:
    """The current theme's value of `variable` as a hex colour, for Rich renderables
    (such as DataTable cells) that cannot resolve `$variables` themselves."""
    value = app.theme_variables.get(variable) or app.theme_variables.get("foreground", "")
    try:
        return Color.parse(value).hex
    except Exception:
        report_exception(f"theme variable {variable} is not a colour: {value!r}", app.log.error)
        return "default"
