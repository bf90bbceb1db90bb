"""Which of a versioned set of docs' pages are older editions.

A site that keeps every version of its docs side by side (Express' `api/3x/`, `api/4x/`,
`api/5x/`; jq's `manual/v1.6/` beside `manual/dev/`) holds the same page once per
version. The newest version of a page is the current one, unless a folder that names no
version (jq's `dev/`) holds that page too: then every numbered version is older; or a
newer version's folder, named alike, holds pages found: the page was renamed or moved
there (urfave/cli's v3), or dropped. A
version's folder that names no number (Docusaurus' `versioned_docs/`, `legacy/`) always
holds older editions. Code in a version's folder is an older copy only beside the current
code of the same path (a library shipping its previous major version as a subpackage).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field

# A version's folder of a versioned set of docs: `v1.6/`, `v0.47.x/`, `version-2.x/`, `1.x/`,
# `2.0/`, `5x/`, Docusaurus' `versioned_docs/`, an edition's suffix (`notebooks_v1/`), the docs of
# an API kept for older code (Svelte's `99-legacy/`, a `legacy/` folder).
VERSIONED_PATH = re.compile(
    r"(?:^|/)(versioned_docs|v\d+(?:\.\d+)*(?:\.x)?|version-[^/]+|\d+\.(?:\d+|x)(?:\.\d+)*|\d+x"
    r"|[^/]+[_-]v\d+(?:\.\d+)*|(?:\d+[_-])?legacy)/",
    re.IGNORECASE,
)
# A folder named for a version number, and the number: `v1.6`, `version-2.x`, `1.x`, `5x`.
_NUMBERED = re.compile(r"(?:v|version-)?(\d+(?:\.\d+)*)(?:\.?x)?", re.IGNORECASE)
_DIGITS = re.compile(r"\d+")


def version_number(folder: str) -> tuple[int, ...] | None:
    """The number a version's folder is named for (`v1.6` -> (1, 6), `5x` -> (5,)); None
    for a folder named otherwise (`versioned_docs`, `legacy`, `dev`)."""
    numbered = _NUMBERED.fullmatch(folder)
    if numbered is None:
        return None
    return tuple(int(part) for part in numbered.group(1).split("."))


@dataclass
class _Page:
    """One page's editions among the files a query found."""

    versions: list[tuple[int, ...]] = field(default_factory=list)
    unversioned: bool = False  # a folder naming no version (`dev/`) holds it, or none does


@dataclass
class Editions:
    """Tells older editions among `paths` (the files a query found), indexing the pages
    under a versioned folder's parent the first time one of them is asked about."""

    paths: Collection[str]
    _pages: dict[str, dict[str, _Page]] = field(default_factory=dict)
    _newest_versions: dict[tuple[str, str], tuple[int, ...]] = field(default_factory=dict)

    def is_older(self, path: str) -> bool:
        """Whether `path`, a document, is in a version's folder and is not the newest
        edition of its page (always, for a folder named for no version number)."""
        found = VERSIONED_PATH.search(path)
        if found is None:
            return False
        version = version_number(found.group(1))
        if version is None:
            return True
        parent, rest = path[: found.start(1)], path[found.end(1) + 1 :]
        pages = self._pages.get(parent)
        if pages is None:
            pages = self._pages[parent] = _pages_under(parent, self.paths)
        page = pages.get(rest)
        if page is None:  # not among the files found: nothing newer found either
            return False
        if page.unversioned or version < max(page.versions):
            return True
        # A newer version's folder, named alike, holds pages found: this one's page was
        # renamed or moved there (urfave/cli's v2 `examples/flags.md`, v3's
        # `examples/flags/basics.md`), or dropped.
        return version < self._newest(parent, found.group(1))

    def _newest(self, parent: str, folder: str) -> tuple[int, ...]:
        """The newest version among the found files' folders under `parent` named as
        `folder` is (`v3` beside `v2`; `5x` beside `3x`, not `v10`)."""
        shape = _DIGITS.sub("#", folder.lower())
        key = (parent, shape)
        newest = self._newest_versions.get(key)
        if newest is None:
            versions = [
                version_number(name)
                for name in {path[len(parent) :].partition("/")[0] for path in self.paths
                             if path.startswith(parent)}
                if _DIGITS.sub("#", name.lower()) == shape
            ]  # fmt: skip
            newest = max((v for v in versions if v is not None), default=())
            self._newest_versions[key] = newest
        return newest

    def is_replaced(self, path: str) -> bool:
        """Whether `path`, code, is in a version's folder beside the current code it is an
        older copy of: the same path without that folder is among the files found
        (pydantic's `pydantic/v1/networks.py` beside `pydantic/networks.py`; not an API's
        `api/v1/` beside its `api/v2/`, both served)."""
        found = VERSIONED_PATH.search(path)
        if found is None:
            return False
        return path[: found.start(1)] + path[found.end(1) + 1 :] in self.paths


def _pages_under(parent: str, paths: Collection[str]) -> dict[str, _Page]:
    """The pages under `parent` by their path below its folder: the versions holding
    each, and whether a folder naming no version holds it (or `parent` itself does)."""
    pages: dict[str, _Page] = {}
    for path in paths:
        if not path.startswith(parent):
            continue
        folder, _, rest = path[len(parent) :].partition("/")
        if not rest:
            pages.setdefault(folder, _Page()).unversioned = True
            continue
        version = version_number(folder)
        page = pages.setdefault(rest, _Page())
        if version is None:
            page.unversioned = True
        else:
            page.versions.append(version)
    return pages
