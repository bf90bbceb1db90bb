"""tierscope's own state inside a ck search path — the trajectory log a query writes before
ck runs, a store file in the project — is excluded from ck's search with `--exclude`, not
only dropped from its results: in ck's fused ranking the log (which holds the query word
for word) would otherwise push the real answers out of the top k."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tierscope.cli import main
from tierscope.tiers.ck import exclude_patterns

from tier_projects import write_files

FAKE_CK = Path(__file__).parent / "fakes" / "ck"

FILES = {
    # Answers the query below without repeating it word for word, as documents do.
    "grimoires/loa/deploy.md": "# Deployment\n\nWhen a release fails, undo it: roll it back.\n",
    "grimoires/loa/notes.md": "# Notes\n\nThe harbour crane was repaired on Tuesday.\n",
}


@pytest.fixture
def ck_env(tmp_path) -> dict[str, str]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "ck").symlink_to(FAKE_CK)
    environment = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}/usr/bin{os.pathsep}/bin"}
    for name in ("FAKE_CK_BEHAVIOUR", "FAKE_CK_PIDFILE", "CK_INDEX_DIR"):
        environment.pop(name, None)
    environment["FAKE_CK_ARGV_LOG"] = str(tmp_path / "ck-argv.jsonl")
    return environment


def test_a_scope_whose_ck_path_holds_the_trajectory_log_still_answers_from_ck(
    tmp_path, ck_env, monkeypatch, capsys
):
    root = write_files(tmp_path / "project", FILES)
    # ck_path grimoires/loa/ holds grimoires/loa/a2a/trajectory/, the default log directory.
    (root / ".tierscope.yaml").write_text(
        "qmd_context:\n"
        "  tiers: [ck]\n"
        "  ck: {limit: 1}\n"
        "  scopes:\n"
        "    docs:\n"
        "      ck_path: grimoires/loa/\n"
        "      grep_paths: [grimoires/loa/]\n"
    )
    for name, value in ck_env.items():
        monkeypatch.setenv(name, value)
    # A session's worth of the same question: the log repeats it word for word, more and
    # more of ck's top results would be log chunks.
    for _ in range(8):
        assert main(["query", "roll back a failed release", "--scope", "docs",
                     "--root", str(root)]) == 0  # fmt: skip
    capsys.readouterr()
    assert main(["query", "roll back a failed release", "--scope", "docs", "--explain",
                 "--root", str(root)]) == 0  # fmt: skip
    explained = json.loads(capsys.readouterr().out)
    assert (root / "grimoires/loa/a2a/trajectory").is_dir()
    [ck] = [tier for tier in explained["trace"]["tiers"] if tier["tier"] == "ck"]
    assert ck["status"] == "served", ck["reason"]
    assert [hit["source"] for hit in explained["results"]] == ["grimoires/loa/deploy.md"]


def test_only_private_paths_inside_a_search_path_are_excluded(tmp_path):
    root = tmp_path / "project"
    search = root / "grimoires/loa"
    private = (
        root / "grimoires/loa/a2a/trajectory",
        root / "context.sqlite",
        tmp_path / "elsewhere/state",
        root / "grimoires/loa/odd [name]*?.sqlite",
        root / "grimoires/loa/trailing  ",
    )
    assert exclude_patterns((search,), private) == (
        "/a2a/trajectory",
        "/odd \\[name]\\*\\?.sqlite",
        "/trailing\\ \\ ",
    )
    assert exclude_patterns((root,), private[:2]) == (
        "/grimoires/loa/a2a/trajectory",
        "/context.sqlite",
    )


# -- the fake follows ck: --exclude takes gitignore-style globs, relative to the search path


def run_fake(root: Path, env: dict[str, str], *args: str) -> list[str]:
    result = subprocess.run(
        ["ck", "--lex", "--jsonl", *args], cwd=root, env=env, capture_output=True, text=True
    )
    return sorted(json.loads(line)["path"] for line in result.stdout.splitlines())


def test_the_fake_ck_prunes_an_excluded_directory_anchored_at_the_search_path(tmp_path, ck_env):
    root = write_files(
        tmp_path / "p",
        {
            "docs/a2a/trajectory/log.jsonl": "release\n",
            "docs/deep/a2a/trajectory/kept.md": "release\n",
            "docs/top.md": "release\n",
        },
    )
    assert run_fake(root, ck_env, "--exclude", "/a2a/trajectory", "release", "docs") == [
        "docs/deep/a2a/trajectory/kept.md",
        "docs/top.md",
    ]
    assert run_fake(root, ck_env, "--exclude", "trajectory", "release", "docs") == ["docs/top.md"]
    assert run_fake(root, ck_env, "--exclude", "*.jsonl", "release", "docs") == [
        "docs/deep/a2a/trajectory/kept.md",
        "docs/top.md",
    ]
