"""`tierscope trajectory list | show | tail | compact`: the query logs, headless.

Exit 0 on success (an empty or missing directory included), 1 when a named file cannot
be found or read or compaction could not change a file, 2 for usage errors.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TypedDict

from .trajectory_output import entry_row, output_width, print_json_lines, print_table

POLL_SECONDS = 0.25


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--dir", help="trajectory directory (default: from config)")
    common.add_argument("--config", default=argparse.SUPPRESS, help="config file")
    common.add_argument("--root", default=argparse.SUPPRESS, help="project root")

    parser = subparsers.add_parser(
        "trajectory",
        help="list, show, follow and compact trajectory logs",
        description="The JSONL logs every query appends to (one file per agent and day).",
    )
    actions = parser.add_subparsers(dest="trajectory_action", metavar="ACTION", required=True)

    listing = actions.add_parser(
        "list", parents=[common], help="trajectory files: agent, date, size, lines"
    )
    listing.add_argument("--json", action="store_true", help="a JSON array")

    show = actions.add_parser("show", parents=[common], help="the lines of one file")
    show.add_argument("file", metavar="FILE", help="a path, or a file name inside the directory")
    show.add_argument("--agent", default="", help="only lines of this agent")
    show.add_argument("--phase", default="", help="only lines of this phase (intent, execute...)")
    show.add_argument("--text", default="", help="only lines containing this text")
    show.add_argument("--malformed", action="store_true", help="only malformed lines")
    show.add_argument("--json", action="store_true", help="one JSON object per line")

    tail = actions.add_parser("tail", parents=[common], help="newest lines of today's files")
    tail.add_argument("-f", "--follow", action="store_true", help="keep printing new lines")
    tail.add_argument("-n", "--lines", type=int, default=10, metavar="N", help="default 10")

    compact = actions.add_parser(
        "compact", parents=[common], help="gzip old files, delete old archives (retention)"
    )
    compact.add_argument("--dry-run", action="store_true", help="print the plan, change nothing")

    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    action = {"list": _list, "show": _show, "tail": _tail, "compact": _compact}
    try:
        return action[args.trajectory_action](args)
    except _NotADirectory as exc:
        _say(str(exc))
        return 1


def _say(message: str) -> None:
    from tierscope.terminal import printable

    print(f"tierscope trajectory: {printable(message)}", file=sys.stderr)


def _project_settings(args: argparse.Namespace):
    """(trajectory directory, config) for this invocation: --dir, else from config."""
    from tierscope.config.loader import load_config
    from tierscope.project import find_root
    from tierscope.trajectory.paths import default_dir

    root = find_root(getattr(args, "root", None))
    config = load_config(root, getattr(args, "config", None))
    directory = Path(args.dir).expanduser() if args.dir else default_dir(root, config)
    return directory, config


class _NotADirectory(Exception):
    """Something other than a directory stands where the logs should be."""


def _log_directory(args: argparse.Namespace):
    """Like `_project_settings`, but raises _NotADirectory (with what is there instead)
    so a file in the directory's place is not reported as "no files"."""
    from tierscope.trajectory.paths import directory_problem

    directory, config = _project_settings(args)
    problem = directory_problem(directory)
    if problem:
        raise _NotADirectory(problem)
    return directory, config


# -- list ----------------------------------------------------------------------------------


class _ListedFile(TypedDict):
    """One file as `trajectory list --json` gives it."""

    file: str
    path: str
    agent: str
    date: str
    size: int
    lines: int | None  # None when the file cannot be read to the end
    compressed: bool


def _list(args: argparse.Namespace) -> int:
    import orjson

    from tierscope.terminal import json_for_terminal, printable
    from tierscope.trajectory.line_count import count_lines
    from tierscope.trajectory.paths import list_logs

    directory, _config = _log_directory(args)
    rows: list[_ListedFile] = []
    for info in list_logs(directory):
        try:
            lines: int | None = count_lines(info.path)
        except (OSError, EOFError):
            lines = None
        rows.append(
            {
                "file": info.path.name,
                "path": str(info.path),
                "agent": info.agent,
                "date": info.day.isoformat() if info.day else "",
                "size": info.size,
                "lines": lines,
                "compressed": info.compressed,
            }
        )
    if args.json:
        print(json_for_terminal(orjson.dumps(rows, option=orjson.OPT_INDENT_2).decode()))
        return 0
    if not rows:
        _say(f"no trajectory files in {directory}")
        return 0
    print(printable(str(directory)))
    print(f"{'AGENT':<24} {'DATE':<10} {'SIZE':>9} {'LINES':>8} {'GZ':<2}  FILE")
    for row in rows:
        counted = "?" if row["lines"] is None else str(row["lines"])
        gz = "gz" if row["compressed"] else ""
        print(
            f"{printable(row['agent']) or '-':<24} {row['date'] or '-':<10} "
            f"{_size(row['size']):>9} {counted:>8} {gz:<2}  {printable(row['file'])}"
        )
    return 0


def _size(size: float) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{size} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return str(size)


# -- show ----------------------------------------------------------------------------------


