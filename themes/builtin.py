"""tierscope's built-in themes: Textual `Theme`s carrying our own variables.

Every stylesheet in the workbench may use `$tier-qmd`, `$tier-ck`, `$tier-grep`,
`$tier-store`, `$budget-ok` and `$budget-over`. Themes that do not define them (Textual's
own, or a user theme that leaves some out) get `VARIABLE_DEFAULTS`, so switching to any
theme never breaks a stylesheet.
"""

from __future__ import annotations

from textual.theme import Theme

OUR_VARIABLES = ("tier-qmd", "tier-ck", "tier-grep", "tier-store", "budget-ok", "budget-over")

VARIABLE_DEFAULTS: dict[str, str] = {
    "tier-qmd": "#b48ead",
    "tier-ck": "#56b6c2",
    "tier-grep": "#e5c07b",
    "tier-store": "#98c379",
    "budget-ok": "#4ebf71",
    "budget-over": "#e06c75",
}

TIERSCOPE_DARK = Theme(
    name="tierscope-dark",
    primary="#3fb6a8",
    secondary="#5a7bd8",
    accent="#f2a541",
    warning="#f2a541",
    error="#e06c75",
    success="#4ebf71",
    foreground="#d8dee9",
    background="#12161c",
    surface="#1a2029",
    panel="#232b36",
    dark=True,
    variables={
        **VARIABLE_DEFAULTS,
        "footer-key-foreground": "#3fb6a8",
        "input-selection-background": "#3fb6a8 35%",
    },
)

TIERSCOPE_LIGHT = Theme(
    name="tierscope-light",
    primary="#00786c",
    secondary="#3553b0",
    accent="#b35c00",
    warning="#b35c00",
    error="#b3261e",
    success="#2e7d32",
    foreground="#1f2328",
    background="#f7f8fa",
    surface="#ffffff",
    panel="#e6e9ef",
    dark=False,
    variables={
        "tier-qmd": "#7b3f9e",
        "tier-ck": "#00707a",
        "tier-grep": "#8a6100",
        "tier-store": "#2e7d32",
        "budget-ok": "#2e7d32",
        "budget-over": "#b3261e",
        "footer-key-foreground": "#00786c",
        "input-selection-background": "#00786c 25%",
    },
)

BUILTIN_THEMES: tuple[Theme, ...] = (TIERSCOPE_DARK, TIERSCOPE_LIGHT)
DEFAULT_THEME = TIERSCOPE_DARK.name
