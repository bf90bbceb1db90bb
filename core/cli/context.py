"""`tierscope context write|read|prune`: the context store from the shell (seed 002's
write_context / read_context, plus pruning). Exit 0 on success, 1 when the input or the
store is refused (one line on stderr), 2 for command-line usage errors."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from tierscope.store.context_types import CONTEXT_TYPES, entries_in_prose, types_listed

if TYPE_CHECKING:
    from tierscope.store.entries import ReadFilters, ReadResult

TYPES_HELP = types_listed()


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "context",
        help="write, read and prune the context store",
        description=f"The project's context store: {entries_in_prose()} shared by every "
        "skill of a run.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)

    write = actions.add_parser("write", help="append one entry to the current run")
    write.add_argument(
        "--type", required=True, type=_entry_type, metavar="TYPE", help=f"one of {TYPES_HELP}"
    )
    content = write.add_mutually_exclusive_group(required=True)
    content.add_argument("--content", metavar="TEXT", help="the content ('-' reads stdin)")
    content.add_argument("--content-file", metavar="FILE", help="read the content ('-': stdin)")
    write.add_argument("--task-id", help="associated task")
    write.add_argument("--loop-id", help="associated loop")
    write.add_argument("--file", help="associated file (stored root-relative)")
    write.add_argument("--line", type=int, help="associated line number")
    _add_common(write)

    read = actions.add_parser("read", help="list entries, filtered and searched")
    read.add_argument(
        "--type", dest="types", nargs="+", action="extend", type=_entry_type,
        metavar="TYPE", default=[], help=f"only these types ({TYPES_HELP})",
    )  # fmt: skip
    read.add_argument("--task-id", help="only entries of this task")
    read.add_argument("--loop-id", help="only entries of this loop")
    read.add_argument("--file", help="only entries about this file")
    read.add_argument("--search", metavar="TEXT", help="full-text search (plain words)")
    read.add_argument("--limit", type=_count, help="max entries (default: 500)")
    read.add_argument("--offset", type=_count, help="skip the first N entries")
    read.add_argument("--order", choices=("asc", "desc"), help="by time (default: desc)")
    read.add_argument("--all-runs", action="store_true", help="read every run")
    _add_common(read)

    prune = actions.add_parser("prune", help="keep only the newest entries of each type")
    prune.add_argument("--keep", type=_count, default=500, help="entries kept per type (500)")
    _add_common(prune)


def _add_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--run-id", help="the run (default: $TIERSCOPE_RUN_ID, else the session)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--config", default=argparse.SUPPRESS, help="config file")
    parser.add_argument("--root", default=argparse.SUPPRESS, help="project root")
    parser.set_defaults(handler=run)


def _entry_type(text: str) -> str:
    if text not in CONTEXT_TYPES:
        raise argparse.ArgumentTypeError(f"unknown type {text!r} (expected one of: {TYPES_HELP})")
    return text


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must not be negative: {value}")
    return value


class _Refused(Exception):
    """Input or store refused: printed as one line, exit 1."""


def run(args: argparse.Namespace) -> int:
    from tierscope.store.entries import EntryError
    from tierscope.store.store import StoreError

    action = {"write": _write, "read": _read, "prune": _prune}[args.action]
    try:
        return action(args)
    except (EntryError, StoreError, _Refused) as exc:
        from tierscope.terminal import printable

        print(f"tierscope context {args.action}: {printable(str(exc))}", file=sys.stderr)
        return 1


def _write(args: argparse.Namespace) -> int:
    from tierscope.store.entries import WriteRequest, project_file
    from tierscope.store.runs import current_run_id
    from tierscope.store.store import ContextStore

    root, path = _project(args)
    request = WriteRequest(
        run_id=current_run_id(args.run_id),
        type=args.type,
        content=_content(args),
        task_id=args.task_id,
        loop_id=args.loop_id,
        file=project_file(args.file, root, Path.cwd()) if args.file else None,
        line=args.line,
    )
    with ContextStore.open(path) as store:
        entry_id = store.write(request)
    if args.json:
        _print_json({"id": entry_id, "run_id": request.run_id, "type": request.type})
    else:
        print(f"wrote {request.type} #{entry_id} (run {request.run_id})")
    return 0


def _read(args: argparse.Namespace) -> int:
    from tierscope.store.entries import ReadFilters, ReadResult, project_file
    from tierscope.store.runs import current_run_id
    from tierscope.store.store import ContextStore

    if args.all_runs and args.run_id:
        raise _Refused("give --run-id or --all-runs, not both")
    root, path = _project(args)
    run_id = None if args.all_runs else current_run_id(args.run_id)
    filters = ReadFilters(
        run_id=run_id,
        types=tuple(dict.fromkeys(args.types)),
        task_id=args.task_id,
        loop_id=args.loop_id,
        file=project_file(args.file, root, Path.cwd()) if args.file else None,
        search=args.search,
        # Options left out take ReadFilters' defaults (limit 500, offset 0, order desc).
        **{
            name: getattr(args, name)
            for name in ("limit", "offset", "order")
            if getattr(args, name) is not None
        },
    )
    if path.is_file():
        with ContextStore.open(path, create=False) as store:
            result = store.read(filters)
    else:
        result = ReadResult((), 0)
    if args.json:
        _print_json(result.to_dict())
    else:
        _print_listing(result, filters)
    return 0


def _prune(args: argparse.Namespace) -> int:
    from tierscope.store.runs import current_run_id
    from tierscope.store.store import ContextStore

    _root, path = _project(args)
    run_id = current_run_id(args.run_id)
    deleted = 0
    if path.is_file():
        with ContextStore.open(path, create=False) as store:
            deleted = store.prune(run_id, args.keep)
    if args.json:
        _print_json({"run_id": run_id, "deleted": deleted, "keep": args.keep})
    else:
        print(f"pruned {deleted} entries from run {run_id} (kept the newest {args.keep} per type)")
    return 0


def _project(args: argparse.Namespace) -> tuple[Path, Path]:
    """The project root and its store's path, warning once about a broken config."""
    from tierscope.config.loader import load_config
    from tierscope.project import find_root
    from tierscope.store.location import store_path

    root = find_root(getattr(args, "root", None))
    config = load_config(root, getattr(args, "config", None))
    for problem in config.problems:
        if problem.severity == "error":
            from tierscope.terminal import printable

            print(f"tierscope: config {printable(str(problem))}", file=sys.stderr)
    return root, store_path(root, config)


