"""The `tierscope` command. Each subcommand lives in its own module exposing
`add_parser(subparsers)`, which registers the parser and sets `handler=run` where
`run(args) -> int`. Modules import their heavy dependencies inside `run`, so that
`tierscope query` pays only for what it uses."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

COMMAND_MODULES = ("query", "doctor", "config_cmd", "trajectory", "context", "mcp", "demo")


def build_parser() -> argparse.ArgumentParser:
    import importlib

    parser = argparse.ArgumentParser(
        prog="tierscope",
        description="Tiered context retrieval (qmd -> ck -> grep) under a token budget. "
        "With no command, opens the workbench.",
    )
    parser.add_argument("--root", help="project root (default: git top level, else cwd)")
    parser.add_argument("--config", help="config file (default: discovered)")
    parser.add_argument("--theme", help="workbench theme")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(f"tierscope.cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"tierscope.cli.{name}":
                raise
            continue
        module.add_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is None:
        from tierscope.cli.workbench import run as run_workbench

        return run_workbench(args)
    try:
        return handler(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
