"""The budget meter: how much of the token budget the kept hits use, each one's share, and
what the cut dropped with its cost. Dragging the bar (or ←/→) asks for another limit."""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.message import Message
from textual.widget import Widget

from tierscope.models import BudgetEntry, BudgetReport

from .short_path import fit_path, one_line

KEY_STEP = 100
BIG_STEP = 1000
SNAP = 10  # a dragged limit snaps to multiples of this many tokens
MIN_LIMIT = 10
MIN_LABEL = 16  # cells of source:line kept even when a reason crowds the line


def entry_label(entry: BudgetEntry) -> str:
    """source:line of a budget entry, on one line."""
    hit = entry.hit
    source = one_line(hit.source)
    if hit.line_start is None:
        return source
    if hit.line_end is None or hit.line_end == hit.line_start:
        return f"{source}:{hit.line_start}"
    return f"{source}:{hit.line_start}-{hit.line_end}"


def limit_at(x: int, width: int, scale: int) -> int:
    """The limit a click or drag at cell `x` of a bar `width` cells wide asks for."""
    if width <= 0:
        return MIN_LIMIT
    fraction = min(1.0, max(0.0, (x + 1) / width))
    return max(MIN_LIMIT, round(fraction * scale / SNAP) * SNAP)


class BudgetMeter(Widget, can_focus=True):
    """Used / limit, a bar of kept hits then the dropped ones past the limit marker."""

    DEFAULT_CSS = """
    BudgetMeter {
        height: auto;
        padding: 0 1;
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    BudgetMeter:focus {
        background: $boost;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,minus", "step(-1)", "Budget −", show=False),
        Binding("right,plus,equals_sign", "step(1)", "Budget +", show=False),
        Binding("shift+left", "step(-10)", "Budget −1000", show=False),
        Binding("shift+right", "step(10)", "Budget +1000", show=False),
    ]

    class LimitRequested(Message):
        """The user asked for a new budget limit (drag, click or keys)."""

        def __init__(self, limit: int) -> None:
            super().__init__()
            self.limit = limit

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.report: BudgetReport | None = None
        self.scale = 0
        self._dragging = False
        self._requested: int | None = None

    def show(self, report: BudgetReport | None, *, new_result: bool = False) -> None:
        """Draw `report`. A new result rescales the bar to hold every candidate hit, so
        dragging can reach a budget that keeps them all."""
        self.report = report
        if new_result or report is None or report.limit == self._requested:
            self._requested = None
        if report is not None:
            candidates = sum(entry.tokens for entry in (*report.included, *report.dropped))
            if new_result or self.scale <= 0:
                self.scale = max(report.limit, candidates, MIN_LIMIT)
            self.scale = max(self.scale, report.limit)
        self.refresh(layout=True)

    def action_step(self, steps: int) -> None:
        if self.report is None:
            return
        step = KEY_STEP if abs(steps) == 1 else BIG_STEP
        # Keys repeat faster than the screen re-packs: step from the last request.
        base = self._requested if self._requested is not None else self.report.limit
        self._request(max(MIN_LIMIT, base + (step if steps > 0 else -step)))

    def _request(self, limit: int) -> None:
        self._requested = limit
        self.post_message(self.LimitRequested(limit))

    def _bar_width(self) -> int:
        return max(1, self.content_region.width)

    def _request_at(self, event: events.MouseEvent) -> None:
        offset = event.get_content_offset(self)
        if offset is None or self.report is None:
            return
        self._request(limit_at(offset.x, self._bar_width(), self.scale))

    def on_mouse_down(self, event: events.MouseDown) -> None:
        offset = event.get_content_offset(self)
        if offset is None or offset.y != 1 or self.report is None:
            return
        self._dragging = True
        self.capture_mouse()
        self._request_at(event)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        if self._dragging:
            self._request_at(event)

    def on_mouse_up(self, _event: events.MouseUp) -> None:
        if self._dragging:
            self._dragging = False
            self.release_mouse()

    def render(self) -> Content:
        report = self.report
        if report is None:
            return Content.styled("Run a query to see how the budget cuts it.", "$foreground-muted")
        lines = [self._summary(report), self._bar(report)]
        lines += [self._kept_line(report, entry) for entry in report.included]
        lines += [self._dropped_line(entry) for entry in report.dropped]
        return Content("\n").join(lines)

    def _summary(self, report: BudgetReport) -> Content:
        share = f"{report.used / report.limit:.0%}" if report.limit else "—"
        parts: list[str | tuple[str, str]] = [
            (f"{report.used:,}", "$budget-ok bold"),
            f" / {report.limit:,} tokens · {share} · {len(report.included)} kept",
        ]
        if report.dropped:
            cost = sum(entry.tokens for entry in report.dropped)
            parts += [" · ", (f"{len(report.dropped)} dropped ({cost:,} tokens)", "$budget-over")]
        return Content.assemble(*parts)

    def _bar(self, report: BudgetReport) -> Content:
        width = self._bar_width()
        scale = max(self.scale, 1)

        def cells(tokens: int) -> int:
            return round(tokens / scale * width)

        marker = min(width - 1, max(0, cells(report.limit) - 1))
        pieces: list[tuple[str, str]] = []
        position = 0
        for index, entry in enumerate(report.included):
            size = max(1, cells(entry.tokens))
            glyph = "█" if index % 2 == 0 else "▓"
            pieces.append((glyph * size, "$budget-ok"))
            position += size
        if position < marker:
            pieces.append(("░" * (marker - position), "$foreground 35%"))
            position = marker
        pieces.append(("┃", "$foreground bold"))
        position += 1
        for entry in report.dropped:
            size = max(1, cells(entry.tokens))
            pieces.append(("▒" * size, "$budget-over"))
            position += size
        bar = Content.assemble(*pieces)
        return bar.truncate(width).pad_right(max(0, width - position))

    def _kept_line(self, report: BudgetReport, entry: BudgetEntry) -> Content:
        share = f"{entry.tokens / report.limit:.0%}" if report.limit else ""
        head = f"{entry.tokens:>5,} tok {share:>4}  "
        return Content.assemble(
            ("■ ", "$budget-ok"),
            (head, "$foreground"),
            (self._label(entry, 2 + len(head)), "$foreground-muted"),
        )

    def _dropped_line(self, entry: BudgetEntry) -> Content:
        head = f"{entry.tokens:>5,} tok  "
        reason = f"{entry.reason}  " if entry.reason else ""
        return Content.assemble(
            ("✗ ", "$budget-over"),
            (head, "$budget-over"),
            (reason, "$foreground-muted italic"),
            (self._label(entry, 2 + len(head) + len(reason)), "$foreground-muted"),
        )

    def _label(self, entry: BudgetEntry, after: int) -> str:
        """The entry's source:line in what the line leaves of the width (the file name
        stays; a reason too long to leave room gives way at the end instead)."""
        return fit_path(entry_label(entry), max(self._bar_width() - after, MIN_LABEL))
