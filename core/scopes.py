"""Turn a scope name into concrete places for each tier, refusing anything that escapes
the project root."""

from __future__ import annotations

import fnmatch
from pathlib import Path

from .config.model import Config, ScopeConfig
from .globs import glob_to_regex
from .models import RefusedPath, ResolvedScope
from .project import contain, is_inside, relative_source


class UnknownScope(LookupError):
    """The scope is neither built in nor defined by the config."""


def resolve_scope(name: str, config: Config, root: Path) -> ResolvedScope:
    """Resolve `name` against `config.scopes`. Raises UnknownScope for an unknown name."""
    if name not in config.scopes:
        raise UnknownScope(name)
    scope = config.scopes[name]
    refused: list[RefusedPath] = []
    notes: list[str] = []

    grep_paths = _existing_contained(scope.grep_paths, root, refused, notes)
    grep_paths = _without_nested(grep_paths)
    ck_paths = _ck_paths(scope, grep_paths, root, refused, notes)
    collections = _collections(scope, config)
    return ResolvedScope(
        name=name,
        qmd_collections=collections,
        ck_paths=ck_paths,
        grep_paths=grep_paths,
        refused=tuple(refused),
        notes=tuple(notes),
        include=scope.include,
    )


def _collections(scope: ScopeConfig, config: Config) -> tuple[str, ...]:
    raw = scope.qmd_collection.strip()
    if not raw:
        return ()
    if raw == "all":
        names: list[str] = []
        for other in config.scopes.values():
            for candidate in other.qmd_collection.split(","):
                candidate = candidate.strip()
                if candidate and candidate != "all" and candidate not in names:
                    names.append(candidate)
        return tuple(names)
    return tuple(dict.fromkeys(part.strip() for part in raw.split(",") if part.strip()))


def _existing_contained(
    raw_paths: tuple[str, ...], root: Path, refused: list[RefusedPath], notes: list[str]
) -> tuple[Path, ...]:
    result: list[Path] = []
    for raw in raw_paths:
        path, reason = contain(raw, root)
        if path is None:
            refused.append(RefusedPath(raw, reason))
        elif not path.exists():
            notes.append(f"grep path {raw} does not exist")
        elif path not in result:
            result.append(path)
    return tuple(result)


def _without_nested(paths: tuple[Path, ...]) -> tuple[Path, ...]:
    """Drop paths inside another listed path (scope `all` lists grimoires/loa/ and its
    reality/ subfolder): searching both would report every file twice."""
    return tuple(p for p in paths if not any(o != p and is_inside(p, o) for o in paths))


def inside_index_dir(path: Path, root: Path) -> bool:
    """True for a path inside a `.ck/` index directory below the root (a project that
    itself lives under some `.ck` folder is not affected)."""
    return ".ck" in path.relative_to(root).parts


def _ck_paths(
    scope: ScopeConfig,
    grep_paths: tuple[Path, ...],
    root: Path,
    refused: list[RefusedPath],
    notes: list[str],
) -> tuple[Path, ...]:
    raw = scope.ck_path.strip()
    if not raw:
        return grep_paths
    path, reason = contain(raw, root)
    if path is None:
        refused.append(RefusedPath(raw, reason))
        return ()
    if inside_index_dir(path, root):
        searched = ", ".join(relative_source(p, root) for p in grep_paths) or "nothing"
        notes.append(
            f"ck_path {raw} is inside a .ck/ index directory (ck searches sources, not its "
            f"index): ck searches {searched} instead"
        )
        return grep_paths
    if not path.exists():
        notes.append(f"ck_path {raw} does not exist")
        return ()
    return (path,)


def scope_places(scope: ResolvedScope) -> tuple[Path, ...]:
    """What a scope covers, whichever tier serves: its grep paths (else its ck paths).
    Empty means the scope names no place, and nothing narrows it."""
    return scope.grep_paths or scope.ck_paths


def in_scope(path: Path, scope: ResolvedScope) -> bool:
    """Whether a resolved path lies in the scope (a file path covers only itself) and
    matches its include globs."""
    places = scope_places(scope)
    inside = not places or any(is_inside(path, place) for place in places)
    return inside and included(path.as_posix(), scope.include)


def included(path: str, globs: tuple[str, ...]) -> bool:
    """Whether a path passes a scope's include globs: a glob without `/` is matched
    against the file name (`*.md`), one with `/` against the path's end."""
    if not globs:
        return True
    name = path.rsplit("/", 1)[-1]
    for glob in globs:
        if "/" in glob:
            if glob_to_regex(glob.lstrip("/")).search(path):
                return True
        elif fnmatch.fnmatchcase(name, glob):
            return True
    return False
