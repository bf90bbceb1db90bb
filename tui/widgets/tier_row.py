"""One tier of the pipeline on one line: waiting -> running (elapsed against its timeout)
-> final status with latency, hit count, reason, and the tier's latency history."""

from __future__ import annotations

import re
import time

from textual.content import Content
from textual.reactive import reactive
from textual.timer import Timer
from textual.widget import Widget

from tierscope.models import TierOutcome, count_hits

from .latency_history import sparkline
from .tier_style import status_style, tier_style

NAME_WIDTH = 6
STATUS_WIDTH = 12
BAR_WIDTH = 14
TIME_WIDTH = 16
HITS_WIDTH = 8
SPARK_WIDTH = 12
EIGHTHS = " ▏▎▍▌▋▊▉█"
TICK_SECONDS = 0.1
WIDE_ROW = 90


def format_ms(milliseconds: float) -> str:
    """Latency for people: 0.4 ms, 21.5 ms, 1.25 s."""
    if milliseconds < 1000:
        return f"{milliseconds:.1f} ms"
    return f"{milliseconds / 1000:.2f} s"


# How the qmd tier notes an index behind the files (`qmd: index 3 files behind (...)`).
STALE_INDEX = re.compile(r"index \d+ files? behind")


def staleness(outcome: TierOutcome | None) -> str:
    """`index 3 files behind` when the outcome notes a stale index, else ""."""
    for note in outcome.notes if outcome is not None else ():
        found = STALE_INDEX.search(note)
        if found:
            return found.group(0)
    return ""


def bar(fraction: float, width: int) -> tuple[str, str]:
    """A bar `fraction` full: (filled part, empty track), together `width` cells."""
    fraction = min(1.0, max(0.0, fraction))
    eighths = round(fraction * width * 8)
    full, part = divmod(eighths, 8)
    filled = "█" * full + (EIGHTHS[part] if part and full < width else "")
    return filled, "·" * (width - len(filled))


class TierRow(Widget):
    """The live state of one tier for the current query."""

    DEFAULT_CSS = """
    TierRow {
        height: 1;
        width: 1fr;
    }
    """

    state: reactive[str] = reactive("waiting")
    history: reactive[tuple[float, ...]] = reactive(())

    def __init__(self, tier: str, timeout: float, **kwargs) -> None:
        super().__init__(**kwargs)
        self.tier = tier
        self.timeout = timeout
        self.outcome: TierOutcome | None = None
        self.started_at: float | None = None
        self._ticker: Timer | None = None

    def wait(self, timeout: float) -> None:
        """Back to waiting for a new query."""
        self._stop_ticking()
        self.timeout = timeout
        self.outcome = None
        self.tooltip = None
        self.started_at = None
        self.state = "waiting"
        self.refresh()

    def start(self, timeout: float, started_at: float | None = None) -> None:
        """The tier is running; its elapsed time ticks against `timeout`."""
        self.timeout = timeout
        self.outcome = None
        self.started_at = time.monotonic() if started_at is None else started_at
        self.state = "running"
        if self._ticker is None:
            self._ticker = self.set_interval(TICK_SECONDS, self.refresh)

    def finish(self, outcome: TierOutcome) -> None:
        self._stop_ticking()
        self.outcome = outcome
        self.state = outcome.status.value
        # Everything the tier noted (a stale index, a retry, dropped results), on hover.
        self.tooltip = "\n".join(outcome.notes) or None

    def cancel(self) -> None:
        """The query was cancelled before this tier finished."""
        if self.state in ("running", "waiting"):
            self._stop_ticking()
            self.state = "cancelled"

    def _stop_ticking(self) -> None:
        if self._ticker is not None:
            self._ticker.stop()
            self._ticker = None

    def render(self) -> Content:
        width = self.size.width
        # On a narrow terminal the bar and the time give the reason some room.
        bar_width, time_width = (BAR_WIDTH, TIME_WIDTH) if width >= WIDE_ROW else (8, 11)
        reason_width = max(
            0, width - NAME_WIDTH - STATUS_WIDTH - bar_width - time_width - HITS_WIDTH - 6
        )
        spark_width = SPARK_WIDTH if reason_width > SPARK_WIDTH + 10 else 0
        reason_width -= spark_width + (1 if spark_width else 0)
        filled, track = bar(self._fraction(), bar_width)
        parts: list[str | Content] = [
            _cell(self.tier, NAME_WIDTH, tier_style(self.tier)),
            " ",
            _cell(self.state, STATUS_WIDTH, status_style(self.state)),
            " ",
            Content.styled(filled, _bar_style(self.state)),
            Content.styled(track, "$foreground 35%"),
            " ",
            _cell(self._time_text(), time_width, "$foreground"),
            " ",
            _cell(self._hits_text(), HITS_WIDTH, "$foreground"),
            " ",
            self._reason(reason_width),
        ]
        if spark_width:
            line = sparkline(self.history, spark_width)
            parts += [" ", Content.styled(line.rjust(spark_width), tier_style(self.tier))]
        return Content.assemble(*parts)

    def _fraction(self) -> float:
        if self.timeout <= 0:
            return 0.0
        if self.state == "running" and self.started_at is not None:
            return (time.monotonic() - self.started_at) / self.timeout
        if self.outcome is not None:
            return self.outcome.latency_ms / 1000 / self.timeout
        return 0.0

    def _time_text(self) -> str:
        if self.state == "running" and self.started_at is not None:
            elapsed = time.monotonic() - self.started_at
            return f"{elapsed:.1f} / {self.timeout:.1f} s"
        if self.outcome is not None:
            return format_ms(self.outcome.latency_ms)
        return ""

    def _hits_text(self) -> str:
        if self.outcome is None:
            return ""
        return count_hits(len(self.outcome.hits))

    def _reason(self, width: int) -> Content:
        """The reason, after a warning when the tier's index is behind its files."""
        stale = staleness(self.outcome)
        if not stale or width <= 0:
            return _cell(self._reason_text(), width, "$foreground-muted")
        warning = Content.styled(f"⚠ {stale} · ", "$warning")
        return Content.assemble(
            warning, Content.styled(self._reason_text(), "$foreground-muted")
        ).truncate(width, ellipsis=True, pad=True)

    def _reason_text(self) -> str:
        if self.outcome is not None:
            return self.outcome.reason
        if self.state == "running":
            return "searching…"
        if self.state == "cancelled":
            return "cancelled by a newer query or Esc"
        return ""


def _cell(text: str, width: int, style: str) -> Content:
    if width <= 0:
        return Content("")
    return Content.styled(text, style).truncate(width, ellipsis=True, pad=True)


def _bar_style(state: str) -> str:
    return {
        "running": "$accent",
        "served": "$success",
        "timeout": "$warning",
        "error": "$error",
    }.get(state, "$foreground-muted")
