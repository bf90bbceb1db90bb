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
from textual.screen import Screen
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


@dataclass(frozen=True, slots=True)
class FooterItem:
    """One thing the footer shows: a key (with or without its description), the views'
    label, or the command palette's key."""

    kind: str  # key | label | palette
    key: str = ""
    display: str = ""
    description: str = ""
    action: str = ""
    enabled: bool = True
    tooltip: str = ""


class WorkbenchFooter(Footer):
    """A compact footer that drops what does not fit instead of cutting it off.

    Textual's footer is composed again whenever the screen's bindings may have changed,
    which is at every move of the cursor; this one only when what it shows changes."""

    def __init__(self, **kwargs) -> None:
        super().__init__(compact=True, **kwargs)
        self._width = 0
        self._shown: tuple[FooterItem, ...] | None = None

    def items(self) -> tuple[FooterItem, ...]:
        """What the footer shows for the screen's bindings and the terminal's width."""
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
        plan = plan_footer(own, help_keys, views, palette_width, self.app.size.width)
        items = [_item(key, described=True) for key in (*plan.own, *plan.help)]
        items.extend(_item(key, described=plan.views_named) for key in plan.views)
        if plan.views and not plan.views_named:
            items.append(FooterItem("label", description=VIEWS_LABEL))
        if plan.palette and palette_binding is not None:
            binding, enabled, _tooltip = palette_binding
            items.append(
                FooterItem(
                    "palette",
                    binding.key,
                    self.app.get_key_display(binding),
                    binding.description,
                    binding.action,
                    enabled,
                    binding.tooltip or binding.description,
                )
            )
        return tuple(items)

    def compose(self) -> ComposeResult:
        if not self._bindings_ready:
            return
        self._width = self.app.size.width
        self._shown = self.items()
        for item in self._shown:
            if item.kind == "label":
                yield FooterLabel(item.description)
            elif item.kind == "palette":
                yield FooterKey(
                    item.key,
                    item.display,
                    item.description,
                    item.action,
                    classes="-command-palette",
                    disabled=not item.enabled,
                    tooltip=item.tooltip,
                )
            else:
                yield FooterKey(
                    item.key,
                    item.display,
                    item.description,
                    item.action,
                    disabled=not item.enabled,
                    tooltip=item.tooltip,
                ).data_bind(compact=Footer.compact)

    def bindings_changed(self, screen: Screen) -> None:
        self._bindings_ready = True
        if not screen.app.app_focus:
            return
        if self.is_attached and screen is self.screen:
            self.call_after_refresh(self._recompose_if_changed)

    async def _recompose_if_changed(self) -> None:
        if self.is_attached and self.items() != self._shown:
            await self.recompose()

    async def on_resize(self) -> None:
        if self.app.size.width != self._width:
            await self._recompose_if_changed()


def _item(key: ShownKey, *, described: bool) -> FooterItem:
    binding = key.binding
    return FooterItem(
        "key",
        binding.key,
        key.display,
        binding.description if described else "",
        binding.action,
        key.enabled,
        key.tooltip or binding.description,
    )
