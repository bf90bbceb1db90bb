"""`tierscope eval`: answer quality on a known-item query set (DESIGN §8)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

# Problems of the query set (a missing expected file, a passage found nowhere) printed one
# by one; the JSON report lists them all.
MAX_PROBLEMS_SHOWN = 20


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "eval",
        help="measure answer quality on a query set (MRR@10, hit@1/5, tokens, passages)",
        description="Run each query of QUERIES.tsv (query<TAB>expected file<TAB>scope"
        "<TAB>passage) through every tier and report MRR@10, hit@1, hit@5, tokens per hit,"
        " the share of hits holding the answering passage, and the queries missed.",
    )
    parser.add_argument("queries", metavar="QUERIES.tsv", help="the query set")
    parser.add_argument(
        "-s", "--scope", help="only the rows of this scope (rows without a scope run in it)"
    )
    parser.add_argument("--tiers", help="comma-separated tiers, in order (default: config)")
    parser.add_argument("-b", "--budget", type=int, help="token budget per query")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    parser.add_argument(
        "--misses", type=int, default=20, metavar="N", help="misses to list (default 20)"
    )
    parser.add_argument("--config", default=argparse.SUPPRESS, help="config file")
    parser.add_argument("--root", default=argparse.SUPPRESS, help="project root")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from tierscope.api import Project
    from tierscope.evaluation.queryset import QuerySetError, read_query_set
    from tierscope.evaluation.report import render_report, report_dict
    from tierscope.evaluation.runner import evaluate
    from tierscope.terminal import json_for_terminal, printable

    try:
        queries = read_query_set(Path(args.queries))
    except QuerySetError as exc:
        print(f"tierscope: {printable(str(exc))}", file=sys.stderr)
        return 2
    if args.scope:
        queries = [q for q in queries if q.scope in (None, args.scope)]
    if not queries:
        print("tierscope: no queries to run", file=sys.stderr)
        return 2
    tiers = None
    if args.tiers:
        tiers = tuple(t.strip().lower() for t in args.tiers.split(",") if t.strip())
    project = Project(args.root, args.config)
    unknown = sorted({q.scope for q in queries if q.scope and q.scope not in project.config.scopes})
    if unknown:
        named = printable(", ".join(unknown))
        print(f"tierscope: unknown scopes in the query set: {named}", file=sys.stderr)
        return 2
    interactive = sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        if interactive:
            print(f"\r{done}/{total}", end="", file=sys.stderr, flush=True)

    report = evaluate(
        project, queries, scope=args.scope, tiers=tiers, budget=args.budget, on_progress=progress
    )
    if interactive:
        print("\r", end="", file=sys.stderr)
    for problem in report.problems[:MAX_PROBLEMS_SHOWN]:
        print(f"tierscope: {printable(problem)}", file=sys.stderr)
    if len(report.problems) > MAX_PROBLEMS_SHOWN:
        more = len(report.problems) - MAX_PROBLEMS_SHOWN
        print(f"tierscope: ... and {more} more problems in the query set", file=sys.stderr)
    if args.json:
        print(json_for_terminal(json.dumps(report_dict(report), indent=2, ensure_ascii=False)))
    else:
        print(render_report(report, args.misses))
    return 0
