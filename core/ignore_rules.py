"""Which files of a project are worth searching at all.

Like ripgrep by default: `.gitignore`, `.ignore` and `.rgignore` rules apply (also in a
copy without `.git`), hidden files and folders are skipped unless a scope names them, and
symlinks are not followed. On top, built-in excludes for vendored and generated trees, and
machine data (JSON, lock files, minified code, maps) which no reader wants as context.
"""

from __future__ import annotations

from pathlib import PurePosixPath

# Vendored or generated trees: dependencies, build output, caches, virtual environments.
# Not `build/`: fastify and bat keep hand-written build scripts there, and where it is
# output (setuptools, Gradle, CMake) the project's .gitignore says so.
BUILTIN_EXCLUDED_DIRS = (
    "node_modules",
    "bower_components",
    "vendor",
    "_vendor",  # pip's and setuptools' own vendored packages
    "third_party",
    "thirdparty",  # nlohmann/json's tests/thirdparty/
    "3rdparty",
    "typeshed",  # Python's stubs, copied into type checkers (mypy's `mypy/typeshed/`)
    "typeshed-fallback",  # pyright's
    "dist",
    "site-packages",
    "__pycache__",
    ".venv",
    "venv",
    ".tox",
    ".nox",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    ".next",
    ".nuxt",
    ".git",
)
BUILTIN_EXCLUDED_FILES = ("*.min.js", "*.min.css", "*.map", "*.pyc")
# Machine data: excluded from document scopes unless a scope or the config asks for it.
MACHINE_DATA_FILES = (
    "*.json",
    "*.jsonl",
    "*.ndjson",
    "*.lock",
    "*.lockb",
    "pnpm-lock.yaml",
    "go.sum",  # Go's module checksums
    "go.work.sum",
    "*.csv",
    "*.tsv",
    "*.svg",
    "*.po",  # gettext's catalogs: every message of the code again, in each language
    "baseline-prof.txt",  # Android's baseline profile: a list of method signatures
    "*.pot",
)


_EXCLUDED_TYPE = "tierscopeexcluded"


def ripgrep_excludes(machine_data: bool, *, as_globs: bool = False) -> list[str]:
    """ripgrep arguments excluding the built-in trees (`--glob` with a trailing `/`: folders
    only) and files (and machine data unless it is wanted). The files are a file type of
    their own (`--type-not`), which ripgrep matches against file names only: a `--glob
    !*.json` also left out Phoenix's priv/templates/phx.gen.json/ folder. `as_globs`: the
    files as `--glob`s too, for a run whose include globs are globs (see grep_ripgrep)."""
    argv: list[str] = []
    for name in BUILTIN_EXCLUDED_DIRS:
        argv += ["--glob", f"!{name}/"]
    patterns = BUILTIN_EXCLUDED_FILES + (() if machine_data else MACHINE_DATA_FILES)
    if as_globs:
        return argv + [arg for pattern in patterns for arg in ("--glob", f"!{pattern}")]
    for pattern in patterns:
        argv += ["--type-add", f"{_EXCLUDED_TYPE}:{pattern}"]
    return [*argv, "--type-not", _EXCLUDED_TYPE]


# Where a copy of a file is the copy, when both are searched.
_OUTPUT_DIRS = frozenset({*BUILTIN_EXCLUDED_DIRS, "build"})
_COPY_MARKERS = (".bak", ".orig", ".copy", ".old", "~", ".constraint", ".backup", ".tmp")


def original_first(path: str) -> tuple[int, int, int, str]:
    """Sort key preferring the original of identical files: not build output or vendored,
    no copy marker in the name (`SKILL.md.constraint-2`, `notes.md.bak`), shallower, shorter."""
    posix = PurePosixPath(path)
    in_output = any(part in _OUTPUT_DIRS for part in posix.parts[:-1])
    name = posix.name.lower()
    suffixes = name.split(".")[1:]
    marked = any(marker in name for marker in _COPY_MARKERS) or (
        len(suffixes) > 1 and any(not s.isalnum() for s in suffixes)
    )
    return (int(in_output), int(marked), len(posix.parts), path)
