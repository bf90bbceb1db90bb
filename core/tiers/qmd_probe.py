"""The qmd tier's probe: whether a query could run here, and the doctor's material —
where qmd keeps its state, which models are on disk, what a query would run, and how
each collection's index compares with its files. Never starts qmd."""

from __future__ import annotations

import os
import shlex
from pathlib import Path

from ..models import noun_for
from .base import Probe, TierRequest
from .qmd_collections import Collection
from .qmd_freshness import Freshness, check_freshness, embedding_gap, staleness_note
from .qmd_models import DEFAULT_MODELS, model_state
from .qmd_plan import mode_decision, not_found, plan_for

UP_TO_DATE = "qmd: index up to date"
# How many stale file names a probe lists; the counts are always complete.
STALE_FILES_SHOWN = 20


def probe_qmd(request: TierRequest) -> Probe:
    """Usable when qmd is on PATH, the scope's collections exist and an index exists.

    Never starts qmd. The details say where qmd keeps its state, which models are on
    disk, what a query would run, and how each collection's index compares with its
    files (staleness counts, the stale files, embeddings) — the doctor's material."""
    plan = plan_for(request)
    if plan.binary is None or not request.scope.qmd_collections:
        return Probe(False, plan.unavailable, path=plan.binary)
    models = model_state(plan.locations, plan.registry)
    details: dict = {
        "config_file": str(plan.locations.config_file),
        "index_file": str(plan.locations.index_file),
        "project_local": plan.locations.project_local,
        "models_dir": str(plan.locations.models_dir),
        "models_present": [role for role in DEFAULT_MODELS if role not in models.missing],
        "models_missing": list(models.missing),
        "collections": {c.name: str(c.root) for c in plan.collections},
        "missing": list(plan.missing),
    }
    if plan.missing:
        details["create_with"] = [creation_hint(name, request) for name in plan.missing]
    if plan.registry.problem:
        reason = f"qmd: {plan.registry.problem}; collections will be asked from qmd"
        return Probe(True, reason, path=plan.binary, details=details)
    if plan.unavailable:
        return Probe(False, plan.unavailable, path=plan.binary, details=details)
    if plan.index_missing:
        reason = f"qmd: no index at {plan.locations.index_file} (run qmd update)"
        return Probe(False, reason, path=plan.binary, details=details)
    mode, why = mode_decision(request.config.qmd.mode, plan, plan.collections)
    if mode is None:
        details["mode"] = f"unsupported qmd mode {request.config.qmd.mode!r}"
    else:
        how = "search (BM25)" if mode == "search" else "query (hybrid)"
        details["mode"] = f"{how}; {why}" if why else how
    index_file = plan.locations.index_file
    results = [check_freshness(c, index_file) for c in plan.collections]
    details["freshness"] = {
        c.name: describe_index(c, r) for c, r in zip(plan.collections, results, strict=True)
    }
    if any(r.behind for r in results):
        details["stale_files"] = stale_files(results)
    details["embeddings"] = {
        name: f"{gap[1] - gap[0]} of {gap[1]} documents embedded"
        for name in details["collections"]
        if (gap := embedding_gap(index_file, [name])) is not None and gap[1]
    }
    reason = staleness_note(results) or UP_TO_DATE
    if plan.missing:
        reason = f"{not_found(plan.missing)}; the others: {reason.removeprefix('qmd: ')}"
    return Probe(True, reason, path=plan.binary, details=details)


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
        noun = noun_for(freshness.behind, "file")
        return f"{freshness.behind} {noun} behind ({freshness.describe()})"
    if freshness.method == "mtimes":
        return "up to date (judged by file times: the index schema is unknown)"
    noun = noun_for(freshness.indexed, "document")
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
