"""The models a hybrid `qmd query` loads, and whether each is on disk: without them the
query hangs forever retrying a download, so it must never be started."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from .qmd_collections import Registry
from .qmd_locations import QmdLocations

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
