"""One trajectory entry as a row of the entry list: time, agent, phase, tier, hits,
latency and what it asked (or its own words), in columns under `column_headings`."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from tierscope.trajectory.records import TrajectoryEntry

TIME_WIDTH = 14
AGENT_WIDTH = 14
PHASE_WIDTH = 9
TIER_WIDTH = 6
HITS_WIDTH = 4
MS_WIDTH = 8
# Fields every line has; a line without a query is summarised by its other fields.
COMMON_FIELDS = frozenset({"ts", "agent", "phase", "query_id"})
SUMMARY_FIELDS = ("claim", "summary", "reason", "message", "description", "error")


def display_time(ts: str) -> str:
    """`2026-11-20T09:14:02.551Z` as `11-20 09:14:02`; other stamps as written, cut to fit."""
    if len(ts) >= 19 and ts[4] == "-" and ts[10] in "T ":
        return f"{ts[5:10]} {ts[11:19]}"
    return ts[:TIME_WIDTH]


def entry_summary(entry: TrajectoryEntry) -> str:
    """What the last column says: the query, else a line's own words (a citation's claim,
    a clearing's summary...), else its other fields as `key=value`."""
    if entry.query:
        return entry.query
    record = entry.raw
    for key in SUMMARY_FIELDS:
        value = record.get(key)
        if isinstance(value, str) and value.strip():
            return value
    return " ".join(
        f"{key}={_compact(value)}" for key, value in record.items() if key not in COMMON_FIELDS
    )


def _compact(value: object) -> str:
    if isinstance(value, dict | list):
        return "{…}" if isinstance(value, dict) else f"[{len(value)}]"
    return str(value)


def column_headings(compact: bool = False) -> str:
    """The headings over the rows, lined up with `row_text` (`compact`: without hits and
    ms, for a narrow list)."""
    counts = "" if compact else f"{'hits':>{HITS_WIDTH}} {'ms':>{MS_WIDTH}} "
    return (
        f"  {'time':<{TIME_WIDTH}} {'agent':<{AGENT_WIDTH}} {'phase':<{PHASE_WIDTH}} "
        f"{'tier':<{TIER_WIDTH}} {counts} query"
    )


def _cell(text: str, width: int) -> str:
    text = text.replace("\n", " ")
    return text.ljust(width) if len(text) <= width else text[: width - 1] + "…"


def row_text(
    entry: TrajectoryEntry,
    *,
    marked: bool = False,
    styles: dict[str, Style] | None = None,
    tier_colour: str = "",
    compact: bool = False,
) -> Text:
    """One entry as a row: a mark, time, agent, phase, tier, hits, latency and summary
    (`compact`: without hits and latency, so a narrow list keeps room for the query). A
    malformed line shows its parse error and its text instead of the columns."""
    styles = styles or {}
    muted = styles.get("muted", Style())
    row = Text(no_wrap=True, overflow="ellipsis", end="")
    if entry.flagged:
        row.append("! ", styles.get("flagged", Style(bold=True)))
        row.append(f"{display_time(entry.ts):<{TIME_WIDTH}} ", muted)
        row.append(f"line {entry.line_no}: {entry.error}", styles.get("flagged", Style()))
        row.append(f"  {entry.text.replace(chr(10), ' ')}", muted)
        return row
    row.append("● " if marked else "  ", styles.get("mark", Style()))
    row.append(f"{display_time(entry.ts):<{TIME_WIDTH}} ", muted)
    row.append(f"{_cell(entry.agent, AGENT_WIDTH)} ")
    row.append(f"{_cell(entry.phase, PHASE_WIDTH)} ", styles.get(f"phase-{entry.phase}", Style()))
    row.append(
        f"{_cell(entry.tier, TIER_WIDTH)} ", Style.parse(tier_colour) if tier_colour else Style()
    )
    if not compact:
        hits = "" if entry.result_count is None else str(entry.result_count)
        latency = "" if entry.latency_ms is None else f"{entry.latency_ms:.1f}"
        row.append(f"{hits:>{HITS_WIDTH}} {latency:>{MS_WIDTH}} ")
    row.append(" " + entry_summary(entry).replace("\n", " "))
    return row
