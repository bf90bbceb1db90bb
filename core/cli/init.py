"""`tierscope init`: look at the project and write a starter `.tierscope.yaml` with scopes
that fit it (`docs`, `code`, `all`); `--qmd` also makes project-local qmd collections for
the documentation, `--dry-run` prints the file instead of writing it.

An existing config is never overwritten: the scopes it lacks are printed as a diff. The
file is created atomically and never through a symbolic link."""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import stat
import sys
from pathlib import Path

CONFIG_NAME = ".tierscope.yaml"
# From about this many files, a query's reading them all is most of its time.
LARGE_PROJECT_FILES = 5000
LOA_CONFIG_NAME = ".loa.config.yaml"


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "init",
        help="write a starter .tierscope.yaml with scopes for this project",
        description="Look at the project (documentation and source folders, qmd collections "
        "and ck indexes, an existing .loa.config.yaml) and write a commented starter "
        ".tierscope.yaml with scopes such as docs, code and all. An existing config is never "
        "overwritten: the scopes it lacks are printed as a diff (exit 1). Exit 0 once written.",
    )
    parser.add_argument("--dry-run", action="store_true", help="print the file; write nothing")
    parser.add_argument(
        "--qmd",
        action="store_true",
        help="also create project-local qmd collections for the docs scope (qmd installed)",
    )
    parser.add_argument("--root", default=argparse.SUPPRESS, help="project root")
    parser.set_defaults(handler=run)


def _out(text: str) -> None:
    from tierscope.terminal import printable

    # Folder and file names of the project are in the text: escaped for a terminal.
    print(printable(text, keep_newlines=True), end="" if text.endswith("\n") else "\n")


def _say(message: str) -> None:
    from tierscope.terminal import printable

    print(f"tierscope: {printable(message)}", file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    from tierscope.project import find_root
    from tierscope.project_survey import survey_project
    from tierscope.starter_collections import collections_to_create
    from tierscope.starter_config import plan_starter

    root = find_root(getattr(args, "root", None))
    survey = survey_project(root)
    existing = _existing_config(root)
    if existing is not None:
        if args.qmd:
            _say("--qmd: no collection made, since no config is written")
        return _propose_to_existing(existing, plan_starter(survey), args.dry_run)
    wanted = collections_to_create(survey) if args.qmd else {}
    if args.qmd and not wanted:
        _say(f"--qmd: no collection to make: {_nothing_to_index(survey)}")
    if args.dry_run:
        if wanted and shutil.which("qmd") is None:
            _say("--qmd: qmd is not installed, so no collection would be made")
            wanted = {}
        elif wanted:
            made = ", ".join(f"{name} ({c.folder})" for name, c in wanted.items())
            _say(f"--dry-run: would create the qmd collections {made} in .qmd/")
        _out(plan_starter(survey, wanted).text())
        _say(f"--dry-run: {CONFIG_NAME} not written")
        return 0
    created = _make_collections(root, wanted) if wanted else ()
    starter = plan_starter(survey, created)
    scopes = [s.name for s in starter.scopes]
    return _write(root / CONFIG_NAME, starter.text(), scopes, args, _file_count(survey))


def _file_count(survey) -> int:
    """The files the survey saw (machine data included)."""
    folders = sum(folder.files for folder in survey.folders)
    return folders + len(survey.top_docs) + len(survey.top_source_files)


def _nothing_to_index(survey) -> str:
    from tierscope.project_places import docs_places

    if survey.collections and not survey.qmd_project_local:
        names = ", ".join(c.name for c in survey.collections)
        return (
            f"qmd's own index ({survey.qmd_config}) has this project's collections ({names}), "
            "which a project-local index would hide; the docs scope names them"
        )
    folders, files = docs_places(survey)
    if not folders and not files:
        return "no documentation found"
    return "existing collections cover the documentation; the docs scope names them"


def _existing_config(root: Path) -> Path | None:
    """The project config init must leave alone: `.tierscope.yaml` if anything is there,
    else a `.loa.config.yaml` that holds tierscope's section (a new `.tierscope.yaml`
    would hide it, since it is read first)."""
    ours = root / CONFIG_NAME
    if os.path.lexists(ours):
        return ours
    loa = root / LOA_CONFIG_NAME
    if os.path.islink(loa):
        return loa
    if loa.is_file():
        from tierscope.config.document import ConfigDocument
        from tierscope.config.edit_errors import ConfigEditError

        try:
            document = ConfigDocument.load(loa)
            if document.section_text():
                return loa
        except (OSError, ConfigEditError):
            return loa
    return None


def _propose_to_existing(path: Path, starter, dry_run: bool) -> int:
    """Print the scopes `path` lacks as a diff; never write. Exit 1 (0 for a dry run)."""
    from tierscope.config.document import ConfigDocument
    from tierscope.config.edit_errors import ConfigEditError

    refused = 0 if dry_run else 1
    info = os.lstat(path)
    if stat.S_ISLNK(info.st_mode):
        _say(f"{path.name} is a symbolic link: init neither follows nor replaces it")
        return refused
    if not stat.S_ISREG(info.st_mode):
        _say(f"{path.name} exists and is not a regular file: not replaced")
        return refused
    try:
        document = ConfigDocument.load(path)
        for name, entry in starter.entries().items():
            if document.get(f"scopes.{name}") is None:
                document.set(f"scopes.{name}", entry)
    except (OSError, ConfigEditError) as exc:
        _say(f"{path.name} exists and could not be read as YAML ({exc}); not changed")
        return refused
    if not document.changed:
        names = ", ".join(starter.entries())
        _say(f"{path.name} already defines the scopes init would write ({names}); nothing to add")
        return 0
    if path.name == CONFIG_NAME:
        _say(f"{path.name} exists and is not overwritten; the scopes it lacks, as a diff:")
    else:
        _say(
            f"{path.name} holds the qmd_context settings tierscope reads here (a new "
            f"{CONFIG_NAME} would hide them); not changed. The scopes it lacks, as a diff:"
        )
    _out(document.diff())
    return refused


def _make_collections(root: Path, wanted) -> tuple[str, ...]:
    """Create the wanted qmd collections; the names that exist afterwards."""
    from tierscope.qmd_setup import ensure_collections

    setup = ensure_collections(root, wanted, again="tierscope init --qmd")
    note = setup.note()
    if note:
        _say(note)
    if setup.created:
        _say(f"keep {setup.index_dir.name}/ (qmd's index) out of version control")
    return (*setup.present, *setup.created)


def _write(target: Path, text: str, scopes: list[str], args: argparse.Namespace, files: int) -> int:
    from tierscope.config.document import ConfigDocument
    from tierscope.config.loader import discover_config

    try:
        ConfigDocument.from_text(text, target).create()
    except FileExistsError:
        _say(f"{target.name} appeared meanwhile; not replaced")
        return 1
    except OSError as exc:
        _say(f"cannot write {target}: {exc.strerror or exc}")
        return 1
    _out(f"wrote {target} with the scopes {', '.join(scopes)}")
    argv = ["tierscope", "query", "<a question>", "--scope", scopes[0]]
    if Path.cwd().resolve() != target.parent:
        argv += ["--root", str(target.parent)]
    _out(f"try: {shlex.join(argv)}")
    if files >= LARGE_PROJECT_FILES:
        _out(
            f"{files:,} files: `tierscope index` lets each query read only the files "
            "changed since, instead of all of them (README: The term index)"
        )
    source = discover_config(target.parent, getattr(args, "config", None))
    if source.path is not None and os.path.abspath(source.path) != str(target):
        _say(f"note: queries read {source.path} ({source.reason}), not {target.name}")
    return 0
