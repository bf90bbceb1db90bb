"""`tierscope doctor` against the faithful qmd and ck fakes on PATH: each tier usable or
not and why, versions, qmd's index freshness, models and embeddings per scope,
misconfigured paths, and the config's problems deciding the exit code."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tierscope.api import Project
from tierscope.cli import main
from tierscope.cli.doctor import WIDTH, render
from tierscope.doctor import diagnose, tier_reason
from tierscope.tiers.base import Probe
from tierscope.tiers.qmd_models import DEFAULT_MODELS
from tierscope.tiers.qmd_plan import NOT_INSTALLED
from tierscope.tiers.qmd_probe import UP_TO_DATE

FAKES = Path(__file__).parent / "fakes"

CONFIG = """\
qmd_context:
  tiers: [qmd, ck, grep]
  scopes:
    grimoires:
      qmd_collection: "loa-grimoire"
      ck_path: "grimoires/loa/"
      grep_paths: ["grimoires/loa/"]
    skills:
      qmd_collection: "loa-skills"
      ck_path: ".claude/skills/"
      grep_paths: [".claude/skills/"]
    code:
      qmd_collection: ""
      ck_path: "src/"
      grep_paths: ["src/"]
"""
FILES = {
    ".tierscope.yaml": CONFIG,
    "grimoires/loa/NOTES.md": "# Notes\n\n## Token budget\n\nThe budget caps context.\n",
    "grimoires/loa/prd.md": "# Product\n\nThe pipeline falls back from qmd to grep.\n",
    "grimoires/loa/old.md": "# Old\n\nA plan nobody follows any more.\n",
    ".claude/skills/implement/SKILL.md": "# Implement\n\nWrite the code.\n",
    "src/app.py": "def main():\n    return 0\n",
}


def install(bin_dir: Path, tool: str) -> Path:
    """Put the fake `tool` on PATH, run by this interpreter."""
    launcher = bin_dir / tool
    launcher.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{FAKES / tool}" "$@"\n')
    launcher.chmod(0o755)
    return launcher


def qmd(root: Path, *args: str) -> str:
    completed = subprocess.run(["qmd", *args], cwd=root, capture_output=True, text=True, check=True)
    return completed.stdout


@pytest.fixture
def project(make_project) -> Path:
    return make_project(FILES)


@pytest.fixture
def qmd_installed(path_without_tools) -> Path:
    return install(path_without_tools, "qmd")


@pytest.fixture
def indexed(project, qmd_installed) -> Path:
    """The project with the grimoire's collection (the skills scope's one is missing)."""
    qmd(project, "collection", "add", "grimoires/loa", "--name", "loa-grimoire")
    return project


def tier(report, name: str):
    return next(t for t in report.tiers if t.name == name)


def doctor_cli(capsys, root: Path, *args: str) -> tuple[int, str]:
    code = main(["doctor", "--root", str(root), *args])
    return code, capsys.readouterr().out


def test_without_qmd_on_path_the_qmd_tier_is_not_usable_and_says_why(
    project, path_without_tools, capsys
):
    code, out = doctor_cli(capsys, project, "--json")
    qmd_report = next(t for t in json.loads(out)["tiers"] if t["tier"] == "qmd")

    assert code == 0
    assert qmd_report["usable"] is False
    assert qmd_report["reason"] == NOT_INSTALLED
    assert qmd_report["path"] is None


def test_a_fresh_index_is_reported_up_to_date_with_its_document_count(indexed):
    report = diagnose(Project(indexed))
    grimoires = tier(report, "qmd").by_scope["grimoires"]

    assert grimoires.usable
    assert grimoires.reason == UP_TO_DATE
    indexed_files = len(list((indexed / "grimoires/loa").glob("*.md")))
    assert grimoires.details["freshness"] == {
        "loa-grimoire": f"up to date ({indexed_files} documents)"
    }
    assert "stale_files" not in grimoires.details


def test_a_missing_collection_is_named_with_the_command_that_creates_it(indexed):
    skills = tier(diagnose(Project(indexed)), "qmd").by_scope["skills"]

    assert not skills.usable
    assert skills.reason == "qmd: collection loa-skills not found"
    assert skills.details["missing"] == ["loa-skills"]
    assert skills.details["create_with"] == [
        "qmd collection add .claude/skills --name loa-skills (in the project root)"
    ]


def test_a_stale_index_is_reported_with_its_counts_and_files(indexed, capsys):
    (indexed / "grimoires/loa/NOTES.md").write_text("# Notes\n\nRewritten entirely.\n")
    os.utime(indexed / "grimoires/loa/NOTES.md", (2e9, 2e9))  # surely after indexing
    (indexed / "grimoires/loa/new.md").write_text("# New\n\nA new page.\n")
    (indexed / "grimoires/loa/old.md").unlink()

    grimoires = tier(diagnose(Project(indexed)), "qmd").by_scope["grimoires"]
    _, human = doctor_cli(capsys, indexed)

    expected = (
        "qmd: index 3 files behind (1 changed, 1 added, 1 removed); "
        "refresh with --refresh or qmd update"
    )
    assert grimoires.usable
    assert grimoires.reason == expected
    assert grimoires.details["freshness"] == {
        "loa-grimoire": "3 files behind (1 changed, 1 added, 1 removed)"
    }
    assert grimoires.details["stale_files"] == [
        "loa-grimoire: changed NOTES.md",
        "loa-grimoire: added new.md",
        "loa-grimoire: removed old.md",
    ]
    assert expected in " ".join(human.split())


def test_refreshing_the_index_makes_the_doctor_report_it_up_to_date(indexed):
    (indexed / "grimoires/loa/new.md").write_text("# New\n\nA new page.\n")
    qmd(indexed, "update")

    grimoires = tier(diagnose(Project(indexed)), "qmd").by_scope["grimoires"]

    assert grimoires.reason == UP_TO_DATE


def test_one_stale_scope_does_not_speak_for_the_whole_tier(indexed):
    qmd(indexed, "collection", "add", ".claude/skills", "--name", "loa-skills")
    (indexed / "grimoires/loa/new.md").write_text("# New\n\nA new page.\n")

    qmd_report = tier(diagnose(Project(indexed)), "qmd")

    assert qmd_report.usable
    assert qmd_report.by_scope["skills"].reason == UP_TO_DATE
    assert "1 file behind" in qmd_report.by_scope["grimoires"].reason
    usable = sum(probe.usable for probe in qmd_report.by_scope.values())
    scopes = len(qmd_report.by_scope)
    assert qmd_report.reason == f"usable in {usable} of {scopes} scopes (see each scope)"


def test_missing_models_are_listed_and_a_hybrid_mode_is_reported_as_bm25(indexed, monkeypatch):
    (indexed / ".tierscope.yaml").write_text(CONFIG + "  qmd:\n    mode: query\n")
    models_dir = Path(os.environ["XDG_CACHE_HOME"]) / "qmd" / "models"
    models_dir.mkdir(parents=True)
    embed_file = DEFAULT_MODELS["embed"].rsplit("/", 1)[1]
    (models_dir / f"hf_ggml-org_{embed_file}").write_bytes(b"GGUF" + bytes(60))

    grimoires = tier(diagnose(Project(indexed)), "qmd").by_scope["grimoires"]

    assert grimoires.details["models_present"] == ["embed"]
    assert grimoires.details["models_missing"] == ["generate", "rerank"]
    assert grimoires.details["mode"] == (
        f"search (BM25); hybrid query needs models (missing generate, rerank in {models_dir})"
    )


def test_partial_embeddings_are_counted_and_keep_a_hybrid_mode_on_bm25(indexed):
    (indexed / ".tierscope.yaml").write_text(CONFIG + "  qmd:\n    mode: query\n")
    models_dir = Path(os.environ["XDG_CACHE_HOME"]) / "qmd" / "models"
    models_dir.mkdir(parents=True)
    for uri in DEFAULT_MODELS.values():
        (models_dir / uri.rsplit("/", 1)[1]).write_bytes(b"GGUF" + bytes(60))
    index = Path(os.environ["XDG_CACHE_HOME"]) / "qmd" / "index.sqlite"
    with sqlite3.connect(index) as db:
        hashes = [row[0] for row in db.execute("SELECT hash FROM documents WHERE active = 1")]
        db.execute(
            "INSERT INTO content_vectors (hash, seq, model, embedded_at) VALUES (?, 0, 'm', 'now')",
            (hashes[0],),
        )
    db.close()

    grimoires = tier(diagnose(Project(indexed)), "qmd").by_scope["grimoires"]

    assert grimoires.details["models_missing"] == []
    assert grimoires.details["embeddings"] == {
        "loa-grimoire": f"1 of {len(hashes)} documents embedded"
    }
    assert grimoires.details["mode"] == (
        f"search (BM25); {len(hashes) - 1} of {len(hashes)} documents have no embeddings"
        " (run qmd embed)"
    )


def test_a_project_local_qmd_index_is_the_one_reported(project, qmd_installed):
    local = project / ".qmd"
    local.mkdir()
    (local / "index.yml").write_text("collections: {}\n")

    grimoires = tier(diagnose(Project(project)), "qmd").by_scope["grimoires"]

    assert grimoires.details["project_local"] is True
    assert grimoires.details["config_file"] == str(local / "index.yml")
    assert grimoires.details["index_file"] == str(local / "index.sqlite")


def test_a_scope_with_one_collection_missing_reports_it_and_the_others_state(indexed):
    config = CONFIG.replace('qmd_collection: "loa-skills"', 'qmd_collection: "loa-grimoire,loa-x"')
    (indexed / ".tierscope.yaml").write_text(config)

    skills = tier(diagnose(Project(indexed)), "qmd").by_scope["skills"]

    assert skills.usable
    assert skills.reason == "qmd: collection loa-x not found; the others: index up to date"
    assert skills.details["create_with"] == [
        "qmd collection add <folder> --name loa-x (in the project root)"
    ]


def test_a_relative_collection_path_is_read_against_the_project_root(project, qmd_installed):
    local = project / ".qmd"
    local.mkdir()
    (local / "index.yml").write_text("collections:\n  loa-grimoire:\n    path: grimoires/loa\n")
    env = {**os.environ, "QMD_CONFIG_DIR": str(local), "INDEX_PATH": str(local / "index.sqlite")}
    subprocess.run(["qmd", "update"], cwd=project, env=env, capture_output=True, check=True)

    grimoires = tier(diagnose(Project(project)), "qmd").by_scope["grimoires"]

    assert grimoires.details["collections"] == {"loa-grimoire": str(project / "grimoires/loa")}
    assert grimoires.reason == UP_TO_DATE


def test_tool_paths_and_versions_come_from_the_tools_on_path(indexed, path_without_tools):
    ck = install(path_without_tools, "ck")
    expected = {
        name: subprocess.run([name, "--version"], capture_output=True, text=True).stdout.strip()
        for name in ("qmd", "ck")
    }

    report = diagnose(Project(indexed))

    assert tier(report, "qmd").version == expected["qmd"]
    assert tier(report, "qmd").path == str(path_without_tools / "qmd")
    assert tier(report, "ck").version == expected["ck"]
    assert tier(report, "ck").path == str(ck)
    assert tier(report, "ck").usable


def test_a_ck_path_inside_its_index_directory_is_reported_as_a_misconfiguration(
    make_project, path_without_tools, capsys
):
    config = CONFIG.replace('ck_path: "grimoires/loa/"', 'ck_path: "grimoires/loa/.ck/"')
    root = make_project({**FILES, ".tierscope.yaml": config})
    (root / "grimoires/loa/.ck").mkdir()
    install(path_without_tools, "ck")

    code, out = doctor_cli(capsys, root, "--json")
    grimoires = json.loads(out)["scopes"]["grimoires"]
    _, human = doctor_cli(capsys, root)

    assert code == 0
    assert grimoires["ck_paths"] == ["grimoires/loa"]
    assert {key: grimoires["paths"][0][key] for key in ("tier", "path", "exists", "searched")} == {
        "tier": "ck",
        "path": "grimoires/loa/.ck/",
        "exists": True,
        "searched": False,
    }
    assert any("inside a .ck/ index directory" in note for note in grimoires["notes"])
    assert "inside a .ck/ index directory" in " ".join(human.split())


def test_a_missing_grep_path_is_reported_as_not_existing(make_project, path_without_tools, capsys):
    config = CONFIG.replace('grep_paths: ["src/"]', 'grep_paths: ["src/", "lib/"]')
    root = make_project({**FILES, ".tierscope.yaml": config})

    _, out = doctor_cli(capsys, root, "--json")
    paths = json.loads(out)["scopes"]["code"]["paths"]

    assert [(p["tier"], p["path"], p["exists"]) for p in paths] == [
        ("ck", "src/", True),
        ("grep", "src/", True),
        ("grep", "lib/", False),
    ]


def test_config_errors_are_listed_and_make_the_exit_code_1(
    make_project, path_without_tools, capsys
):
    root = make_project({**FILES, ".tierscope.yaml": CONFIG + "  timeout_seconds: soon\n"})

    code, out = doctor_cli(capsys, root, "--json")
    config = json.loads(out)["config"]
    human_code, human = doctor_cli(capsys, root)

    assert (code, human_code) == (1, 1)
    assert config["valid"] is False
    assert config["path"] == str(root / ".tierscope.yaml")
    [issue] = config["issues"]
    assert issue["severity"] == "error"
    assert "timeout_seconds" in issue["key"]
    assert " ".join(config["problems"][0].split()) in " ".join(human.split())


def test_config_warnings_alone_keep_the_exit_code_0(make_project, path_without_tools, capsys):
    root = make_project({**FILES, ".tierscope.yaml": CONFIG + "  colour: blue\n"})

    code, out = doctor_cli(capsys, root, "--json")
    config = json.loads(out)["config"]

    assert code == 0
    assert config["valid"] is True
    assert [issue["severity"] for issue in config["issues"]] == ["warning"]


def test_human_output_fits_100_columns(indexed, path_without_tools):
    install(path_without_tools, "ck")
    (indexed / "grimoires/loa/new.md").write_text("# New\n\nA new page.\n")

    text = render(diagnose(Project(indexed)))

    # Paths are never split: one longer than a line (a deep temporary folder) overruns,
    # alone on its line.
    overlong = [line for line in text.splitlines() if len(line) > WIDTH]
    assert all(len(line.split()) == 1 for line in overlong), overlong
    assert "qmd" in text and "grimoires" in text


def test_a_root_too_deep_for_a_line_overruns_only_with_its_own_path(
    make_project, path_without_tools
):
    deep = "/".join(["a-folder-with-a-long-name"] * 5)
    root = make_project({**FILES}, name=deep)

    text = render(diagnose(Project(root)))

    overlong = [line for line in text.splitlines() if len(line) > WIDTH]
    assert overlong
    assert all(len(line.split()) == 1 for line in overlong), overlong


def test_json_output_has_every_tier_for_every_scope(indexed, capsys):
    code, out = doctor_cli(capsys, indexed, "--json")
    report = json.loads(out)

    assert code == 0
    assert {"grimoires", "skills", "code"} <= set(report["scopes"])
    assert [t["tier"] for t in report["tiers"]] == ["qmd", "ck", "grep", "store"]
    for tier_report in report["tiers"]:
        assert set(tier_report["scopes"]) == set(report["scopes"])
        assert {"enabled", "usable", "reason", "path", "version"} <= set(tier_report)


def test_the_tier_reason_speaks_of_the_scopes_in_use_not_the_unused_builtin_ones(
    make_project, qmd_installed
):
    # On Textual's copy, with scopes of its own: the qmd row read "collection loa-grimoire
    # not found; collection loa-skills not found; ...", the built-in scopes the same
    # report says are not used here, rather than its own missing collections.
    root = make_project(
        {
            ".tierscope.yaml": "qmd_context:\n  scopes:\n    docs:\n"
            '      qmd_collection: "site-docs"\n      grep_paths: ["docs/"]\n',
            "docs/guide.md": "# Guide\n\nHow it works.\n",
        }
    )
    report = diagnose(Project(root))
    qmd_row = tier(report, "qmd")

    assert "grimoires" in report.unused
    assert qmd_row.reason == (
        "scope all has no qmd collection; qmd: collection site-docs not found"
    )
    assert "loa-" not in render(report, WIDTH)


def test_tier_reason_is_the_shared_one_or_a_count_of_usable_scopes():
    same = {"a": Probe(True, "fine"), "b": Probe(True, "fine"), "c": Probe(False, "no")}
    mixed = {"a": Probe(True, "fine"), "b": Probe(True, "stale"), "c": Probe(False, "no")}
    none = {"a": Probe(False, "missing x"), "b": Probe(False, "missing y")}

    assert tier_reason(same) == "fine"
    assert tier_reason(mixed) == "usable in 2 of 3 scopes (see each scope)"
    assert tier_reason(none) == "missing x; missing y"


def test_doctor_never_imports_textual(indexed):
    script = (
        "import sys\n"
        "from tierscope.cli import main\n"
        f"main(['doctor', '--root', {str(indexed)!r}, '--json'])\n"
        "assert 'textual' not in sys.modules, 'textual imported'\n"
    )
    subprocess.run([sys.executable, "-c", script], capture_output=True, check=True)


# -- a project without Loa's layout ------------------------------------------------------------

PLAIN = {
    "README.md": "# Gauge\n\nA budget meter.\n",
    "docs/meter.md": "# The meter\n",
    "src/meter.py": "def draw():\n    pass\n",
}


def test_scopes_without_any_existing_path_are_problems(make_project, path_without_tools, capsys):
    root = make_project(PLAIN)

    code, human = doctor_cli(capsys, root)
    _, out = doctor_cli(capsys, root, "--json")
    report = json.loads(out)

    assert code == 0  # only an invalid config fails the doctor
    problems = {p["scope"]: p["problem"] for p in report["scope_problems"]}
    assert set(problems) == {"grimoires", "skills", "notes", "reality"}
    assert problems["grimoires"] == "none of its paths exist here (grimoires/loa/)"
    flat = " ".join(human.split())
    assert "! scope grimoires: none of its paths exist here (grimoires/loa/)" in flat
    assert "! scope skills: none of its paths exist here (.claude/skills/)" in flat
    assert flat.count("tierscope init") == 1
    assert "no problems" not in flat


def test_the_adapted_default_scope_is_named_not_counted_as_a_problem(
    make_project, path_without_tools, capsys
):
    root = make_project(PLAIN)

    _, out = doctor_cli(capsys, root, "--json")
    _, human = doctor_cli(capsys, root)
    report = json.loads(out)

    assert "all" not in {p["scope"] for p in report["scope_problems"]}
    assert report["adapted"].startswith("no Loa layout here (grimoires/loa/)")
    assert report["scopes"]["all"]["grep_paths"] == ["."]
    assert "adapted  no Loa layout here" in human


def test_a_builtin_scopes_ck_index_path_is_no_note(make_project, path_without_tools, capsys):
    # A built-in scope's ck_path names ck's index as Loa lays it out (.ck/skills/): ck then
    # searches the scope's grep paths, as built. Nothing for the user to act on.
    root = make_project({**PLAIN, ".claude/skills/x/SKILL.md": "# X\n"})
    _, human = doctor_cli(capsys, root)
    assert "grep path grimoires/loa/ does not exist" in human
    assert "index directory" not in human


def test_a_configured_scope_whose_paths_are_gone_is_a_problem_without_the_init_hint(
    make_project, path_without_tools, capsys
):
    root = make_project(
        {
            **PLAIN,
            "grimoires/loa/NOTES.md": "# Notes\n",
            "grimoires/loa/reality/x.md": "# X\n",
            ".claude/skills/x/SKILL.md": "# X\n",
            ".tierscope.yaml": "qmd_context:\n  scopes:\n    manual:\n      grep_paths: [man/]\n",
        }
    )

    _, out = doctor_cli(capsys, root, "--json")
    _, human = doctor_cli(capsys, root)

    assert json.loads(out)["scope_problems"] == [
        {"scope": "manual", "problem": "none of its paths exist here (man/)"}
    ]
    assert json.loads(out)["adapted"] == ""
    assert "tierscope init" not in human
    assert "adapted" not in human


def test_a_project_whose_scopes_all_exist_has_no_problems(make_project, path_without_tools, capsys):
    root = make_project(
        {
            "grimoires/loa/NOTES.md": "# Notes\n",
            "grimoires/loa/reality/x.md": "# X\n",
            ".claude/skills/x/SKILL.md": "# X\n",
        }
    )
    _, human = doctor_cli(capsys, root)
    assert "no problems" in human
