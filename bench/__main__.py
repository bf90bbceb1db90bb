"""`python -m bench`: measure every row of DESIGN §6, print the table, write
bench/results/latest.md."""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from .report import render_markdown, render_table, write_latest
from .rows import ROWS, BenchContext, RowResult


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument(
        "--quick",
        action="store_true",
        help="3 runs and one query per row, no extra measurements (default: 5 runs, 3 queries)",
    )
    parser.add_argument(
        "--only",
        action="append",
        choices=list(ROWS),
        metavar="ROW",
        help=f"run only this row (repeatable): {', '.join(ROWS)}",
    )
    parser.add_argument("--runs", type=int, help="timed runs per command (default 5, quick 3)")
    args = parser.parse_args(argv)
    if args.runs is not None and args.runs < 1:
        parser.error("--runs must be at least 1")
    return args


def run_row(key: str, context: BenchContext) -> RowResult:
    """One row; a failure of the harness or of tierscope becomes an `error:` verdict so the
    other rows still run."""
    try:
        return ROWS[key](context)
    except Exception as exc:
        return RowResult(key, key, "—", "", f"error: {type(exc).__name__}: {exc}")


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    runs = args.runs or (3 if args.quick else 5)
    keys = args.only or list(ROWS)
    load_at_start = os.getloadavg()[0]
    cores = len(os.sched_getaffinity(0))
    if load_at_start > cores / 2:
        print(
            f"bench: load average {load_at_start:.1f} on {cores} cores; figures will be inflated",
            file=sys.stderr,
        )
    started = time.perf_counter()
    work_dir = Path(tempfile.mkdtemp(prefix="tierscope-bench-"))
    results: list[RowResult] = []
    try:
        context = BenchContext(runs, 1 if args.quick else 3, work_dir, thorough=not args.quick)
        for key in keys:
            print(f"bench: {key} ...", file=sys.stderr, flush=True)
            row_started = time.perf_counter()
            results.append(run_row(key, context))
            print(
                f"bench: {key}: {results[-1].verdict} ({time.perf_counter() - row_started:.0f} s)",
                file=sys.stderr,
                flush=True,
            )
    finally:
        shutil.rmtree(work_dir, ignore_errors=True)
    elapsed = time.perf_counter() - started
    print(render_table(results))
    options = f"{' '.join(argv) or '(defaults)'}; {runs} runs per command"
    written = write_latest(render_markdown(results, options, elapsed, load_at_start))
    print(f"\nwritten: {written} ({elapsed:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
