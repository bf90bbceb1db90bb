"""The qmd tier against the real qmd installed by scripts/setup-qmd (Node 22 and
@tobilu/qmd under .cache/tools/), and the fake qmd held to the real one (same index, same
answers). Without it every test here skips, saying so."""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest

from tierscope.config.model import Config, QmdSettings
from tierscope.models import ResolvedScope, TierStatus
from tierscope.process import run_bounded
from tierscope.tiers.base import Deadline, TierRequest
from tierscope.tiers.qmd import QmdTier
from tierscope.tiers.qmd_collections import Collection, collection_files, read_registry
from tierscope.tiers.qmd_freshness import check_freshness
from tierscope.tiers.qmd_locations import locate

from process_watch import process_exists
from qmd_rankings import (
    RANKING_COLLECTION,
    RANKING_WORDS,
    ranked_by_fast_path,
    ranked_by_qmd_search,
    ranking_files,
)
from tier_projects import QMD_PROJECT_FILES, SELECTION_MASKS, write_files, write_selection_tree

REAL_QMD = Path(__file__).resolve().parents[1] / ".cache" / "tools" / "bin" / "qmd"
pytestmark = pytest.mark.skipif(
    not REAL_QMD.is_file(), reason="real qmd not installed: run scripts/setup-qmd"
)
GENEROUS = 60.0

FILES = {
    **QMD_PROJECT_FILES,
    ".tierscope.yaml": (
        "qmd_context:\n"
        "  scopes:\n"
        "    elsewhere:\n"
        "      qmd_collection: loa-nowhere\n"
        '      ck_path: ""\n'
        "      grep_paths: [grimoires/loa/]\n"
    ),
}
COLLECTIONS = {
    "loa-grimoire": "grimoires/loa",
    "loa-reality": "grimoires/loa/reality",
    "loa-skills": ".claude/skills",
}


def write_project(root: Path) -> Path:
    return write_files(root, FILES)


def qmd_environment(base: Path) -> dict[str, str]:
    return {
        "XDG_CONFIG_HOME": str(base / "config"),
        "XDG_CACHE_HOME": str(base / "cache"),
        "PATH": f"{REAL_QMD.parent}{os.pathsep}{os.environ.get('PATH', '')}",
    }


def add_collections(root: Path, env: dict[str, str], names: dict[str, str]) -> None:
    for name, relative in names.items():
        subprocess.run(
            ["qmd", "collection", "add", relative, "--name", name],
            cwd=root,
            env={**os.environ, **env},
            capture_output=True,
            check=True,
        )


@pytest.fixture(scope="module")
def shared(tmp_path_factory) -> tuple[Path, dict[str, str]]:
    """One indexed project for the read-only tests: (root, qmd environment)."""
    base = tmp_path_factory.mktemp("real-qmd")
    root = write_project(base / "project")
    env = qmd_environment(base)
    add_collections(root, env, COLLECTIONS)
    return root, env


@pytest.fixture
def project(shared, monkeypatch) -> Path:
    """The shared project, searched through the qmd CLI (what most tests here check)."""
    root, env = shared
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("TIERSCOPE_QMD_FAST_PATH", "0")
    return root


@pytest.fixture
def indexed(project, monkeypatch) -> Path:
    """The shared project, allowed to read qmd's index directly."""
    monkeypatch.delenv("TIERSCOPE_QMD_FAST_PATH")
    return project


@pytest.fixture
def own_project(tmp_path, monkeypatch) -> Path:
    """A project indexed for one test, free to change its files."""
    root = write_project(tmp_path / "project")
    env = qmd_environment(tmp_path)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    add_collections(root, env, {"loa-grimoire": "grimoires/loa"})
    return root


def make_request(
    root: Path,
    query: str,
    collections: tuple[str, ...] = ("loa-grimoire",),
    config: Config | None = None,
) -> TierRequest:
    scope = ResolvedScope("grimoires", collections, (), ())
    return TierRequest(query, root, scope, config or Config(), GENEROUS)


def search(request: TierRequest, seconds: float = GENEROUS):
    return QmdTier().search(request, Deadline.after(seconds))


