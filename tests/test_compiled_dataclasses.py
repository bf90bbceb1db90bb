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


def test_writing_the_cache_removes_this_pythons_caches_of_the_old_formats(tmp_path):
    run_probe(tmp_path)
    [current] = cache_files(tmp_path)
    magic = current.name.removesuffix(".marshal").rsplit("-", 1)[1]
    old = tmp_path / "tierscope" / f"dataclass-code-{magic}.marshal"  # before "v2-"
    v2 = tmp_path / "tierscope" / f"dataclass-code-v2-{magic}.marshal"  # any package's
    other_python = tmp_path / "tierscope" / "dataclass-code-0d0d0a0d.marshal"
    old.write_bytes(b"old")
    v2.write_bytes(b"v2")
    other_python.write_bytes(b"another interpreter's")
    current.unlink()  # the next start compiles, and writes the cache again

    run_probe(tmp_path)
    assert not old.exists() and not v2.exists()
    assert other_python.read_bytes() == b"another interpreter's"
    assert current.exists()


def test_nothing_is_cached_when_python_is_told_not_to_write_bytecode(tmp_path):
    entries, _ = run_probe(tmp_path, PYTHONDONTWRITEBYTECODE="1")
    assert entries == 0
    assert cache_files(tmp_path) == []


SIGNATURE_PROBE = """
import sys
import tierscope
from dataclasses import dataclass, field

assert "inspect" not in sys.modules, "importing tierscope imported inspect"

@dataclass(frozen=True, slots=True)
class Documented:
    '''Has its own docstring.'''
    name: str
    size: int = 0

assert "inspect" not in sys.modules, "a documented dataclass imported inspect"

@dataclass
class Undocumented:
    name: str
    tags: list[str] = field(default_factory=list)

import inspect
assert inspect.signature is not None and inspect.getsource is not None
print(Undocumented.__doc__)
print(Documented.__init__.__annotations__)
"""


def run_signature_probe(cache_home: Path) -> list[str]:
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    environment["XDG_CACHE_HOME"] = str(cache_home)
    result = subprocess.run(
        [sys.executable, "-c", SIGNATURE_PROBE], capture_output=True, text=True, env=environment
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def test_dataclasses_are_the_same_without_inspect_and_from_the_cache(tmp_path):
    plain = [
        "Undocumented(name: str, tags: list[str] = <factory>)",
        "{'name': <class 'str'>, 'size': <class 'int'>, 'return': None}",
    ]
    assert run_signature_probe(tmp_path) == plain  # compiled, then cached
    assert run_signature_probe(tmp_path) == plain  # served from the cache


FOREIGN_PROBE = """
import tierscope.compiled_dataclasses as cache
import tierscope.models
from dataclasses import dataclass

@dataclass(frozen=True)
class Elsewhere:
    '''Another library's data (this module is not tierscope's).'''
    lumen_field: int

print(sum("lumen_field" in source for source in cache._code), Elsewhere(3).lumen_field)
"""


def test_only_tierscopes_own_dataclasses_are_kept_in_the_file_every_start_reads(tmp_path):
    # The workbench imports Textual, the MCP server its SDK, and the cache kept their
    # dataclasses' methods too: each start of a headless query read 1,717 entries where
    # it uses 351, a file growing with every library and every version of it.
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    environment["XDG_CACHE_HOME"] = str(tmp_path)
    for _ in range(2):  # compiled, then (were it kept) served from the file
        result = subprocess.run(
            [sys.executable, "-c", FOREIGN_PROBE],
            capture_output=True,
            text=True,
            env=environment,
            check=True,
        )
        assert result.stdout.split() == ["0", "3"]
    [written] = cache_files(tmp_path)
    assert b"lumen_field" not in written.read_bytes()


def test_past_its_bound_the_file_keeps_what_this_start_used(tmp_path, monkeypatch):
    import marshal

    import tierscope.compiled_dataclasses as cache

    monkeypatch.setattr(cache, "_MAX_ENTRIES", 3)
    monkeypatch.setattr(cache, "_added", True)
    monkeypatch.setattr(cache, "_used", {"used 1", "used 2"})
    monkeypatch.setattr(
        cache, "_code", {f"old {n}": b"x" for n in range(5)} | {"used 1": b"1", "used 2": b"2"}
    )
    path = tmp_path / "cache.marshal"
    cache._save(str(path))
    kept = marshal.loads(path.read_bytes())
    assert len(kept) == 3 and {"used 1", "used 2"} <= set(kept)
