"""The headless contract of `tierscope query` (DESIGN §3)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tierscope.cli import main

DOCS = {
    "grimoires/loa/NOTES.md": "# Notes\n\nThe token budget is 2000 by default.\n",
    "grimoires/loa/sdd.md": "# SDD\n\nBudget packing skips hits that do not fit the budget.\n",
    ".claude/skills/implement/SKILL.md": "# Implement\n\nCalls the query with a budget.\n",
}


@pytest.fixture
def project(make_project, path_without_tools):
    return make_project(DOCS)


def query(capsys, root: Path, *args: str) -> tuple[int, str, str]:
    code = main(["query", *args, "--root", str(root), "--no-trajectory"])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_json_is_an_array_of_exactly_four_keys(capsys, project):
    code, out, _ = query(capsys, project, "token budget", "--scope", "grimoires", "--json")
    assert code == 0
    hits = json.loads(out)
    assert hits and all(set(h) == {"source", "score", "content", "tier"} for h in hits)
    assert hits[0]["source"] in {"grimoires/loa/NOTES.md", "grimoires/loa/sdd.md"}
    assert all(h["tier"] == "grep" for h in hits)
    assert [h["score"] for h in hits] == sorted((h["score"] for h in hits), reverse=True)


def test_query_flag_and_positional_are_the_same_query(capsys, project):
    _, by_flag, _ = query(capsys, project, "-q", "token budget", "-s", "grimoires")
    _, positional, _ = query(capsys, project, "token budget", "-s", "grimoires")
    assert json.loads(by_flag) == json.loads(positional)


def test_text_format(capsys, project):
    code, out, _ = query(capsys, project, "token budget", "-s", "notes", "-f", "text")
    assert code == 0
    first = out.splitlines()[0]
    assert first.startswith("--- grimoires/loa/NOTES.md (score: ")
    assert first.endswith(", tier: grep) ---")
    assert "The token budget is 2000 by default." in out


def test_text_format_prints_nothing_when_empty(capsys, project):
    _, out, _ = query(capsys, project, "zebra", "-f", "text")
    assert out == ""


def test_unknown_format_falls_back_to_json_silently(capsys, project):
    code, out, err = query(capsys, project, "token", "--format", "yaml")
    assert code == 0 and isinstance(json.loads(out), list)
    assert err == ""


@pytest.mark.parametrize("args", [(), ("",), ("   ",)])
def test_no_query_is_an_empty_array(capsys, project, args):
    code, out, _ = query(capsys, project, *args)
    assert (code, json.loads(out)) == (0, [])


def test_unknown_scope_says_invalid_scope_and_returns_empty(capsys, project):
    code, out, err = query(capsys, project, "token", "--scope", "nowhere")
    assert (code, json.loads(out)) == (0, [])
    assert "Invalid scope: nowhere" in err


@pytest.mark.parametrize("budget", ["abc", "-5", "1.5"])
def test_budget_that_is_not_a_positive_integer_returns_empty_silently(capsys, project, budget):
    code, out, err = query(capsys, project, "token", "--budget", budget)
    assert (code, json.loads(out), err) == (0, [], "")


def test_budget_zero_returns_empty_silently_and_explains_the_tiers(capsys, project):
    code, out, err = query(capsys, project, "token budget", "--budget", "0")
    assert (code, json.loads(out), err) == (0, [], "")
    explained = json.loads(query(capsys, project, "token budget", "-b", "0", "--explain")[1])
    assert explained["results"] == [] and explained["trace"]["budget"]["dropped"]


def test_small_budget_cuts_results_and_never_exceeds(capsys, project):
    _, out, _ = query(capsys, project, "token budget", "--budget", "15", "--explain")
    explained = json.loads(out)
    used = sum(r["tokens"] for r in explained["results"])
    assert used <= 15
    assert explained["trace"]["budget"]["used"] == used
    assert explained["trace"]["budget"]["dropped"]


def test_a_small_budget_shortens_the_best_hit_rather_than_serving_a_worse_one(
    capsys, make_project, path_without_tools
):
    # The best section is longer than the budget holds: it is served cut to fit, not
    # skipped for a weaker file that happens to be short.
    guide = "".join(f"The password prompt hides input, step {n}, as typed.\n\n" for n in range(30))
    root = make_project(
        {
            "docs/password.md": f"# Password prompt\n\n{guide}",
            "docs/other.md": "# Other\n\nA prompt.\n",
        }
    )
    _, out, _ = query(capsys, root, "password prompt hide input", "-b", "120", "--explain")
    explained = json.loads(out)
    assert explained["results"][0]["source"] == "docs/password.md"
    assert sum(r["tokens"] for r in explained["results"]) <= 120


def test_disabled_config_returns_empty(capsys, project):
    (project / ".loa.config.yaml").write_text("qmd_context:\n  enabled: false\n")
    code, out, _ = query(capsys, project, "token budget")
    assert (code, json.loads(out)) == (0, [])


def test_skill_disabled_by_override_returns_empty(capsys, project):
    (project / ".loa.config.yaml").write_text(
        "qmd_context:\n  skill_overrides:\n    review_sprint:\n      enabled: false\n"
    )
    code, out, _ = query(capsys, project, "token budget", "--skill", "review-sprint")
    assert (code, json.loads(out)) == (0, [])
    _, other, _ = query(capsys, project, "token budget", "--skill", "implement")
    assert json.loads(other)


def test_invalid_skill_name_is_ignored_with_the_seed_scripts_warning(capsys, project):
    code, out, err = query(capsys, project, "token budget", "--skill", "Bad Name!")
    assert code == 0 and json.loads(out)
    assert err == "WARNING: Invalid --skill value 'Bad Name!', ignoring\n"


def test_broken_config_warns_with_file_and_line_and_still_answers(capsys, project):
    (project / ".loa.config.yaml").write_text("qmd_context:\n  default_budget: [oops\n")
    code, out, err = query(capsys, project, "token budget")
    assert code == 0 and json.loads(out)
    assert ".loa.config.yaml:" in err and "invalid YAML" in err
    assert err.count("invalid YAML") == 1


def explain(capsys, root, *args) -> dict:
    _, out, _ = query(capsys, root, "token budget", "--explain", *args)
    return json.loads(out)


def test_precedence_flag_beats_skill_override_beats_config_beats_default(capsys, project):
    assert explain(capsys, project)["trace"]["budget"]["limit"] == 2000
    (project / ".loa.config.yaml").write_text(
        "qmd_context:\n  default_budget: 900\n  timeout_seconds: 1\n"
        "  skill_overrides:\n    implement:\n      budget: 700\n      scope: notes\n"
    )
    assert explain(capsys, project)["trace"]["budget"]["limit"] == 900
    by_skill = explain(capsys, project, "--skill", "implement")["trace"]
    assert (by_skill["budget"]["limit"], by_skill["scope"]) == (700, "notes")
    explicit = explain(
        capsys, project, "--skill", "implement", "--budget", "2000", "--scope", "grimoires"
    )["trace"]
    assert (explicit["budget"]["limit"], explicit["scope"]) == (2000, "grimoires")


def test_an_explicit_timeout_equal_to_the_default_is_still_explicit(capsys, project):
    (project / ".loa.config.yaml").write_text("qmd_context:\n  timeout_seconds: 1\n")
    assert explain(capsys, project)["trace"]["timeout"] == 1.0
    assert explain(capsys, project, "--timeout", "5")["trace"]["timeout"] == 5.0


def test_explain_reports_every_tier_with_status_reason_and_latency(capsys, project):
    trace = explain(capsys, project, "--scope", "grimoires")["trace"]
    tiers = {t["tier"]: t for t in trace["tiers"]}
    assert tiers["qmd"]["status"] == "unavailable"
    assert tiers["ck"]["status"] == "unavailable"
    assert tiers["grep"]["status"] == "served"
    assert all(t["reason"] and t["latency_ms"] >= 0 for t in tiers.values())
    assert tiers["grep"]["argv"][-2:] == ["--", "grimoires/loa"]
    assert trace["root"] == str(project)
    assert trace["resolved"]["grep_paths"] == ["grimoires/loa"]


def test_tiers_flag_limits_and_orders_tiers(capsys, project):
    trace = explain(capsys, project, "--tiers", "grep")["trace"]
    statuses = {t["tier"]: t["status"] for t in trace["tiers"]}
    assert statuses == {"grep": "served", "qmd": "disabled", "ck": "disabled"}


@pytest.mark.parametrize("unknown", ["--no-such-flag", "-v"])
def test_usage_error_exits_two(project, unknown):
    result = subprocess.run(
        [sys.executable, "-m", "tierscope", "query", unknown],
        capture_output=True,
        text=True,
        cwd=project,
    )
    assert result.returncode == 2
    assert result.stdout == ""
    # In query's own usage, with how to search for a word that looks like an option.
    assert result.stderr.startswith("usage: tierscope query")
    assert f"unrecognized arguments: {unknown} (to search for it: --query={unknown})" in (
        result.stderr
    )


def test_query_logs_intent_and_execute_lines(capsys, project):
    (project / ".loa.config.yaml").write_text(
        "qmd_context:\n  trajectory:\n    dir: logs/trajectory\n"
    )
    code = main(["query", "token budget", "--root", str(project), "--skill", "implement"])
    capsys.readouterr()
    assert code == 0
    files = list((project / "logs/trajectory").glob("implement-*.jsonl"))
    assert len(files) == 1
    intent, execute = (json.loads(line) for line in files[0].read_text().splitlines())
    assert (intent["phase"], execute["phase"]) == ("intent", "execute")
    assert intent["query_id"] == execute["query_id"]
    assert execute["served_by"] == "grep"
    assert {t["tier"] for t in execute["tiers"]} == {"qmd", "ck", "grep"}
    assert execute["budget"]["limit"] == 2000


def test_trajectory_files_are_never_searched(capsys, project):
    (project / ".loa.config.yaml").write_text(
        "qmd_context:\n  trajectory:\n    dir: grimoires/loa/a2a/trajectory\n"
    )
    for _ in range(2):
        main(["query", "xylophone", "--root", str(project)])
    capsys.readouterr()
    _, out, _ = query(capsys, project, "xylophone", "--scope", "grimoires")
    assert json.loads(out) == []


def test_unwritable_trajectory_dir_still_answers_with_one_warning(capsys, project):
    # A regular file where the directory should be: unwritable even for root.
    (project / "logs").write_text("not a directory")
    (project / ".loa.config.yaml").write_text("qmd_context:\n  trajectory:\n    dir: logs/t\n")
    code = main(["query", "token budget", "--root", str(project)])
    captured = capsys.readouterr()
    assert code == 0 and json.loads(captured.out)
    assert captured.err.count("trajectory not written") == 1


def test_headless_query_never_imports_textual_or_jsonschema(project):
    # jsonschema holds the MCP server's tool arguments; a query has no use for it.
    script = (
        "import sys\n"
        "from tierscope.cli import main\n"
        f"main(['query', 'token budget', '--root', {str(project)!r}, '--no-trajectory'])\n"
        "assert 'textual' not in sys.modules, 'textual imported'\n"
        "assert 'jsonschema' not in sys.modules, 'jsonschema imported'\n"
        "print('clean', file=sys.stderr)\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "clean" in result.stderr
    assert json.loads(result.stdout)


def test_a_store_file_in_the_root_keeps_only_its_own_files_private(capsys, project):
    (project / ".loa.config.yaml").write_text("qmd_context:\n  store:\n    path: context.sqlite\n")
    _, out, _ = query(capsys, project, "token budget", "--scope", "grimoires")
    assert json.loads(out)


def test_only_unknown_tiers_falls_back_to_the_configured_ones(capsys, project):
    code, out, err = query(capsys, project, "token budget", "--tiers", "foo")
    assert code == 0 and json.loads(out)
    assert "ignoring unknown tiers: foo; using qmd, ck, grep" in err


def test_invalid_scope_is_echoed_with_control_characters_escaped(capsys, project):
    code, out, err = query(capsys, project, "token", "--scope", "no\x1b[2Jwhere\nnext")
    assert (code, json.loads(out)) == (0, [])
    assert err == "Invalid scope: no\\x1b[2Jwhere\\nnext\n"


def run_on_a_terminal(root: Path, *args: str) -> bytes:
    """The bytes `tierscope query` writes to stdout when stdout is a terminal."""
    import os
    import pty

    leader, follower = pty.openpty()
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "tierscope", "query", *args, "--root", str(root)],
            stdout=follower,
            stderr=subprocess.DEVNULL,
        )
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # EIO: the process closed the terminal
                break
            if not chunk:
                break
            chunks.append(chunk)
        process.wait(timeout=30)
    finally:
        os.close(leader)
    return b"".join(chunks)


def test_text_format_on_a_terminal_escapes_control_characters(make_project, path_without_tools):
    root = make_project({"grimoires/loa/NOTES.md": "# Notes\n\nzebracorn \x1b]0;owned\x07 here\n"})
    out = run_on_a_terminal(root, "zebracorn", "-f", "text", "--no-trajectory")
    assert b"zebracorn" in out
    assert b"\x1b" not in out and b"\x07" not in out
    assert b"\\x1b]0;owned\\x07" in out


def test_text_format_into_a_pipe_keeps_the_content_verbatim(make_project, path_without_tools):
    root = make_project({"grimoires/loa/NOTES.md": "# Notes\n\nzebracorn \x1b[1m here\n"})
    result = subprocess.run(
        [sys.executable, "-m", "tierscope", "query", "zebracorn", "-f", "text",
         "--root", str(root), "--no-trajectory"],
        capture_output=True,
    )  # fmt: skip
    assert b"zebracorn \x1b[1m here" in result.stdout


def todays_log(root: Path) -> Path:
    from datetime import date

    directory = root / "grimoires/loa/a2a/trajectory"
    directory.mkdir(parents=True, exist_ok=True)
    return directory / f"tierscope-{date.today().isoformat()}.jsonl"


def test_a_fifo_at_todays_log_path_does_not_block_the_query(project):
    import os

    os.mkfifo(todays_log(project))
    result = subprocess.run(
        [sys.executable, "-m", "tierscope", "query", "token budget", "--root", str(project)],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 0 and json.loads(result.stdout)
    assert result.stderr.count("trajectory not written") == 1 and "FIFO" in result.stderr


def test_a_symlink_planted_at_todays_log_path_is_not_followed(capsys, project, tmp_path):
    decoy = tmp_path / "decoy.txt"
    decoy.write_text("secret\n")
    todays_log(project).symlink_to(decoy)
    code = main(["query", "token budget", "--root", str(project)])
    captured = capsys.readouterr()
    assert code == 0 and json.loads(captured.out)
    assert decoy.read_text() == "secret\n"
    assert captured.err.count("trajectory not written") == 1


def test_on_a_terminal_an_unknown_scope_lists_the_scopes_there_are(capsys, project, monkeypatch):
    # A person typing gets help; a script reading stderr (the seed's contract) gets the one
    # line it knows.
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    _, _, err = query(capsys, project, "token", "--scope", "grimoire")
    first, hint = err.splitlines()
    assert first == "Invalid scope: grimoire"
    assert hint.startswith("tierscope: did you mean grimoires? scopes here: ")
    assert "skills" in hint and "all" in hint
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False)
    _, _, err = query(capsys, project, "token", "--scope", "grimoire")
    assert err == "Invalid scope: grimoire\n"


def test_on_a_terminal_the_scopes_offered_are_those_that_exist_here(
    capsys, make_project, path_without_tools, monkeypatch
):
    root = make_project({"docs/guide.md": "# Guide\n", "src/app.py": "x = 1\n"})
    (root / ".tierscope.yaml").write_text(
        "qmd_context:\n  scopes:\n    docs: {grep_paths: [docs/]}\n    code: {grep_paths: [src/]}\n"
    )
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    _, _, err = query(capsys, root, "token", "--scope", "doc")
    hint = err.splitlines()[1]
    assert hint.startswith("tierscope: did you mean docs? scopes here: ")
    assert "grimoires" not in hint and "code" in hint


def test_the_version_is_printed_with_version(capsys):
    from tierscope import __version__

    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out.strip() == f"tierscope {__version__}"
