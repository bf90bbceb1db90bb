"""The `tierscope` command. Each subcommand lives in its own module exposing
`add_parser(subparsers)`, which registers the parser and sets `handler=run` where
`run(args) -> int`. Modules import their heavy dependencies inside `run`, so that
`tierscope query` pays only for what it uses."""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
import threading
from collections.abc import Iterator, Sequence

# command name -> module in tierscope.cli
COMMANDS = {
    "query": "query",
    "doctor": "doctor",
    "config": "config_cmd",
    "trajectory": "trajectory",
    "session": "session",
    "context": "context",
    "mcp": "mcp",
    "demo": "demo",
    "eval": "eval",
    "init": "init",
    "index": "index",
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

    from .help_format import HelpFormatter

    parser = argparse.ArgumentParser(
        prog="tierscope",
        formatter_class=HelpFormatter,
        description="Tiered context retrieval (qmd -> ck -> grep) under a token budget. "
        "With no command, opens the workbench.",
    )
    from tierscope import __version__

    parser.add_argument("--version", action="version", version=f"tierscope {__version__}")
    parser.add_argument("--root", help="project root (default: git top level, else cwd)")
    parser.add_argument("--config", help="config file (default: discovered)")
    parser.add_argument("--theme", help="workbench theme")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command, module_name in COMMANDS.items():
        if only is None or command == only:
            importlib.import_module(f"tierscope.cli.{module_name}").add_parser(subparsers)
    return parser


WORKBENCH_ENTRY_POINTS = "tierscope.workbench"


NEEDS_A_TERMINAL = (
    "tierscope: the workbench needs a terminal (stdin and stdout); from a script, use "
    "`tierscope query ...` or another command below"
)
USAGE_ERROR = 2


def open_workbench(args: argparse.Namespace) -> int:
    """Open the front end registered under the `tierscope.workbench` entry point (the
    Textual workbench). Looked up rather than imported: core never depends on it.
    Without a terminal (a pipe, a file, no stdin) it would only write escape codes into
    the void and wait: the help is printed instead, as for any other usage error."""
    from importlib.metadata import entry_points

    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        print(NEEDS_A_TERMINAL, file=sys.stderr)
        build_parser().print_help(sys.stderr)
        return USAGE_ERROR

    found = sorted(entry_points(group=WORKBENCH_ENTRY_POINTS), key=lambda ep: ep.name)
    if not found:
        print("tierscope: no workbench is installed; the headless commands work", file=sys.stderr)
        return 1
    return found[0].load()(args)


class Terminated(SystemExit):
    """SIGTERM or SIGHUP arrived; the exit code is 128 + the signal number, as a shell
    reports a process a signal ended."""

    code: int


def _on_termination(signum: int, _frame: object) -> None:
    from tierscope import shutdown

    first = not shutdown.requested()
    # Kill the tiers' process groups first: they run in sessions of their own, so the
    # signal never reached them, and they would outlive us.
    shutdown.request()
    if first:
        # Unwinds like Ctrl-C: every `finally` runs (temporary files, the half-saved
        # config), then main returns the code. A second signal only kills again.
        raise Terminated(128 + signum)


@contextlib.contextmanager
def termination_signals_handled() -> Iterator[None]:
    """While the block runs, SIGTERM and SIGHUP end a headless command as SIGINT does,
    killing the tiers' process groups. A signal the caller chose to ignore (nohup) stays
    ignored; the previous handlers come back afterwards (main may run inside a host)."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may handle signals
        return
    previous = {signum: signal.getsignal(signum) for signum in (signal.SIGTERM, signal.SIGHUP)}
    for signum, handler in previous.items():
        if handler is not signal.SIG_IGN:
            signal.signal(signum, _on_termination)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _refuse_missing_root(parser: argparse.ArgumentParser, root: str | None) -> None:
    """Exit 2 (a usage error) when --root names no folder, before any command runs."""
    from tierscope.project import root_problem

    problem = root_problem(root)
    if problem:
        from tierscope.terminal import printable

        parser.error(printable(problem))


def _refuse_unknown_arguments(
    parser: argparse.ArgumentParser, command: str | None, unknown: list[str]
) -> None:
    """Exit 2 on arguments no parser takes: in the command's own words, and for a query
    that looks like an option (`tierscope query -v`), how to search for it."""
    message = f"unrecognized arguments: {' '.join(unknown)}"
    chosen = parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) and command in action.choices:
            chosen = action.choices[command]
    if command == "query" and unknown[0].startswith("-"):
        message += f" (to search for it: --query={unknown[0]})"
    chosen.error(message)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    command = named_command(argv)
    if command == "query":
        from .query import join_option_values

        argv = join_option_values(argv)
    parser = build_parser(command if command in COMMANDS else None)
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        _refuse_unknown_arguments(parser, command, unknown)
    _refuse_missing_root(parser, getattr(args, "root", None))
    handler = getattr(args, "handler", None)
    if handler is None:
        return open_workbench(args)
    try:
        with termination_signals_handled():
            return handler(args)
    except KeyboardInterrupt:
        return 130
    except Terminated as exc:
        return exc.code
    except BrokenPipeError:
        return 0


# The commands that open the workbench (none: `tierscope [--root DIR]`).
_WORKBENCH_COMMANDS = (None, "demo")


def console() -> None:
    """The `tierscope` command (its console script, and `python -m tierscope`)."""
    argv = sys.argv[1:]
    command = named_command(argv)
    query = command == "query"
    if query:
        # A headless query lives a fraction of a second and makes little cyclic garbage;
        # the collector's passes over everything it imports would cost it ~3 ms.
        import gc

        gc.disable()
    code = main(argv)
    if query or command in _WORKBENCH_COMMANDS:
        _exit_at_once(code)
    raise SystemExit(code)


def _exit_at_once(code: int) -> None:
    """End the process once a headless query's answer is written, or once the workbench
    has exited. Threads still at work are waited for, the exit handlers run and the
    standard streams are flushed, as at any exit, but the interpreter is not torn down:
    freeing every module and object costs each query ~5 ms, and the workbench's quit
    (Textual's modules and objects) ~0.15 s, for nothing."""
    import atexit
    import os

    threading = sys.modules.get("threading")
    if threading is not None:
        # Python's own first step at exit: wait for the threads that are not daemons.
        threading._shutdown()
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            code = 120  # what Python exits with when it cannot flush them
    os._exit(code)


if __name__ == "__main__":
    console()
