"""The bundled demo project: a valid config, a faithful copy, and the cases it promises."""

from __future__ import annotations

import json
import shutil
import subprocess
from datetime import date
from fnmatch import fnmatch
from pathlib import Path

import pytest

from tierscope.config.loader import load_config
from tierscope.config.model import DEFAULT_EXCLUDES
from tierscope.demo import TRAJECTORY_DIR, demo_source, materialise
from tierscope.project import find_root

SOURCE = demo_source()


def relative_files(root: Path) -> set[str]:
    skipped = {".git", "__pycache__"}
    return {
        path.relative_to(root).as_posix()
        for path in root.rglob("*")
        if path.is_file() and not skipped & set(path.relative_to(root).parts)
    }


def trajectory_names(root: Path) -> set[str]:
    return {path.name for path in (root / TRAJECTORY_DIR).glob("*.jsonl")}


def frontmatter(path: Path) -> dict[str, str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    if not lines or lines[0] != "---":
        return {}
    end = lines.index("---", 1)
    return dict(line.split(": ", 1) for line in lines[1:end])


def read_records(path: Path) -> tuple[list[dict], int, bool]:
    """(parsed records, malformed line count, whether the last line is unterminated)."""
    text = path.read_text(encoding="utf-8")
    records, malformed = [], 0
    for line in text.splitlines():
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            malformed += 1
    return records, malformed, not text.endswith("\n")


def test_demo_config_loads_with_zero_problems():
    config = load_config(SOURCE)

    assert config.source.path == SOURCE / ".loa.config.yaml"
    assert config.problems == ()


def test_demo_config_gives_gate_0_a_budget_small_enough_to_cut():
    config = load_config(SOURCE)
    gate = config.skill_override("gate-0")

    assert gate is not None and gate.scope == "notes"
    assert gate.budget < config.default_budget


def test_materialise_copies_every_file_and_renames_only_the_newest_trajectory(tmp_path):
    dest = materialise(tmp_path / "harbor", today=date(2030, 1, 2))

    source_files = relative_files(SOURCE)
    # The .gitignore is written with the repository (see the git test below).
    copied_files = relative_files(dest) - {".gitignore"}
    renamed_away = source_files - copied_files
    renamed_to = copied_files - source_files
    assert len(renamed_away) == 1 and len(renamed_to) == 1
    assert next(iter(renamed_to)).endswith("-2030-01-02.jsonl")
    for name in source_files & copied_files:
        assert (dest / name).read_bytes() == (SOURCE / name).read_bytes()


def test_materialise_includes_dotfiles_and_dot_directories(tmp_path):
    dest = materialise(tmp_path / "harbor")

    assert (dest / ".loa.config.yaml").is_file()
    assert list((dest / ".claude" / "skills").glob("*/SKILL.md"))


def test_newest_trajectory_file_is_renamed_to_today_with_its_content_kept(tmp_path):
    source_names = trajectory_names(SOURCE)
    newest = max(source_names, key=lambda name: name.removesuffix(".jsonl")[-10:])
    agent = newest.removesuffix(".jsonl")[:-11]
    today = date(2031, 6, 15)

    dest = materialise(tmp_path / "harbor", today=today)

    renamed = dest / TRAJECTORY_DIR / f"{agent}-{today.isoformat()}.jsonl"
    assert renamed.read_bytes() == (SOURCE / TRAJECTORY_DIR / newest).read_bytes()
    assert trajectory_names(dest) == (source_names - {newest}) | {renamed.name}


def test_materialise_defaults_to_the_current_date(tmp_path):
    before = date.today()
    dest = materialise(tmp_path / "harbor")
    after = date.today()

    names = trajectory_names(dest)
    assert any(
        name.endswith(f"-{day.isoformat()}.jsonl") for day in {before, after} for name in names
    )


def test_materialise_refuses_a_non_empty_destination(tmp_path):
    (tmp_path / "mine.txt").write_text("keep me")

    with pytest.raises(ValueError, match="not empty"):
        materialise(tmp_path)

    assert sorted(path.name for path in tmp_path.iterdir()) == ["mine.txt"]
    assert (tmp_path / "mine.txt").read_text() == "keep me"


def test_materialise_refuses_a_file_as_destination(tmp_path):
    target = tmp_path / "harbor"
    target.write_text("")

    with pytest.raises(ValueError, match="not a directory"):
        materialise(target)


def test_materialise_accepts_an_existing_empty_directory(tmp_path):
    dest = materialise(tmp_path)

    assert dest == tmp_path.resolve()
    assert (dest / "grimoires" / "loa" / "NOTES.md").is_file()


@pytest.mark.skipif(shutil.which("git") is None, reason="git not installed")
def test_materialised_copy_is_found_as_the_project_root_from_a_subfolder(tmp_path):
    dest = materialise(tmp_path / "harbor")

    assert find_root(cwd=dest / "grimoires" / "loa" / "reality") == dest


def test_demo_has_one_file_for_each_filtering_rule():
    config = load_config(SOURCE)
    markdown = [path.relative_to(SOURCE).as_posix() for path in SOURCE.rglob("*.md")]
    signals = {name: frontmatter(SOURCE / name).get("signal") for name in markdown}

    assert any(fnmatch(name, glob) for name in markdown for glob in DEFAULT_EXCLUDES)
    assert any(name.startswith(config.filtering.archive_zone) for name in markdown)
    assert "low" in signals.values()
    assert "high" in signals.values()


def test_demo_trajectories_show_tolerant_reading_and_an_exceeded_daily_budget():
    config = load_config(SOURCE)
    files = sorted((SOURCE / TRAJECTORY_DIR).glob("*.jsonl"))
    damaged = []
    daily_use = {}
    for path in files:
        records, malformed, unterminated = read_records(path)
        if malformed:
            damaged.append((path.name, malformed, unterminated))
        executes = [record for record in records if record.get("phase") == "execute"]
        daily_use[path.name] = sum(record["budget"]["used"] for record in executes)

    assert len(damaged) == 1
    _, malformed, unterminated = damaged[0]
    assert malformed == 2  # one corrupted line plus the truncated final line
    assert unterminated
    assert max(daily_use.values()) > config.token_budgets.accumulated


def test_every_skill_names_itself_and_shows_its_tierscope_query():
    skills = sorted((SOURCE / ".claude" / "skills").glob("*/SKILL.md"))
    assert len(skills) == 5
    for skill in skills:
        meta = frontmatter(skill)
        assert meta["name"] == skill.parent.name
        assert meta["description"]
        text = skill.read_text(encoding="utf-8")
        assert "## Context" in text
        assert "tierscope query" in text and "--skill" in text


def test_the_copy_is_committed_so_git_diff_shows_only_the_users_changes(tmp_path):
    if shutil.which("git") is None:
        pytest.skip("git not installed")
    root = materialise(tmp_path / "demo")
    (root / "grimoires/loa/a2a/trajectory/implement-2026-12-01.jsonl").write_text("{}\n")
    (root / ".qmd").mkdir()
    status = subprocess.run(
        ["git", "status", "--porcelain"], cwd=root, capture_output=True, text=True, check=True
    )
    assert status.stdout == ""
    (root / "grimoires/loa/NOTES.md").write_text("changed\n")
    diff = subprocess.run(
        ["git", "diff", "--name-only"], cwd=root, capture_output=True, text=True, check=True
    )
    assert diff.stdout.split() == ["grimoires/loa/NOTES.md"]
