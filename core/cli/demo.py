"""`tierscope demo`: copy the bundled demo project somewhere writable and open the
workbench on it (or, with --print, run a few example queries headless).

When `qmd` is on PATH, the copy's scopes get their qmd collections in a project-local
index (`.qmd/` inside the copy), so the queries are served by qmd without touching the
user's own qmd index."""

from __future__ import annotations

import argparse
import shlex
import shutil
import sys
from pathlib import Path

EXAMPLE_QUERIES = (
    ("token budget", "grimoires", None),
    ("rollback deployment", "all", "implement"),
    ("timeout fallback", "notes", "gate-0"),
)


def default_demo_dir() -> Path:
    from tierscope.project import user_dir

    return user_dir("cache") / "demo-project"


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="open the workbench on a copy of the bundled demo project",
        description="Copy the bundled demo project (default: the user cache dir) and open "
        "the workbench on it. An existing copy is reused unless --fresh is given. With qmd "
        "on PATH, the collections the demo's scopes name are created in a project-local "
        "qmd index (.qmd/ in the copy); the user's own qmd index is never touched.",
    )
    parser.add_argument("dir", nargs="?", help="where to put the copy")
    parser.add_argument("--fresh", action="store_true", help="recreate the copy")
    parser.add_argument(
        "--print",
        dest="print_only",
        action="store_true",
        help="run example queries with --explain instead of opening the workbench",
    )
    parser.set_defaults(handler=run)


def prepare_copy(dest: Path, fresh: bool) -> Path:
    """The demo copy at `dest`, made (or remade with `fresh`) when needed."""
    from tierscope.demo import materialise

    if fresh and dest.exists():
        shutil.rmtree(dest)
    if dest.exists() and any(dest.iterdir()):
        return dest
    return materialise(dest)


def run(args: argparse.Namespace) -> int:
    dest = Path(args.dir).expanduser().resolve() if args.dir else default_demo_dir()
    try:
        root = prepare_copy(dest, args.fresh)
    except (OSError, ValueError) as exc:
        print(f"tierscope: cannot prepare the demo in {dest}: {exc}", file=sys.stderr)
        return 1
    notices = [f"demo project: {root}"]
    qmd_note = _prepare_qmd(root)
    if qmd_note:
        notices.append(qmd_note)
    for notice in notices:
        print(notice, file=sys.stderr)
    if args.print_only:
        return _print_examples(root)
    from tierscope.cli import open_workbench

    args.root = str(root)
    args.config = None
    # The workbench covers the terminal: it shows these itself.
    args.notices = notices
    return open_workbench(args)


def _prepare_qmd(root: Path) -> str | None:
    """Set up the demo's qmd collections; what there is to say about it."""
    from tierscope.demo.qmd_setup import ensure_collections

    return ensure_collections(root).note()


def _print_examples(root: Path) -> int:
    from tierscope.cli import main

    for text, scope, skill in EXAMPLE_QUERIES:
        argv = ["query", text, "--scope", scope, "--explain"]
        if skill:
            argv += ["--skill", skill]
        print(f"$ cd {shlex.quote(str(root))} && tierscope {shlex.join(argv)}", flush=True)
        main([*argv, "--root", str(root)])
        print()
    return 0
