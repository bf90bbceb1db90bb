"""What changed since a logged query ran: the Query view shows, above a replayed query's
result, what its trajectory says it found then (served tier, hits, tokens, each tier's
status) beside what the run found now. Hidden for queries that are not replays."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from textual.content import Content
from textual.widgets import Static

from tierscope.models import count_hits

from .tier_style import status_style, tier_style

if TYPE_CHECKING:
    from tierscope.models import QueryResult
    from tierscope.trajectory.replay import LoggedQuery, LoggedRun

CHANGED = "$warning bold"


def _tiers(tiers: Iterable[tuple[str, str, int | None]]) -> Content:
    """`qmd unavailable · ck error · grep served 8` from (tier, status, count)."""
    return Content(" · ").join(
        Content.assemble(
            (tier, tier_style(tier)),
            " ",
            (status, status_style(status)),
            f" {count}" if status == "served" and count is not None else "",
        )
        for tier, status, count in tiers
    )


def _hits(count: int | None) -> str:
    if count is None:
        return "? hits"
    return count_hits(count)


def _tokens(used: int | None, limit: int | None) -> str:
    if used is None:
        return "? tokens"
    return f"{used:,}/{limit:,} tokens" if limit is not None else f"{used:,} tokens"


def _served(served_by: str | None) -> str:
    return f"{served_by} served" if served_by else "no tier had hits"


def _moment(ts: str) -> str:
    """`2026-11-23T04:19:53.155Z` as `2026-11-23 04:19:53`; other stamps as written."""
    if len(ts) >= 19 and ts[10] in "T ":
        return f"{ts[:10]} {ts[11:19]}"
    return ts


def then_line(ran: LoggedRun | None) -> Content:
    label = ("  then  ", "$foreground-muted")
    if ran is None:
        return Content.assemble(label, ("no execute line was logged", "$foreground-muted"))
    return Content.assemble(
        label,
        (_served(ran.served_by), "bold"),
        f" · {_hits(ran.result_count)} · {_tokens(ran.budget_used, ran.budget_limit)}   ",
        _tiers((tier.tier, tier.status, tier.count) for tier in ran.tiers),
    )


def now_line(result: QueryResult | None, ran: LoggedRun | None) -> Content:
    """The new run, with what differs from the logged run in the warning colour."""
    label = ("  now   ", "$foreground-muted")
    if result is None:
        return Content.assemble(label, ("running…", "$accent"))
    count = len(result.hits)
    served_changed = ran is not None and ran.served_by != result.served_by
    hits_changed = ran is not None and ran.result_count != count
    return Content.assemble(
        label,
        (_served(result.served_by), CHANGED if served_changed else "bold"),
        " · ",
        (_hits(count), CHANGED if hits_changed else ""),
        f" · {_tokens(result.budget.used, result.budget.limit)}   ",
        _tiers((o.tier, o.status.value, len(o.hits)) for o in result.outcomes),
    )


def comparison(logged: LoggedQuery, result: QueryResult | None) -> Content:
    """Three lines: where the query was logged, what it found then, what it finds now."""
    ran = logged.ran
    where = f"replayed from {ran.where} (logged {_moment(ran.ts)})" if ran else "replayed"
    return Content("\n").join(
        [Content.styled(where, "$foreground-muted italic"), then_line(ran), now_line(result, ran)]
    )


class ReplayComparison(Static):
    """Then and now of a replayed query."""

    DEFAULT_CSS = """
    ReplayComparison {
        display: none;
        height: auto;
        padding: 0 1;
        background: $boost;
    }
    ReplayComparison.-shown {
        display: block;
    }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.logged: LoggedQuery | None = None

    def expect(self, logged: LoggedQuery | None) -> None:
        """A replay of `logged` is starting (None: the next run is not a replay)."""
        self.logged = logged
        self.set_class(logged is not None, "-shown")
        if logged is not None:
            self.update(comparison(logged, None))

    def show_now(self, result: QueryResult) -> None:
        """The replay's run finished with `result`."""
        if self.logged is not None:
            self.update(comparison(self.logged, result))
