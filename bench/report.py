"""The results table: printed for the terminal, and written to bench/results/latest.md with
the date and the machine, so runs can be compared over time."""

from __future__ import annotations

import datetime as dt
import os
import platform
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from .rows import REPO_ROOT, RowResult

RESULTS_DIR = Path(__file__).resolve().parent / "results"


def machine_facts() -> dict[str, str]:
    """Where the figures were taken: date, cores, CPU, Python, commit."""
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    commit = subprocess.run(
        ["git", "-C", str(REPO_ROOT), "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    return {
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "cores (nproc)": str(len(os.sched_getaffinity(0))),
        "cpu": cpu or platform.processor() or "unknown",
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "platform": platform.platform(),
        "commit": (commit or "unknown") + " (plus the working tree)",
        "python executable": sys.executable,
    }


def render_table(results: Sequence[RowResult]) -> str:
    """A plain fixed-width table for the terminal."""
    header = ("row", "figure", "target", "result")
    lines = [(r.key, r.figure, r.target, r.verdict) for r in results]
    widths = [max(len(row[i]) for row in [header, *lines]) for i in range(4)]
    out = []
    for index, row in enumerate([header, *lines]):
        out.append("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)))
        if index == 0:
            out.append("  ".join("-" * width for width in widths))
    return "\n".join(out)


def render_markdown(
    results: Sequence[RowResult], options: str, elapsed_s: float, load_at_start: float
) -> str:
    """The whole latest.md: machine facts, the table, then every row's details."""
    facts = machine_facts()
    load_at_end = os.getloadavg()[0]
    lines = ["# tierscope benchmark results", ""]
    lines += [f"- {name}: {value}" for name, value in facts.items()]
    lines += [
        f"- load average (1 min): {load_at_start:.1f} at start, {load_at_end:.1f} at end"
        " (other work on the machine inflates every figure)",
        f"- options: {options}",
        f"- bench wall time: {elapsed_s:.0f} s",
        "",
    ]
    lines += ["| row | what | figure | target | result |", "|---|---|---|---|---|"]
    lines += [f"| {r.key} | {r.title} | {r.figure} | {r.target} | {r.verdict} |" for r in results]
    lines += ["", "## Details", ""]
    for r in results:
        lines.append(f"### {r.key} — {r.title}")
        lines.append("")
        lines += [f"- {detail}" for detail in r.details] or ["- (no details)"]
        lines.append("")
    return "\n".join(lines)


def write_latest(markdown: str) -> Path:
    RESULTS_DIR.mkdir(exist_ok=True)
    target = RESULTS_DIR / "latest.md"
    target.write_text(markdown, encoding="utf-8")
    return target
