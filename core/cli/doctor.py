"""`tierscope doctor`: what each tier can do here, and why not."""

from __future__ import annotations

import argparse
import textwrap
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tierscope.doctor import DoctorReport, TierReport
    from tierscope.tiers.base import Probe

WIDTH = 100
LABEL_WIDTH = 15
TIER_INDENT = 13
SCOPE_INDENT = 14
# Where each tier looks in a scope, as named by `ResolvedScope.to_dict`.
PLACE_KEYS = {"qmd": "qmd_collections", "ck": "ck_paths", "grep": "grep_paths"}
NOWHERE = {"qmd": "no collection", "ck": "no ck path", "grep": "no existing path"}
STORE_PLACE = "every entry (not narrowed by scope)"


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "doctor",
        help="report each tier's state, scopes, indexes and config problems",
        description="For each tier: usable or not and why, tool path and version; for each "
        "scope its qmd collections (index freshness, embeddings), ck path and grep paths; "
        "models; the config file and its problems. Exit 0 unless the config is invalid.",
    )
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--config", default=argparse.SUPPRESS, help="config file")
    parser.add_argument("--root", default=argparse.SUPPRESS, help="project root")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import orjson

    from tierscope.api import Project
    from tierscope.doctor import diagnose
    from tierscope.terminal import json_for_terminal, printable

    report = diagnose(Project(args.root, args.config))
    if args.json:
        print(
            json_for_terminal(orjson.dumps(report.to_dict(), option=orjson.OPT_INDENT_2).decode())
        )
    else:
        # Paths, config values and tool output in the report are untrusted.
        print(printable(render(report), keep_newlines=True))
    return 1 if report.has_errors else 0


def render(report: DoctorReport, width: int = WIDTH) -> str:
    """The report for a terminal `width` columns wide: config, then each tier with what
    all its scopes share, then each scope with what every tier would search there."""
    root = Path(report.root)
    lines = _field("project", report.root, width)
    config = short_path(report.config_path, root) if report.config_path else "built-in defaults"
    lines += _field("config", f"{config} ({report.config_reason})", width)
    if not report.problems and not report.scope_problems:
        lines += _field("", "no problems", width)
    for problem in report.problems:
        lines += _field("", f"! {problem}", width)
    if report.has_errors:
        lines += _field("", "invalid: values with errors are ignored, defaults apply", width)
    for name, problem in report.scope_problems:
        lines += _field("", f"! scope {name}: {problem}", width)
    if report.hint:
        lines += _field("", report.hint, width)
    if report.unused:
        lines += _field("", report.unused_note(), width)
    if report.adapted:
        lines += _field("adapted", report.adapted, width)
    lines += ["", "tiers"]
    for tier in report.tiers:
        lines += _tier_lines(tier, root, width)
    lines += ["", "scopes"]
    for name, scope in report.used_scopes.items():
        lines.append(f"  {name}")
        resolved = scope.to_dict(root)
        for tier in report.tiers:
            probe = tier.by_scope.get(name)
            if tier.name in PLACE_KEYS or _differs(probe, tier):
                lines += _scope_tier_lines(tier, probe, resolved, root, width)
        for refused in scope.refused:
            lines += _wrap(f"! refused {refused.path}: {refused.reason}", 4, 6, width)
        for note in scope.notes:
            lines += _wrap(f"! {note}", 4, 6, width)
    return "\n".join(lines)


def _tier_lines(tier: TierReport, root: Path, width: int) -> list[str]:
    state = "usable" if tier.usable else "not usable"
    if not tier.enabled:
        state += ", not in tiers"
    head = f"  {_mark(tier.usable)}  {tier.name:<7}{state}: {tier.reason}"
    lines = _wrap(head, 0, TIER_INDENT, width)
    if tier.version:
        lines += _detail("version", tier.version, TIER_INDENT, root, width)
    if tier.path:
        lines += _detail("path", tier.path, TIER_INDENT, root, width)
    for key, value in tier.shared_details().items():
        lines += _detail(key, value, TIER_INDENT, root, width)
    return lines


def _scope_tier_lines(
    tier: TierReport, probe: Probe | None, resolved: dict, root: Path, width: int
) -> list[str]:
    usable = probe is not None and probe.usable
    head = f"    {tier.name:<6}{_mark(usable)}  {place(tier.name, resolved)}"
    lines = _wrap(head, 0, SCOPE_INDENT, width)
    if probe is None:
        return lines + _wrap("not checked", SCOPE_INDENT, SCOPE_INDENT + 2, width)
    if probe.reason != tier.reason:
        lines += _wrap(probe.reason, SCOPE_INDENT, SCOPE_INDENT + 2, width)
    shared = tier.shared_details()
    for key, value in probe.details.items():
        if key not in shared:
            lines += _detail(key, value, SCOPE_INDENT, root, width)
    return lines


def _differs(probe: Probe | None, tier: TierReport) -> bool:
    """Whether a scope has something of its own to say about a tier."""
    return (
        probe is None
        or probe.reason != tier.reason
        or bool(set(probe.details) - set(tier.shared_details()))
    )


def place(tier: str, resolved: Mapping[str, list[str]]) -> str:
    """What `tier` searches in a scope (`resolved` is `ResolvedScope.to_dict`)."""
    if tier == "store":
        return STORE_PLACE
    places = resolved.get(PLACE_KEYS.get(tier, ""), [])
    return ", ".join(places) if places else NOWHERE.get(tier, "-")


def _detail(key: str, value: object, indent: int, root: Path, width: int) -> list[str]:
    """A probe detail as `label  value` lines: nothing when empty, one line per entry of a
    mapping, one per item of a list of phrases, a comma-joined list of words otherwise."""
    if value in (None, "", [], (), {}):
        return []
    label = key.replace("_", " ").ljust(LABEL_WIDTH - 1)
    hang = indent + LABEL_WIDTH + 2
    if isinstance(value, Mapping):
        entries = [f"{k}: {_words(v, root)}" for k, v in value.items()]
    elif isinstance(value, list | tuple) and any(" " in str(item) for item in value):
        entries = [_words(item, root) for item in value]
    else:
        entries = [_words(value, root)]
    lines = []
    for index, entry in enumerate(entries):
        text = f"{label if index == 0 else ''.ljust(LABEL_WIDTH - 1)} {entry}"
        lines += _wrap(text, indent, hang, width)
    return lines


def _words(value: object, root: Path) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return ", ".join(_words(item, root) for item in value)
    if isinstance(value, str) and value.startswith("/"):
        return short_path(value, root)
    return str(value)


def short_path(path: str, root: Path) -> str:
    """Root-relative inside the project, `~/...` inside the home directory, else as is."""
    candidate = Path(path)
    for base, prefix in ((root, ""), (Path.home(), "~/")):
        try:
            relative = candidate.relative_to(base)
        except ValueError:
            continue
        return prefix + (relative.as_posix() if str(relative) != "." else "")
    return path


def _mark(usable: bool) -> str:
    return "ok" if usable else "--"


def _field(label: str, text: str, width: int) -> list[str]:
    return _wrap(f"{label:<9}{text}", 0, 9, width)


def _wrap(text: str, indent: int, hang: int, width: int) -> list[str]:
    """`text` wrapped to `width`, continuation lines indented by `hang`. Words (paths) are
    never split, so a single path longer than a line is the only thing that overruns."""
    return textwrap.wrap(
        text,
        width=width,
        initial_indent=" " * indent,
        subsequent_indent=" " * hang,
        break_long_words=False,
        break_on_hyphens=False,
    ) or [""]
