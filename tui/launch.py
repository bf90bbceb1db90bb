"""The workbench's entry into the `tierscope` command.

`tierscope` with no command (and `tierscope demo`) opens the workbench registered under
the `tierscope.workbench` entry point — this module's `run`. The CLI in core/ looks the
entry point up instead of importing this package, so the headless side never depends on
the workbench; Textual is imported only here, when the app opens.
"""

from __future__ import annotations

import argparse
import sys

NEEDS_A_TERMINAL = (
    "tierscope: the workbench needs a terminal (stdin and stdout); from a script, use "
    "`tierscope query ...` or another command below"
)
USAGE_ERROR = 2


def run(args: argparse.Namespace) -> int:
    """Open the workbench on the project the command line names; the exit code. Without a
    terminal (a pipe, a file, no stdin) it would only write escape codes into the void and
    wait: the help is printed instead, as for any other usage error."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        from tierscope.cli import build_parser

        print(NEEDS_A_TERMINAL, file=sys.stderr)
        build_parser().print_help(sys.stderr)
        return USAGE_ERROR

    from tierscope.api import Project

    from .app import TierscopeApp

    project = Project(getattr(args, "root", None), getattr(args, "config", None))
    app = TierscopeApp(
        project,
        theme=getattr(args, "theme", None),
        notices=tuple(getattr(args, "notices", ())),
    )
    app.run()
    return app.return_code or 0
