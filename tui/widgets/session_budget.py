"""Budget over a session: per session (queries made with `--session`) and, for queries
without one, per agent and day — the tokens each query injected, accumulated over time
against the `token_budgets` thresholds, with the first crossing of each called out and a
session's repeats avoided — so a maintainer sees which skill floods its context, and when."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Static

from tierscope.models import noun_for
from tierscope.trajectory.budget_timeline import (
    ACCUMULATED,
    SESSION,
    SINGLE_SEARCH,
    THRESHOLDS,
    BudgetSeries,
    BudgetTimeline,
)

BARS = "▁▂▃▄▅▆▇█"
LABEL_WIDTH = 14
# Room kept right of a chart for its `peak 6,247 / 5,000` figure.
FIGURE_WIDTH = 24
MIN_CHART_WIDTH = 10
OVER = "$budget-over"
WITHIN = "$budget-ok"


def fitted(values: list[int], width: int) -> list[int]:
    """`values` spread over exactly `width` cells, in order: each value repeated when there
    are fewer, consecutive values grouped (by their largest) when there are more."""
    if not values or width <= 0:
        return []
    count = len(values)
    if count <= width:
        return [values[cell * count // width] for cell in range(width)]
    groups = (values[count * cell // width : count * (cell + 1) // width] for cell in range(width))
    return [max(group) for group in groups]


def threshold_sparkline(values: list[int], limit: int, width: int) -> Content:
    """`values` as a bar chart `width` cells wide, scaled so the tallest of the values and
    `limit` fills a cell; bars over `limit` in the over-budget colour."""
    shown = fitted(values, width)
    top = max([*shown, limit, 1])
    last = len(BARS) - 1
    return Content.assemble(
        *(
            (BARS[min(last, round(value / top * last))], OVER if value > limit else WITHIN)
            for value in shown
        )
    )


def threshold_bar(total: int, limit: int, width: int) -> Content:
    """A bar of `total` with a `│` where `limit` falls; the part past it in the over-budget
    colour."""
    scale = max(total, limit, 1)
    filled = round(total / scale * width)
    mark = min(round(limit / scale * width), width - 1)
    cells = []
    for cell in range(width):
        if cell == mark:
            cells.append(("│", "$foreground bold"))
        elif cell < filled:
            cells.append(("█", OVER if cell > mark else WITHIN))
        else:
            cells.append(("░", "$foreground 25%"))
    return Content.assemble(*cells)


def _clock(ts: str) -> str:
    return ts[11:19] if len(ts) >= 19 else ts


def crossings(series: BudgetSeries) -> Content:
    """The first point over each exceeded threshold, or that none was."""
    found = [(name, series.first_over(name)) for name in THRESHOLDS]
    over = [(name, point) for name, point in found if point is not None]
    if not over:
        return Content.styled("within every threshold", WITHIN)
    parts = []
    for name, point in over:
        query = f' "{point.query}"' if point.query else ""
        parts.append(
            Content.assemble(
                (f"{name} first over", f"{OVER} bold"),
                f" at {_clock(point.ts)}, line {point.line_no}{query}",
            )
        )
    return Content(" · ").join(parts)


def heading(series: BudgetSeries, timeline: BudgetTimeline) -> Content:
    """Whose tokens these are (a session and its agents, or an agent's day), how many
    queries and clearings, a session's repeats avoided, and single searches over."""
    points = series.points
    queries = sum(not point.cleared for point in points)
    clearings = len(points) - queries
    day = series.day.isoformat() if series.day else "no date"
    singles = sum(SINGLE_SEARCH in point.over for point in points)
    if series.session:
        agents = ", ".join(series.agents) or "(no agent)"
        who = Content.assemble(
            (f"session {series.session}", "bold"), (f" · {agents} · {day}", "$foreground-muted")
        )
    else:
        who = Content.assemble(
            (series.agent or "(no agent)", "bold"), (f" · {day}", "$foreground-muted")
        )
    return Content.assemble(
        who,
        (f" · {queries} {noun_for(queries, 'query', 'queries')}", "$foreground-muted"),
        (f" · {clearings} {noun_for(clearings, 'clearing')}" if clearings else "", ""),
        (
            f" · {series.repeats} {noun_for(series.repeats, 'repeat')} avoided"
            f" ({series.saved:,} tokens saved)"
            if series.session
            else "",
            WITHIN,
        ),
        (
            f" · {singles} single {noun_for(singles, 'search', 'searches')} over "
            f"{timeline.limits.single_search:,}"
            if singles
            else "",
            OVER,
        ),
    )


def series_lines(series: BudgetSeries, timeline: BudgetTimeline, width: int) -> list[Content]:
    """A heading, the tokens of each query, an accumulated sparkline, a session bar and
    the crossings of one session or agent-day."""
    limits = timeline.limits
    points = series.points
    chart = max(width - LABEL_WIDTH - FIGURE_WIDTH, MIN_CHART_WIDTH)
    asked = [point.used for point in points if not point.cleared]
    largest = max(asked, default=0)
    per_query = Content.assemble(
        ("  per query".ljust(LABEL_WIDTH), "$foreground-muted"),
        threshold_sparkline(asked, limits.single_search, chart),
        (
            f"  largest {largest:,} / {limits.single_search:,}",
            OVER if largest > limits.single_search else "$foreground-muted",
        ),
    )
    peak = series.peak_accumulated
    accumulated = Content.assemble(
        ("  accumulated".ljust(LABEL_WIDTH), "$foreground-muted"),
        threshold_sparkline([point.accumulated for point in points], limits.accumulated, chart),
        (
            f"  peak {peak:,} / {limits.accumulated:,}",
            OVER if ACCUMULATED in series.exceeded else "$foreground-muted",
        ),
    )
    total = series.session_total
    session = Content.assemble(
        ("  session".ljust(LABEL_WIDTH), "$foreground-muted"),
        threshold_bar(total, limits.session, chart),
        (
            f"  {total:,} / {limits.session:,}",
            OVER if SESSION in series.exceeded else "$foreground-muted",
        ),
    )
    return [
        heading(series, timeline),
        per_query,
        accumulated,
        session,
        Content("  ") + crossings(series),
    ]


def timeline_content(timeline: BudgetTimeline | None, width: int, agent: str = "") -> Content:
    """Every agent-day of `timeline` (only `agent`'s when given), or why there is none."""
    if timeline is None:
        return Content.styled("counting tokens…", "$foreground-muted")
    series = [
        s
        for s in timeline.series
        if not agent or agent.casefold() in {name.casefold() for name in (s.agent, *s.agents)}
    ]
    if not series:
        return Content.styled(
            "No execute lines with a token budget here (tierscope writes `budget.used`).",
            "$foreground-muted",
        )
    limits = timeline.limits
    legend = Content.styled(
        f"thresholds (token_budgets): single search {limits.single_search:,} · "
        f"accumulated {limits.accumulated:,} · session {limits.session:,}",
        "$foreground-muted",
    )
    blocks = [Content("\n").join(series_lines(one, timeline, width)) for one in series]
    return Content("\n\n").join([legend, *blocks])


class SessionBudget(VerticalScroll):
    """Tokens per agent and day against the thresholds."""

    DEFAULT_CSS = """
    SessionBudget {
        padding: 0 1;
        /* Room for the scrollbar kept whether or not it shows: the charts are drawn for
           the width, which must not change when the content outgrows the pane. */
        scrollbar-gutter: stable;
    }
    SessionBudget > Static {
        height: auto;
    }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.timeline: BudgetTimeline | None = None
        self.agent = ""

    def compose(self) -> ComposeResult:
        yield Static(id="session-budget-body")

    def show(self, timeline: BudgetTimeline | None, agent: str = "") -> None:
        """Draw `timeline` (None: still counting), only `agent`'s days when given."""
        self.timeline = timeline
        self.agent = agent
        self._draw()

    def on_resize(self) -> None:
        self._draw()

    def _draw(self) -> None:
        width = self.scrollable_content_region.width
        self.query_one("#session-budget-body", Static).update(
            timeline_content(self.timeline, width, self.agent)
        )
