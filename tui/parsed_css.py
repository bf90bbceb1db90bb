"""One parse of each stylesheet per theme, however often Textual asks for it.

Textual parses every stylesheet of the app from its text again whenever a view is first
shown (three times: reading the view's CSS file, then refreshing the CSS in `_init_mode`
and `switch_mode`) and whenever a theme is set: `Stylesheet.reparse` starts from a new
stylesheet with an empty cache. For the workbench's ~50 sources that was a fifth of the
time the Config view took to open.

A parse is a function of the CSS text, where it came from, its scope, its priority and
the theme's variables alone, so its result is remembered under all of them. Nothing else
changes: every result is Textual's own, and CSS that does not parse raises as always (it
is never remembered). Textual is pinned to one version (pyproject), and the workbench's
tests fail if the method this wraps is renamed or stops being called."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.css.stylesheet import Stylesheet

# Each theme tried in a session adds a parse of every stylesheet; past this many results
# the memo starts afresh rather than grow.
MAX_REMEMBERED = 4_000


def remember_parsed_css() -> None:
    """Wrap `Stylesheet._parse_rules` (once) so that each result is reused."""
    parse_rules: Callable[..., Any] | None = getattr(Stylesheet, "_parse_rules", None)
    if parse_rules is None or getattr(parse_rules, "remembers", False):
        return
    parsed: dict[tuple, Any] = {}

    def remembered_parse_rules(self, css, read_from, is_default_rules=False, tie_breaker=0,
                               scope=""):  # fmt: skip
        variables = tuple(sorted(self._variables.items()))
        key = (css, read_from, is_default_rules, tie_breaker, scope, variables)
        rules = parsed.get(key)
        if rules is None:
            rules = parse_rules(self, css, read_from, is_default_rules, tie_breaker, scope)
            if len(parsed) >= MAX_REMEMBERED:
                parsed.clear()
            parsed[key] = rules
        return rules

    remembered_parse_rules.remembers = True  # type: ignore[attr-defined]
    Stylesheet._parse_rules = remembered_parse_rules  # type: ignore[method-assign]
