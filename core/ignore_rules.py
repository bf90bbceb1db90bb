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


def ripgrep_excludes(machine_data: bool) -> list[str]:
    """`--glob` arguments for ripgrep excluding the built-in trees and files (and machine
    data unless it is wanted)."""
    globs = [f"!{name}/" for name in BUILTIN_EXCLUDED_DIRS]
    globs += [f"!{pattern}" for pattern in BUILTIN_EXCLUDED_FILES]
    if not machine_data:
        globs += [f"!{pattern}" for pattern in MACHINE_DATA_FILES]
    return [arg for glob in globs for arg in ("--glob", glob)]


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
