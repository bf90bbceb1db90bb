"""Write an SVG of each workbench view, run against a fresh copy of the demo project.

    .venv/bin/python screenshots/generate.py [--out screenshots]

The README shows these files; run this after changing how a view looks.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shutil
import tempfile
from datetime import date
from pathlib import Path

SIZE = (120, 40)
NARROW = (80, 24)
# The demo's newest trajectory file is renamed to "today": a fixed day keeps SVGs stable.
SCREENSHOT_DAY = date(2026, 11, 23)
QUERY = "rollback disruption budget"


async def settle(pilot) -> None:
    from textual.worker import WorkerCancelled, WorkerFailed

    for _ in range(2):
        for worker in list(pilot.app.workers):
            with contextlib.suppress(WorkerCancelled, WorkerFailed):
                await worker.wait()
        await pilot.pause()


async def capture_views(project_root: Path, out: Path, theme: str | None) -> list[Path]:
    """Drive the app through its views and save one SVG per picture."""
    from textual.widgets import Input, Select

    from tierscope.api import Project, QueryOptions
    from tierscope.tui.app import TierscopeApp
    from tierscope.tui.widgets.budget_meter import BudgetMeter
    from tierscope.tui.widgets.query_form import QueryForm

    written: list[Path] = []

    def save(app, name: str) -> None:
        app.save_screenshot(filename=f"{name}.svg", path=str(out))
        written.append(out / f"{name}.svg")

    app = TierscopeApp(Project(project_root), theme=theme)
    suffix = "" if theme in (None, "tierscope-dark") else f"-{theme}"
    async with app.run_test(size=SIZE) as pilot:
        for field in app.screen.query(Input):
            field.cursor_blink = False
        form = app.screen.query_one(QueryForm)
        form.load(QueryOptions(text=QUERY))
        form.submit()
        await settle(pilot)
        save(app, f"query{suffix}")
        if suffix:
            return written
        form.load(QueryOptions(text=QUERY, budget=400))
        form.submit()
        await settle(pilot)
        app.screen.query_one(BudgetMeter).focus()
        await pilot.pause()
        save(app, "budget")
        await pilot.press("ctrl+r")
        await settle(pilot)
        save(app, "compare")
        await pilot.press("f1")
        await pilot.pause()
        save(app, "help")
        await pilot.press("escape")
        for view in app.views:
            if view.mode == "query":
                continue
            await app.switch_mode(view.mode)
            await settle(pilot)
            save(app, view.mode)
        if "trajectories" in {view.mode for view in app.views}:
            await app.switch_mode("trajectories")
            await settle(pilot)
            app.screen.query_one("#trajectory-agent", Select).value = "implement"
            await pilot.press("b")
            await settle(pilot)
            save(app, "trajectories-budget")
        if "config" in {view.mode for view in app.views}:
            await app.switch_mode("config")
            config = app.screen
            config.query_one("#field-default_budget #control", Input).value = "400"
            await pilot.pause()
            config.query_one("#preview-query", Input).value = QUERY
            await pilot.press("ctrl+r")
            await settle(pilot)
            save(app, "config-preview")
            await pilot.press("ctrl+s")
            await pilot.pause()
            save(app, "config-diff")
            await pilot.press("escape")
    return written


async def capture_narrow(project_root: Path, out: Path) -> list[Path]:
    """The Query view in the default 80×24 terminal."""
    from textual.widgets import Input

    from tierscope.api import Project, QueryOptions
    from tierscope.tui.app import TierscopeApp
    from tierscope.tui.widgets.query_form import QueryForm

    app = TierscopeApp(Project(project_root))
    async with app.run_test(size=NARROW) as pilot:
        for field in app.screen.query(Input):
            field.cursor_blink = False
        form = app.screen.query_one(QueryForm)
        form.load(QueryOptions(text=QUERY, budget=400))
        form.submit()
        await settle(pilot)
        app.save_screenshot(filename="query-80x24.svg", path=str(out))
    return [out / "query-80x24.svg"]


def log_queries_on(day: date) -> None:
    """The queries run for the pictures are logged on the demo's "today", whatever the
    calendar says: the Trajectories view opens the newest day, which must be the demo's."""
    from tierscope.trajectory import paths

    def todays_log_file(directory: Path, agent: str) -> Path:
        return paths.log_file(directory, agent, day)

    paths.todays_log_file = todays_log_file  # type: ignore[assignment]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(Path(__file__).resolve().parent))
    args = parser.parse_args()
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    home = Path.cwd()
    # A fixed place, so the path in each view's title bar is the same on every run and
    # regenerating changes an SVG only where the view itself changed.
    scratch = Path(tempfile.gettempdir()) / "tierscope-screenshots"
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir()
    try:
        # Never touch the user's remembered theme or user themes.
        os.environ["TIERSCOPE_CONFIG_HOME"] = str(scratch / "config")
        from tierscope.demo import materialise

        root = materialise(scratch / "harbor", today=SCREENSHOT_DAY)
        log_queries_on(SCREENSHOT_DAY)
        # From inside the project, the command line shown needs no --root.
        os.chdir(root)
        written = asyncio.run(capture_views(root, out, None))
        written += asyncio.run(capture_views(root, out, "tierscope-light"))
        written += asyncio.run(capture_narrow(root, out))
    finally:
        os.chdir(home)
        shutil.rmtree(scratch, ignore_errors=True)
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
