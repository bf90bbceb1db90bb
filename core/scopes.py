"""Turn a scope name into concrete places for each tier, refusing anything that escapes
the project root."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from .config.model import BUILTIN_SCOPES, Config, ScopeConfig
from .globs import glob_to_regex
from .ignore_rules import BUILTIN_EXCLUDED_DIRS
from .models import RefusedPath, ResolvedScope
from .project import contain, inside_index_dir, is_inside, relative_source

# The scope a query gets when it names none; in a project without Loa's layout it is the
# one built-in scope that adapts (DESIGN §9).
DEFAULT_SCOPE = "all"
# What the default scope searches there: the project's own files. The ignore rules, the
# built-in excludes and the machine-data rules apply as to any grep path; qmd has no
# collection to offer (`tierscope init --qmd` makes some), ck searches the same files.
PROJECT_FILES = ScopeConfig(grep_paths=("./",))
INIT_HINT = "`tierscope init` writes scopes for this project"
# Loa's layout: the folders of the built-in default scope (its third, reality/, is inside
# the first).
LOA_FOLDERS = ("grimoires/loa/", ".claude/skills/")
LOA_MARKER = LOA_FOLDERS[0]  # the folder only a project laid out like Loa has


class UnknownScope(LookupError):
    """The scope is neither built in nor defined by the config."""


def resolve_scope(name: str, config: Config, root: Path) -> ResolvedScope:
    """Resolve `name` against `config.scopes`. Raises UnknownScope for an unknown name.

    In a project root without Loa's layout, the built-in default scope (left as built in
    by the config) resolves to the project's own files, and says so in `adapted`. A scope
    whose paths all do not exist says so in `missing`. Deciding either costs a stat call
    or two beside those resolving the paths makes anyway: never a walk."""
    if name not in config.scopes:
        raise UnknownScope(name)
    scope = config.scopes[name]
    default = name == DEFAULT_SCOPE and is_builtin(name, config)
    if default and not has_loa_layout(root) and root.is_dir():
        adapted = (
            f"no Loa layout here ({LOA_MARKER}): scope {name} searches the project's own files"
        )
        return replace(_resolve(name, PROJECT_FILES, config, root), adapted=adapted)
    resolved = _resolve(name, scope, config, root)
    if resolved.grep_paths or resolved.ck_paths or not _names_paths(scope):
        return resolved
    if not root.is_dir():
        return resolved  # no project to look at: nothing to report
    refused = {refusal.path for refusal in resolved.refused}
    absent = [path for path in scope.grep_paths or (scope.ck_path.strip(),) if path not in refused]
    if not absent:
        return resolved  # every path was refused, and each refusal is reported
    return replace(resolved, missing=f"none of its paths exist here ({', '.join(absent)})")


def missing_warning(scope: ResolvedScope, config: Config, root: Path) -> str:
    """One line for a scope none of whose paths exist ("" when some does); for a built-in
    scope in a project without Loa's layout, what to do instead."""
    if not scope.missing:
        return ""
    line = f"scope {scope.name}: {scope.missing}"
    if is_builtin(scope.name, config) and init_would_help(config, root):
        line += f"; {INIT_HINT}"
    return line


def init_would_help(config: Config, root: Path) -> bool:
    """A project not laid out like Loa whose config defines no scopes of its own: the
    built-in scopes are all it has, and `tierscope init` would write some that fit."""
    return not has_own_scopes(config) and not has_loa_layout(root)


def has_own_scopes(config: Config) -> bool:
    """Whether the config defines a scope (or changes a built-in one)."""
    return any(not is_builtin(name, config) for name in config.scopes)


def offered_scopes(config: Config, root: Path) -> tuple[str, ...]:
    """The scopes worth offering a person choosing one: every scope but those none of
    whose paths exist here (the built-in Loa scopes, in a project not laid out like Loa)."""
    return tuple(name for name in config.scopes if not resolve_scope(name, config, root).missing)


def is_builtin(name: str, config: Config) -> bool:
    """Whether the scope is built in and left as built in by the config."""
    return name in config.scopes and config.scopes[name] == BUILTIN_SCOPES.get(name)


def has_loa_layout(root: Path) -> bool:
    """Whether the project is laid out like Loa: it has `grimoires/loa/` (one stat call).
    `.claude/skills/` alone is no sign of it: any project may keep Claude Code skills."""
    return (root / LOA_MARKER).is_dir()


def _names_paths(scope: ScopeConfig) -> bool:
    return bool(scope.grep_paths or scope.ck_path.strip())


def _resolve(name: str, scope: ScopeConfig, config: Config, root: Path) -> ResolvedScope:
    refused: list[RefusedPath] = []
    notes: list[str] = []
    grep_paths = _existing_contained(scope.grep_paths, root, refused, notes)
    grep_paths = _without_nested(grep_paths, config.filtering.include_ignored)
    # The built-in scopes name ck's index as Loa lays it out (`.ck/skills/`); ck searching
    # their grep paths instead is as built, not a note for the user.
    ck_notes = [] if is_builtin(name, config) else notes
    ck_paths = _ck_paths(scope, grep_paths, root, refused, ck_notes)
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


def _without_nested(paths: tuple[Path, ...], include_ignored: bool) -> tuple[Path, ...]:
    """Drop paths inside another listed path (scope `all` lists grimoires/loa/ and its
    reality/ subfolder): searching both would report every file twice. A hidden or
    built-in excluded folder the other's walk skips stays (`[./, .claude/]`)."""
    return tuple(
        p
        for p in paths
        if not any(
            o != p and is_inside(p, o) and _walk_reaches(o, p, include_ignored) for o in paths
        )
    )


def _walk_reaches(outer: Path, inner: Path, include_ignored: bool) -> bool:
    """Whether walking `outer` reaches `inner`, which lies inside it: no folder or file on
    the way is hidden or a built-in exclude (with ignored files included, none but .git)."""
    for part in inner.relative_to(outer).parts:
        if part == ".git" or (
            not include_ignored and (part.startswith(".") or part in BUILTIN_EXCLUDED_DIRS)
        ):
            return False
    return True


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


def path_end_glob(glob: str) -> str:
    """An include glob holding `/`, as a glob for a whole root-relative path: it matches
    the path's last folders and name (`review/*.md` matches `docs/review/notes.md`, not
    `docs/myreview/notes.md`)."""
    glob = glob.lstrip("/")
    return glob if glob.startswith("**/") else "**/" + glob


def included(path: str, globs: tuple[str, ...]) -> bool:
    """Whether a path passes a scope's include globs, in any case (an R package's
    `arrange.R` is a `*.r` file): a glob without `/` is matched against the file name
    (`*.md`), one with `/` against the path's end. A glob written after `!` leaves out
    what it matches (`!requirements.txt`), whatever else matches."""
    if not globs:
        return True
    name = path.rsplit("/", 1)[-1]
    wanted = [glob for glob in globs if not glob.startswith("!")]
    if any(_matches(path, name, glob[1:]) for glob in globs if glob.startswith("!")):
        return False
    return not wanted or any(_matches(path, name, glob) for glob in wanted)


def _matches(path: str, name: str, glob: str) -> bool:
    if "/" in glob:
        return glob_to_regex(path_end_glob(glob), ignore_case=True).match(path) is not None
    return glob_to_regex(glob, ignore_case=True).match(name) is not None
