"""The workbench's entry into the `tierscope` command.

`tierscope` with no command (and `tierscope demo`) opens the workbench registered under
the `tierscope.workbench` entry point — this module's `run`. The CLI in core/ looks the
entry point up instead of importing this package, so the headless side never depends on
the workbench; Textual is imported only here, when the app opens.
"""

from __future__ import annotations

import argparse


def run(args: argparse.Namespace) -> int:
    """Open the workbench on the project the command line names; the exit code (the
    command line has checked that there is a terminal)."""
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
