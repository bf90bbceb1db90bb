"""qmd's own state, read without starting qmd: where its files live, which collections exist
(its `index.yml`), whether its index has seen every file of a collection (freshness), and
whether the models a hybrid query needs are present.

Everything here mirrors what qmd 2.8 itself does (reference/tools.md): the same file
locations, the same file selection when indexing, the same per-document SHA-256 hashes.
The SQLite index is qmd's internal detail, so it is read read-only, its schema is checked
first, and anything unexpected falls back to comparing file times with the index's own.
"""

from __future__ import annotations

import hashlib
import os
import re
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from pathlib import Path, PurePosixPath

import yaml

from ..files import read_head

DEFAULT_MASK = "**/*.md"
# Directories qmd never indexes, at any depth; hidden files and folders are skipped too.
EXCLUDED_DIRS = frozenset({"node_modules", ".git", ".cache", "vendor", "dist", "build"})
DEFAULT_MODELS = {
    "embed": "hf:ggml-org/embeddinggemma-300M-GGUF/embeddinggemma-300M-Q8_0.gguf",
    "generate": "hf:tobil/qmd-query-expansion-1.7B-gguf/qmd-query-expansion-1.7B-q4_k_m.gguf",
    "rerank": "hf:ggml-org/Qwen3-Reranker-0.6B-Q8_0-GGUF/qwen3-reranker-0.6b-q8_0.gguf",
}
MODEL_ENV = {
    "embed": "QMD_EMBED_MODEL",
    "generate": "QMD_GENERATE_MODEL",
    "rerank": "QMD_RERANK_MODEL",
}
BUSY_TIMEOUT_SECONDS = 1.0
# A document larger than this is read only this far to compare it with the index.
MAX_INDEXED_BYTES = 64 * 1024 * 1024
_DOCUMENT_COLUMNS = frozenset({"collection", "path", "hash", "modified_at", "active"})
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass(frozen=True, slots=True)
class QmdLocations:
    """The files qmd reads when started with the project root as its working directory."""

    config_file: Path
    index_file: Path
    models_dir: Path
    project_local: bool = False  # a `.qmd/index.yml` in the root or above overrides both


def locate(cwd: Path, env: Mapping[str, str] | None = None) -> QmdLocations:
    """Where qmd keeps its collections, index and models, resolved the way qmd does."""
    env = os.environ if env is None else env
    home = Path(env.get("HOME") or Path.home())
    cache = Path(env["XDG_CACHE_HOME"]) if env.get("XDG_CACHE_HOME") else home / ".cache"
    models_dir = cache / "qmd" / "models"
    local = _project_local_config(cwd)
    if local is not None:
        return QmdLocations(local, local.parent / "index.sqlite", models_dir, project_local=True)
    if env.get("QMD_CONFIG_DIR"):
        config_dir = Path(env["QMD_CONFIG_DIR"])
    elif env.get("XDG_CONFIG_HOME"):
        config_dir = Path(env["XDG_CONFIG_HOME"]) / "qmd"
    else:
        config_dir = home / ".config" / "qmd"
    index_file = (
        Path(env["INDEX_PATH"]) if env.get("INDEX_PATH") else cache / "qmd" / "index.sqlite"
    )
    return QmdLocations(config_dir / "index.yml", index_file, models_dir)


def _project_local_config(cwd: Path) -> Path | None:
    for directory in (cwd, *cwd.parents):
        for name in ("index.yaml", "index.yml"):
            candidate = directory / ".qmd" / name
            if candidate.is_file():
                return candidate
    return None


