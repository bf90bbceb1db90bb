"""What a qmd query would use, found without starting qmd: the binary, qmd's files, the
scope's collections (from qmd's own index.yml), the mode a query can run in, and how each
collection's index compares with its files (the doctor's material)."""

from __future__ import annotations

import os
import shlex
from dataclasses import dataclass, replace
from pathlib import Path

from ..executables import find_executable
from .base import TierRequest, not_installed
from .qmd_index import (
    Collection,
    Freshness,
    QmdLocations,
    Registry,
    embedding_gap,
    locate,
    model_state,
    read_registry,
)

NOT_INSTALLED = not_installed("qmd")
MODES = ("search", "query")
# How many stale file names a probe lists; the counts are always complete.
STALE_FILES_SHOWN = 20


@dataclass(frozen=True, slots=True)
class QmdPlan:
    """What a query would use: the binary, qmd's files, and the scope's collections."""

    binary: str | None
    locations: QmdLocations
    registry: Registry
    collections: tuple[Collection, ...] = ()
    missing: tuple[str, ...] = ()
    unavailable: str = ""  # why the tier cannot run at all ("" = it can)
    index_missing: bool = False


def plan_for(request: TierRequest) -> QmdPlan:
    """Resolve the scope's collections from qmd's own config, without starting qmd."""
    locations = locate(request.root)
    binary = find_executable("qmd")
    if binary is None:
        return QmdPlan(None, locations, Registry(), unavailable=NOT_INSTALLED)
    registry = read_registry(locations.config_file)
    names = request.scope.qmd_collections
    if not names:
        reason = f"scope {request.scope.name} has no qmd collection"
        return QmdPlan(binary, locations, registry, unavailable=reason)
    if registry.problem:
        # Unknown until qmd itself is asked (`qmd collection show`).
        return QmdPlan(binary, locations, registry)
    found = tuple(
        rooted(registry.collections[n], request.root) for n in names if n in registry.collections
    )
    missing = tuple(n for n in names if n not in registry.collections)
    unavailable = "" if found else not_found(missing)
    index_missing = not locations.index_file.is_file()
    return QmdPlan(binary, locations, registry, found, missing, unavailable, index_missing)


def rooted(collection: Collection, root: Path) -> Collection:
    """The collection with a relative path resolved as qmd resolves it when the tier runs
    it: against its working directory, the project root."""
    if collection.root.expanduser().is_absolute():
        return replace(collection, root=collection.root.expanduser())
    return replace(collection, root=root / collection.root)


def mode_decision(
    configured: str, plan: QmdPlan, collections: tuple[Collection, ...]
) -> tuple[str | None, str]:
    """The mode a query runs in (None for an unknown mode) and, when it is not the
    configured one, why: a hybrid `query` needs every model and every embedding, and
    without them it would hang or rank by vectors that do not exist."""
    if configured not in MODES:
        return None, ""
    if configured == "search":
        return configured, ""
    models = model_state(plan.locations, plan.registry)
    if not models.complete:
        which = f"missing {', '.join(models.missing)}"
        if len(models.missing) == models.total:
            which = "none"
        return "search", f"hybrid query needs models ({which} in {models.models_dir})"
    gap = embedding_gap(plan.locations.index_file, [c.name for c in collections])
    if gap is not None and gap[0]:
        return "search", f"{gap[0]} of {gap[1]} documents have no embeddings (run qmd embed)"
    return configured, ""


def creation_hint(name: str, request: TierRequest) -> str:
    """The command that creates a missing collection, run in the project root: its folder
    guessed from the scope's own paths when the scope has one collection."""
    folder = "<folder>"
    if len(request.scope.qmd_collections) == 1:
        candidates = (*request.scope.ck_paths, *request.scope.grep_paths)
        directories = [p if p.is_dir() else p.parent for p in candidates if p.exists()]
        if directories:
            relative = os.path.relpath(directories[0], request.root)
            folder = shlex.quote(Path(relative).as_posix())
    return f"qmd collection add {folder} --name {shlex.quote(name)} (in the project root)"


def describe_index(collection: Collection, freshness: Freshness) -> str:
    """One collection's index in words: up to date, how far behind, or why unknown."""
    if not collection.root.is_dir():
        return f"folder {collection.root} is missing (moved or deleted?)"
    if freshness.problem:
        return f"not checked: {freshness.problem}"
    if freshness.behind:
        noun = "file" if freshness.behind == 1 else "files"
        return f"{freshness.behind} {noun} behind ({freshness.describe()})"
    if freshness.method == "mtimes":
        return "up to date (judged by file times: the index schema is unknown)"
    noun = "document" if freshness.indexed == 1 else "documents"
    return f"up to date ({freshness.indexed} {noun})"


def stale_files(results: list[Freshness]) -> list[str]:
    """`<collection>: <change> <path>` for the first stale files, then how many more."""
    lines = [
        f"{r.collection}: {label} {path}"
        for r in results
        for label, paths in (("changed", r.changed), ("added", r.added), ("removed", r.removed))
        for path in paths
    ]
    if len(lines) <= STALE_FILES_SHOWN:
        return lines
    return [*lines[:STALE_FILES_SHOWN], f"... and {len(lines) - STALE_FILES_SHOWN} more"]


def not_found(names: tuple[str, ...]) -> str:
    if len(names) == 1:
        return f"qmd: collection {names[0]} not found"
    return f"qmd: collections {', '.join(names)} not found"