def _content(args: argparse.Namespace) -> str:
    if args.content is not None and args.content != "-":
        return args.content
    source = args.content_file if args.content is None else "-"
    if source == "-" and sys.stdin is None:
        # Python sets sys.stdin to None when the process starts with fd 0 closed.
        raise _Refused("cannot read stdin: it is closed")
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except OSError as exc:
        raise _Refused(f"cannot read {source}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise _Refused(f"{source} is not UTF-8 text") from None
    # A file or a pipe ends with a newline that is not part of the entry.
    return text.rstrip("\r\n")


def _print_json(data: object) -> None:
    from tierscope.terminal import json_for_terminal

    print(json_for_terminal(json.dumps(data, ensure_ascii=False)))


def _print_listing(result: ReadResult, filters: ReadFilters) -> None:
    from tierscope.store.entries import readable_content
    from tierscope.terminal import printable

    # Entries are written by any skill of the run: never raw control characters.
    for entry in result.entries:
        where = [f"run {entry.run_id}"]
        if entry.task_id:
            where.append(f"task {entry.task_id}")
        if entry.loop_id:
            where.append(f"loop {entry.loop_id}")
        if entry.file:
            where.append(f"{entry.file}:{entry.line}" if entry.line else entry.file)
        print(printable(f"#{entry.id} {entry.created_at} {entry.type} ({', '.join(where)})"))
        for line in readable_content(entry).splitlines() or [""]:
            print(f"  {printable(line, keep_newlines=True)}")
    shown = len(result.entries)
    if shown:
        first = filters.offset + 1
        print(f"-- entries {first}-{filters.offset + shown} of {result.total}")
    elif result.total:
        print(f"-- no entries past offset {filters.offset} (of {result.total})")
    elif filters.run_id is not None:
        print(f"-- no entries in run {filters.run_id} (--all-runs reads every run)")
    else:
        print("-- no entries")
