"""Open the workbench: `tierscope` with no command. Not a subcommand of its own; the CLI's
`main` calls `run` when no command is given. Textual is imported only here."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tierscope.api import Project


def run(args: argparse.Namespace) -> int:
    from tierscope.api import Project

    project = Project(getattr(args, "root", None), getattr(args, "config", None))
    return open_workbench(project, theme=getattr(args, "theme", None))


def open_workbench(project: Project, theme: str | None = None) -> int:
    """Run the workbench on `project` until the user quits; the exit code."""
    from tierscope.tui.app import TierscopeApp

    app = TierscopeApp(project, theme=theme)
    app.run()
    return app.return_code or 0
