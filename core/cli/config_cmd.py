"""`tierscope config path|show|validate|set|unset`: which config applies, the effective
settings and their origins, every problem with file:line, and key-by-key edits through
the same validating, comment-preserving, atomic writer the workbench uses."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tierscope.config.model import ConfigProblem, ConfigSource

NEW_CONFIG_NAME = ".tierscope.yaml"


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "config",
        help="show, check and edit the qmd_context settings",
        description="Show, check and edit the qmd_context section of the config file. "
        "Keys are dotted paths under qmd_context, e.g. scopes.docs.grep_paths.",
    )
    # As in every other command, --root and --config may follow the action too.
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--root", default=argparse.SUPPRESS, help="project root")
    common.add_argument("--config", default=argparse.SUPPRESS, help="config file")
    actions = parser.add_subparsers(dest="config_action", metavar="ACTION", required=True)
    actions.add_parser("path", parents=[common], help="which config file applies, and why that one")

    show = actions.add_parser(
        "show", parents=[common], help="effective settings and where each value came from"
    )
    show.add_argument("--json", action="store_true", help="print one JSON object")
    show.add_argument("--skill", help="apply this skill's overrides")
    show.add_argument("--scope", help="as if given to `query --scope`")
    show.add_argument("--budget", type=_positive_int, help="as if given to `query --budget`")
    show.add_argument("--timeout", type=_positive_float, help="as if given to `query --timeout`")

    actions.add_parser(
        "validate",
        parents=[common],
        help="list every problem (file:line); exit 1 if any is an error",
    )

    set_parser = actions.add_parser(
        "set", parents=[common], help="set a key (the value is read as YAML)"
    )
    set_parser.add_argument(
        "key", metavar="KEY", help="dotted key, e.g. skill_overrides.implement.budget"
    )
    set_parser.add_argument(
        "value", metavar="VALUE", help="YAML value, e.g. 3000, true, '[\"docs/\"]'"
    )

    unset = actions.add_parser("unset", parents=[common], help="remove a key")
    unset.add_argument("key", metavar="KEY", help="dotted key, e.g. scopes.docs")
    parser.set_defaults(handler=run)


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text!r}")
    return value


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text!r}")
    return value


def _warn(message: str) -> None:
    print(f"tierscope: {_printable(message)}", file=sys.stderr)


def _printable(text: str) -> str:
    from tierscope.terminal import printable

    # Config values, keys and file names are untrusted: no raw control characters.
    return printable(text)


def run(args: argparse.Namespace) -> int:
    from tierscope.config.loader import discover_config
    from tierscope.project import find_root

    root = find_root(getattr(args, "root", None))
    source = discover_config(root, getattr(args, "config", None))
    action = args.config_action
    if action == "path":
        return _path(source, root)
    if action == "show":
        return _show(args, root)
    if action == "validate":
        return _validate(source, root)
    target = source.path or root / NEW_CONFIG_NAME
    return _edit(args, target, root)


def _path(source: ConfigSource, root: Path) -> int:
    if source.path is None:
        print(source.reason)
        print(_printable(f"  `config set` would create {root / NEW_CONFIG_NAME}"))
        return 0
    print(_printable(str(source.path)))
    print(_printable(f"  why: {source.reason}"))
    if not source.path.exists():
        print("  (does not exist yet; `config set` creates it)")
    return 0


def _show(args: argparse.Namespace, root: Path) -> int:
    from tierscope.api import Project, QueryOptions
    from tierscope.config.provenance import effective_settings

    project = Project(root, getattr(args, "config", None))
    options = QueryOptions(
        text="-", scope=args.scope, budget=args.budget, timeout=args.timeout, skill=args.skill
    )
    prepared = project.prepare(options)
    for warning in prepared.warnings:
        _warn(warning)
    explicit = [name for name in ("scope", "budget", "timeout") if getattr(args, name) is not None]
    provenance = effective_settings(project.config, prepared.request, explicit=explicit, root=root)
    config = project.config
    if args.json:
        document = {
            "root": str(root),
            "config": {
                "path": str(config.source.path) if config.source.path else None,
                "reason": config.source.reason,
            },
            "skill": provenance.skill,
            "override": provenance.override_name,
            "settings": {
                setting.key: {
                    "value": setting.value,
                    "origin": setting.origin,
                    "where": setting.where,
                }
                for setting in provenance.settings
            },
            "problems": [str(problem) for problem in config.problems],
        }
        print(json.dumps(document, indent=2))
        return 0
    location = config.source.path or "none"
    print(_printable(f"config  {location} ({config.source.reason})"))
    print(_printable(f"root    {root}"))
    if provenance.skill:
        matched = (
            f"skill_overrides.{provenance.override_name}"
            if provenance.override_name
            else "no override"
        )
        print(_printable(f"skill   {provenance.skill} ({matched})"))
    print()
    width = max(len(setting.key) for setting in provenance.settings)
    origin_width = max(len(setting.origin) for setting in provenance.settings)
    for setting in provenance.settings:
        where = f"  ({setting.where})" if setting.where else ""
        value = _display(setting.value)
        line = f"{setting.key:<{width}}  {setting.origin:<{origin_width}}  {value}{where}"
        print(_printable(line))
    if config.problems:
        count = _count(len(config.problems), "problem")
        print(f"\n{count} in the config; see `tierscope config validate`")
    return 0


def _display(value: object) -> str:
    if isinstance(value, str):
        return value if value else '""'
    if isinstance(value, list):
        return ", ".join(_display(item) for item in value) if value else "[]"
    return json.dumps(value)


def _validate(source: ConfigSource, root: Path) -> int:
    from tierscope.config.loader import read_config_text, unreadable_reason
    from tierscope.config.validate import validate

    if source.path is None:
        print(f"{source.reason}: nothing to validate")
        return 0
    try:
        text = read_config_text(source.path, root)
    except FileNotFoundError:
        print(_printable(f"{source.path}: error: file not found ({source.reason})"))
        return 1
    except OSError as exc:
        print(_printable(f"{source.path}: error: {unreadable_reason(exc)}"))
        return 1
    problems = validate(text, root, source.path)
    for problem in problems:
        print(_printable(_format_problem(problem)))
    errors = sum(problem.severity == "error" for problem in problems)
    warnings = len(problems) - errors
    if not problems:
        print(_printable(f"{source.path}: no problems"))
    else:
        print(f"{_count(errors, 'error')}, {_count(warnings, 'warning')}")
    return 1 if errors else 0


def _format_problem(problem: ConfigProblem) -> str:
    where = problem.file
    if problem.line is not None:
        where = f"{where}:{problem.line}"
    key = f"{problem.key}: " if problem.key else ""
    return f"{where}: {problem.severity}: {key}{problem.message}"


def _count(number: int, noun: str) -> str:
    from tierscope.models import noun_for

    return f"{number} {noun_for(number, noun)}"


def _edit(args: argparse.Namespace, target: Path, root: Path) -> int:
    from tierscope.config.config_file import edit_lock, write_target
    from tierscope.config.edit_errors import ConfigEditError

    try:
        written = write_target(target)
    except ConfigEditError as exc:
        _warn(f"cannot edit {target}: {exc}")
        return 1
    # Read, edit and save under one lock: parallel `config set`s of different keys then
    # each see the others' changes, and none is lost or refused as a conflict.
    with edit_lock(written):
        return _edit_locked(args, target, root)


def _edit_locked(args: argparse.Namespace, target: Path, root: Path) -> int:
    from tierscope.config.document import ConfigDocument, parse_value
    from tierscope.config.edit_errors import ConfigConflict, ConfigEditError
    from tierscope.config.validate import validate

    try:
        document = ConfigDocument.load(target)
    except OSError as exc:
        _warn(f"cannot read {target}: {exc.strerror}")
        return 1
    try:
        before = validate(document, root)
        if args.config_action == "set":
            document.set(args.key, parse_value(args.value))
        elif not document.unset(args.key):
            _warn(f"{args.key} is not set in {target}; nothing to do")
            return 0
    except ConfigEditError as exc:
        line = f" (line {exc.line})" if exc.line is not None else ""
        _warn(f"cannot edit {target}{line}: {exc}")
        return 1
    if not document.changed:
        _warn(f"{args.key} already has that value; {target} unchanged")
        return 0
    after = validate(document, root)
    known = {(problem.key, problem.message) for problem in before}
    introduced = [problem for problem in after if (problem.key, problem.message) not in known]
    errors = [problem for problem in introduced if problem.severity == "error"]
    if errors:
        for problem in errors:
            _warn(_format_problem(problem))
        _warn(f"not written: the change would introduce {_count(len(errors), 'error')}")
        return 1
    for problem in introduced:
        _warn(_format_problem(problem))
    diff = document.diff()
    created = not document.exists
    try:
        document.save()
    except ConfigConflict as exc:
        _warn(f"not written: {exc}")
        return 1
    except OSError as exc:
        _warn(f"cannot write {target}: {exc.strerror or exc}")
        return 1
    from tierscope.terminal import printable

    sys.stdout.write(printable(diff, keep_newlines=True))
    if created:
        _warn(f"created {target}")
    return 0
