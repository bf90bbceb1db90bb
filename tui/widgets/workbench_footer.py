"""The footer of every view: its keys, help, the other views and the command palette — and,
when they do not all fit the terminal's width, fewer of them rather than a row cut off in
the middle of a word. F1 lists every key in any case.

What gives way first: the views' names (their keys stay, under one "views" label), then the
command palette's key, then the view's own keys from the last one on. Help always stays.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Footer
from textual.widgets._footer import FooterKey, FooterLabel

VIEW_ACTION = "view("
HELP_ACTION = "help"
VIEWS_LABEL = "views"


@dataclass(frozen=True, slots=True)
class ShownKey:
    """A key the footer may show: the binding, whether it is enabled, its tooltip."""

    binding: Binding
    display: str
    enabled: bool
    tooltip: str

    def width(self, with_description: bool = True) -> int:
        """Cells it takes in the compact footer (its margin included)."""
        described = with_description and self.binding.description
        return len(self.display) + (1 + len(self.binding.description) if described else 0) + 1


@dataclass(frozen=True, slots=True)
class FooterPlan:
    """Which keys the footer shows, and how."""

    own: tuple[ShownKey, ...]
    help: tuple[ShownKey, ...]
    views: tuple[ShownKey, ...]
    views_named: bool
    palette: bool


def plan_footer(
    own: list[ShownKey],
    help_keys: list[ShownKey],
    views: list[ShownKey],
    palette_width: int,
    width: int,
) -> FooterPlan:
    """The most the footer can show in `width` cells."""

    def needed(plan: FooterPlan) -> int:
        total = sum(key.width() for key in (*plan.own, *plan.help))
        total += sum(key.width(plan.views_named) for key in plan.views)
        if plan.views and not plan.views_named:
            total += len(VIEWS_LABEL) + 1
        return total + (palette_width if plan.palette else 0)

    plan = FooterPlan(tuple(own), tuple(help_keys), tuple(views), True, palette_width > 0)
    # Smaller and smaller: views by key only, then no palette key, then fewer own keys.
    if needed(plan) > width:
        plan = replace(plan, views_named=False)
    if needed(plan) > width:
        plan = replace(plan, palette=False)
    while plan.own and needed(plan) > width:
        plan = replace(plan, own=plan.own[:-1])
    return plan


class WorkbenchFooter(Footer):
    """A compact footer that drops what does not fit instead of cutting it off."""

    def __init__(self, **kwargs) -> None:
        super().__init__(compact=True, **kwargs)
        self._width = 0

    def compose(self) -> ComposeResult:
        if not self._bindings_ready:
            return
        own: list[ShownKey] = []
        help_keys: list[ShownKey] = []
        views: list[ShownKey] = []
        seen: set[str] = set()
        palette_binding = None
        for key_name, active in self.screen.active_bindings.items():
            node, binding, enabled, tooltip = active
            if key_name == self.app.COMMAND_PALETTE_BINDING:
                palette_binding = (binding, enabled, tooltip)
                continue
            if not binding.show or binding.action in seen:
                continue
            seen.add(binding.action)
            key = ShownKey(binding, self.app.get_key_display(binding), enabled, tooltip)
            if node is self.app and binding.action.startswith(VIEW_ACTION):
                views.append(key)
            elif node is self.app and binding.action == HELP_ACTION:
                help_keys.append(key)
            else:
                own.append(key)
        palette_width = 0
        if palette_binding is not None and self.show_command_palette:
            binding = palette_binding[0]
            palette_width = len(self.app.get_key_display(binding)) + len(binding.description) + 3
        self._width = self.app.size.width
        plan = plan_footer(own, help_keys, views, palette_width, self._width)
        for key in (*plan.own, *plan.help):
            yield self._key(key, described=True)
        for key in plan.views:
            yield self._key(key, described=plan.views_named)
        if plan.views and not plan.views_named:
            yield FooterLabel(VIEWS_LABEL)
        if plan.palette and palette_binding is not None:
            binding, enabled, tooltip = palette_binding
            yield FooterKey(
                binding.key,
                self.app.get_key_display(binding),
                binding.description,
                binding.action,
                classes="-command-palette",
                disabled=not enabled,
                tooltip=binding.tooltip or binding.description,
            )

    def _key(self, key: ShownKey, *, described: bool) -> FooterKey:
        binding = key.binding
        return FooterKey(
            binding.key,
            key.display,
            binding.description if described else "",
            binding.action,
            disabled=not key.enabled,
            tooltip=key.tooltip or binding.description,
        ).data_bind(compact=Footer.compact)

    async def on_resize(self) -> None:
        if self.app.size.width != self._width:
            await self.recompose()
