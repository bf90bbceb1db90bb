"""`tierscope index`: read every file the grep tier can search once and keep what each
holds (the term index), so a query on a large project reads only the files changed since.
`--status` says how current it is, `--remove` deletes it."""

from __future__ import annotations

import argparse
import json
import sys


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "index",
        help="build the term index, so the grep tier reads only files changed since",
        description="Read every file any scope's grep tier can search and keep, per file, "
        "its tokens and its size and times (in the user cache). A query then lists the "
        "scope's files, reads only those changed or added since, and counts the rest from "
        "the index: the same counts, without reading a large project at every query. Run "
        "it again when many files have changed (a query reading more than 500 files again "
        "scans as without an index, and says so).",
    )
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--status", action="store_true", help="how current the index is")
    action.add_argument("--remove", action="store_true", help="delete the index")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    parser.add_argument("--config", default=argparse.SUPPRESS, help="config file")
    parser.add_argument("--root", default=argparse.SUPPRESS, help="project root")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from tierscope.api import Project

    project = Project(getattr(args, "root", None), getattr(args, "config", None))
    if args.remove:
        return _remove(project, args.json)
    if args.status:
        return _status(project, args.json)
    return _build(project, args.json)


def _scopes(project):
    from tierscope.scopes import resolve_scope

    return [resolve_scope(name, project.config, project.root) for name in project.config.scopes]


def _build(project, as_json: bool) -> int:
    from tierscope.shutdown import requested
    from tierscope.terminal import printable
    from tierscope.tiers.term_index_build import ListingFailed, build_term_index

    try:
        built = build_term_index(
            project.root,
            project.config,
            _scopes(project),
            project.private_paths(),
            should_stop=requested,
        )
    except (ListingFailed, OSError, ValueError) as exc:
        print(f"tierscope: cannot build the term index: {printable(str(exc))}", file=sys.stderr)
        return 1
    if built is None:
        print("tierscope: stopped; the term index is as it was", file=sys.stderr)
        return 1
    if as_json:
        print(json.dumps({"path": built.path, **_built_dict(built)}, indent=2))
        return 0
    print(
        f"indexed {built.files:,} files ({built.binary:,} binary, {built.unreadable:,} "
        f"unreadable), {built.bytes_read / 1e6:.1f} MB, {built.tokens:,} distinct tokens, "
        f"in {built.seconds:.1f} s"
    )
    if built.waited:
        print(
            f"waited {built.waited:.1f} s: files modified just before they were read "
            "(a change in the same clock tick would not show) were read again"
        )
    if built.racy:
        print(f"{built.racy:,} files changed while being read: read again at every query")
    if not built.listing_kept:
        print(
            "the listing of the files is not kept (ripgrep and tierscope's own walk list "
            "different files here, or files came or went while it was built): queries "
            "list them with ripgrep; the counts still come from the index"
        )
    print(f"index: {printable(built.path)} ({built.index_bytes / 1e6:.1f} MB)")
    return 0


def _built_dict(built) -> dict:
    return {
        "files": built.files,
        "binary": built.binary,
        "unreadable": built.unreadable,
        "racy": built.racy,
        "tokens": built.tokens,
        "bytes_read": built.bytes_read,
        "index_bytes": built.index_bytes,
        "seconds": round(built.seconds, 3),
        "waited": round(built.waited, 3),
        "listing_kept": built.listing_kept,
    }


def _status(project, as_json: bool) -> int:
    from tierscope.terminal import printable
    from tierscope.tiers.term_index import BrokenIndex, TermIndex, index_path
    from tierscope.tiers.term_index_build import ListingFailed, index_freshness

    path = index_path(project.root)
    try:
        index = TermIndex.open(path)
    except (FileNotFoundError, NotADirectoryError):
        report = {"path": path, "exists": False}
        message = "no term index: `tierscope index` builds one"
    except (BrokenIndex, OSError) as exc:
        report = {"path": path, "exists": True, "usable": False, "reason": str(exc)}
        message = f"the term index cannot be used ({exc}): `tierscope index` rebuilds it"
    else:
        with index:
            try:
                fresh = index_freshness(index, project, _scopes(project))
            except ListingFailed as exc:
                print(f"tierscope: {printable(str(exc))}", file=sys.stderr)
                return 1
        report = {"path": path, "exists": True, "usable": True, **fresh}
        message = (
            f"{fresh['files']:,} files indexed; {fresh['unchanged']:,} unchanged, "
            f"{fresh['changed']:,} changed or added, {fresh['gone']:,} gone"
        )
    if as_json:
        print(json.dumps(report, indent=2))
    else:
        print(printable(message))
        print(f"index: {printable(path)}")
    return 0


def _remove(project, as_json: bool) -> int:
    import contextlib
    import os

    from tierscope.terminal import printable
    from tierscope.tiers.cached_listing import FOLDERS_FOUND_SUFFIX
    from tierscope.tiers.term_index import index_path

    path = index_path(project.root)
    try:
        os.unlink(path)
        removed = True
    except FileNotFoundError:
        removed = False
    with contextlib.suppress(FileNotFoundError):  # what queries noted beside it
        os.unlink(path + FOLDERS_FOUND_SUFFIX)
    if as_json:
        print(json.dumps({"path": path, "removed": removed}))
    else:
        print(("removed " if removed else "no term index at ") + printable(path))
    return 0
