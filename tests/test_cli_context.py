"""`tierscope context write|read|prune` as a user and a skill see it."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from tierscope.cli import main
from tierscope.store.location import STORE_ENV
from tierscope.store.runs import RUN_ID_ENV


@pytest.fixture
def project(tmp_path, monkeypatch):
    root = tmp_path / "repo"
    (root / "src").mkdir(parents=True)
    monkeypatch.chdir(root)
    monkeypatch.setenv(STORE_ENV, str(tmp_path / "store" / "context.sqlite"))
    monkeypatch.setenv(RUN_ID_ENV, "run-1")
    return root


@pytest.fixture
def cli(project, capsys):
    """Run `tierscope --root <project> context ARGV...`; returns (exit code, stdout, stderr)."""

    def run(*argv: str) -> tuple[int, str, str]:
        code = main(["--root", str(project), "context", *argv])
        out, err = capsys.readouterr()
        return code, out, err

    return run


def read_json(cli, *argv: str) -> dict:
    code, out, _ = cli("read", "--json", *argv)
    assert code == 0
    return json.loads(out)


def test_an_entry_written_from_the_shell_reads_back_as_json(project, cli):
    code, out, _ = cli(
        "write", "--type", "discovery", "--content", "auth lives in src/auth.py",
        "--task-id", "T1", "--loop-id", "L1", "--file", "src/auth.py", "--line", "7", "--json",
    )  # fmt: skip
    assert code == 0
    written = json.loads(out)
    result = read_json(cli)
    assert result["total"] == 1
    (entry,) = result["entries"]
    assert entry["id"] == written["id"]
    assert {k: entry[k] for k in ("run_id", "type", "content", "task_id", "loop_id", "file")} == {
        "run_id": "run-1", "type": "discovery", "content": "auth lives in src/auth.py",
        "task_id": "T1", "loop_id": "L1", "file": "src/auth.py",
    }  # fmt: skip
    assert entry["line"] == 7


def test_the_text_listing_shows_each_entry_and_the_page(project, cli):
    cli("write", "--type", "decision", "--content", "Use JWT", "--file", "src/a.py")
    code, out, _ = cli("read")
    assert code == 0
    header, body, footer = out.splitlines()
    assert header.startswith("#1 ") and "decision" in header and "src/a.py" in header
    assert body == "  Use JWT"
    assert footer == "-- entries 1-1 of 1"


def test_text_write_names_the_entry_and_its_run(project, cli):
    code, out, _ = cli("write", "--type", "error", "--content", "boom")
    assert (code, out) == (0, "wrote error #1 (run run-1)\n")


@pytest.mark.parametrize("flag", ["--content", "--content-file"])
def test_content_can_come_from_stdin(project, cli, monkeypatch, flag):
    issue = {"issue_type": "dead-code", "description": "unused", "suggestion": "delete"}
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(issue) + "\n"))
    assert cli("write", "--type", "review_issue", flag, "-")[0] == 0
    (entry,) = read_json(cli)["entries"]
    assert json.loads(entry["content"])["issue_type"] == "dead-code"
    assert not entry["content"].endswith("\n")


def test_content_can_come_from_a_file(project, cli):
    (project / "note.txt").write_text("line one\nline two\n")
    assert cli("write", "--type", "discovery", "--content-file", "note.txt")[0] == 0
    assert read_json(cli)["entries"][0]["content"] == "line one\nline two"


def test_an_unreadable_content_file_is_a_one_line_error(project, cli):
    code, _, err = cli("write", "--type", "discovery", "--content-file", "missing.txt")
    assert code == 1
    assert err.count("\n") == 1 and "cannot read missing.txt" in err


def test_invalid_structured_content_exits_1_with_one_line_and_writes_nothing(project, cli):
    code, out, err = cli("write", "--type", "scratchpad", "--content", '{"iteration": 1}')
    assert (code, out) == (1, "")
    assert err == "tierscope context write: scratchpad: done must be true or false\n"
    assert read_json(cli, "--all-runs")["total"] == 0


@pytest.mark.parametrize(
    "argv",
    [
        ["write", "--type", "note", "--content", "x"],
        ["write", "--type", "discovery"],
        ["write", "--type", "discovery", "--content", "x", "--content-file", "f"],
        ["write", "--type", "discovery", "--content", "x", "--line", "seven"],
        ["read", "--limit", "-1"],
        ["read", "--order", "newest"],
        ["read", "--type", "note"],
        ["prune", "--keep", "many"],
        [],
    ],
)
def test_usage_errors_exit_2(project, cli, argv):
    with pytest.raises(SystemExit) as exited:
        cli(*argv)
    assert exited.value.code == 2


def test_reading_before_any_write_is_empty_and_creates_no_store(project, cli, tmp_path):
    assert read_json(cli) == {"entries": [], "total": 0}
    code, out, _ = cli("read")
    assert (code, out) == (0, "-- no entries in run run-1 (--all-runs reads every run)\n")
    assert not (tmp_path / "store").exists()


def test_filters_and_pages_report_the_total(project, cli):
    for n in range(5):
        cli("write", "--type", "error", "--content", f"error {n}", "--task-id", "T1")
    cli("write", "--type", "decision", "--content", "a decision", "--task-id", "T1")
    cli("write", "--type", "error", "--content", "other task", "--task-id", "T2")
    page = read_json(
        cli, "--type", "error", "--task-id", "T1", "--limit", "2", "--offset", "1", "--order", "asc"
    )
    assert page["total"] == 5
    assert [e["content"] for e in page["entries"]] == ["error 1", "error 2"]


def test_several_types_are_read_at_once(project, cli):
    for entry_type in ("discovery", "error", "decision"):
        cli("write", "--type", entry_type, "--content", entry_type)
    both = read_json(cli, "--type", "error", "decision")
    repeated = read_json(cli, "--type", "error", "--type", "decision")
    assert both == repeated and both["total"] == 2


def test_file_filters_match_however_the_path_was_spelled(project, cli, monkeypatch):
    absolute = str(project / "src" / "a.py")
    cli("write", "--type", "discovery", "--content", "x", "--file", absolute)
    monkeypatch.chdir(project / "src")
    assert read_json(cli, "--file", "a.py")["total"] == 1
    assert read_json(cli, "--file", "b.py")["total"] == 0


def test_search_finds_entries_by_their_words_even_with_fts_syntax(project, cli):
    cli("write", "--type", "discovery", "--content", "auth middleware found")
    cli("write", "--type", "discovery", "--content", "unrelated")
    for text in ("middleware", 'auth* "middleware', "content:auth (", "NEAR(auth"):
        found = read_json(cli, "--search", text)
        assert [e["content"] for e in found["entries"]] in (["auth middleware found"], []), text
    assert read_json(cli, "--search", "middleware")["total"] == 1


def test_runs_come_from_the_flag_the_environment_or_all(project, cli, monkeypatch):
    cli("write", "--type", "discovery", "--content", "env run")
    cli("write", "--type", "discovery", "--content", "flag run", "--run-id", "run-2")
    assert [e["content"] for e in read_json(cli)["entries"]] == ["env run"]
    assert [e["content"] for e in read_json(cli, "--run-id", "run-2")["entries"]] == ["flag run"]
    assert read_json(cli, "--all-runs")["total"] == 2
    code, _, err = cli("read", "--all-runs", "--run-id", "run-2")
    assert code == 1 and "not both" in err


def test_without_a_run_id_commands_of_one_session_share_a_run(project, cli, monkeypatch):
    monkeypatch.delenv(RUN_ID_ENV)
    cli("write", "--type", "discovery", "--content", "first")
    cli("write", "--type", "discovery", "--content", "second")
    entries = read_json(cli)["entries"]
    assert len(entries) == 2
    assert entries[0]["run_id"] == entries[1]["run_id"]
    assert entries[0]["run_id"].startswith("sid-")


def test_prune_keeps_the_newest_per_type_and_every_codebase_analysis(project, cli):
    for n in range(4):
        cli("write", "--type", "discovery", "--content", f"d{n}")
        cli("write", "--type", "codebase_analysis", "--content", json.dumps({"n": n}))
    code, out, _ = cli("prune", "--keep", "1", "--json")
    assert (code, json.loads(out)) == (0, {"run_id": "run-1", "deleted": 3, "keep": 1})
    remaining = read_json(cli, "--order", "asc")["entries"]
    assert [e["content"] for e in remaining if e["type"] == "discovery"] == ["d3"]
    assert sum(e["type"] == "codebase_analysis" for e in remaining) == 4


def test_an_offset_past_the_end_says_so(project, cli):
    cli("write", "--type", "discovery", "--content", "only")
    code, out, _ = cli("read", "--offset", "5")
    assert (code, out) == (0, "-- no entries past offset 5 (of 1)\n")


def test_a_broken_store_file_is_a_one_line_error(project, cli, tmp_path):
    broken = tmp_path / "store" / "context.sqlite"
    broken.parent.mkdir()
    broken.write_bytes(b"not a database" * 100)
    code, _, err = cli("write", "--type", "discovery", "--content", "x")
    assert code == 1
    assert err.count("\n") == 1 and "not a database" in err


def test_context_commands_import_no_textual_mcp_sdk_or_jsonschema(project, tmp_path):
    probe = (
        "import sys\n"
        "from tierscope.cli import main\n"
        "main(['context', 'write', '--type', 'discovery', '--content', 'x'])\n"
        "main(['context', 'read', '--json'])\n"
        "print(sorted(m for m in ('textual', 'mcp', 'jsonschema') if m in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=project, check=True
    )
    assert done.stdout.splitlines()[-1] == "[]"


def test_the_listing_escapes_control_characters_written_by_a_skill(project, cli):
    cli("write", "--type", "discovery", "--content", "line one \x1b[2J\nline two\x07",
        "--task-id", "T\x1b]0;x\x07")  # fmt: skip
    code, out, _ = cli("read")
    assert code == 0
    assert "\x1b" not in out and "\x07" not in out
    assert "line one \\x1b[2J" in out and "line two\\x07" in out


def test_the_json_listing_escapes_the_controls_json_leaves_raw(project, cli):
    # JSON escapes C0 controls itself; a C1 control (a terminal may read U+009B as CSI)
    # and a bidi override passed through `read --json` raw, as `query --json` never lets
    # them (json_for_terminal).
    cli("write", "--type", "discovery", "--content", "csi \x9b2J and \u202eevil")
    code, out, _ = cli("read", "--json")
    assert code == 0
    assert "\x9b" not in out and "\u202e" not in out
    assert json.loads(out)["entries"][0]["content"] == "csi \x9b2J and \u202eevil"


def test_a_config_problem_is_printed_escaped(capsys, make_project):
    # `context` printed the config's problems raw; one names the file, whose folder a
    # project may name with escape sequences.
    root = make_project(
        {".tierscope.yaml": "qmd_context:\n  default_budget: -1\n"}, name="proj\x1b[2Jx"
    )
    main(["--root", str(root), "context", "read"])
    err = capsys.readouterr().err
    assert "default_budget" in err
    assert "\x1b" not in err and "proj\\x1b[2Jx" in err
