"""The rows of DESIGN §6, each a function that measures one target and returns a RowResult.

Every tierscope figure is a whole process started the way a skill starts it
(`tierscope query ... --json`), with a clean environment: no config variables, state dirs
in a scratch folder, and a PATH holding only the bench's environment and the system —
so the tiers that serve are the ones the row is about, which each row checks with one
`--explain` run of the same query.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from . import baselines
from .corpus import (
    DEFAULT_SEED,
    BenchQuery,
    Corpus,
    benchmark_queries,
    ensure_corpus,
    medium_term_pairs,
)
from .installed import installed_tierscope
from .measure import Argv, Timing, capture, measure

BENCH_DIR = Path(__file__).resolve().parent
REPO_ROOT = BENCH_DIR.parent
QMD_BIN = REPO_ROOT / ".cache" / "tools" / "bin" / "qmd"
FAKE_CK_DIR = REPO_ROOT / "tests" / "fakes"
SYSTEM_PATH = ("/usr/local/bin", "/usr/bin", "/bin")
# Variables a user's shell does not have: the config ones would make tierscope read another
# config than the row sets up; PYTHONDONTWRITEBYTECODE (set in some sandboxes) would make
# every start recompile each module without a cached .pyc, a cost no installed copy pays.
DROPPED_VARIABLES = (
    "TIERSCOPE_CONFIG",
    "QMD_CONFIG_FILE",
    "LOA_AGENT_NAME",
    "PYTHONDONTWRITEBYTECODE",
)
TRAJECTORY_SUBDIR = Path("grimoires/loa/a2a/trajectory")

MET = "met"
MISSED = "missed"
NOT_BUILT = "not built yet"

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class RowResult:
    """One row of the results table."""

    key: str
    title: str
    figure: str
    target: str
    verdict: str  # met | missed | skipped: why | not built yet | error: why
    details: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class TraceSummary:
    """What one `--explain` run says happened: which tier served, how fast in-process."""

    served_by: str | None
    hits: int
    total_ms: float | None
    tiers: tuple[dict, ...]
    problem: str = ""

    def tier(self, name: str) -> dict:
        return next((t for t in self.tiers if t.get("tier") == name), {})

    def describe(self) -> str:
        if self.problem:
            return f"--explain: {self.problem}"
        parts = [
            f"{t.get('tier')} {t.get('status')} {t.get('latency_ms', 0):.1f} ms"
            f" ({t.get('reason', '')})"
            for t in self.tiers
        ]
        total = f"{self.total_ms:.1f} ms" if self.total_ms is not None else "?"
        return (
            f"served by {self.served_by or 'none'}, {self.hits} hits, in-process total "
            f"{total}; " + "; ".join(parts)
        )


class BenchContext:
    """Settings of one bench invocation, and measurements shared between rows."""

    def __init__(
        self,
        runs: int,
        query_count: int,
        work_dir: Path,
        seed: int = DEFAULT_SEED,
        thorough: bool = True,
    ):
        self.runs = runs
        self.thorough = thorough  # False under --quick: skip the slow extra measurements
        self.seed = seed
        self.work_dir = work_dir
        self.queries = benchmark_queries(seed, query_count)
        self.query_count = query_count
        self._memo: dict[str, object] = {}
        rg = baselines.venv_tool("rg")
        if rg is None:
            raise RuntimeError("run the bench with the project's venv python (rg)")
        self.tierscope = installed_tierscope()
        self.rg = rg

    def remember(self, key: str, compute: Callable[[], T]) -> T:
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]  # type: ignore[return-value]

    def corpus(self, size: int) -> Corpus:
        return self.remember(f"corpus-{size}", lambda: ensure_corpus(size, self.seed))

    def env(self, first_on_path: tuple[Path, ...] = (), **extra: str) -> dict[str, str]:
        """The environment a tierscope child runs in (see the module docstring)."""
        env = {k: v for k, v in os.environ.items() if k not in DROPPED_VARIABLES}
        path = [str(p) for p in first_on_path]
        path += [str(self.tierscope.parent), str(self.rg.parent), *SYSTEM_PATH]
        env["PATH"] = os.pathsep.join(path)
        for name in ("STATE", "DATA", "CONFIG", "CACHE"):
            folder = self.work_dir / "xdg" / name.lower()
            folder.mkdir(parents=True, exist_ok=True)
            env[f"XDG_{name}_HOME"] = str(folder)
        env.update(extra)
        return env

    def query_argv(self, text: str, root: Path, scope: str | None, output: str = "--json") -> Argv:
        scope_args = ("--scope", scope) if scope else ()
        return (str(self.tierscope), "query", text, "--root", str(root), *scope_args, output)

    def explain(
        self, text: str, root: Path, scope: str | None, env: dict[str, str]
    ) -> TraceSummary:
        completed = capture(self.query_argv(text, root, scope, "--explain"), env=env)
        return parse_explain(completed.stdout, completed.returncode)


def parse_explain(stdout: str, exit_code: int) -> TraceSummary:
    """Read the `--explain` JSON object; a problem is reported, never raised."""
    try:
        document = json.loads(stdout)
        trace = document["trace"]
        tiers = tuple(trace.get("tiers", ()))
    except (ValueError, KeyError, TypeError, AttributeError):
        first_line = stdout.strip().splitlines()[:1]
        return TraceSummary(None, 0, None, (), f"exit {exit_code}, unreadable output {first_line}")
    served = next((t.get("tier") for t in tiers if t.get("status") == "served"), None)
    return TraceSummary(served, len(document.get("results", ())), trace.get("total_ms"), tiers)


def clear_trajectories(root: Path) -> None:
    """Queries log trajectories inside a Loa project; remove them so the corpus stays the
    generated bytes and the baselines never search tierscope's own logs."""
    shutil.rmtree(root / TRAJECTORY_SUBDIR, ignore_errors=True)


