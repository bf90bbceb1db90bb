"""Replay a scripted skill session three times — without a session; with `--session`;
with `--session` and a `tierscope session clear` whenever a query says "synthesize and
clear", as the seed's protocol asks of a skill — and compare what was served: tokens,
lines sent again, new lines, repeats avoided, thresholds crossed.

    .venv/bin/python eval/session_replay.py ../shared/corpora/textual \\
        --config eval/textual/tierscope.yaml --queries eval/textual/session.txt --scope docs

The corpus is copied to a temporary folder first (it is read-only and the queries write
trajectory logs); each query is a `tierscope query ... --explain` process, as a skill runs
it. Prints one row per query and a summary; `--json` prints the figures instead.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

REFERENCE = "already provided in this session: "
# A line standing for file lines not sent: received before in the session, or left out
# between two passages of a snippet.
MARKER = re.compile(r"^\[lines? (\d+)(?:-(\d+))? (?:already provided in this session|not shown)\]$")


def read_queries(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def copy_corpus(source: Path, target: Path) -> Path:
    shutil.copytree(source, target, ignore=shutil.ignore_patterns(".qmd", ".tierscope.yaml"))
    for folder, dirs, files in os.walk(target):
        for name in [*dirs, *files]:
            path = Path(folder) / name
            path.chmod(path.stat().st_mode | stat.S_IWUSR)
    Path(target).chmod(Path(target).stat().st_mode | stat.S_IWUSR)
    return target


def lines_in_full(hit: dict) -> list[tuple[str, int]]:
    """(source, line) of each file line a hit sends in full."""
    if hit["content"].startswith(REFERENCE) or hit.get("line_start") is None:
        return []
    sent, number = [], hit["line_start"]
    for line in hit["content"].split("\n"):
        gap = MARKER.match(line)
        if gap:
            number = int(gap[2] or gap[1]) + 1
        else:
            sent.append((hit["source"], number))
            number += 1
    return sent


def replay(
    tierscope: str,
    root: Path,
    queries: list[str],
    extra: list[str],
    session: str | None,
    clear_when_told: bool = False,
) -> list[dict]:
    rows, seen = [], set()
    for text in queries:
        argv = [tierscope, "query", text, "--root", str(root), "--explain", *extra]
        if session:
            argv += ["--session", session]
        done = subprocess.run(argv, capture_output=True, text=True, check=True)
        result = json.loads(done.stdout)
        sent = [line for hit in result["results"] for line in lines_in_full(hit)]
        again = [line for line in sent if line in seen]
        seen.update(sent)
        info = result["trace"].get("session") or {}
        rows.append(
            {
                "query": text,
                "tokens": result["trace"]["budget"]["used"],
                "hits": len(result["results"]),
                "references": sum(h["content"].startswith(REFERENCE) for h in result["results"]),
                "lines_sent": len(sent),
                "lines_again": len(again),
                "new_lines": len(sent) - len(again),
                "repeats": info.get("repeats", 0),
                "saved": info.get("saved", 0),
                "accumulated": info.get("accumulated"),
                "total": info.get("total"),
                "notes": [line for line in done.stderr.splitlines() if line],
                "cleared": False,
            }
        )
        if clear_when_told and any("synthesize and clear" in n for n in rows[-1]["notes"]):
            clear = [tierscope, "session", "clear", session, "--root", str(root)]
            subprocess.run(clear, capture_output=True, text=True, check=True)
            rows[-1]["cleared"] = True
    return rows


def summary(rows: list[dict]) -> dict:
    crossed = []
    for number, row in enumerate(rows, 1):
        for note in row["notes"]:
            for name in ("accumulated", "session"):
                if f"over the {name} threshold" in note:
                    crossed.append((name, number))
    first = {}
    for name, number in crossed:
        first.setdefault(name, number)
    return {
        "tokens": sum(row["tokens"] for row in rows),
        "lines_sent": sum(row["lines_sent"] for row in rows),
        "lines_again": sum(row["lines_again"] for row in rows),
        "new_lines": sum(row["new_lines"] for row in rows),
        "references": sum(row["references"] for row in rows),
        "repeats": sum(row["repeats"] for row in rows),
        "saved": sum(row["saved"] for row in rows),
        "first_crossed": first,
        "warnings": len(crossed),
        "clearings": sum(row["cleared"] for row in rows),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path, help="the project to copy and query")
    parser.add_argument("--config", type=Path, help="a tierscope config for the copy")
    parser.add_argument("--queries", type=Path, required=True, help="one query per line")
    parser.add_argument("--scope", help="the queries' scope (default: the config's)")
    parser.add_argument("--tiers", default="grep", help="default: grep (needs no index)")
    parser.add_argument("--budget", default=None, help="per-query budget (default: config)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    tierscope = str(Path(sys.executable).with_name("tierscope"))
    queries = read_queries(args.queries)
    extra = ["--tiers", args.tiers, *(["--scope", args.scope] if args.scope else [])]
    if args.budget:
        extra += ["--budget", args.budget]
    with tempfile.TemporaryDirectory(prefix="session-replay-") as scratch:
        root = copy_corpus(args.corpus, Path(scratch) / "project")
        if args.config:
            (root / ".tierscope.yaml").write_text(args.config.read_text())
        env_home = Path(scratch) / "home"
        os.environ.update(
            HOME=str(env_home), XDG_STATE_HOME=str(env_home / "state"),
            XDG_CACHE_HOME=str(env_home / "cache"),
        )  # fmt: skip
        os.environ.pop("TIERSCOPE_SESSION", None)
        runs = {
            "without": replay(tierscope, root, queries, extra, None),
            "with": replay(tierscope, root, queries, extra, "replay"),
            "with, clearing": replay(tierscope, root, queries, extra, "cleared", True),
        }
    figures = {name: summary(rows) for name, rows in runs.items()}
    if args.json:
        print(json.dumps({"summary": figures, "queries": runs}, indent=2))
        return 0
    print_rows(runs)
    print()
    print_summary(figures)
    return 0


def print_rows(runs: dict[str, list[dict]]) -> None:
    """Tokens per query in each run; `again`: lines of the answer sent before in the
    session; `*` a query over the accumulated threshold, `c` a clearing after it."""
    print(f"{'':4}{'without':^15}  {'with':^22}  {'with, clearing':^22}")
    print(
        f"{'#':>2}  {'tokens':>7} {'again':>5}  {'tokens':>7} {'again':>5} {'refs':>4}{'':4}  "
        f"{'tokens':>7} {'again':>5} {'refs':>4}{'':4}  query"
    )
    plain, kept, cleared = runs["without"], runs["with"], runs["with, clearing"]
    for number, (a, b, c) in enumerate(zip(plain, kept, cleared, strict=True), 1):

        def mark(row: dict) -> str:
            over = "*" if any("accumulated threshold" in n for n in row["notes"]) else ""
            return (over + ("c" if row["cleared"] else "")).ljust(2)

        print(
            f"{number:>2}  {a['tokens']:>7,} {a['lines_again']:>5}  "
            f"{b['tokens']:>7,} {b['lines_again']:>5} {b['references']:>4} {mark(b)}  "
            f"{c['tokens']:>7,} {c['lines_again']:>5} {c['references']:>4} {mark(c)}  "
            f"{a['query']}"
        )


def print_summary(figures: dict[str, dict]) -> None:
    names = list(figures)
    print(f"{'':26}" + "".join(f"{name:>16}" for name in names))
    for label, key in (
        ("tokens served", "tokens"),
        ("file lines sent in full", "lines_sent"),
        ("  of them sent before", "lines_again"),
        ("  new to the session", "new_lines"),
        ("repeats avoided", "repeats"),
        ("tokens saved", "saved"),
        ("references sent", "references"),
        ("threshold warnings", "warnings"),
        ("clearings", "clearings"),
    ):
        print(f"{label:26}" + "".join(f"{figures[name][key]:>16,}" for name in names))
    for name in names[1:]:
        crossed = figures[name]["first_crossed"]
        said = ", ".join(f"{k} first at query {v}" for k, v in crossed.items()) or "none"
        print(f"thresholds crossed ({name}): {said}")


if __name__ == "__main__":
    raise SystemExit(main())
