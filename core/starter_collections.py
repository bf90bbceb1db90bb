"""The project-local qmd collections `tierscope init --qmd` makes for the docs scope it
writes (starter_config.py)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from .project_places import docs_places, file_suffix, holds_notebooks
from .project_survey import NOT_FOR_QMD, FolderSurvey, FoundCollection, ProjectSurvey
from .qmd_setup import WantedCollection

TOP_LEVEL_COLLECTION = "top-level"
# qmd reads a mask as globs joined by commas: a name with these cannot be listed in one.
_MASK_SPECIAL = re.compile(r"[,*?\[\]{}!]")


def collections_to_create(survey: ProjectSurvey) -> dict[str, WantedCollection]:
    """The project-local qmd collections `init --qmd` would make for the docs scope: one
    per documentation folder (of its kinds of document), and one for the root's
    documentation files, each unless an existing collection already covers it. Nothing
    when qmd's collections for this project live in the user's own index: a project-local
    index would hide them from qmd here."""
    existing = survey.collections
    if existing and not survey.qmd_project_local:
        return {}
    folders, top_docs = docs_places(survey)
    if holds_notebooks(folders, top_docs):
        return {}  # the docs scope names no collection (starter_config._docs_scope)
    taken = {collection.name for collection in existing}
    wanted: dict[str, WantedCollection] = {}
    for folder in folders:
        mask = _documents_mask(folder)
        if mask is not None and not _covered(folder.name, existing, mask):
            wanted[_unique(_slug(folder.name), taken)] = WantedCollection(folder.name, mask)
    listed = [
        name
        for name in top_docs
        # qmd skips hidden folders (`.github/`): grep and ck search those files.
        if not _MASK_SPECIAL.search(name)
        and "/" not in name
        and file_suffix(name) not in NOT_FOR_QMD
    ]
    if listed and not any(c.folder == "." for c in existing):
        wanted[_unique(TOP_LEVEL_COLLECTION, taken)] = WantedCollection(".", ",".join(listed))
    return wanted


def _documents_mask(folder: FolderSurvey) -> str | None:
    """The mask of a folder's collection: qmd's default (every markdown file) for a folder
    of markdown, else its kinds of document (`**/*.rst`): qmd indexes any text its mask
    names, and by default it would index nothing of reStructuredText docs. None for a
    folder of nothing qmd can index (notebooks: JSON to qmd)."""
    kinds = [suffix for suffix, _ in folder.docs.most_common() if suffix not in NOT_FOR_QMD]
    if not kinds:
        return None
    return "" if kinds == [".md"] else ",".join(f"**/*{suffix}" for suffix in kinds)


def _covered(folder: str, collections: Iterable[FoundCollection], mask: str = "") -> bool:
    """Whether a collection indexes the folder's documents (its markdown; or, for a folder
    of other documents, what `mask` names): one of it, or of a folder above it."""
    masks = (mask,) if mask else ("**/*.md", "")
    return any(
        c.folder == folder or c.folder == "." or folder.startswith(f"{c.folder}/")
        for c in collections
        if c.mask in masks
    )


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-").lower() or "docs"


def _unique(name: str, taken: set[str]) -> str:
    candidate, number = name, 2
    while candidate in taken:
        candidate, number = f"{name}-{number}", number + 1
    taken.add(candidate)
    return candidate