def measure_tierscope(
    ctx: BenchContext,
    label: str,
    root: Path,
    scope: str | None,
    queries: tuple[BenchQuery, ...],
    env: dict[str, str],
) -> tuple[Timing, tuple[TraceSummary, ...]]:
    """Timed `--json` runs of every query, and one `--explain` run of each."""
    clear_trajectories(root)
    try:
        commands = [ctx.query_argv(q.text, root, scope) for q in queries]
        timing = measure(label, commands, ctx.runs, env=env)
        traces = tuple(ctx.explain(q.text, root, scope, env) for q in queries)
    finally:
        clear_trajectories(root)
    return timing, traces


def query_lines(queries: tuple[BenchQuery, ...], traces: tuple[TraceSummary, ...]) -> list[str]:
    return [
        f"query {q.text!r} ({'+'.join(q.bands)}): {trace.describe()}"
        for q, trace in zip(queries, traces, strict=True)
    ]


def served_by_check(traces: tuple[TraceSummary, ...], tier: str) -> str:
    """Empty when every query was served by `tier`, else why the row is not about it."""
    others = sorted({str(t.served_by) for t in traces if t.served_by != tier})
    if not others:
        return ""
    return f"served by {', '.join(others)}, not {tier}"


def verdict(met: bool, problem: str = "") -> str:
    """`met`, `missed`, or `missed: <why the figure is not about this row>`."""
    if problem:
        return f"{MISSED}: {problem}"
    return MET if met else MISSED


def _tierscope_1k(ctx: BenchContext) -> tuple[Timing, tuple[TraceSummary, ...]]:
    corpus = ctx.corpus(1_000)
    return ctx.remember(
        "tierscope-1k",
        lambda: measure_tierscope(
            ctx,
            "tierscope query --json (1k, scope grimoires)",
            corpus.root,
            "grimoires",
            ctx.queries,
            ctx.env(),
        ),
    )


def _timing_figure(timing: Timing) -> str:
    return (
        f"{timing.median_ms:.0f} ms (min {timing.min_ms:.0f}, max {timing.max_ms:.0f}), "
        f"{timing.peak_rss_mb:.0f} MB"
    )


