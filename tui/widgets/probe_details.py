"""A tier probe's `details` in words, for the Doctor view.

Some details are the same for every scope (qmd's index file, the store's entry count) and
are shown once, with the tier; the rest belong to a scope (ck's index per path, the
collections a scope lacks)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from tierscope.doctor import TierReport

from .short_path import short_path


def describe_value(value: object, root: Path | None = None) -> str:
    """A detail's value in words: yes/no, comma-separated lists, `key value` pairs, paths
    shortened (root-relative, or `~/`)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "-"
    if isinstance(value, Mapping):
        return ", ".join(f"{key} → {describe_value(item, root)}" for key, item in value.items())
    if isinstance(value, list | tuple | set | frozenset):
        return ", ".join(describe_value(item, root) for item in value)
    if isinstance(value, str) and value.startswith("/"):
        return short_path(value, root)
    return str(value)


def detail_lines(details: Mapping[str, object], root: Path | None = None) -> list[str]:
    """One `name: value` line per detail; empty ones (an empty `missing` list) left out."""
    return [
        f"{key.replace('_', ' ')}: {describe_value(value, root)}"
        for key, value in details.items()
        if value not in (None, "", [], (), {})
    ]


def shared_details(tier: TierReport) -> dict[str, object]:
    """The details that every scope reporting them gives the same value, when more than
    one scope reports them (or the tier has a single scope). A scope whose probe failed
    early reports no details, so it does not make a shared detail scope-specific."""
    probes = list(tier.by_scope.values())
    values: dict[str, list[object]] = {}
    for probe in probes:
        for key, value in probe.details.items():
            values.setdefault(key, []).append(value)
    return {
        key: reported[0]
        for key, reported in values.items()
        if (len(reported) > 1 or len(probes) == 1)
        and all(value == reported[0] for value in reported)
    }


def own_details(details: Mapping[str, object], shared: Mapping[str, object]) -> dict:
    """`details` without those already shown once for the whole tier."""
    return {key: value for key, value in details.items() if key not in shared}
