"""qmd's collections: what its `index.yml` says (each collection's root, mask and ignore
globs, the model choices) and which files each collection selects when qmd indexes it.

Everything here mirrors qmd 2.8 (reference/tools.md): the same config layout, the same
file selection (fast-glob masks, hidden names and build/vendor folders skipped, symbolic
links neither followed nor indexed).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from ..globs import glob_to_regex, split_top_level

DEFAULT_MASK = "**/*.md"
# Directories qmd never indexes, at any depth; hidden files and folders are skipped too.
EXCLUDED_DIRS = frozenset({"node_modules", ".git", ".cache", "vendor", "dist", "build"})
# The parse cache's key for qmd's collection config (config/parse_cache.py).
_CACHE_KEY = "qmd index.yml"


@dataclass(frozen=True, slots=True)
class Collection:
    """One qmd collection: a root directory and the glob mask of the files it indexes."""

    name: str
    root: Path
    mask: str = DEFAULT_MASK
    ignore: tuple[str, ...] = ()

    def selects(self, relative: str) -> bool:
        """Whether qmd would index the file at this root-relative POSIX path."""
        return _mask_selects(self.mask, relative) and not any(
            _mask_selects(pattern, relative) for pattern in self.ignore
        )


@dataclass(frozen=True, slots=True)
class Registry:
    """The collections (and model choices) of one `index.yml`.

    `problem` is set when the file exists but cannot be read or parsed: only then does the
    caller need to ask qmd itself."""

    collections: dict[str, Collection] = field(default_factory=dict)
    models: dict[str, str] = field(default_factory=dict)
    problem: str = ""


def read_registry(config_file: Path) -> Registry:
    """Read qmd's collection config. A missing file is an empty registry, as it is for qmd."""
    try:
        text = config_file.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Registry()
    except (OSError, UnicodeDecodeError) as exc:
        return Registry(problem=f"cannot read {config_file}: {exc}")
    try:
        data = _parsed(text)
    except _ParseError as exc:
        where = f"{config_file}:{exc.line}" if exc.line else str(config_file)
        return Registry(problem=f"cannot parse {where}")
    if data is None:
        return Registry()
    if not isinstance(data, dict):
        return Registry(problem=f"cannot parse {config_file}: not a mapping")
    collections = {}
    raw_collections = data.get("collections") or {}
    if isinstance(raw_collections, dict):
        for name, entry in raw_collections.items():
            collection = _collection(str(name), entry)
            if collection is not None:
                collections[collection.name] = collection
    raw_models = data.get("models")
    models = {}
    if isinstance(raw_models, dict):
        models = {str(k): str(v) for k, v in raw_models.items() if isinstance(v, str) and v}
    return Registry(collections, models)


class _ParseError(ValueError):
    def __init__(self, line: int | None) -> None:
        super().__init__(line)
        self.line = line


def _parsed(text: str) -> object:
    """The data of a YAML text, as parsed before when the same text was (the parse cache:
    importing PyYAML costs a query that qmd answers several ms), else parsed now."""
    from ..config import parse_cache

    cached = parse_cache.lookup(text, _CACHE_KEY)
    if cached is not None:
        return cached[0]
    import yaml

    try:
        data = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise _ParseError(mark.line + 1 if mark is not None else None) from exc
    parse_cache.remember(text, _CACHE_KEY, data, {})
    return data


def _collection(name: str, entry: object) -> Collection | None:
    if not isinstance(entry, dict) or not isinstance(entry.get("path"), str):
        return None
    mask = entry.get("pattern")
    ignore = entry.get("ignore")
    return Collection(
        name=name,
        root=Path(entry["path"]),
        mask=mask if isinstance(mask, str) and mask else DEFAULT_MASK,
        ignore=tuple(p for p in ignore if isinstance(p, str)) if isinstance(ignore, list) else (),
    )


def collection_from_show(name: str, text: str) -> Collection | None:
    """Parse `qmd collection show <name>` output (`Path:` and `Pattern:` lines)."""
    fields_seen: dict[str, str] = {}
    for line in text.splitlines():
        key, sep, value = line.strip().partition(":")
        if sep and key in ("Path", "Pattern"):
            fields_seen[key] = value.strip()
    if not fields_seen.get("Path"):
        return None
    return Collection(name, Path(fields_seen["Path"]), fields_seen.get("Pattern") or DEFAULT_MASK)


@lru_cache(maxsize=256)
def _mask_globs(mask: str) -> tuple[re.Pattern[str], ...]:
    """qmd's mask is a glob or a comma-separated list of globs (commas inside {} or []
    stay)."""
    return tuple(glob_to_regex(part.removeprefix("./")) for part in split_top_level(mask))


def _mask_selects(mask: str, relative: str) -> bool:
    return any(glob.match(relative) for glob in _mask_globs(mask))


class FileTally:
    """Files and bytes counted as a walk of a collection goes: the collection's size for
    IDF and length normalisation (a file that cannot be stat'ed is not counted)."""

    def __init__(self) -> None:
        self.files = self.bytes = 0

    def add(self, entry: os.DirEntry[str]) -> os.stat_result:
        """Count the file and return its (cached) stat; raises OSError as stat does."""
        status = entry.stat(follow_symlinks=False)
        self.files += 1
        self.bytes += status.st_size
        return status

    def files_and_bytes(self) -> tuple[int, int]:
        return self.files, self.bytes


def collection_files(collection: Collection) -> Iterator[tuple[str, os.DirEntry[str]]]:
    """(root-relative POSIX path, entry) of every file qmd would index in the collection.

    Like qmd: symbolic links are not followed (nor indexed), hidden names and the usual
    build/vendor directories are skipped. Empty files are included (the caller decides)."""
    stack = [(str(collection.root), "")]
    while stack:
        directory, prefix = stack.pop()
        try:
            entries = list(os.scandir(directory))
        except OSError:
            continue
        for entry in entries:
            if entry.name.startswith("."):
                continue
            relative = prefix + entry.name
            try:
                if entry.is_symlink():
                    continue
                if entry.is_dir():
                    if entry.name not in EXCLUDED_DIRS:
                        stack.append((entry.path, relative + "/"))
                elif entry.is_file() and collection.selects(relative):
                    yield relative, entry
            except OSError:
                continue