def _failures(*timings: Timing) -> list[str]:
    return [
        f"{t.label}: {t.failed_runs} runs exited with an error" for t in timings if t.failed_runs
    ]


def row_query_1k(ctx: BenchContext) -> RowResult:
    timing, traces = _tierscope_1k(ctx)
    corpus = ctx.corpus(1_000)
    problem = served_by_check(traces, "grep")
    return RowResult(
        "query-1k",
        "query --json, grep tier, 1,000 files",
        _timing_figure(timing),
        "median ≤ 120 ms",
        verdict(timing.median_ms <= 120, problem),
        (
            f"corpus: {corpus.file_count} files, {corpus.total_bytes / 1e6:.1f} MB",
            timing.summary(),
            *query_lines(ctx.queries, traces),
            *([problem] if problem else []),
            *_failures(timing),
        ),
    )


def row_vs_seed(ctx: BenchContext) -> RowResult:
    title = "vs a grep+jq pipeline doing the same work (every matching file), 1,000 files"
    target = "≥ 20× faster"
    if not baselines.jq_available():
        return RowResult("vs-seed", title, "—", target, "skipped: jq not installed")
    corpus = ctx.corpus(1_000)
    check = capture(baselines.seed_style_argv(ctx.queries[0].terms, "grimoires/loa/", 0),
                    cwd=corpus.root)  # fmt: skip
    try:
        hits = len(json.loads(check.stdout))
    except ValueError:
        return RowResult(
            "vs-seed", title, "—", target,
            f"error: pipeline printed no JSON array: {check.stdout[:80]!r}",
        )  # fmt: skip
    # One grep and one jq per matching file: seconds a query, so one run each is enough.
    seed = measure(
        "seed-style grep+jq pipeline, every matching file",
        [baselines.seed_style_argv(q.terms, "grimoires/loa/", 0) for q in ctx.queries],
        1,
        cwd=corpus.root,
        warmups=0,
    )
    timing, _ = _tierscope_1k(ctx)
    ratio = seed.median_ms / timing.median_ms
    capped = measure(
        f"the same pipeline stopped after {baselines.SEED_MAX_FILES} files (as the seed did)",
        [baselines.seed_style_argv(q.terms, "grimoires/loa/") for q in ctx.queries],
        ctx.runs,
        cwd=corpus.root,
    )
    return RowResult(
        "vs-seed",
        title,
        f"{ratio:.0f}× ({seed.median_ms:.0f} ms vs {timing.median_ms:.0f} ms)",
        target,
        verdict(ratio >= 20),
        (
            seed.summary(),
            timing.summary(),
            f"pipeline hits for {ctx.queries[0].text!r}: {hits}",
            f"{capped.summary()}: {capped.median_ms / timing.median_ms:.1f}× tierscope's median",
            *_failures(seed, capped),
        ),
    )


def row_grep_10k(ctx: BenchContext) -> RowResult:
    """With the term index (`tierscope index`, built once for the row), the way a large
    project is meant to be searched; the full scan without it is in the details."""
    corpus = ctx.corpus(10_000)
    paths = ["grimoires/loa/", ".claude/skills/"]
    rg_commands = [baselines.rg_argv(ctx.rg, q.terms, paths) for q in ctx.queries]
    rg = measure(
        "rg -i -F -n", rg_commands, ctx.runs, cwd=corpus.root, ok_exit_codes=frozenset({0, 1})
    )
    env = ctx.env()
    scanned, _ = measure_tierscope(
        ctx,
        "tierscope query --json (10k, scope all, no term index: every file read)",
        corpus.root,
        "all",
        ctx.queries,
        env,
    )
    index_argv = (str(ctx.tierscope), "index", "--root", str(corpus.root))
    built = capture((*index_argv, "--json"), env=env, timeout=900)
    try:
        timing, traces = measure_tierscope(
            ctx,
            "tierscope query --json (10k, scope all, term index)",
            corpus.root,
            "all",
            ctx.queries,
            env,
        )
    finally:
        capture((*index_argv, "--remove"), env=env)
    ratio = timing.median_ms / rg.median_ms
    problem = served_by_check(traces, "grep") or _index_problem(built, traces)
    return RowResult(
        "grep-10k",
        "grep tier, 10,000 files / 100 MB, vs raw rg (term index)",
        f"{ratio:.2f}× ({timing.median_ms:.0f} ms vs rg {rg.median_ms:.0f} ms)",
        "≤ 1.5× raw rg",
        verdict(ratio <= 1.5, problem),
        (
            f"corpus: {corpus.file_count} files, {corpus.total_bytes / 1e6:.1f} MB",
            rg.summary(),
            timing.summary(),
            f"{_index_summary(built)}",
            scanned.summary(),
            f"without the term index: {scanned.median_ms / rg.median_ms:.2f}× raw rg",
            *query_lines(ctx.queries, traces),
            *([problem] if problem else []),
            *_failures(rg, timing, scanned),
        ),
    )