def _show(args: argparse.Namespace) -> int:
    from tierscope.trajectory.filters import EntryFilter
    from tierscope.trajectory.index import LineIndex

    directory = None if Path(args.file).expanduser().is_file() else _project_settings(args)[0]
    path = _resolve_file(args.file, directory)
    if path is None:
        where = f" (looked in {directory})" if directory else ""
        _say(f"no trajectory file {args.file}{where}")
        return 1
    try:
        index = LineIndex(path)
    except OSError as exc:
        _say(f"cannot read {path}: {exc.strerror or exc}")
        return 1
    wanted = EntryFilter(args.agent, args.phase, args.text, args.malformed)
    with index:
        index.build()
        if index.problem:
            _say(f"{path}: {index.problem}")
        if args.json:
            print_json_lines(index, wanted)
        else:
            print_table(index, wanted)
    return 0


def _resolve_file(name: str, directory: Path | None) -> Path | None:
    given = Path(name).expanduser()
    if given.is_file():
        return given
    if directory is None:
        return None
    for candidate in (name, f"{name}.jsonl", f"{name}.jsonl.gz"):
        path = directory / candidate
        if path.is_file():
            return path
    return None


# -- tail ----------------------------------------------------------------------------------


def _tail(args: argparse.Namespace) -> int:
    directory, _config = _log_directory(args)
    follower = _TodayFollower(directory)
    try:
        follower.open_new_files()
        if not follower.indexes and not args.follow:
            _say(f"no trajectory files for today in {directory}")
            return 0
        follower.print_last(max(args.lines, 0))
        while args.follow:
            time.sleep(POLL_SECONDS)
            follower.print_new()
    except KeyboardInterrupt:
        pass
    finally:
        follower.close()
    return 0


class _TodayFollower:
    """Today's files of a directory, printing each complete line once, in time order."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.indexes: list = []
        self.printed: list[int] = []
        self.width = output_width()

    def open_new_files(self) -> list[int]:
        """Open today's files not yet followed (a new agent, or a new day); their ids."""
        from datetime import UTC, date, datetime

        from tierscope.trajectory.index import LineIndex
        from tierscope.trajectory.paths import list_logs

        today = {date.today(), datetime.now(UTC).date()}
        known = {index.path for index in self.indexes}
        opened = []
        for info in list_logs(self.directory):
            if info.day in today and not info.compressed and info.path not in known:
                try:
                    index = LineIndex(info.path)
                except OSError:
                    continue
                index.build()
                self.indexes.append(index)
                self.printed.append(0)
                opened.append(len(self.indexes) - 1)
        return opened

    def print_last(self, count: int) -> None:
        pending = self._unprinted()
        self._emit(pending[len(pending) - count :] if count else [])

    def print_new(self) -> None:
        self.open_new_files()
        for which, index in enumerate(self.indexes):
            if index.refresh().reset:
                self.printed[which] = 0
        self._emit(self._unprinted())

    def _unprinted(self) -> list[tuple[float, int, int]]:
        lines = [
            (index.timestamp(i), which, i)
            for which, index in enumerate(self.indexes)
            for i in range(self.printed[which], index.complete_lines)
        ]
        lines.sort()
        for which, index in enumerate(self.indexes):
            self.printed[which] = index.complete_lines
        return lines

    def _emit(self, lines: list[tuple[float, int, int]]) -> None:
        out = sys.stdout
        for _time, which, i in lines:
            out.write(entry_row(self.indexes[which].line(i), self.width) + "\n")
        out.flush()

    def close(self) -> None:
        for index in self.indexes:
            index.close()


# -- compact -------------------------------------------------------------------------------


def _compact(args: argparse.Namespace) -> int:
    from tierscope.terminal import printable
    from tierscope.trajectory.compact import (
        DELETE,
        DONE,
        FAILED,
        GZIP,
        KEEP,
        SKIP,
        apply_compaction,
        plan_compaction,
    )

    directory, config = _log_directory(args)
    if not directory.is_dir():
        _say(f"nothing to compact: {directory} does not exist")
        return 0
    plan = plan_compaction(directory, config.trajectory)
    kept = sum(1 for action in plan.actions if action.action == KEEP)
    if args.dry_run:
        for action in plan.actions:
            if action.action != KEEP:
                print(printable(f"would {action.action:<6} {action.path.name}  ({action.reason})"))
        print(f"{len(plan.changes)} to change, {kept} kept; dry run: nothing changed")
        return 0
    for action in plan.actions:
        if action.action == SKIP:
            print(printable(f"skip    {action.path.name}  ({action.reason})"))
    past = {GZIP: "gzipped", DELETE: "deleted"}
    outcomes = apply_compaction(plan)
    for outcome in outcomes:
        name = outcome.action.path.name
        if outcome.status == FAILED:
            _say(f"could not {outcome.action.action} {name}: {outcome.message}")
        elif outcome.status == DONE:
            print(printable(f"{past[outcome.action.action]:<7} {name}  ({outcome.action.reason})"))
        else:
            print(printable(f"skip    {name}  ({outcome.message})"))
    changed = sum(1 for outcome in outcomes if outcome.status == DONE)
    print(f"{changed} changed, {kept} kept")
    return 1 if any(outcome.status == FAILED for outcome in outcomes) else 0
