"""Whole-process wall time and peak memory of commands, the way a caller experiences them.

Each command is started fresh (no in-process shortcuts), timed from spawn to reap, and
reaped with `os.wait4` so the kernel reports the peak resident set of the child — and of
the largest of its own waited-for children, which is what a shell pipeline costs.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

Argv = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Run:
    """One execution of one command."""

    wall_s: float
    cpu_s: float  # user + system, the child and its waited-for children
    peak_rss_kb: int
    exit_code: int


@dataclass(frozen=True, slots=True)
class Timing:
    """Runs of one or more commands (e.g. the same tool over several queries), pooled."""

    label: str
    runs: tuple[Run, ...]

    @property
    def walls_ms(self) -> tuple[float, ...]:
        return tuple(run.wall_s * 1000 for run in self.runs)

    @property
    def median_ms(self) -> float:
        return statistics.median(self.walls_ms)

    @property
    def min_ms(self) -> float:
        return min(self.walls_ms)

    @property
    def max_ms(self) -> float:
        return max(self.walls_ms)

    @property
    def cpu_median_ms(self) -> float:
        """CPU time is less sensitive than wall time to other load on the machine."""
        return statistics.median(run.cpu_s * 1000 for run in self.runs)

    @property
    def peak_rss_mb(self) -> float:
        return max(run.peak_rss_kb for run in self.runs) / 1024

    @property
    def failed_runs(self) -> int:
        return sum(1 for run in self.runs if run.exit_code != 0)

    def summary(self) -> str:
        """`median X ms (min–max), peak RSS Y MB` — the form every row reports."""
        return (
            f"{self.label}: median {self.median_ms:.1f} ms "
            f"(min {self.min_ms:.1f}, max {self.max_ms:.1f}, n={len(self.runs)}), "
            f"CPU median {self.cpu_median_ms:.1f} ms, peak RSS {self.peak_rss_mb:.1f} MB"
        )


def run_once(
    argv: Sequence[str],
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    ok_exit_codes: frozenset[int] = frozenset({0}),
) -> Run:
    """Run `argv` to completion, its stdout read and discarded; wall and CPU time, peak RSS.

    stdout is a pipe we drain, not /dev/null: ripgrep notices /dev/null and stops at the
    first match of each file, which would make the raw-rg baseline do less work than the
    command it is compared with.

    An exit code outside `ok_exit_codes` is recorded as 1 so callers can count failures
    without knowing each tool's conventions (rg exits 1 for "no match", which is fine).
    """
    started = time.perf_counter()
    process = subprocess.Popen(
        list(argv),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=dict(env) if env is not None else None,
        cwd=cwd,
    )
    assert process.stdout is not None
    while process.stdout.read(1 << 16):
        pass
    process.stdout.close()
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    exit_code = os.waitstatus_to_exitcode(status)
    # The child is reaped here, so tell Popen not to wait for it again.
    process.returncode = exit_code
    cpu = usage.ru_utime + usage.ru_stime
    return Run(wall, cpu, int(usage.ru_maxrss), 0 if exit_code in ok_exit_codes else 1)


def measure(
    label: str,
    commands: Sequence[Argv],
    runs: int,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    ok_exit_codes: frozenset[int] = frozenset({0}),
    warmups: int = 1,
) -> Timing:
    """Warm each command up, then run all of them `runs` times, interleaved round by round
    so slow drift of the machine (caches, other load) spreads evenly over the commands."""
    for argv in commands:
        for _ in range(warmups):
            run_once(argv, env, cwd, ok_exit_codes)
    results = [run_once(argv, env, cwd, ok_exit_codes) for _ in range(runs) for argv in commands]
    return Timing(label, tuple(results))


def capture(
    argv: Sequence[str],
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    timeout: float = 60.0,
) -> subprocess.CompletedProcess[str]:
    """Run once and keep the output, for checking what a measured command really did."""
    return subprocess.run(
        list(argv),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=dict(env) if env is not None else None,
        cwd=cwd,
        timeout=timeout,
        check=False,
    )


def machine_cores() -> int:
    return len(os.sched_getaffinity(0))
