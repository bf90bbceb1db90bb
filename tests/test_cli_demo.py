"""`tierscope demo` and qmd: with a qmd on PATH, the demo copy's scopes get their
collections in a project-local index (the user's own qmd files untouched) and the example
queries are served by qmd; without one, a single note and the queries fall through."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from tierscope.api import Project
from tierscope.cli import main
from tierscope.config.loader import load_config
from tierscope.demo import demo_source
from tierscope.demo.qmd_setup import DEMO_COLLECTIONS, LOCAL_DIR, ensure_collections
from tierscope.doctor import diagnose
from tierscope.scopes import resolve_scope
from tierscope.tiers.qmd_collections import read_registry
from tierscope.tiers.qmd_probe import UP_TO_DATE


def collection_adds(log: Path) -> list[str]:
    """The names of the collections `qmd collection add` was asked to create."""
    if not log.exists():
        return []
    calls = [json.loads(line) for line in log.read_text().splitlines()]
    return [call[call.index("--name") + 1] for call in calls if call[:2] == ["collection", "add"]]


def run_demo(capsys, dest: Path) -> tuple[int, str, str]:
    code = main(["demo", str(dest), "--print"])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def explained_queries(out: str) -> list[dict]:
    """The --explain objects `demo --print` printed, one per example query."""
    blocks = [block for block in out.split("\n$ ") if block.strip()]
    return [json.loads(block.split("\n", 1)[1]) for block in blocks]


def qmd_notes(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("qmd:")]


def user_qmd_files() -> list[Path]:
    """Whatever qmd keeps in the user's own config and cache dirs."""
    places = [Path(os.environ[name]) / "qmd" for name in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME")]
    return [path for place in places if place.exists() for path in place.rglob("*")]


def test_every_collection_the_demo_scopes_name_is_one_the_demo_creates():
    config = load_config(demo_source())
    named = {
        name
        for scope in config.scopes
        for name in resolve_scope(scope, config, demo_source()).qmd_collections
    }

    assert named == set(DEMO_COLLECTIONS)
    assert all((demo_source() / folder).is_dir() for folder in DEMO_COLLECTIONS.values())


def test_demo_creates_the_collections_in_a_project_local_index_only(qmd_on_path, tmp_path, capsys):
    dest = tmp_path / "demo"

    code, _, err = run_demo(capsys, dest)
    registry = read_registry(dest / LOCAL_DIR / "index.yml")

    assert code == 0
    assert {name: c.root for name, c in registry.collections.items()} == {
        name: dest / folder for name, folder in DEMO_COLLECTIONS.items()
    }
    assert (dest / LOCAL_DIR / "index.sqlite").is_file()
    assert user_qmd_files() == []
    [note] = qmd_notes(err)
    assert "created collections loa-grimoire, loa-skills, loa-reality" in note


def test_demo_print_queries_are_served_by_qmd(qmd_on_path, tmp_path, capsys):
    _, out, _ = run_demo(capsys, tmp_path / "demo")

    served = [query["trace"]["served_by"] for query in explained_queries(out)]

    assert served and set(served) == {"qmd"}


def test_the_doctor_reports_the_demo_collections_up_to_date(qmd_on_path, tmp_path, capsys):
    dest = tmp_path / "demo"
    run_demo(capsys, dest)

    qmd_report = next(t for t in diagnose(Project(dest)).tiers if t.name == "qmd")

    with_collections = {
        scope: probe for scope, probe in qmd_report.by_scope.items() if probe.details
    }
    assert with_collections
    assert {probe.reason for probe in with_collections.values()} == {UP_TO_DATE}


def test_a_reused_copy_gets_only_the_collections_it_lacks(qmd_on_path, argv_log, tmp_path, capsys):
    dest = tmp_path / "demo"
    run_demo(capsys, dest)
    first = collection_adds(argv_log)
    argv_log.unlink()
    _, _, again_err = run_demo(capsys, dest)
    nothing_missing = collection_adds(argv_log)

    subprocess.run(
        ["qmd", "collection", "remove", "loa-skills"], cwd=dest, capture_output=True, check=True
    )
    code, _, err = run_demo(capsys, dest)

    assert first == list(DEMO_COLLECTIONS)
    assert nothing_missing == []
    assert qmd_notes(again_err) == []
    assert code == 0
    assert collection_adds(argv_log) == ["loa-skills"]
    assert "created collections loa-skills in" in qmd_notes(err)[0]


def test_without_qmd_the_demo_says_so_once_and_the_queries_fall_through(
    path_without_tools, tmp_path, capsys
):
    dest = tmp_path / "demo"

    code, out, err = run_demo(capsys, dest)

    assert code == 0
    [note] = qmd_notes(err)
    assert "not installed" in note and "scripts/setup-qmd" in note
    assert not (dest / LOCAL_DIR).exists()
    assert "qmd" not in {query["trace"]["served_by"] for query in explained_queries(out)}


def test_a_failing_qmd_is_reported_per_collection_and_the_demo_goes_on(
    qmd_on_path, tmp_path, capsys, monkeypatch
):
    monkeypatch.setenv("FAKE_QMD_BEHAVIOUR", "crash")
    dest = tmp_path / "demo"

    code, out, err = run_demo(capsys, dest)

    assert code == 0
    [note] = qmd_notes(err)
    for name in DEMO_COLLECTIONS:
        assert f"could not create {name}: SqliteError: database disk image is malformed" in note
    assert len(explained_queries(out)) >= 1


def test_a_collection_folder_that_is_gone_is_reported_not_attempted(
    qmd_on_path, argv_log, tmp_path
):
    dest = tmp_path / "demo"
    (dest / "grimoires/loa/reality").mkdir(parents=True)
    (dest / "grimoires/loa/reality/x.md").write_text("# X\n")

    setup = ensure_collections(dest)

    assert setup.created == ("loa-grimoire", "loa-reality")
    assert [name for name, _ in setup.failed] == ["loa-skills"]
    assert "is not a folder" in setup.failed[0][1]
    assert collection_adds(argv_log) == ["loa-grimoire", "loa-reality"]
