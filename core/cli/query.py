"""`tierscope query`: the headless contract (DESIGN §3), a drop-in for
qmd-context-query.sh. Exit 0 for every query outcome; 2 only for usage errors."""

from __future__ import annotations

import argparse
import sys

FORMATS = ("json", "text")


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "query",
        help="answer one query through the tiers, cut to a token budget",
        description="Query qmd -> ck -> grep (falling through), cut to a token budget. "
        "Prints a JSON array of {source, score, content, tier}.",
    )
    parser.add_argument("text", nargs="?", metavar="TEXT", help="the query")
    parser.add_argument("-q", "--query", dest="query_flag", metavar="TEXT", help="the query")
    parser.add_argument("-s", "--scope", help="grimoires, skills, notes, reality, all, ...")
    parser.add_argument("-b", "--budget", help="token budget (positive integer)")
    parser.add_argument("-f", "--format", default=None, help="json (default) or text")
    parser.add_argument("--json", action="store_true", help="same as --format json")
    parser.add_argument("-t", "--timeout", help="per-tier timeout in seconds")
    parser.add_argument("--skill", help="calling skill: selects its overrides, names the log")
    parser.add_argument("--tiers", help="comma-separated tiers to use, in order")
    parser.add_argument("--all-tiers", action="store_true", help="run every tier (compare)")
    parser.add_argument("--explain", action="store_true", help="print results and the trace")
    parser.add_argument("--refresh", action="store_true", help="run `qmd update` first")
    parser.add_argument("--no-trajectory", action="store_true", help="do not log this query")
    # Also accepted after the subcommand, as the seed script's callers pass them.
    parser.add_argument("--config", default=argparse.SUPPRESS, help="config file")
    parser.add_argument("--root", default=argparse.SUPPRESS, help="project root")
    parser.set_defaults(handler=run)


def _warn(message: str) -> None:
    _stderr(f"tierscope: {message}")


def _stderr(line: str) -> None:
    from tierscope.terminal import printable

    # Scope names, skill names and config values are echoed: never raw to a terminal.
    print(printable(line), file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    from tierscope.api import Project, QueryOptions
    from tierscope.render import render_explain, render_json, render_text

    text = args.query_flag if args.query_flag is not None else (args.text or "")
    fmt = "json" if args.json else (args.format or "json").lower()
    if fmt not in FORMATS:
        _warn(f"unknown format {fmt!r}; using json")
        fmt = "json"

    budget: int | None = None
    if args.budget is not None:
        try:
            budget = int(args.budget)
        except ValueError:
            budget = None
        if budget is None or budget < 0:
            _warn(f"budget must be a positive integer, got {args.budget!r}")
            if fmt == "json":
                print(render_json([]))
            return 0
        if budget == 0:
            _warn("budget 0: no hit can fit; the tiers still run for --explain")

    timeout: float | None = None
    if args.timeout is not None:
        try:
            timeout = float(args.timeout)
            if timeout <= 0:
                raise ValueError
        except ValueError:
            _warn(f"timeout must be a positive number of seconds, got {args.timeout!r}; "
                  "using the configured timeout")  # fmt: skip
            timeout = None

    tiers = None
    if args.tiers:
        tiers = tuple(t.strip().lower() for t in args.tiers.split(",") if t.strip())

    project = Project(args.root, args.config)
    for problem in project.config.problems:
        if problem.severity == "error":
            _warn(f"config {problem}")
    result = project.run(
        QueryOptions(
            text=text,
            scope=args.scope,
            budget=budget,
            timeout=timeout,
            skill=args.skill,
            tiers=tiers,
            all_tiers=args.all_tiers,
            refresh=args.refresh,
        ),
        trajectory=not args.no_trajectory,
    )
    for warning in result.warnings:
        _warn(warning)
    if result.refused and result.refused.startswith("Invalid scope"):
        _stderr(result.refused)
    elif result.refused and result.refused != "no query":
        _warn(result.refused)

    if args.explain:
        source = str(project.config.source.path or "built-in defaults")
        print(render_explain(result, project.root, source))
    elif fmt == "text":
        body = render_text(result.hits)
        if body:
            if sys.stdout.isatty():
                from tierscope.terminal import printable

                # Project files are untrusted; a pipe gets them verbatim, a terminal never.
                body = printable(body, keep_newlines=True)
            print(body)
    else:
        print(render_json(result.hits))
    return 0