@dataclass(frozen=True, slots=True)
class Collection:
    """One qmd collection: a root directory and the glob mask of the files it indexes."""

    name: str
    root: Path
    mask: str = DEFAULT_MASK
    ignore: tuple[str, ...] = ()

    def selects(self, relative: str) -> bool:
        """Whether qmd would index the file at this root-relative POSIX path."""
        return _glob_matcher(self.mask).match(relative) is not None and not any(
            _glob_matcher(pattern).match(relative) for pattern in self.ignore
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
        data = yaml.load(text, Loader=_Loader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{config_file}:{mark.line + 1}" if mark is not None else str(config_file)
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


# ---------------------------------------------------------------------------- file selection


def _split_mask(mask: str) -> list[str]:
    """qmd's mask is a glob or a comma-separated list of globs (commas inside {} or [] stay)."""
    parts, current, depth = [], "", 0
    for ch in mask:
        if ch in "{[":
            depth += 1
        elif ch in "}]" and depth:
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    parts.append(current)
    return [p.strip() for p in parts if p.strip()]


@lru_cache(maxsize=256)
def _glob_matcher(mask: str) -> re.Pattern[str]:
    alternatives = "|".join(_glob_regex(part.removeprefix("./")) for part in _split_mask(mask))
    return re.compile(f"(?:{alternatives or '(?!)'})\\Z")


def _glob_regex(glob: str) -> str:
    """fast-glob semantics: `**` spans directories, `*` and `?` stay within one, `{a,b}`
    alternates, `[...]` is a character class."""
    out: list[str] = []
    i = 0
    while i < len(glob):
        ch = glob[i]
        if glob.startswith("**/", i):
            out.append("(?:[^/]*/)*")
            i += 3
            continue
        if glob.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if ch == "*":
            out.append("[^/]*")
        elif ch == "?":
            out.append("[^/]")
        elif ch == "[":
            end = glob.find("]", i + 2)
            if end == -1:
                out.append(re.escape(ch))
            else:
                body = glob[i + 1 : end].replace("\\", "\\\\")
                out.append("[^" + body[1:] + "]" if body[:1] in "!^" else "[" + body + "]")
                i = end
        elif ch == "{":
            end = _closing_brace(glob, i)
            if end == -1:
                out.append(re.escape(ch))
            else:
                options = _split_mask(glob[i + 1 : end]) if "," in glob[i + 1 : end] else []
                if options:
                    out.append("(?:" + "|".join(_glob_regex(o) for o in options) + ")")
                else:
                    out.append(re.escape(glob[i : end + 1]))
                i = end
        else:
            out.append(re.escape(ch))
        i += 1
    return "".join(out)


def _closing_brace(glob: str, start: int) -> int:
    depth = 0
    for index in range(start, len(glob)):
        if glob[index] == "{":
            depth += 1
        elif glob[index] == "}":
            depth -= 1
            if depth == 0:
                return index
    return -1


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


# ---------------------------------------------------------------------------------- freshness


@dataclass(frozen=True, slots=True)
class Freshness:
    """How far one collection's index is behind its files.

    `method` is "hashes" when qmd's per-document hashes were compared (exact), "mtimes"
    when only file times could be compared with the index file's (changed and added
    together, removals unseen). `problem` says why nothing could be checked."""

    collection: str
    changed: tuple[str, ...] = ()
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    method: str = "hashes"
    problem: str = ""
    indexed: int = 0  # the collection's documents in the index ("hashes" only)

    @property
    def behind(self) -> int:
        return len(self.changed) + len(self.added) + len(self.removed)

    def describe(self) -> str:
        counts = [
            f"{len(paths)} {label}"
            for paths, label in (
                (self.changed, "changed" if self.method == "hashes" else "changed or added"),
                (self.added, "added"),
                (self.removed, "removed"),
            )
            if paths
        ]
        return ", ".join(counts)


def check_freshness(collection: Collection, index_file: Path) -> Freshness:
    """Which files of the collection the index has not seen in their current state."""
    if not index_file.is_file():
        return Freshness(collection.name, problem=f"no index at {index_file}")
    try:
        known = _indexed_documents(index_file, collection.name)
    except (sqlite3.Error, _SchemaMismatch):
        return _freshness_by_mtime(collection, index_file)
    changed: list[str] = []
    added: list[str] = []
    seen: set[str] = set()
    for relative, entry in collection_files(collection):
        record = known.get(relative)
        try:
            if record is None:
                if _has_content(entry.path):
                    added.append(relative)
                continue
            seen.add(relative)
            stored_hash, stored_ms = record
            # qmd stores the file's mtime (whole ms) when it last took the content in: an
            # untouched file is fresh without reading it; a touched one is compared by hash.
            if stored_ms is not None and entry.stat().st_mtime_ns // 1_000_000 <= stored_ms:
                continue
            if _content_hash(entry.path) != stored_hash:
                changed.append(relative)
        except OSError:
            continue
    removed = sorted(set(known) - seen - set(added))
    return Freshness(
        collection.name,
        tuple(sorted(changed)),
        tuple(sorted(added)),
        tuple(removed),
        indexed=len(known),
    )


class _SchemaMismatch(Exception):
    """The index is not laid out the way this module knows."""


def _connect(index_file: Path) -> sqlite3.Connection:
    uri = f"{index_file.resolve().as_uri()}?mode=ro"
    return sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_SECONDS)


def _indexed_documents(index_file: Path, collection: str) -> dict[str, tuple[str, int | None]]:
    """path -> (content hash, stored mtime in ms) for the collection's active documents."""
    connection = _connect(index_file)
    try:
        columns = {row[1] for row in connection.execute("PRAGMA table_info(documents)")}
        if not _DOCUMENT_COLUMNS.issubset(columns):
            raise _SchemaMismatch(f"documents table lacks {_DOCUMENT_COLUMNS - columns}")
        rows = connection.execute(
            "SELECT path, hash, modified_at FROM documents WHERE collection = ? AND active = 1",
            (collection,),
        ).fetchall()
    finally:
        connection.close()
    return {str(path): (str(digest), _iso_ms(stamp)) for path, digest, stamp in rows}


def _iso_ms(stamp: object) -> int | None:
    if not isinstance(stamp, str):
        return None
    try:
        moment = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return None
    return round(moment.timestamp() * 1000)


def _read_text(path: str) -> str:
    # qmd reads files as UTF-8 text (invalid bytes become U+FFFD) before hashing. Read
    # without waiting: a file swapped for a FIFO while the collection is walked reads as "".
    return read_head(Path(path), MAX_INDEXED_BYTES).decode("utf-8", "replace")


def _content_hash(path: str) -> str:
    return hashlib.sha256(_read_text(path).encode("utf-8")).hexdigest()


def _has_content(path: str) -> bool:
    """qmd skips whitespace-only files, so they are never 'added'."""
    return bool(_read_text(path).strip())


def _freshness_by_mtime(collection: Collection, index_file: Path) -> Freshness:
    stamps = [index_file, index_file.with_name(index_file.name + "-wal")]
    index_ns = max((p.stat().st_mtime_ns for p in stamps if p.exists()), default=0)
    newer = []
    for relative, entry in collection_files(collection):
        try:
            if entry.stat().st_mtime_ns > index_ns:
                newer.append(relative)
        except OSError:
            continue
    return Freshness(collection.name, changed=tuple(sorted(newer)), method="mtimes")


def staleness_note(results: Sequence[Freshness]) -> str | None:
    """One line for the trace, e.g. "qmd: index 3 files behind (2 changed, 1 added)";
    None when every collection is up to date."""
    stale = [r for r in results if r.behind]
    if not stale:
        return None
    total = sum(r.behind for r in stale)
    if len(results) == 1:
        detail = stale[0].describe()
    else:
        detail = "; ".join(f"{r.collection}: {r.describe()}" for r in stale)
    noun = "file" if total == 1 else "files"
    return f"qmd: index {total} {noun} behind ({detail}); refresh with --refresh or qmd update"


# ------------------------------------------------------------------------- models, embeddings


@dataclass(frozen=True, slots=True)
class ModelState:
    """Which of the models a hybrid `qmd query` loads are not on disk."""

    models_dir: Path
    missing: tuple[str, ...]  # roles: embed, generate, rerank
    total: int = len(DEFAULT_MODELS)

    @property
    def complete(self) -> bool:
        return not self.missing


def model_state(
    locations: QmdLocations, registry: Registry, env: Mapping[str, str] | None = None
) -> ModelState:
    """Look for each model as qmd does: a valid GGUF file in the models dir whose name
    contains the model's file name (or the configured local path itself)."""
    env = os.environ if env is None else env
    try:
        cached = [
            entry
            for entry in os.scandir(locations.models_dir)
            if entry.name.endswith(".gguf") and entry.is_file()
        ]
    except OSError:
        cached = []
    missing = []
    for role, default in DEFAULT_MODELS.items():
        uri = registry.models.get(role) or env.get(MODEL_ENV[role]) or default
        if uri.startswith("hf:"):
            filename = PurePosixPath(uri).name
            found = any(filename in e.name and _is_gguf(e.path) for e in cached)
        else:
            found = _is_gguf(uri)
        if not found:
            missing.append(role)
    return ModelState(locations.models_dir, tuple(missing))


def _is_gguf(path: str) -> bool:
    try:
        with open(path, "rb") as handle:
            return handle.read(4) == b"GGUF"
    except OSError:
        return False


def embedding_gap(index_file: Path, collections: Sequence[str]) -> tuple[int, int] | None:
    """(documents without embeddings, documents) over the collections; None when the index
    cannot tell."""
    if not collections or not index_file.is_file():
        return None
    marks = ",".join("?" * len(collections))
    try:
        connection = _connect(index_file)
        try:
            row = connection.execute(
                "SELECT COUNT(DISTINCT d.hash),"
                " COUNT(DISTINCT CASE WHEN v.hash IS NULL THEN d.hash END)"
                " FROM documents d LEFT JOIN (SELECT DISTINCT hash FROM content_vectors) v"
                f" ON v.hash = d.hash WHERE d.active = 1 AND d.collection IN ({marks})",
                tuple(collections),
            ).fetchone()
        finally:
            connection.close()
    except sqlite3.Error:
        return None
    total, missing = row
    return int(missing), int(total)