def _index_problem(built: subprocess.CompletedProcess[str], traces) -> str:
    """Empty when the index was built and every query counted from it."""
    if built.returncode != 0:
        return f"`tierscope index` failed: {built.stderr.strip()[:200]}"
    unused = [t for t in traces if not any("term index" in str(x.get("reason")) for x in t.tiers)]
    return f"{len(unused)} queries did not use the term index" if unused else ""


def _index_summary(built: subprocess.CompletedProcess[str]) -> str:
    try:
        made = json.loads(built.stdout)
    except ValueError:
        return "term index: not built"
    return (
        f"term index: {made['files']} files, {made['tokens']} distinct tokens, built in "
        f"{made['seconds']:.1f} s, {made['index_bytes'] / 1e6:.1f} MB"
        f" (the listing {'kept' if made.get('listing_kept') else 'not kept'})"
    )


def import_profile(stderr: str, top: int = 8) -> tuple[bool, list[str]]:
    """From `-X importtime` output: was Textual imported, and the costliest top-level
    imports (cumulative microseconds)."""
    textual = False
    entries: list[tuple[int, str]] = []
    for line in stderr.splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        _, cumulative, name = (part.strip() for part in line[len("import time:") :].split("|"))
        if not cumulative.isdigit():
            continue
        module = name.strip()
        if module == "textual" or module.startswith("textual."):
            textual = True
        if not name.startswith(" "):
            entries.append((int(cumulative), module))
    entries.sort(reverse=True)
    return textual, [f"{module} {us / 1000:.1f} ms" for us, module in entries[:top]]


def row_startup(ctx: BenchContext) -> RowResult:
    empty = ctx.work_dir / "empty-project"
    empty.mkdir(exist_ok=True)
    env = ctx.env()
    argv = ctx.query_argv("token budget", empty, None)
    timing = measure("tierscope query, empty project", [argv], ctx.runs, env=env)
    python = str(ctx.tierscope.parent / "python")
    floor = measure("python -c pass", [(python, "-c", "pass")], ctx.runs, env=env)
    # Interpreter alone, then with the engine's imports: what is left is the query itself.
    api_import = measure(
        "python -c 'import tierscope.cli, tierscope.api, tierscope.render'",
        [(python, "-c", "import tierscope.cli, tierscope.api, tierscope.render")],
        ctx.runs,
        env=env,
    )
    profiled = capture((python, "-X", "importtime", "-m", "tierscope", *argv[1:]), env=env)
    textual, heaviest = import_profile(profiled.stderr)
    over = timing.median_ms - floor.median_ms
    return RowResult(
        "startup",
        "headless start-up, empty scope",
        f"{timing.median_ms:.0f} ms, {over:.0f} ms over python (min {timing.min_ms:.0f}), "
        "textual " + ("IMPORTED" if textual else "not imported"),
        "≤ 50 ms over `python -c pass`; Textual not imported",
        verdict(over <= 50 and not textual),
        (
            timing.summary(),
            floor.summary(),
            api_import.summary(),
            f"stdout of the run: {profiled.stdout.strip()[:60]!r}",
            "heaviest top-level imports (-X importtime, cumulative): " + ", ".join(heaviest),
            *_failures(timing),
        ),
    )


