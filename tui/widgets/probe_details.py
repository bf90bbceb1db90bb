"""A tier probe's `details` in words, for the Doctor view.

Some details are the same for every scope (qmd's index file, the store's entry count) and
are shown once, with the tier; the rest belong to a scope (ck's index per path, the
collections a scope lacks)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

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


def own_details(details: Mapping[str, object], shared: Mapping[str, object]) -> dict:
    """`details` without those already shown once for the whole tier."""
    return {key: value for key, value in details.items() if key not in shared}
