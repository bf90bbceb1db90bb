"""Opening a 100,000-line (~50 MB) trajectory file the way the Trajectories view does.

    .venv/bin/python bench/trajectory_bench.py [--lines 100000] [--runs 5]

Generates a realistic file in a temporary directory (intent/execute pairs of several
agents with per-tier traces, some cite/pivot/clearing lines, a few malformed ones), then
measures, each in a fresh process so the figures are the reader's own:
- first screen: open, index the first step, read the first 50 lines (what the view shows
  while indexing goes on);
- scrollable: every line end found and 50 lines read at a random place;
- fully indexed: also every line's facts (time, agent, phase, malformed), the figure held
  against DESIGN §6 (usable in 1.5 s) as the strictest reading of "usable";
- peak RSS of the reading process (`ru_maxrss`), also for the same file gzipped;
- a text filter over the whole file and a phase filter (facts only), for the details;
- the Trajectories view itself (the app, headless, 120×40): from asking it to open the
  file until its first screen of rows is drawn, until it is fully indexed, and its peak
  RSS.
Median over the runs (default 5, or $BENCH_RUNS). The last stdout line is one JSON object
(see bench/README.md).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SEED = 20261123
SCREEN = 50
TARGET_SECONDS = 1.5
TARGET_RSS_MB = 200
AGENTS = ("implement", "review-sprint", "plan", "audit", "architect", "translate")
WORDS = (
    "token budget context retrieval trajectory agent skill scope tier fallback grep semantic "
    "hybrid lexical index collection ranking snippet window dedup overlap config timeout "
    "session clearing synthesis ghost shadow feature sprint review architecture protocol "
    "refresh validation jwt auth bootstrap handler service store cache latency threshold"
).split()
REASONS = {
    "qmd": ("qmd not installed", "collection loa-grimoire missing", "no results"),
    "ck": ("ck not installed", "index missing: run ck --index", "timed out after 5.0 s"),
    "grep": ("no results (ripgrep)", "no results (python scan)"),
}


def generate(path: Path, lines: int) -> None:
    """Write `lines` realistic trajectory lines (about 500 bytes each)."""
    import orjson

    rng = random.Random(SEED)
    start = 1795420800.0  # 2026-11-23T08:00:00Z
    with path.open("wb") as out:
        written = 0
        moment = start
        while written < lines:
            agent = rng.choice(AGENTS)
            query = " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 6)))
            query_id = f"q-{rng.getrandbits(32):08x}"
            batch = _query_lines(rng, agent, query, query_id, moment)
            if rng.random() < 0.08:
                batch.append(_other_line(rng, agent, query, moment + 0.5))
            for record in batch[: lines - written]:
                if rng.random() < 0.001:
                    out.write(orjson.dumps(record)[:-7] + b"\n")  # a cut-off line
                else:
                    out.write(orjson.dumps(record) + b"\n")
                written += 1
            moment += rng.uniform(0.2, 3.0)


def _stamp(moment: float) -> str:
    seconds = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(moment))
    return f"{seconds}.{int(moment * 1000) % 1000:03d}Z"


def _query_lines(rng: random.Random, agent: str, query: str, query_id: str, moment: float):
    scope = rng.choice(("grimoires", "skills", "notes", "reality", "all"))
    budget = rng.choice((1000, 2000, 2000, 4000))
    served = rng.choice(("qmd", "grep", "grep", "ck", None))
    tiers = []
    for tier in ("qmd", "ck", "grep"):
        status = "served" if tier == served else rng.choice(("unavailable", "empty", "skipped"))
        count = rng.randint(1, 10) if status == "served" else 0
        reason = f"{count} hits" if count else rng.choice(REASONS[tier])
        tiers.append(
            {
                "tier": tier,
                "status": status,
                "latency_ms": round(rng.uniform(0.1, 120.0), 1),
                "count": count,
                "reason": reason,
            }
        )
    used = rng.randint(0, budget) if served else 0
    intent = {
        "ts": _stamp(moment),
        "agent": agent,
        "phase": "intent",
        "query_id": query_id,
        "query": query,
        "scope": scope,
        "budget": budget,
        "tiers": ["qmd", "ck", "grep"],
        "skill": agent,
        "root": "/home/dev/projects/loa-framework",
        # seed 004 §4.2 fields that skills add to their own intent lines
        "expected_outcome": _sentence(rng, 6, 12),
        "rationale": _sentence(rng, 8, 14),
    }
    execute = {
        "ts": _stamp(moment + rng.uniform(0.01, 0.3)),
        "agent": agent,
        "phase": "execute",
        "query_id": query_id,
        "query": query,
        "scope": scope,
        "mode": served or "none",
        "served_by": served,
        "result_count": sum(t["count"] for t in tiers),
        "tiers": tiers,
        "budget": {"used": used, "limit": budget, "dropped": rng.randint(0, 3)},
        "total_ms": round(sum(t["latency_ms"] for t in tiers) + 3.0, 1),
        "path": f"/home/dev/projects/loa-framework/grimoires/loa/{scope}/",
        "search_type": rng.choice(("hybrid", "semantic", "regex")),
        "top_k": 20,
        "threshold": 0.4,
    }
    return [intent, execute]


def _sentence(rng: random.Random, shortest: int, longest: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(shortest, longest))).capitalize()


def _other_line(rng: random.Random, agent: str, query: str, moment: float) -> dict:
    kind = rng.choice(("cite", "pivot", "clearing"))
    base = {"ts": _stamp(moment), "agent": agent, "phase": kind}
    if kind == "cite":
        return {
            **base,
            "claim": f"Uses {query}",
            "file": "/home/dev/projects/loa-framework/src/auth/jwt.ts",
            "line": rng.randint(1, 900),
            "score": round(rng.random(), 2),
        }
    if kind == "pivot":
        return {
            **base,
            "reason": "Initial query too broad",
            "original_query": query,
            "new_query": f"{query} {rng.choice(WORDS)}",
        }
    return {**base, "cleared_tokens": rng.randint(500, 5000), "synthesis_tokens": 120}


def measure_once(path: Path) -> dict:
    """One reader, in this process: timings in seconds and peak RSS in MB."""
    started = time.perf_counter()
    from tierscope.trajectory.filters import EntryFilter
    from tierscope.trajectory.index import LineIndex

    index = LineIndex(path)
    index.index_more()
    first = index.lines(0, SCREEN)
    first_screen = time.perf_counter() - started
    while not index.scanned:
        index.index_more()
    middle = random.Random(SEED).randrange(max(len(index) - SCREEN, 1))
    screen = index.lines(middle, middle + SCREEN)
    scrollable = time.perf_counter() - started
    index.build()
    indexed = time.perf_counter() - started
    assert len(first) == SCREEN and len(screen) == SCREEN
    lap = time.perf_counter()
    text_hits = sum(1 for _ in index.matches(EntryFilter(text="jwt")))
    text_filter = time.perf_counter() - lap
    lap = time.perf_counter()
    phase_hits = sum(1 for _ in index.matches(EntryFilter(phase="execute")))
    phase_filter = time.perf_counter() - lap
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {
        "first_screen": first_screen,
        "scrollable": scrollable,
        "indexed": indexed,
        "text_filter": text_filter,
        "phase_filter": phase_filter,
        "rss_mb": rss_mb,
        "lines": len(index),
        "malformed": index.flagged_count,
        "text_hits": text_hits,
        "phase_hits": phase_hits,
    }


def measure_view_once(path: Path) -> dict:
    """The Trajectories view opening `path`, in this process: seconds to the first screen
    of rows drawn and to fully indexed, peak RSS in MB."""
    # Imported here, not at the top: the reader's own figures must not pay for it.
    import asyncio

    return asyncio.run(_view_timings(path))


async def _view_timings(path: Path) -> dict:
    import asyncio

    from tierscope.api import Project
    from tierscope.config.model import Config, TrajectorySettings
    from tierscope.tui.app import VIEWS, TierscopeApp
    from tierscope.tui.widgets.trajectory_lines import TrajectoryLines

    # An empty trajectory directory: the view opens nothing by itself.
    empty = Path(tempfile.mkdtemp(prefix="trajectory-view-"))
    project = Project(empty, config=Config(trajectory=TrajectorySettings(dir=str(empty))))
    views = tuple(view for view in VIEWS if view.mode in ("query", "trajectories"))
    app = TierscopeApp(project, views=views)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f3")
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.screen
        lines = screen.query_one(TrajectoryLines)
        started = time.perf_counter()
        screen.open_paths([path])
        while lines.entries_read == 0:  # rows are read only when drawn
            await asyncio.sleep(0.002)
        first_screen = time.perf_counter() - started
        while screen.indexing:
            await asyncio.sleep(0.005)
        indexed = time.perf_counter() - started
        rows = lines.row_count
    shutil.rmtree(empty, ignore_errors=True)
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"first_screen": first_screen, "indexed": indexed, "rss_mb": rss_mb, "rows": rows}


def measure_in_child(path: Path, how: str = "--measure") -> dict:
    completed = subprocess.run(
        [sys.executable, __file__, how, str(path)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return json.loads(completed.stdout.strip().splitlines()[-1])


def median(samples: list[dict], key: str) -> float:
    return statistics.median(sample[key] for sample in samples)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=int(os.environ.get("BENCH_RUNS", "5")))
    parser.add_argument("--measure", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--measure-view", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.measure:
        print(json.dumps(measure_once(args.measure)))
        return 0
    if args.measure_view:
        print(json.dumps(measure_view_once(args.measure_view)))
        return 0
    with tempfile.TemporaryDirectory(prefix="trajectory-bench-") as scratch:
        plain = Path(scratch) / "implement-2026-11-23.jsonl"
        generate(plain, args.lines)
        packed = plain.with_name(plain.name + ".gz")
        # Streamed: a child's ru_maxrss starts from this process's peak (Linux keeps it
        # across fork and exec), so this process must never hold the file.
        with plain.open("rb") as source, gzip.open(packed, "wb", compresslevel=6) as target:
            shutil.copyfileobj(source, target, 1 << 20)
        measure_in_child(plain)  # warm-up: page cache and .pyc files
        runs = [measure_in_child(plain) for _ in range(max(args.runs, 1))]
        packed_runs = [measure_in_child(packed) for _ in range(max(args.runs // 2, 1))]
        view_runs = [measure_in_child(plain, "--measure-view") for _ in range(max(args.runs, 1))]
        size_mb = plain.stat().st_size / (1 << 20)
        packed_mb = packed.stat().st_size / (1 << 20)
    indexed = median(runs, "indexed")
    rss = max(run["rss_mb"] for run in runs)
    view_indexed = median(view_runs, "indexed")
    view_rss = max(run["rss_mb"] for run in view_runs)
    sample = runs[0]

    def ms(samples: list[dict], key: str) -> str:
        values = [run[key] * 1000 for run in samples]
        low, high = min(values), max(values)
        return f"{statistics.median(values):.0f} ms (min {low:.0f}, max {high:.0f})"

    details = [
        f"file: {sample['lines']:,} lines, {size_mb:.1f} MB ({sample['malformed']} malformed); "
        f"gz {packed_mb:.1f} MB; median of {len(runs)} fresh processes, page cache warm",
        f"first screen (open + first step + 50 lines): {ms(runs, 'first_screen')}",
        f"every line readable (all line ends + a random screen): {ms(runs, 'scrollable')}",
        f"fully indexed (facts of every line: filters, malformed count): {ms(runs, 'indexed')}",
        f"peak RSS {rss:.0f} MB (max over runs; reader process incl. interpreter)",
        f"gz: fully indexed {ms(packed_runs, 'indexed')}, peak RSS "
        f"{max(run['rss_mb'] for run in packed_runs):.0f} MB "
        "(decompressed step by step into a temporary file)",
        f"text filter 'jwt' over all lines {ms(runs, 'text_filter')}, "
        f"{sample['text_hits']:,} hits; phase filter (facts only) {ms(runs, 'phase_filter')}, "
        f"{sample['phase_hits']:,} hits",
        f"the Trajectories view (app headless, 120x40): first screen of rows drawn "
        f"{ms(view_runs, 'first_screen')}, fully indexed {ms(view_runs, 'indexed')}, "
        f"peak RSS {view_rss:.0f} MB ({view_runs[0]['rows']:,} rows)",
    ]
    for line in details:
        print(line)
    met = max(indexed, view_indexed) <= TARGET_SECONDS and max(rss, view_rss) <= TARGET_RSS_MB
    result = {
        "figure": f"{indexed * 1000:.0f} ms fully indexed "
        f"(scrollable {median(runs, 'scrollable') * 1000:.0f} ms), {rss:.0f} MB; "
        f"in the view {view_indexed * 1000:.0f} ms, {view_rss:.0f} MB",
        "met": met,
        "details": details,
    }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
