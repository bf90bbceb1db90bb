"""Dataclass methods compiled once: kept in the user cache, reused by the next start,
and never a risk: a broken or planted cache file only costs a recompile."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

PROBE = """
import tierscope.compiled_dataclasses as cache
import tierscope.models
print(len(cache._code), int(cache._added))
"""


def run_probe(cache_home: Path, **env: str) -> tuple[int, bool]:
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    environment.update(XDG_CACHE_HOME=str(cache_home), **env)
    out = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, env=environment
    ).stdout.split()
    return int(out[0]), out[1] == "1"


def cache_files(cache_home: Path) -> list[Path]:
    return sorted((cache_home / "tierscope").glob("dataclass-code-*.marshal"))


def test_the_first_start_writes_the_cache_and_the_next_one_compiles_nothing(tmp_path):
    entries, compiled = run_probe(tmp_path)
    assert compiled and entries > 10
    [written] = cache_files(tmp_path)
    assert written.stat().st_mode & 0o777 == 0o600

    again, compiled_again = run_probe(tmp_path)
    assert (again, compiled_again) == (entries, False)


def test_a_corrupt_cache_is_ignored_and_rewritten(tmp_path):
    run_probe(tmp_path)
    [written] = cache_files(tmp_path)
    written.write_bytes(b"\x00not marshal at all")

    entries, compiled = run_probe(tmp_path)
    assert compiled and entries > 10
    assert run_probe(tmp_path)[1] is False


def test_a_symlink_planted_at_the_cache_path_is_not_followed(tmp_path):
    run_probe(tmp_path)
    [written] = cache_files(tmp_path)
    decoy = tmp_path / "decoy"
    decoy.write_bytes(b"keep me")
    written.unlink()
    written.symlink_to(decoy)

    run_probe(tmp_path)
    assert decoy.read_bytes() == b"keep me"
    assert not written.is_symlink()


def test_nothing_is_cached_when_python_is_told_not_to_write_bytecode(tmp_path):
    entries, _ = run_probe(tmp_path, PYTHONDONTWRITEBYTECODE="1")
    assert entries == 0
    assert cache_files(tmp_path) == []
