"""Rows of a query set whose scope never searches any of their expected files: a gap in
the config (or a file tierscope leaves out on purpose), which would otherwise read as a
ranking miss."""

from __future__ import annotations

from pathlib import Path

from ..api import Project
from ..files import Unreadable, read_text_file
from ..filtering import ContextFilter
from ..models import ResolvedScope
from ..project_walk import why_not_walked
from ..ranking.machine_data import machine_data_kind
from ..scopes import included
from .queryset import KnownItemQuery


def not_searched(project: Project, query: KnownItemQuery, scope: ResolvedScope) -> list[str]:
    """One problem per expected file when none of them is searched by `scope`: outside it
    (not under its grep paths, or left out by its include globs), or left out of it
    (ignored, vendored, machine data, excluded by the config). None when one is searched."""
    problems = []
    for source in query.expected:
        reason = _why_not_searched(project, source, scope)
        if reason is None:
            return []
        problems.append(f"line {query.line}: expected file {source} {reason}")
    return problems


def _why_not_searched(project: Project, source: str, scope: ResolvedScope) -> str | None:
    root = project.root
    path = root / source
    places = [place for place in scope.grep_paths if path == place or place in path.parents]
    if not places or not included(source, scope.include):
        return f"is outside scope {scope.name}"
    reason = _left_out(project, source, path, places)
    return None if reason is None else f"is left out of scope {scope.name}: {reason}"


def _left_out(project: Project, source: str, path: Path, places: list[Path]) -> str | None:
    filtering = project.config.filtering
    reason = ContextFilter(project.root, filtering, project.private_paths()).reason_to_exclude(
        source
    )
    if reason is None:
        walked = [
            why_not_walked(
                path,
                place,
                project.root,
                include_ignored=filtering.include_ignored,
                machine_data=filtering.include_machine_data,
            )
            for place in places
        ]
        if all(walked):
            reason = walked[0]
    if reason is None and not filtering.include_machine_data:
        try:
            text = read_text_file(path, project.root, project.config.grep.max_filesize).text
        except Unreadable:
            return None  # reported as unreadable already
        kind = machine_data_kind(text)
        if kind:
            reason = f"machine data ({kind})"
    return reason