def tierscope_query(root: Path, *args: str) -> dict:
    completed = subprocess.run(
        [sys.executable, "-m", "tierscope", "query", *args, "--explain", "--no-trajectory"],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(completed.stdout)


def tier_trace(explained: dict, tier: str) -> dict:
    return next(t for t in explained["trace"]["tiers"] if t["tier"] == tier)


def processes_mentioning(marker: str) -> list[int]:
    """Live processes whose command line contains marker (read from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if marker.encode() in cmdline and process_exists(int(entry.name)):
            found.append(int(entry.name))
    return found


def test_tierscope_query_is_served_by_qmd_with_root_relative_sources_and_lines(project):
    explained = tierscope_query(project, "token budget", "--scope", "grimoires")

    assert explained["trace"]["served_by"] == "qmd"
    [hit] = explained["results"]
    assert hit["tier"] == "qmd"
    assert hit["source"] == "grimoires/loa/NOTES.md"
    assert not hit["content"].startswith("@@")
    lines = (project / hit["source"]).read_text().splitlines()
    assert hit["content"] == "\n".join(lines[hit["line_start"] - 1 : hit["line_end"]])
    assert "The token budget caps" in hit["content"]


def test_a_file_name_with_spaces_and_parentheses_maps_back_to_the_file(project):
    outcome = search(make_request(project, "harbour crane"))

    assert [hit.source for hit in outcome.hits] == ["grimoires/loa/sprint notes (draft 2).md"]


def test_what_real_qmd_search_misses_as_an_and_one_or_query_finds(project):
    raw = subprocess.run(
        ["qmd", "search", "--json", "-c", "loa-grimoire", "--", "kubernetes lighthouse"],
        cwd=project,
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(raw.stdout) == []

    outcome = search(make_request(project, "kubernetes lighthouse"))

    assert outcome.status is TierStatus.SERVED
    assert outcome.argv[1:3] == ("query", "--no-rerank")
    assert outcome.argv[-1] == "lex: kubernetes\nlex: lighthouse"
    assert {hit.source for hit in outcome.hits} == {
        "grimoires/loa/prd.md",
        "grimoires/loa/reality/api.md",
    }


def test_a_query_starting_with_a_dash_reaches_real_qmd_as_text(project):
    outcome = search(make_request(project, "--kubernetes"))

    assert outcome.argv[-2:] == ("--", "lex: kubernetes")
    assert [hit.source for hit in outcome.hits] == ["grimoires/loa/prd.md"]


def test_an_unknown_collection_is_unavailable_and_the_query_falls_through(project):
    explained = tierscope_query(project, "harbour crane", "--scope", "elsewhere")

    qmd = tier_trace(explained, "qmd")
    assert qmd["status"] == "unavailable"
    assert qmd["reason"] == "qmd: collection loa-nowhere not found"
    assert explained["trace"]["served_by"] == "grep"


def test_hybrid_mode_without_models_is_detected_and_bm25_used(project):
    config = replace(Config(), qmd=QmdSettings(mode="query"))

    # Started, the hybrid call would hang until this deadline and time out.
    outcome = search(make_request(project, "token budget", config=config), seconds=20)

    assert outcome.status is TierStatus.SERVED
    assert outcome.argv[1:3] == ("query", "--no-rerank")
    assert any("hybrid query needs models (none in" in note for note in outcome.notes)


def free_loopback_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_a_real_qmd_running_past_its_deadline_is_killed_with_its_worker(project):
    # A hybrid `query` without models hangs in a full install, but fails at once where
    # setup-qmd skipped the llama.cpp build; `qmd mcp --http` runs until killed in both,
    # through the same launcher-plus-worker pair of node processes.
    port = str(free_loopback_port())
    argv = (str(REAL_QMD), "mcp", "--http", "--port", port)
    marker = f"--port\0{port}"  # as it stands in both processes' /proc cmdline
    results = []
    runner = threading.Thread(
        target=lambda: results.append(run_bounded(argv, Deadline.after(4.0), cwd=project))
    )
    most_seen = 0
    runner.start()
    while runner.is_alive():
        most_seen = max(most_seen, len(processes_mentioning(marker)))
        time.sleep(0.1)
    runner.join()

    assert results[0].timed_out
    # The launcher and the worker it started were both running...
    assert most_seen >= 2
    # ...and neither outlives the deadline.
    until = time.monotonic() + 5
    while processes_mentioning(marker) and time.monotonic() < until:
        time.sleep(0.05)
    assert processes_mentioning(marker) == []


def test_a_fresh_real_index_is_read_by_content_hashes(project):
    locations = locate(project)
    registry = read_registry(locations.config_file)

    for name in COLLECTIONS:
        freshness = check_freshness(registry.collections[name], locations.index_file)
        assert freshness.method == "hashes"
        assert freshness.behind == 0


def test_an_edit_is_reported_as_staleness_and_refresh_fixes_it(own_project):
    notes = own_project / "grimoires/loa/NOTES.md"
    notes.write_text(notes.read_text() + "\n## Zeppelin\n\nThe zeppelin manifest.\n")
    later = time.time() + 5
    os.utime(notes, (later, later))

    stale = tierscope_query(own_project, "zeppelin manifest", "--scope", "grimoires")
    qmd = tier_trace(stale, "qmd")
    assert qmd["status"] == "empty"
    assert (
        "qmd: index 1 file behind (1 changed); refresh with --refresh or qmd update"
        in (qmd["notes"])
    )

    refreshed = tierscope_query(
        own_project, "zeppelin manifest", "--scope", "grimoires", "--refresh"
    )
    qmd = tier_trace(refreshed, "qmd")
    assert qmd["status"] == "served"
    assert not any("behind" in note for note in qmd["notes"])
    assert refreshed["results"][0]["source"] == "grimoires/loa/NOTES.md"
    assert "zeppelin manifest" in refreshed["results"][0]["content"]


def tierscope(root: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tierscope", *args],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )


def doctor_qmd(root: Path) -> dict:
    """The qmd tier of `tierscope doctor --json`, its scopes limited to those with
    collections."""
    completed = tierscope(root, "doctor", "--json")
    assert completed.returncode == 0, completed.stderr
    qmd = next(t for t in json.loads(completed.stdout)["tiers"] if t["tier"] == "qmd")
    qmd["scopes"] = {name: s for name, s in qmd["scopes"].items() if s["details"]}
    return qmd


def test_the_demo_walkthrough_fresh_served_stale_refreshed(tmp_path, monkeypatch):
    for name, value in qmd_environment(tmp_path).items():
        monkeypatch.setenv(name, value)
    user_dirs = [tmp_path / "config" / "qmd", tmp_path / "cache" / "qmd"]
    demo = tmp_path / "qmddemo"

    # A new user's first run: the demo's collections appear in the copy's own index.
    made = tierscope(tmp_path, "demo", str(demo), "--print")
    assert made.returncode == 0, made.stderr
    assert "created collections loa-grimoire, loa-skills, loa-reality" in made.stderr
    registry = read_registry(demo / ".qmd" / "index.yml")
    assert sorted(registry.collections) == ["loa-grimoire", "loa-reality", "loa-skills"]
    assert [p for d in user_dirs if d.exists() for p in d.rglob("*")] == []

    fresh = doctor_qmd(demo)
    assert fresh["usable"]
    assert fresh["reason"] == "qmd: index up to date"
    assert fresh["version"].startswith("qmd 2.")
    assert fresh["scopes"]
    for scope in fresh["scopes"].values():
        assert all(text.startswith("up to date") for text in scope["details"]["freshness"].values())

    served = tierscope_query(demo, "rollback deployment")
    assert served["trace"]["served_by"] == "qmd"
    assert not any("behind" in note for note in tier_trace(served, "qmd")["notes"])
    scores = [hit["score"] for hit in served["results"]]
    assert scores == sorted(scores, reverse=True) and 0 < scores[-1] <= scores[0] < 1

    notes = demo / "grimoires/loa/NOTES.md"
    notes.write_text(notes.read_text() + "\n## Zeppelin\n\nThe zeppelin manifest drill.\n")
    later = time.time() + 5
    os.utime(notes, (later, later))

    stale = doctor_qmd(demo)
    behind = "qmd: index 1 file behind (1 changed); refresh with --refresh or qmd update"
    assert stale["scopes"]["grimoires"]["reason"] == behind
    assert stale["scopes"]["grimoires"]["details"]["stale_files"] == [
        "loa-grimoire: changed NOTES.md"
    ]
    assert stale["scopes"]["skills"]["reason"] == "qmd: index up to date"
    explained = tierscope_query(demo, "rollback deployment", "--scope", "grimoires")
    assert explained["trace"]["served_by"] == "qmd"
    assert behind in tier_trace(explained, "qmd")["notes"]

    refreshed = tierscope_query(demo, "zeppelin manifest", "--scope", "grimoires", "--refresh")
    qmd = tier_trace(refreshed, "qmd")
    assert qmd["status"] == "served"
    assert any(note.startswith("qmd: index refreshed") for note in qmd["notes"])
    assert not any("behind" in note for note in qmd["notes"])
    assert refreshed["results"][0]["source"] == "grimoires/loa/NOTES.md"
    assert doctor_qmd(demo)["reason"] == "qmd: index up to date"
    assert [p for d in user_dirs if d.exists() for p in d.rglob("*")] == []


@pytest.mark.parametrize(
    "query", ["token budget", "rollback", "lighthouse", "crane repaired", "kubernetes lighthouse"]
)
def test_reading_the_index_directly_agrees_with_the_qmd_cli(indexed, monkeypatch, query):
    collections = ("loa-grimoire", "loa-skills")
    direct = search(make_request(indexed, query, collections))
    monkeypatch.setenv("TIERSCOPE_QMD_FAST_PATH", "0")
    through_cli = search(make_request(indexed, query, collections))

    assert direct.argv[0] == "qmd-index"
    assert through_cli.argv[0].endswith("qmd")
    assert direct.status is through_cli.status is TierStatus.SERVED
    assert [(h.source, h.score, h.content) for h in direct.hits] == [
        (h.source, h.score, h.content) for h in through_cli.hits
    ]
    for hit in direct.hits:
        lines = (indexed / hit.source).read_text().splitlines()
        assert hit.content == "\n".join(lines[hit.line_start - 1 : hit.line_end]).strip("\n")


@pytest.mark.parametrize("mask", SELECTION_MASKS)
def test_collection_files_are_the_files_real_qmd_indexes(tmp_path, monkeypatch, mask):
    root = write_selection_tree(tmp_path / "tree")
    env = qmd_environment(tmp_path)
    subprocess.run(
        ["qmd", "collection", "add", ".", "--name", "tree", "--mask", mask],
        cwd=root,
        env={**os.environ, **env},
        capture_output=True,
        check=True,
    )

    index_file = Path(env["XDG_CACHE_HOME"]) / "qmd" / "index.sqlite"
    indexed = sqlite3.connect(index_file).execute(
        "SELECT path FROM documents WHERE collection = 'tree' AND active = 1"
    )
    selected = {path for path, entry in collection_files(Collection("tree", root, mask))}
    assert {path for (path,) in indexed} == selected - {"blank.md"}


@pytest.fixture(scope="module")
def ranking(tmp_path_factory) -> tuple[Path, dict[str, str]]:
    """A collection whose matches all score apart (see qmd_rankings): (root, environment)."""
    base = tmp_path_factory.mktemp("real-qmd-ranking")
    root = write_files(base / "ranking", ranking_files())
    env = {**os.environ, **qmd_environment(base)}
    add_collections(root, env, {RANKING_COLLECTION: "."})
    return root, env


@pytest.mark.parametrize("word", RANKING_WORDS)
def test_the_index_fast_path_ranks_and_scores_as_real_qmd_search_does(ranking, word):
    root, env = ranking
    index_file = Path(env["XDG_CACHE_HOME"]) / "qmd" / "index.sqlite"
    direct = ranked_by_fast_path(index_file, RANKING_COLLECTION, word, 50)
    through_cli = ranked_by_qmd_search(root, RANKING_COLLECTION, word, 50, env=env)

    assert len(direct) >= 10
    assert all(0 < score < 1 for _, score in direct)
    assert direct == through_cli


def test_reading_the_index_directly_ors_every_term_in_one_match(indexed):
    outcome = search(make_request(indexed, "kubernetes lighthouse"))

    assert outcome.status is TierStatus.SERVED
    assert outcome.argv[-1] == '"kubernet"* OR "lighthous"*'
    assert {h.source for h in outcome.hits} == {
        "grimoires/loa/prd.md",
        "grimoires/loa/reality/api.md",
    }


def test_the_installed_version_is_asked_once_and_remembered(indexed, monkeypatch):
    from tierscope import tool_version
    from tierscope.project import user_dir

    (user_dir("cache") / tool_version.CACHE_NAME).unlink(missing_ok=True)
    calls = []
    real_run = tool_version.run_bounded

    def counting(argv, deadline, **kwargs):
        calls.append(argv)
        return real_run(argv, deadline, **kwargs)

    monkeypatch.setattr(tool_version, "run_bounded", counting)
    for _ in range(3):
        assert search(make_request(indexed, "rollback")).argv[0] == "qmd-index"
    assert [argv[1:] for argv in calls] == [("--version",)]


# ------------------------------------------------------------ the fake against the real qmd

FAKE_QMD = Path(__file__).parent / "fakes" / "qmd"
SEARCHES = (
    "token budget",
    "budgets",
    '"roll back"',
    "deploy -kubernetes",
    "crane",
    "multi-agent",
    "1.2.3",
)


def index_state(index_file: Path) -> dict:
    """What an adapter can read from a qmd index: its schema, documents and FTS rows."""
    conn = sqlite3.connect(index_file)
    try:
        return {
            "schema": conn.execute(
                "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name"
            ).fetchall(),
            "version": conn.execute("PRAGMA user_version").fetchall(),
            "documents": conn.execute(
                "SELECT id, collection, path, title, hash, active FROM documents ORDER BY id"
            ).fetchall(),
            "fts": conn.execute(
                "SELECT rowid, filepath, title, body FROM documents_fts ORDER BY rowid"
            ).fetchall(),
            "collections": conn.execute(
                "SELECT name, pattern, ignore_patterns, include_by_default"
                " FROM store_collections ORDER BY name"
            ).fetchall(),
        }
    finally:
        conn.close()


def run_qmd(program: list[str], root: Path, env: dict[str, str], *args: str) -> str:
    completed = subprocess.run(
        [*program, *args], cwd=root, env=env, capture_output=True, text=True, check=True
    )
    return completed.stdout


@pytest.mark.parametrize("files", [QMD_PROJECT_FILES, ranking_files()], ids=["project", "ranked"])
def test_the_fake_qmd_indexes_and_answers_as_the_real_one_does(tmp_path, files):
    programs = {"real": [str(REAL_QMD)], "fake": [sys.executable, str(FAKE_QMD)]}
    seen = {}
    for name, program in programs.items():
        root = write_files(tmp_path / name / "project", files)
        env = {**os.environ, **qmd_environment(tmp_path / name)}
        run_qmd(program, root, env, "collection", "add", ".", "--name", "all")
        answers = [run_qmd(program, root, env, "search", q, "--json") for q in SEARCHES]
        answers += [
            run_qmd(program, root, env, "search", word, "--json", "-c", "all", "-n", "7")
            for word in RANKING_WORDS
        ]
        lex = "\n".join(f"lex: {word}" for word in ("budget", *RANKING_WORDS))
        answers.append(run_qmd(program, root, env, "query", lex, "--no-rerank", "--json"))
        state = index_state(Path(env["XDG_CACHE_HOME"]) / "qmd" / "index.sqlite")
        seen[name] = json.loads(json.dumps([answers, state]).replace(str(tmp_path / name), ""))

    assert any('"score"' in answer for answer in seen["real"][0])
    assert seen["fake"] == seen["real"]
