"""qmd collections for a demo copy, in its project-local index (see `tierscope.qmd_setup`)."""

from __future__ import annotations

from pathlib import Path

from ..qmd_setup import LOCAL_DIR, QmdSetup, WantedCollection
from ..qmd_setup import ensure_collections as ensure_wanted

__all__ = ["DEMO_COLLECTIONS", "LOCAL_DIR", "ensure_collections"]

# Collection name -> folder, as the demo's `.loa.config.yaml` scopes name them.
DEMO_COLLECTIONS = {
    "loa-grimoire": "grimoires/loa",
    "loa-skills": ".claude/skills",
    "loa-reality": "grimoires/loa/reality",
}


def ensure_collections(root: Path, binary: str | None = None) -> QmdSetup:
    """Create each demo collection missing from the copy's project-local qmd index."""
    wanted = {name: WantedCollection(folder) for name, folder in DEMO_COLLECTIONS.items()}
    return ensure_wanted(root, wanted, again="tierscope demo", binary=binary)
