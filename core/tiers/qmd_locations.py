"""Where qmd keeps its state: its collection config, its index and its models, found
the way qmd 2.8 finds them (reference/tools.md), without starting qmd."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path


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
