"""A headless query starts with only what it uses (DESIGN §6: start-up within 50 ms of
bare Python) and its process ends as soon as the answer is out. Measured in bench/; held
here by what a query imports, never by time."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

# What a query must not import: the workbench, modules it has no use for (the YAML parser
# without a config file; `inspect` and `copy`, which `dataclasses` imports for docless
# classes and for asdict; `typing`; `tempfile` and `shutil`, with the archive modules;
# `datetime`), each up to a few ms.
NEVER = ("textual", "inspect", "copy", "typing", "tempfile", "shutil", "datetime")

PROBE = """
import json, sys
from tierscope.cli import main
code = main(sys.argv[1:])
print(json.dumps({"code": code, "modules": sorted(sys.modules)}), file=sys.stderr)
"""


def imports_of_a_query(root: Path, *args: str) -> set[str]:
    """The modules loaded once `tierscope query ...` has answered (in a fresh process)."""
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    result = subprocess.run(
        [sys.executable, "-c", PROBE, "query", *args, "--root", str(root), "--json"],
        capture_output=True,
        text=True,
        env=environment,
        check=True,
    )
    report = json.loads(result.stderr.strip().splitlines()[-1])
    assert report["code"] == 0
    return set(report["modules"])


def loaded(modules: set[str], name: str) -> bool:
    return name in modules or any(m.startswith(name + ".") for m in modules)


def test_a_query_in_an_empty_project_imports_nothing_it_does_not_use(tmp_path):
    modules = imports_of_a_query(tmp_path, "token budget")
    assert [name for name in (*NEVER, "yaml") if loaded(modules, name)] == []
    # Nothing to search: no process to start, nothing to rank, read or cut.
    for name in ("subprocess", "tierscope.tiers.grep_ripgrep", "tierscope.ranking.candidates",
                 "tierscope.tiers.file_hits", "tierscope.ranking.sections"):  # fmt: skip
        assert name not in modules, name


def test_a_query_that_answers_imports_nothing_it_does_not_use(make_project):
    root = make_project({"docs/budget.md": "# Budget\n\nThe token budget is 2000.\n"})
    modules = imports_of_a_query(root, "token budget")
    assert "tierscope.tiers.file_hits" in modules  # it did answer
    assert [name for name in (*NEVER, "yaml") if loaded(modules, name)] == []


def test_only_a_config_file_brings_in_the_yaml_parser(make_project):
    root = make_project(
        {
            "docs/budget.md": "# Budget\n\nThe token budget is 2000.\n",
            ".tierscope.yaml": "qmd_context:\n  default_budget: 1000\n",
        }
    )
    modules = imports_of_a_query(root, "token budget")
    assert loaded(modules, "yaml")
    # PyYAML's constructor imports datetime itself.
    assert [name for name in NEVER if name != "datetime" and loaded(modules, name)] == []


# ------------------------------------------------------------------ the end of a process


def run_command(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess:
    # Buffered output, as a skill's pipe gets it: the exit must flush it.
    dropped = ("PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED")
    environment = {k: v for k, v in os.environ.items() if k not in dropped}
    environment.update(env)
    return subprocess.run(
        [sys.executable, "-m", "tierscope", *args],
        capture_output=True,
        cwd=cwd,
        env=environment,
    )


def test_a_query_process_writes_its_whole_answer_and_runs_its_exit_handlers(make_project):
    root = make_project(
        {
            f"docs/budget{i}.md": "".join(f"The token budget, {i}.{n}.\n" for n in range(2000))
            for i in range(5)
        }
    )
    cache = root.parent / "cache"
    result = run_command("query", "token budget", "--root", str(root), "-b", "50000",
                         cwd=root, XDG_CACHE_HOME=str(cache))  # fmt: skip
    assert result.returncode == 0, result.stderr
    hits = json.loads(result.stdout)
    assert len(hits) == 5 and len(result.stdout) > 5000
    # The dataclass code cache is written by an exit handler.
    assert list((cache / "tierscope").glob("dataclass-code-*.marshal"))


WORKBENCH_STAND_IN = """
import atexit, sys, threading, time
from pathlib import Path
from tierscope import cli

out = Path(sys.argv[1])


class FreedAtTeardown:
    def __del__(self, path=str(out / "torn-down"), open=open):  # builtins go first
        open(path, "w").close()


kept = FreedAtTeardown()


def workbench(args):
    atexit.register(lambda: (out / "exit-handler").write_text(""))

    def still_writing():
        time.sleep(0.3)
        (out / "thread").write_text("")

    threading.Thread(target=still_writing).start()
    return 3