HUNG_CONFIG = """\
qmd_context:
  timeout_seconds: {timeout}
  tiers: [ck, grep]
  scopes:
    grimoires:
      qmd_collection: ""
      ck_path: "grimoires/loa/"
      grep_paths: ["grimoires/loa/"]
"""
HUNG_TIMEOUT_S = 1


def _hung_project(ctx: BenchContext, timeout: int = HUNG_TIMEOUT_S) -> Path:
    root = ctx.work_dir / f"hung-tier-project-{timeout}"
    notes = root / "grimoires" / "loa" / "NOTES.md"
    notes.parent.mkdir(parents=True, exist_ok=True)
    notes.write_text("# NOTES\n\n## Rollback\n\nThe deployment rollback plan is below.\n")
    # ck keeps its index in .ck/ at or above the search path; a probe may look for it.
    (root / ".ck").mkdir(exist_ok=True)
    (root / ".tierscope.yaml").write_text(HUNG_CONFIG.format(timeout=timeout))
    return root


SIGTERM_AFTER_S = 0.5


def _sigterm_runs(ctx: BenchContext, fake_env: dict[str, str]) -> tuple[list[float], list[int]]:
    """A query whose tier hangs (timeout 30 s) stopped by SIGTERM half a second in, as an
    MCP client or a skill's runner stops it: ms from the signal to the process's exit,
    and any process of the run still alive after it."""
    root = _hung_project(ctx, 30)
    pidfile = ctx.work_dir / "ck-pids-term"
    exits: list[float] = []
    leftovers: list[int] = []
    for _ in range(ctx.runs):
        marker = uuid.uuid4().hex
        env = ctx.env((FAKE_CK_DIR,), BENCH_HANG_MARKER=marker, **fake_env)
        env["FAKE_CK_PIDFILE"] = str(pidfile)
        pidfile.unlink(missing_ok=True)
        proc = subprocess.Popen(
            ctx.query_argv("rollback", root, None), env=env,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        time.sleep(SIGTERM_AFTER_S)
        sent = time.perf_counter()
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        exits.append((time.perf_counter() - sent) * 1000)
        time.sleep(0.2)
        left = _live_pids(marker, pidfile)
        leftovers += left
        for pid in left:
            os.kill(pid, signal.SIGKILL)
    return sorted(exits), leftovers


def _live_pids(marker: str, pidfile: Path) -> set[int]:
    """Processes of a run still alive: listed in the fake's pidfile, or carrying the run's
    marker in their environment. Zombies are already dead and do not count."""
    candidates: set[int] = set()
    if pidfile.is_file():
        candidates |= {int(p) for p in pidfile.read_text().split() if p.isdigit()}
    needle = f"BENCH_HANG_MARKER={marker}".encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if needle in (entry / "environ").read_bytes():
                candidates.add(int(entry.name))
        except OSError:
            continue
    alive = set()
    for pid in candidates:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if state != "Z":
            alive.add(pid)
    return alive


def row_hung_tier(ctx: BenchContext) -> RowResult:
    title = "hung tier abandoned (fake ck that hangs, timeout 1 s)"
    limit_ms = HUNG_TIMEOUT_S * 1000 + 150
    if not (FAKE_CK_DIR / "ck").is_file():
        return RowResult("hung-tier", title, "—", f"≤ {limit_ms} ms", "skipped: no tests/fakes/ck")
    root = _hung_project(ctx)
    pidfile = ctx.work_dir / "ck-pids"
    # The fake starts a child that sleeps forever and writes the child's pid to the file.
    fake_env = {"FAKE_CK_BEHAVIOUR": "hang-with-child", "FAKE_CK_PIDFILE": str(pidfile)}
    walls: list[float] = []
    leftovers: list[int] = []
    trace = TraceSummary(None, 0, None, ())
    for attempt in range(ctx.runs + 1):
        marker = uuid.uuid4().hex
        env = ctx.env((FAKE_CK_DIR,), BENCH_HANG_MARKER=marker, **fake_env)
        pidfile.unlink(missing_ok=True)
        if attempt == 0:
            trace = ctx.explain("rollback", root, None, env)
        else:
            walls.append(
                measure(
                    "hung", [ctx.query_argv("rollback", root, None)], 1, env=env, warmups=0
                ).median_ms
            )
        time.sleep(0.2)
        left = _live_pids(marker, pidfile)
        leftovers += left
        for pid in left:
            os.kill(pid, signal.SIGKILL)
    walls.sort()
    median = statistics.median(walls)
    exits, term_left = _sigterm_runs(ctx, fake_env)
    exit_median = statistics.median(exits)
    ck = trace.tier("ck")
    problem = ""
    if ck.get("status") != "timeout":
        problem = f"ck tier ended {ck.get('status')!r}, not timeout ({ck.get('reason')})"
    return RowResult(
        "hung-tier",
        title,
        f"{median:.0f} ms to return (min {walls[0]:.0f}, max {walls[-1]:.0f}); tier "
        f"abandoned at {ck.get('latency_ms', 0):.0f} ms; {len(leftovers)} processes left; "
        f"SIGTERM: exit {exit_median:.0f} ms after it, {len(term_left)} left",
        f"≤ {limit_ms} ms; none left; SIGTERM: exit ≤ 150 ms, none left",
        verdict(
            median <= limit_ms and not leftovers and exit_median <= 150 and not term_left,
            problem,
        ),
        (
            f"fake: tests/fakes/ck (hang-with-child); runs: {len(walls)}",
            f"ck tier in the trace: {ck.get('status')} after {ck.get('latency_ms')} ms"
            f" ({ck.get('reason')})",
            trace.describe(),
            *([problem] if problem else []),
            *([f"left behind (killed by the bench): {sorted(leftovers)}"] if leftovers else []),
            f"SIGTERM {SIGTERM_AFTER_S} s into a query whose ck hangs (timeout 30 s): exit "
            f"{exit_median:.0f} ms after the signal (min {exits[0]:.0f}, max {exits[-1]:.0f});"
            f" {len(term_left)} processes left",
        ),
    )


def _qmd_env(ctx: BenchContext, corpus: Corpus) -> tuple[dict[str, str], str]:
    """An environment whose qmd index holds the corpus's grimoires collection (built once
    and cached beside the corpus), and a note on how it was obtained."""
    home = corpus.root.with_name(corpus.root.name + "-qmd")
    env = ctx.env((QMD_BIN.parent,))
    env["XDG_CACHE_HOME"] = str(home / "cache")
    env["XDG_CONFIG_HOME"] = str(home / "config")
    ready = home / "ready"
    if ready.is_file():
        return env, "cached qmd index"
    shutil.rmtree(home, ignore_errors=True)
    home.mkdir(parents=True)
    started = time.perf_counter()
    added = capture(
        (
            str(QMD_BIN),
            "collection",
            "add",
            str(corpus.root / "grimoires" / "loa"),
            "--name",
            "loa-grimoire",
            "--mask",
            "**/*.md",
        ),
        env=env,
        timeout=600,
    )
    if added.returncode != 0:
        raise RuntimeError(f"qmd collection add failed: {added.stderr.strip()[:200]}")
    ready.write_text("ok\n")
    return env, f"indexed the collection in {time.perf_counter() - started:.0f} s"


def row_qmd(ctx: BenchContext) -> RowResult:
    title, target = "query served by qmd vs raw `qmd search`, 1,000 files", "≤ 0.8× raw"
    if not QMD_BIN.is_file():
        return RowResult("qmd", title, "—", target, "skipped: qmd not installed")
    corpus = ctx.corpus(1_000)
    env, note = _qmd_env(ctx, corpus)

    def raw_argv(text: str) -> Argv:
        return (str(QMD_BIN), "search", text, "--json", "-n", "10", "-c", "loa-grimoire")

    # BM25 search is AND: only pairs that co-occur make a query qmd itself answers.
    queries: list[BenchQuery] = []
    for candidate in medium_term_pairs(ctx.seed):
        found = capture(raw_argv(candidate.text), env=env)
        try:
            if json.loads(found.stdout or "[]"):
                queries.append(candidate)
        except ValueError:
            continue
        if len(queries) == ctx.query_count:
            break
    if not queries:
        return RowResult("qmd", title, "—", target, "error: qmd search found none of the queries")
    raw = measure("qmd search --json", [raw_argv(q.text) for q in queries], ctx.runs, env=env)
    timing, traces = measure_tierscope(
        ctx, "tierscope query --json (qmd)", corpus.root, "grimoires", tuple(queries), env
    )
    ratio = timing.median_ms / raw.median_ms
    problem = served_by_check(traces, "qmd")
    return RowResult(
        "qmd",
        title,
        f"{ratio:.2f}× ({timing.median_ms:.0f} ms vs qmd {raw.median_ms:.0f} ms)",
        target,
        verdict(ratio <= 0.8, problem),
        (
            note,
            raw.summary(),
            timing.summary(),
            *query_lines(tuple(queries), traces),
            *([problem] if problem else []),
            *_failures(raw, timing),
        ),
    )


def _last_json_object(stdout: str) -> dict | None:
    for line in reversed(stdout.strip().splitlines()):
        try:
            candidate = json.loads(line)
        except ValueError:
            continue
        if isinstance(candidate, dict):
            return candidate
    return None


_MEDIAN_MS = re.compile(r"median\s+([0-9]+(?:\.[0-9]+)?)\s*ms")


def external_row(
    ctx: BenchContext, key: str, title: str, script: str, target: str, target_ms: float
) -> RowResult:
    """A row measured by another script in bench/, whose last stdout line is a JSON object
    (see README). A script that prints only text is judged on the `median N ms` in its last
    line. Missing script → "not built yet"."""
    path = BENCH_DIR / script
    if not path.is_file():
        return RowResult(key, title, "—", target, NOT_BUILT, (f"bench/{script} does not exist",))
    env = ctx.env(BENCH_RUNS=str(ctx.runs))
    completed = capture((sys.executable, str(path)), env=env, cwd=REPO_ROOT, timeout=240)
    result = _last_json_object(completed.stdout)
    if result is not None:
        met = result.get("met")
        return RowResult(
            key,
            title,
            str(result.get("figure", "?")),
            target,
            verdict(met) if isinstance(met, bool) else "unknown",
            tuple(str(d) for d in result.get("details", ())),
        )
    lines = completed.stdout.strip().splitlines() or [completed.stderr.strip()[-200:]]
    median = _MEDIAN_MS.search(lines[-1])
    if completed.returncode != 0 or median is None:
        return RowResult(
            key,
            title,
            lines[-1][:80],
            target,
            f"error: bench/{script} exit {completed.returncode}, no result line",
        )
    return RowResult(
        key,
        title,
        f"{float(median.group(1)):.0f} ms median",
        target,
        verdict(float(median.group(1)) <= target_ms),
        (*lines[-3:], f"(read from bench/{script}'s text; it printed no JSON result line)"),
    )


def row_first_paint(ctx: BenchContext) -> RowResult:
    return external_row(
        ctx,
        "first-paint",
        "workbench cold start to first paint",
        "tui_bench.py",
        "≤ 1 s",
        1000,
    )


def row_trajectory_open(ctx: BenchContext) -> RowResult:
    return external_row(
        ctx,
        "trajectory-open",
        "trajectory view, 100k lines / ~50 MB",
        "trajectory_bench.py",
        "usable ≤ 1.5 s, ≤ 200 MB RSS",
        1500,
    )


ROWS: dict[str, Callable[[BenchContext], RowResult]] = {
    "query-1k": row_query_1k,
    "vs-seed": row_vs_seed,
    "grep-10k": row_grep_10k,
    "startup": row_startup,
    "hung-tier": row_hung_tier,
    "qmd": row_qmd,
    "first-paint": row_first_paint,
    "trajectory-open": row_trajectory_open,
}
