"""Module patterns compiled once: kept in the user cache, served to the engine by the next
start exactly as the compiler made them, and never a risk: a broken, planted or foreign
entry only costs a compile."""

from __future__ import annotations

import json
import marshal
import os
import subprocess
import sys
from pathlib import Path

# Imports a module of many patterns; prints what the cache holds, whether this start added
# to it, and how a few of that module's patterns behave.
PROBE = """
import json, re
import tierscope.compiled_patterns as cache
import tierscope.ranking.code_definitions as definitions
def query_pattern():
    return re.compile("made-from-a-query-[0-9]+")
query_pattern()
behaviour = [
    definitions.defines_a_name(["def walk_depth_first(node):"], 0),
    definitions.defines_a_name(["    x = walk_depth_first(node)"], 0),
]
print(json.dumps({
    "entries": len(cache._entries),
    "added": cache._added,
    "query_pattern_kept": any("made-from-a-query" in str(p) for p, _ in cache._entries),
    "behaviour": [str(b) for b in behaviour],
}))
"""


def run_probe(cache_home: Path, **env: str) -> dict:
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    environment.update(XDG_CACHE_HOME=str(cache_home), **env)
    result = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, env=environment
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def cache_files(cache_home: Path) -> list[Path]:
    return sorted((cache_home / "tierscope").glob("regex-code-*.marshal"))


def test_the_first_start_writes_the_cache_and_the_next_one_compiles_no_module_pattern(tmp_path):
    first = run_probe(tmp_path)
    assert first["added"] and first["entries"] > 20
    [written] = cache_files(tmp_path)
    assert written.stat().st_mode & 0o777 == 0o600

    again = run_probe(tmp_path)
    assert (again["entries"], again["added"]) == (first["entries"], False)
    assert again["behaviour"] == first["behaviour"]


def test_a_pattern_made_at_run_time_is_never_kept(tmp_path):
    assert run_probe(tmp_path)["query_pattern_kept"] is False
    assert run_probe(tmp_path)["query_pattern_kept"] is False


def test_every_cached_entry_is_what_the_compiler_makes_of_its_pattern(tmp_path):
    run_probe(tmp_path)
    [written] = cache_files(tmp_path)
    entries = marshal.loads(written.read_bytes())
    check = """
import json, marshal, re, sys
from re import _compiler
entries = marshal.loads(open(sys.argv[1], "rb").read())
different = []
for (pattern, flags), (final_flags, code, groups, groupindex, indexgroup) in entries.items():
    parsed = re._parser.parse(pattern, flags)
    fresh = [int(op) for op in _compiler._code(parsed, flags)]
    if (fresh, final_flags, groups) != (code, flags | parsed.state.flags, parsed.state.groups - 1):
        different.append(pattern)
    if dict(groupindex) != dict(parsed.state.groupdict):
        different.append(pattern)
print(json.dumps(different))
"""
    environment = {**os.environ, "TIERSCOPE_NO_CODE_CACHE": "1"}
    result = subprocess.run(
        [sys.executable, "-c", check, str(written)],
        capture_output=True,
        text=True,
        env=environment,
        check=True,
    )
    assert len(entries) > 20
    assert json.loads(result.stdout) == []


def test_a_corrupt_cache_is_ignored_and_rewritten(tmp_path):
    run_probe(tmp_path)
    [written] = cache_files(tmp_path)
    written.write_bytes(b"\x00not marshal at all")

    rebuilt = run_probe(tmp_path)
    assert rebuilt["added"] and rebuilt["entries"] > 20
    assert run_probe(tmp_path)["added"] is False


def test_an_entry_the_engine_refuses_is_compiled_anew(tmp_path):
    first = run_probe(tmp_path)
    [written] = cache_files(tmp_path)
    entries = marshal.loads(written.read_bytes())
    for key, (flags, _code, groups, groupindex, indexgroup) in entries.items():
        entries[key] = (flags, [0, 0, 0], groups, groupindex, indexgroup)  # invalid code
    written.write_bytes(marshal.dumps(entries))

    planted = run_probe(tmp_path)
    assert planted["behaviour"] == first["behaviour"] == ["True", "False"]
    assert planted["added"]  # each refused entry was compiled and kept again
    assert run_probe(tmp_path)["added"] is False


def test_an_entry_of_the_wrong_shape_is_dropped_on_reading(tmp_path):
    first = run_probe(tmp_path)
    [written] = cache_files(tmp_path)
    entries = marshal.loads(written.read_bytes())
    for key in entries:
        entries[key] = ("not", "the engine's", "arguments")
    written.write_bytes(marshal.dumps(entries))

    assert run_probe(tmp_path)["behaviour"] == first["behaviour"]


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
    result = run_probe(tmp_path, PYTHONDONTWRITEBYTECODE="1")
    assert result["entries"] == 0
    assert cache_files(tmp_path) == []


def test_nothing_is_cached_with_the_code_cache_switched_off(tmp_path):
    result = run_probe(tmp_path, TIERSCOPE_NO_CODE_CACHE="1")
    assert result["entries"] == 0
    assert cache_files(tmp_path) == []