cli.open_workbench = workbench
sys.argv = ["tierscope", *sys.argv[2:]]
cli.console()
"""


@pytest.mark.parametrize("args", [(), ("--root", ".")])
def test_the_workbenchs_process_ends_once_the_app_has_exited(tmp_path, args):
    """Quitting the workbench: its exit code, its exit handlers run, a thread still at work
    waited for, as at any exit; but the interpreter is not torn down (freeing Textual's
    modules and objects one by one costs every quit ~0.15 s)."""
    result = subprocess.run(
        [sys.executable, "-c", WORKBENCH_STAND_IN, str(tmp_path), *args],
        capture_output=True,
        cwd=tmp_path,
    )
    assert result.returncode == 3, result.stderr
    assert (tmp_path / "exit-handler").exists()
    assert (tmp_path / "thread").exists()
    assert not (tmp_path / "torn-down").exists()


def test_a_query_usage_error_still_exits_2(tmp_path):
    result = run_command("query", "--no-such-option", cwd=tmp_path)
    assert result.returncode == 2
    assert b"unrecognized arguments" in result.stderr


@pytest.mark.parametrize("args", [("query", "--help"), ("--help",), ("doctor", "--help")])
def test_help_exits_0(tmp_path, args):
    result = run_command(*args, cwd=tmp_path)
    assert result.returncode == 0
    assert b"usage: tierscope" in result.stdout


def test_a_closed_stdout_ends_a_query_with_pythons_own_exit_status(make_project):
    root = make_project({"docs/budget.md": "# Budget\n\nThe token budget is 2000.\n"})
    dropped = ("PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED")
    environment = {k: v for k, v in os.environ.items() if k not in dropped}
    reader, writer = os.pipe()
    os.close(reader)  # nobody reads the answer
    try:
        result = subprocess.run(
            [sys.executable, "-m", "tierscope", "query", "token budget", "--root", str(root)],
            stdout=writer,
            stderr=subprocess.PIPE,
            env=environment,
        )
    finally:
        os.close(writer)
    # The answer is lost, quietly: 0 when the write failed inside the command, 120 (as
    # Python exits when it cannot flush its output) when it failed at the exit.
    assert result.returncode in (0, 120)
    assert b"Traceback" not in result.stderr


@pytest.mark.parametrize("columns", [None, "60", "200", "abc", "0", "-3"])
def test_help_is_as_wide_as_argparse_would_make_it(monkeypatch, columns):
    import argparse
    import shutil

    from tierscope.cli.help_format import (
        HelpFormatter,
        RawDescriptionHelpFormatter,
        terminal_columns,
    )

    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    assert terminal_columns() == shutil.get_terminal_size().columns

    def settings(formatter: argparse.HelpFormatter) -> dict:
        return {k: v for k, v in vars(formatter).items() if not k.endswith("_section")}

    stock = settings(argparse.HelpFormatter("tierscope"))
    for ours in (HelpFormatter("tierscope"), RawDescriptionHelpFormatter("tierscope")):
        assert settings(ours) == stock


# ---------------------------------------------------------------- a config parsed once

CONFIG = "qmd_context:\n  default_budget: 60\n  timeout_seconds: soon\n"


def query_with_config(root: Path, cache: Path) -> tuple[str, str, set[str]]:
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    environment["XDG_CACHE_HOME"] = str(cache)
    args = ("query", "token budget", "--root", str(root), "--no-trajectory", "--explain")
    result = subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, text=True, env=environment
    )
    *warnings, report = result.stderr.strip().splitlines()
    explained = json.loads(result.stdout)
    explained["trace"].pop("query_id")
    explained["trace"].pop("total_ms")
    for tier in explained["trace"]["tiers"]:
        tier.pop("latency_ms")
    return json.dumps(explained), "\n".join(warnings), set(json.loads(report)["modules"])


def test_a_config_file_is_parsed_once_while_it_does_not_change(make_project, tmp_path):
    root = make_project(
        {"docs/budget.md": "# Budget\n\nThe token budget is 2000.\n", ".tierscope.yaml": CONFIG}
    )
    cache = tmp_path / "cache"
    first, warned, modules = query_with_config(root, cache)
    assert loaded(modules, "yaml")
    assert '"limit": 60' in first and "timeout_seconds" in warned and ":3:" in warned
    again, warned_again, modules_again = query_with_config(root, cache)
    assert not loaded(modules_again, "yaml")
    assert (again, warned_again) == (first, warned)
    # An edited file is parsed again.
    (root / ".tierscope.yaml").write_text(CONFIG.replace("60", "70"))
    edited, _, modules_edited = query_with_config(root, cache)
    assert loaded(modules_edited, "yaml") and '"limit": 70' in edited


REGISTRY_PROBE = """
import json, sys
from pathlib import Path
from tierscope.tiers.qmd_collections import read_registry
registry = read_registry(Path(sys.argv[1]))
masks = {name: c.mask for name, c in registry.collections.items()}
print(json.dumps({"masks": masks, "yaml": "yaml" in sys.modules}))
"""


def test_qmds_collection_registry_is_parsed_once_while_it_does_not_change(tmp_path):
    # Every query the qmd tier serves reads qmd's index.yml; PyYAML's import alone costs
    # several ms of a query that qmd answers in well under 100.
    index = tmp_path / "index.yml"
    index.write_text("collections:\n  docs:\n    path: /srv/docs\n    pattern: '**/*.md'\n")
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    environment["XDG_CACHE_HOME"] = str(tmp_path / "cache")

    def read() -> dict:
        argv = [sys.executable, "-c", REGISTRY_PROBE, str(index)]
        found = subprocess.run(argv, capture_output=True, text=True, env=environment, check=True)
        return json.loads(found.stdout)

    first, again = read(), read()
    assert first == {"masks": {"docs": "**/*.md"}, "yaml": True}
    assert again == {"masks": {"docs": "**/*.md"}, "yaml": False}
    index.write_text("collections:\n  notes:\n    path: /srv/notes\n    pattern: '**/*.txt'\n")
    assert read() == {"masks": {"notes": "**/*.txt"}, "yaml": True}
