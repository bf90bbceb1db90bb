"""`tierscope session list | show | clear`: what each session was sent, headless."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tierscope.cli import main

TRAJECTORY = Path("grimoires/loa/a2a/trajectory")
DOCS = {
    "grimoires/loa/retry.md": "# Retry\n\n"
    + "\n".join(f"The retry policy rule {n} backs off with jitter." for n in range(20)),
    "grimoires/loa/budget.md": "# Budget\n\n"
    + "\n".join(f"The token budget rule {n} keeps answers short." for n in range(20)),
}


@pytest.fixture
def project(make_project, path_without_tools):
    root = make_project(DOCS)
    (root / ".tierscope.yaml").write_text(
        "qmd_context:\n  token_budgets: {single_search: 2000, accumulated: 300, session: 5000}\n"
    )
    return root


def run(capsys, root: Path, *args: str) -> tuple[int, str, str]:
    code = main([*args, "--root", str(root)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def ask(capsys, root: Path, text: str, session: str = "s1") -> None:
    code, _out, _err = run(capsys, root, "query", text, "--session", session)
    assert code == 0


def test_no_sessions_yet(capsys, project):
    code, out, _ = run(capsys, project, "session", "list")
    assert code == 0 and out.startswith("no sessions in ")
    assert json.loads(run(capsys, project, "session", "list", "--json")[1]) == []


def test_list_gives_each_sessions_totals(capsys, project):
    ask(capsys, project, "retry policy")
    ask(capsys, project, "retry policy jitter")
    ask(capsys, project, "token budget", session="other")
    code, out, _ = run(capsys, project, "session", "list", "--json")
    rows = {row["session"]: row for row in json.loads(out)}
    assert code == 0 and set(rows) == {"s1", "other"}
    assert rows["s1"]["queries"] == 2 and rows["s1"]["repeats_avoided"] == 1
    assert rows["s1"]["tokens_saved"] > 0 and rows["s1"]["over"] == []
    assert rows["other"]["queries"] == 1 and rows["other"]["tokens_saved"] == 0
    text = run(capsys, project, "session", "list")[1].splitlines()
    assert text[0].split() == [
        "session", "queries", "tokens", "accumulated", "repeats", "saved", "last", "over",
    ]  # fmt: skip
    assert {line.split()[0] for line in text[1:]} == {"s1", "other"}


def test_show_prints_each_querys_tokens_the_curve_and_the_tokens_saved(capsys, project):
    ask(capsys, project, "retry policy")
    ask(capsys, project, "retry policy jitter")
    ask(capsys, project, "token budget")
    code, out, _ = run(capsys, project, "session", "show", "s1")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "session s1 · 3 queries · 0 clearings · agents: tierscope"
    assert re.fullmatch(r"repeats avoided 1 · tokens saved [1-9][\d,]*", lines[2])
    assert re.fullmatch(
        r"thresholds crossed: accumulated at query 3 \([\d,]+ > 300: synthesize and clear\)",
        lines[3],
    )
    table = lines[lines.index("") + 1 :]
    assert table[0].split() == [
        "#", "time", "tokens", "accumulated", "session", "repeats", "saved", "query",
    ]  # fmt: skip
    assert table[3].endswith("token budget  [over accumulated]")
    assert re.fullmatch(r"accumulated [▁▂▃▄▅▆▇█]{3}  \(█ = [\d,]+\)", lines[-1])


def test_show_json_has_every_event_and_the_totals(capsys, project):
    ask(capsys, project, "retry policy")
    ask(capsys, project, "retry policy jitter")
    run(capsys, project, "session", "clear", "s1", "--summary", "retry noted")
    ask(capsys, project, "retry policy")
    code, out, _ = run(capsys, project, "session", "show", "s1", "--json")
    report = json.loads(out)
    assert code == 0
    assert [event["kind"] for event in report["events"]] == ["query", "query", "clearing", "query"]
    first, second, clearing, third = report["events"]
    assert second["repeats"] == 1 and second["references"] == 1 and second["saved"] > 0
    assert clearing["cleared_tokens"] == second["accumulated"] and clearing["accumulated"] == 0
    assert third["tokens"] == first["tokens"] and third["accumulated"] == third["tokens"]
    assert report["tokens"] == first["tokens"] + second["tokens"] + third["tokens"]
    assert (report["queries"], report["clearings"], report["repeats_avoided"]) == (3, 1, 1)
    assert report["tokens_saved"] == second["saved"]


def test_clear_logs_the_seeds_clearing_phase_in_the_trajectory(capsys, project):
    ask(capsys, project, "retry policy")
    code, out, _ = run(capsys, project, "session", "clear", "s1", "--skill", "implement")
    assert code == 0
    (log,) = (project / TRAJECTORY).glob("implement-*.jsonl")
    (line,) = [json.loads(text) for text in log.read_text().splitlines()]
    assert line["phase"] == "clearing" and line["session"] == "s1"
    assert line["cleared_tokens"] == line["session_tokens"] > 0
    assert out == (
        f"session s1: cleared {line['cleared_tokens']:,} accumulated tokens; "
        f"{line['session_tokens']:,} tokens served in the session (threshold 5,000)\n"
    )


@pytest.mark.parametrize("action", ["show", "clear"])
def test_an_unknown_session_is_exit_1(capsys, project, action):
    code, out, err = run(capsys, project, "session", action, "nope")
    assert (code, out) == (1, "")
    assert err.startswith("tierscope session: no session nope")


@pytest.mark.parametrize("action", ["show", "clear"])
def test_an_id_that_cannot_name_a_session_is_a_usage_error(capsys, project, action):
    code, _out, err = run(capsys, project, "session", action, "../\x1b[2Jx")
    assert code == 2
    assert "\x1b" not in err and "not a session id" in err


def test_logged_text_is_escaped_on_the_terminal(capsys, project):
    ask(capsys, project, "retry \x1b]0;owned\x07policy")
    out = run(capsys, project, "session", "show", "s1")[1]
    assert "\x1b" not in out and "\x07" not in out
    assert "retry \\x1b]0;owned\\x07policy" in out


def test_a_log_folder_named_with_escape_sequences_is_printed_escaped(capsys, make_project):
    # The folder comes from the config (untrusted): "no sessions in <it>" printed it raw.
    root = make_project(
        {".tierscope.yaml": 'qmd_context:\n  trajectory:\n    dir: "logs/\\e[2Jx"\n'}
    )
    code, out, _ = run(capsys, root, "session", "list")
    assert code == 0 and "\x1b" not in out
    assert out.rstrip().endswith("logs/\\x1b[2Jx")
