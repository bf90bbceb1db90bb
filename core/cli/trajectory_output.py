"""Trajectory entries printed by `tierscope trajectory show` and `tail`: JSON lines, or a
table fitted to the terminal. Logged text is untrusted: it is printed escaped."""

from __future__ import annotations

import shutil
import sys


def print_json_lines(index, wanted) -> None:
    import orjson

    from tierscope.terminal import json_for_terminal

    out = sys.stdout
    for i in index.matches(wanted):
        entry = index.line(i)
        envelope: dict = {"line": entry.line_no, "error": entry.error or None}
        envelope["record"] = entry.raw if entry.raw or not entry.error else None
        if entry.error:
            envelope["text"] = entry.text
        out.write(json_for_terminal(orjson.dumps(envelope, default=str).decode()) + "\n")


def output_width() -> int:
    """The terminal's width; no limit when the output goes to a file or a pipe."""
    if sys.stdout.isatty():
        return shutil.get_terminal_size((120, 24)).columns
    return 1 << 20


def print_table(index, wanted) -> None:
    width = output_width()
    out = sys.stdout
    out.write(f"{'LINE':>6}  {HEADER}\n")
    shown = 0
    for i in index.matches(wanted):
        entry = index.line(i)
        out.write(f"{entry.line_no:>6}  {entry_row(entry, width - 8)}\n")
        shown += 1
    summary = (
        f"{shown} of {len(index)} lines shown; {index.flagged_count} malformed "
        f"({index.data_loss_ratio:.1%} data loss)"
    )
    if index.has_truncated_tail:
        summary += "; last line truncated"
    out.write(summary + "\n")


HEADER = f"{'TIME':<23}  {'AGENT':<16} {'PHASE':<12} {'TIER':<6} {'HITS':>4} {'MS':>7}  QUERY"


def entry_row(entry, width: int) -> str:
    """One entry as a table row fitting `width` columns."""
    time = entry.ts.replace("T", " ").removesuffix("Z")[:23]
    if entry.error:
        detail = f"! {entry.error} | {entry.text}"
        return fit(f"{time:<23}  {detail}", width)
    hits = "" if entry.result_count is None else str(entry.result_count)
    ms = "" if entry.latency_ms is None else f"{entry.latency_ms:.1f}"
    row = (
        f"{time:<23}  {entry.agent[:16]:<16} {entry.phase[:12]:<12} {entry.tier[:6]:<6} "
        f"{hits:>4} {ms:>7}  {entry.query}"
    )
    return fit(row, width)


def fit(text: str, width: int) -> str:
    from tierscope.terminal import printable

    # Logged text is untrusted: escape sequences in a query must not reach the terminal.
    text = printable(text)
    return text if len(text) <= width else text[: max(width - 1, 1)] + "…"
