"""`tierscope doctor`: what each tier can do here, and why not."""

from __future__ import annotations

import argparse
from pathlib import Path


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "doctor",
        help="report each tier's state, scopes, indexes and config problems",
        description="For each tier: usable or not and why, tool path and version; for each "
        "scope its collection / ck path / grep paths; config file and its problems. "
        "Exit 0 unless the config is invalid.",
    )
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--config", default=argparse.SUPPRESS, help="config file")
    parser.add_argument("--root", default=argparse.SUPPRESS, help="project root")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import orjson
    from tierscope.api import Project
    from tierscope.doctor import diagnose

    report = diagnose(Project(args.root, args.config))
    if args.json:
        print(orjson.dumps(report.to_dict(), option=orjson.OPT_INDENT_2).decode())
    else:
        print(render(report))
    return 1 if report.has_errors else 0


def render(report) -> str:
    lines = [f"project  {report.root}"]
    config = report.config_path or "built-in defaults"
    lines.append(f"config   {config} ({report.config_reason})")
    for problem in report.problems:
        lines.append(f"  ! {problem}")
    lines.append("")
    lines.append("tiers")
    for tier in report.tiers:
        mark = "ok " if tier.usable else "-- "
        state = "usable" if tier.usable else "not usable"
        if not tier.enabled:
            state += " (not in tiers)"
        version = f"  [{tier.version}]" if tier.version else ""
        lines.append(f"  {mark}{tier.name:<6} {state}: {tier.reason}{version}")
        if tier.path:
            lines.append(f"         path {tier.path}")
        for scope, probe in tier.by_scope.items():
            if probe.usable != tier.usable or probe.reason != tier.reason:
                flag = "ok" if probe.usable else "--"
                lines.append(f"         {flag} {scope}: {probe.reason}")
    lines.append("")
    lines.append("scopes")
    for name, scope in report.scopes.items():
        resolved = scope.to_dict(Path(report.root))
        lines.append(f"  {name}")
        lines.append(f"    qmd   {', '.join(resolved['qmd_collections']) or '-'}")
        lines.append(f"    ck    {', '.join(resolved['ck_paths']) or '-'}")
        lines.append(f"    grep  {', '.join(resolved['grep_paths']) or '-'}")
        for refused in resolved["refused"]:
            lines.append(f"    ! refused {refused['reason']}")
        for note in resolved["notes"]:
            lines.append(f"    note: {note}")
    return "\n".join(lines)
