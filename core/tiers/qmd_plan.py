"""What a qmd query would use, found without starting qmd: the binary, qmd's files, the
scope's collections (from qmd's own index.yml) and the mode a query can run in."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from ..executables import find_executable
from .base import TierRequest, not_installed
from .qmd_collections import Collection, Registry, read_registry
from .qmd_freshness import embedding_gap
from .qmd_locations import QmdLocations, locate
from .qmd_models import model_state

NOT_INSTALLED = not_installed("qmd")
MODES = ("search", "query")


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


def not_found(names: tuple[str, ...]) -> str:
    if len(names) == 1:
        return f"qmd: collection {names[0]} not found"
    return f"qmd: collections {', '.join(names)} not found"
