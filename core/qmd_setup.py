"""qmd collections in a project-local index, for the demo copy and `tierscope init --qmd`.

When a `qmd` is on PATH the collections are created inside the project: qmd adopts a
`.qmd/index.yml` found in its working directory or above as its config and keeps the index
beside it (`.qmd/index.sqlite`), so the user's own qmd config and index are never touched,
and the qmd tier, which runs qmd in the project root, finds the same collections.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from .deadline import Deadline
from .process import run_bounded
from .tiers.qmd_cli import error_line
from .tiers.qmd_collections import read_registry

LOCAL_DIR = ".qmd"
# Indexing a few hundred documents takes seconds; this only bounds a broken qmd.
ADD_TIMEOUT_SECONDS = 60.0
INSTALL_HINT = "scripts/setup-qmd, or npm install -g @tobilu/qmd with Node >= 22"


@dataclass(frozen=True, slots=True)
class WantedCollection:
    """A collection to create: its folder (root-relative) and which of its files qmd
    indexes (`--mask`; "" = qmd's default, every markdown file below the folder)."""

    folder: str
    mask: str = ""


@dataclass(frozen=True, slots=True)
class QmdSetup:
    """What making the collections did. `skipped` says why nothing was tried."""

    index_dir: Path
    created: tuple[str, ...] = ()
    present: tuple[str, ...] = ()
    failed: tuple[tuple[str, str], ...] = ()  # (collection, why)
    skipped: str = ""

    def note(self) -> str | None:
        """One line for stderr, or None when there is nothing new to say."""
        if self.skipped:
            return f"qmd: {self.skipped}"
        parts = []
        if self.created:
            parts.append(
                f"created collections {', '.join(self.created)} in the project-local index "
                f"{self.index_dir}"
            )
        parts += [f"could not create {name}: {why}" for name, why in self.failed]
        return f"qmd: {'; '.join(parts)}" if parts else None


def ensure_collections(
    root: Path,
    wanted: Mapping[str, WantedCollection],
    *,
    again: str,
    binary: str | None = None,
) -> QmdSetup:
    """Create each collection of `wanted` (name -> collection) missing from `root`'s
    project-local qmd index.

    Uses the `qmd` on PATH (or `binary`); without one, nothing is done and `skipped` says
    so (and that running `again` afterwards makes them). Collections already there are
    left as they are; a collection qmd fails to create is reported, never raised."""
    index_dir = root / LOCAL_DIR
    binary = binary or shutil.which("qmd")
    if binary is None:
        return QmdSetup(
            index_dir,
            skipped=f"not installed, so queries fall through to ck and grep (install: "
            f"{INSTALL_HINT}; then run {again} again)",
        )
    config_file = index_dir / "index.yml"
    if not config_file.is_file():
        index_dir.mkdir(parents=True, exist_ok=True)
        config_file.write_text("collections: {}\n", encoding="utf-8")
    existing = read_registry(config_file).collections
    present = tuple(name for name in wanted if name in existing)
    created: list[str] = []
    failed: list[tuple[str, str]] = []
    for name, collection in wanted.items():
        if name in existing:
            continue
        why = _add(binary, root, name, root / collection.folder, collection.mask)
        if why:
            failed.append((name, why))
        else:
            created.append(name)
    return QmdSetup(index_dir, tuple(created), present, tuple(failed))


def _add(binary: str, root: Path, name: str, folder: Path, mask: str) -> str:
    """Run `qmd collection add`; "" on success, else a one-line reason."""
    if not folder.is_dir():
        return f"{folder} is not a folder"
    # qmd 2.8 already prefers the `.qmd/` config over these; pointing its config dir and
    # index path there too keeps a qmd that does not (an older one) off the user's index.
    env = {
        **os.environ,
        "PWD": str(root),
        "QMD_CONFIG_DIR": str(root / LOCAL_DIR),
        "INDEX_PATH": str(root / LOCAL_DIR / "index.sqlite"),
    }
    argv: tuple[str, ...] = (binary, "collection", "add", str(folder), "--name", name)
    if mask:
        argv += ("--mask", mask)
    result = run_bounded(argv, Deadline.after(ADD_TIMEOUT_SECONDS), cwd=root, env=env)
    if result.launch_error:
        return f"qmd could not start: {result.launch_error}"
    if result.timed_out:
        return f"qmd collection add took longer than {ADD_TIMEOUT_SECONDS:.0f} s"
    if result.returncode != 0:
        return error_line(result) or f"qmd exited with code {result.returncode}"
    return ""
