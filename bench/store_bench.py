"""Context store throughput on a 100k-entry store: writes and searches, median of rounds.

    .venv/bin/python bench/store_bench.py [--entries 100000] [--rounds 3]

Measured in-process through the store API (the CLI and the MCP server add their own
start-up on top):
- batched writes: `write_many` in transactions of 1,000 into a fresh store;
- single writes: one `write` (one transaction) per entry, as each `context write` or
  `write_context` call does, into the full store;
- read_context searches: full-text search within one run, page of 50, with the total;
- store-tier searches: bm25-ranked search over every run, top 10.
The corpus is synthetic and seeded (Zipf-like word frequencies), so runs are comparable.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from tierscope.store.entries import ReadFilters, WriteRequest
from tierscope.store.store import ContextStore

SEED = 20261123
RUNS = 20
BATCH = 1000
SINGLE_WRITES = 2000
QUERIES = 200
_SYLLABLES = ("ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "pa", "qu", "de", "fo", "gi")


def vocabulary(size: int, rng: random.Random) -> list[str]:
    words: set[str] = set()
    while len(words) < size:
        words.add("".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4))))
    return sorted(words)


class Corpus:
    """Deterministic entries and queries drawn from one Zipf-like vocabulary."""

    def __init__(self, seed: int = SEED) -> None:
        self.rng = random.Random(seed)
        self.words = vocabulary(5000, self.rng)
        self.weights = [1.0 / (rank + 1) for rank in range(len(self.words))]

    def sentence(self, low: int, high: int) -> str:
        count = self.rng.randint(low, high)
        return " ".join(self.rng.choices(self.words, self.weights, k=count))

    def requests(self, count: int) -> Iterator[WriteRequest]:
        for n in range(count):
            run_id = f"run-{n % RUNS}"
            if n % 10 == 9:
                content = json.dumps(
                    {
                        "issue_type": "pattern-violation",
                        "description": self.sentence(6, 20),
                        "suggestion": self.sentence(4, 12),
                    }
                )
                yield WriteRequest(run_id, "review_issue", content, file=f"src/m{n % 300}.py",
                                   line=n % 500 + 1, task_id=f"T{n % 40}")  # fmt: skip
            else:
                kind = ("discovery", "error", "decision")[n % 3]
                yield WriteRequest(run_id, kind, self.sentence(8, 40), task_id=f"T{n % 40}")

    def queries(self, count: int) -> list[str]:
        """One or two words, never the 20 most frequent (those act as stop words)."""
        searchable = self.words[20:]
        return [" ".join(self.rng.sample(searchable, self.rng.randint(1, 2))) for _ in range(count)]


def per_second(count: int, action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return count / (time.perf_counter() - started)


def batched_writes(path: Path, requests: list[WriteRequest]) -> float:
    with ContextStore.open(path) as store:

        def write_all() -> None:
            for start in range(0, len(requests), BATCH):
                store.write_many(requests[start : start + BATCH])

        return per_second(len(requests), write_all)


def single_writes(store: ContextStore, requests: list[WriteRequest]) -> float:
    def write_each() -> None:
        for request in requests:
            store.write(request)

    return per_second(len(requests), write_each)


def read_searches(store: ContextStore, queries: list[str]) -> tuple[float, float]:
    returned = 0

    def search_all() -> None:
        nonlocal returned
        for n, query in enumerate(queries):
            result = store.read(ReadFilters(run_id=f"run-{n % RUNS}", search=query, limit=50))
            returned += len(result.entries)

    rate = per_second(len(queries), search_all)
    return rate, rate * returned / len(queries)


def tier_searches(store: ContextStore, queries: list[str]) -> float:
    def search_all() -> None:
        for query in queries:
            store.search_ranked(query, 10)

    return per_second(len(queries), search_all)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    corpus = Corpus()
    requests = list(corpus.requests(args.entries))
    extra = list(Corpus(SEED + 1).requests(SINGLE_WRITES))
    queries = corpus.queries(QUERIES)
    results: dict[str, list[float]] = {
        "batched writes (entries/s)": [],
        "single writes (entries/s)": [],
        "read_context searches (queries/s)": [],
        "  entries returned by them (entries/s)": [],
        "store tier searches (queries/s)": [],
    }
    with tempfile.TemporaryDirectory(prefix="tierscope-store-bench-") as scratch:
        for round_number in range(args.rounds):
            path = Path(scratch) / f"round-{round_number}" / "context.sqlite"
            results["batched writes (entries/s)"].append(batched_writes(path, requests))
            with ContextStore.open(path) as store:
                results["single writes (entries/s)"].append(single_writes(store, extra))
                queries_rate, entries_rate = read_searches(store, queries)
                results["read_context searches (queries/s)"].append(queries_rate)
                results["  entries returned by them (entries/s)"].append(entries_rate)
                results["store tier searches (queries/s)"].append(tier_searches(store, queries))
            size_mb = sum(p.stat().st_size for p in path.parent.iterdir()) / 1e6
            print(f"round {round_number + 1}/{args.rounds}: store of {store_size(path)} "
                  f"entries, {size_mb:.0f} MB on disk")  # fmt: skip

    print(f"\ncontext store, {args.entries:,} entries, median of {args.rounds} rounds")
    for label, values in results.items():
        print(f"  {label:<42} {statistics.median(values):>12,.0f}")


def store_size(path: Path) -> int:
    with ContextStore.open(path) as store:
        return store.count()


if __name__ == "__main__":
    main()
