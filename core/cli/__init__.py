"""The `tierscope` command. Each subcommand lives in its own module exposing
`add_parser(subparsers)`, which registers the parser and sets `handler=run` where
`run(args) -> int`. Modules import their heavy dependencies inside `run`, so that
`tierscope query` pays only for what it uses."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

# command name -> module in tierscope.cli
COMMANDS = {
    "query": "query",
    "doctor": "doctor",
    "config": "config_cmd",
    "trajectory": "trajectory",
    "context": "context",
    "mcp": "mcp",
    "demo": "demo",
    "eval": "eval",
}
_GLOBAL_OPTIONS_WITH_VALUE = ("--root", "--config", "--theme")


def named_command(argv: Sequence[str]) -> str | None:
    """The subcommand in argv, skipping the global options and their values."""
    skip = False
    for token in argv:
        if skip:
            skip = False
        elif token in _GLOBAL_OPTIONS_WITH_VALUE:
            skip = True
        elif not token.startswith("-"):
            return token
    return None


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser; with `only`, just that subcommand is registered (skills call `query`
    many times a session, and importing every command module costs each call)."""
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
    for command, module_name in COMMANDS.items():
        if only is None or command == only:
            importlib.import_module(f"tierscope.cli.{module_name}").add_parser(subparsers)
    return parser


WORKBENCH_ENTRY_POINTS = "tierscope.workbench"


def open_workbench(args: argparse.Namespace) -> int:
    """Open the front end registered under the `tierscope.workbench` entry point (the
    Textual workbench). Looked up rather than imported: core never depends on it."""
    from importlib.metadata import entry_points

    found = sorted(entry_points(group=WORKBENCH_ENTRY_POINTS), key=lambda ep: ep.name)
    if not found:
        print("tierscope: no workbench is installed; the headless commands work", file=sys.stderr)
        return 1
    return found[0].load()(args)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    command = named_command(argv)
    parser = build_parser(command if command in COMMANDS else None)
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is None:
        return open_workbench(args)
    try:
        return handler(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
