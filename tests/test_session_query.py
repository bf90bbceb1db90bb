"""`tierscope query --session ID`: no section sent in full twice in a session, the tokens
served added up against the seed 004 §3.4 thresholds, and nothing changed without one."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from tierscope.cli import main

TRAJECTORY = Path("grimoires/loa/a2a/trajectory")


def section(title: str, topic: str, lines: int = 8) -> str:
    body = "\n".join(
        f"The {topic} rule number {n} says how the {topic} behaves under load."
        for n in range(lines)
    )
    return f"## {title}\n\n{body}\n"


GUIDE = (
    "# Operations guide\n\n"
    + section("Token budget", "token budget")
    + "\n"
    + section("Retry policy", "retry policy")
    + "\n"
    + section("Rollout waves", "rollout wave")
)
DOCS = {
    "grimoires/loa/guide.md": GUIDE,
    "grimoires/loa/notes.md": "# Notes\n\n" + section("Budget notes", "token budget", 4),
    "grimoires/loa/retry.md": "# Retry\n\n" + section("Backoff", "retry policy", 6),
    ".claude/skills/implement/SKILL.md": "# Implement\n\n" + section("Context", "rollout wave", 3),
}
FIVE_OVERLAPPING = (
    "token budget",
    "token budget rule",
    "retry policy budget",
    "rollout wave retry policy",
    "token budget under load",
)
# A line standing for file lines not sent: received before in the session, or left out
# between two passages of a snippet.
MARKER = re.compile(r"^\[lines? (\d+)(?:-(\d+))? (?:already provided in this session|not shown)\]$")


@pytest.fixture
def project(make_project, path_without_tools):
    return make_project(DOCS)


def configure(root: Path, text: str) -> None:
    (root / ".tierscope.yaml").write_text("qmd_context:\n" + text)


def ask(capsys, root: Path, text: str, *args: str) -> tuple[list[dict], str]:
    """The JSON answer and the stderr of one query."""
    assert main(["query", text, "--root", str(root), "--json", *args]) == 0
    captured = capsys.readouterr()
    return json.loads(captured.out), captured.err


def explain(capsys, root: Path, text: str, *args: str) -> dict:
    assert main(["query", text, "--root", str(root), "--explain", *args]) == 0
    return json.loads(capsys.readouterr().out)


def lines_sent_in_full(result: dict) -> list[tuple[str, int]]:
    """(source, line) of every file line an --explain result sent in full."""
    sent = []
    for hit in result["results"]:
        if hit["content"].startswith("already provided in this session: "):
            continue
        number = hit["line_start"]
        for line in hit["content"].split("\n"):
            gap = MARKER.match(line)
            if gap:
                number = int(gap[2] or gap[1]) + 1
            else:
                sent.append((hit["source"], number))
                number += 1
    return sent


def test_five_overlapping_queries_send_each_section_in_full_once(capsys, project):
    sent: list[tuple[str, int]] = []
    references = 0
    for text in FIVE_OVERLAPPING:
        result = explain(capsys, project, text, "--session", "s1")
        sent += lines_sent_in_full(result)
        references += sum(
            hit["content"].startswith("already provided in this session: ")
            for hit in result["results"]
        )
    repeated = {line for line in sent if sent.count(line) > 1}
    assert not repeated
    assert references > 0
    # Without a session the same queries send lines again.
    again = []
    for text in FIVE_OVERLAPPING:
        again += lines_sent_in_full(explain(capsys, project, text))
    assert len(again) > len(set(again))


def test_a_repeated_section_is_a_four_key_reference_that_costs_a_few_tokens(capsys, project):
    first, _ = ask(capsys, project, "retry policy", "--session", "s1")
    second, _ = ask(capsys, project, "retry policy", "--session", "s1")
    assert [hit["source"] for hit in second] == [hit["source"] for hit in first]
    for before, after in zip(first, second, strict=True):
        assert set(after) == {"source", "score", "content", "tier"}
        assert (after["score"], after["tier"]) == (before["score"], before["tier"])
        assert re.fullmatch(
            rf"already provided in this session: {re.escape(before['source'])}:\d+-\d+",
            after["content"],
        )
        assert len(after["content"]) < 80


def test_the_freed_budget_buys_new_context(capsys, project):
    budget = ("--budget", "150")
    first, _ = ask(
        capsys, project, "token budget retry policy rollout wave", "--session", "s", *budget
    )
    second, _ = ask(
        capsys, project, "token budget retry policy rollout wave", "--session", "s", *budget
    )
    plain, _ = ask(capsys, project, "token budget retry policy rollout wave", *budget)
    new_in_second = {
        hit["source"] for hit in second if not hit["content"].startswith("already provided")
    }
    assert new_in_second and new_in_second.isdisjoint({hit["source"] for hit in first})
    assert {hit["source"] for hit in plain} == {hit["source"] for hit in first}


def test_repeats_skip_leaves_a_repeated_section_out(capsys, project):
    configure(project, "  session: {repeats: skip}\n")
    first, _ = ask(capsys, project, "retry policy", "--session", "s1")
    second, _ = ask(capsys, project, "retry policy", "--session", "s1")
    assert first and second == []


def test_repeats_allow_sends_it_again_in_full(capsys, project):
    configure(project, "  session: {repeats: allow}\n")
    first, _ = ask(capsys, project, "retry policy", "--session", "s1")
    second, _ = ask(capsys, project, "retry policy", "--session", "s1")
    assert second == first


def test_sessions_are_apart(capsys, project):
    first, _ = ask(capsys, project, "retry policy", "--session", "one")
    other, _ = ask(capsys, project, "retry policy", "--session", "two")
    assert other == first


def test_the_environment_names_the_session_and_the_flag_wins(capsys, project, monkeypatch):
    monkeypatch.setenv("TIERSCOPE_SESSION", "from-env")
    first, _ = ask(capsys, project, "retry policy")
    again, _ = ask(capsys, project, "retry policy")
    flagged, _ = ask(capsys, project, "retry policy", "--session", "flagged")
    assert again != first and all(h["content"].startswith("already provided") for h in again)
    assert flagged == first
    sessions = project / TRAJECTORY / "sessions"
    assert sorted(p.name for p in sessions.iterdir()) == ["flagged.jsonl", "from-env.jsonl"]


@pytest.mark.parametrize("bad", ["../escape", "a/b", "-x", "s\x1b[2J", "x" * 65])
def test_an_invalid_session_is_ignored_with_one_warning_and_touches_no_file(capsys, project, bad):
    hits, err = ask(capsys, project, "retry policy", "--session", bad)
    assert hits
    (line,) = err.splitlines()
    assert line.startswith("WARNING: Invalid --session value '") and line.endswith("', ignoring")
    assert "\x1b" not in err
    assert not (project / TRAJECTORY / "sessions").exists()
    assert not (project.parent / "escape.jsonl").exists()


def test_an_invalid_environment_session_names_the_variable(capsys, project, monkeypatch):
    monkeypatch.setenv("TIERSCOPE_SESSION", "no/slash")
    _, err = ask(capsys, project, "retry policy")
    assert err == "WARNING: Invalid $TIERSCOPE_SESSION value 'no/slash', ignoring\n"


def test_without_a_session_nothing_changes(capsys, project):
    first, err = ask(capsys, project, "retry policy")
    second, err_again = ask(capsys, project, "retry policy")
    assert first == second and err == err_again == ""
    assert not (project / TRAJECTORY / "sessions").exists()
    execute = [
        json.loads(line)
        for path in (project / TRAJECTORY).glob("*.jsonl")
        for line in path.read_text().splitlines()
        if '"execute"' in line
    ]
    assert execute and all("session" not in line and "served" not in line for line in execute)


def test_the_execute_line_records_the_session_and_each_served_hit(capsys, project):
    ask(capsys, project, "retry policy", "--session", "s1", "--skill", "implement")
    ask(capsys, project, "retry policy", "--session", "s1", "--skill", "implement")
    (log,) = (project / TRAJECTORY).glob("implement-*.jsonl")
    records = [json.loads(line) for line in log.read_text().splitlines()]
    intents = [r for r in records if r["phase"] == "intent"]
    first, second = [r for r in records if r["phase"] == "execute"]
    assert [r["session"] for r in intents] == ["s1", "s1"]
    assert first["session"] == "s1" and first["repeats"] == 0
    for served in first["served"]:
        assert set(served) == {"source", "line_start", "line_end", "hash", "tokens"}
        assert re.fullmatch(r"[0-9a-f]{16}", served["hash"])
    assert first["session_tokens"] == first["accumulated"] == first["budget"]["used"]
    assert {s["repeat"] for s in second["served"]} == {"reference"}
    assert [s["hash"] for s in second["served"]] == [s["hash"] for s in first["served"]]
    assert second["repeats"] == len(first["served"]) and second["saved"] > 0
    assert second["session_tokens"] == first["session_tokens"] + second["budget"]["used"]


def test_crossing_accumulated_is_said_once_per_query_until_the_session_is_cleared(capsys, project):
    configure(
        project, "  token_budgets: {single_search: 2000, accumulated: 250, session: 100000}\n"
    )
    budget = ("--session", "s1", "--budget", "200")
    _, err = ask(capsys, project, "token budget", *budget)
    assert err == ""
    _, err = ask(capsys, project, "retry policy", *budget)
    (line,) = err.splitlines()
    assert re.fullmatch(
        r"tierscope: session s1: \d+ tokens since the last clearing, over the accumulated "
        r"threshold of 250: synthesize and clear \(then: tierscope session clear s1\)",
        line,
    )
    _, err = ask(capsys, project, "rollout wave", *budget)
    assert "over the accumulated threshold" in err

    assert main(["session", "clear", "s1", "--root", str(project)]) == 0
    cleared = capsys.readouterr().out
    assert re.match(r"session s1: cleared \d+ accumulated tokens", cleared)
    hits, err = ask(capsys, project, "token budget", *budget)
    assert err == ""
    # A clearing drops the raw results: what was provided before may be provided again.
    assert hits and not any(h["content"].startswith("already provided") for h in hits)


def test_over_session_warn_keeps_answering_and_says_stop_and_synthesize(capsys, project):
    configure(
        project, "  token_budgets: {single_search: 2000, accumulated: 100000, session: 100}\n"
    )
    _, err = ask(capsys, project, "token budget", "--session", "s1", "--budget", "200")
    assert err == (
        f"tierscope: session s1: {_total(project, 's1')} tokens served, over the session"
        " threshold of 100: stop and synthesize\n"
    )
    hits, err = ask(capsys, project, "retry policy", "--session", "s1", "--budget", "200")
    assert hits and "stop and synthesize" in err


def test_over_session_refuse_answers_an_empty_array(capsys, project):
    configure(
        project,
        "  token_budgets: {single_search: 2000, accumulated: 100000, session: 100}\n"
        "  session: {over_session: refuse}\n",
    )
    ask(capsys, project, "token budget", "--session", "s1", "--budget", "200")
    hits, err = ask(capsys, project, "retry policy", "--session", "s1")
    assert hits == []
    assert err.endswith("stop and synthesize; answered [] (session.over_session: refuse)\n")
    assert len(err.splitlines()) == 1


def test_over_session_shrink_halves_the_budget_query_after_query(capsys, project):
    configure(
        project,
        "  token_budgets: {single_search: 2000, accumulated: 100000, session: 100}\n"
        "  session: {over_session: shrink, repeats: allow}\n",
    )
    ask(capsys, project, "token budget", "--session", "s1", "--budget", "400")
    limits = []
    for _ in range(3):
        result = explain(capsys, project, "token budget", "--session", "s1", "--budget", "400")
        limits.append(result["trace"]["session"]["limit"])
        used = result["trace"]["budget"]["used"]
        assert used <= limits[-1]
    assert limits == [200, 100, 50]


def test_a_sessions_folder_that_is_a_symlink_is_not_followed(capsys, project, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (project / TRAJECTORY).mkdir(parents=True)
    (project / TRAJECTORY / "sessions").symlink_to(elsewhere)
    hits, err = ask(capsys, project, "retry policy", "--session", "s1")
    assert hits
    assert (
        "session s1 not used: sessions is a symbolic link or not a directory; not followed" in err
    )
    assert list(elsewhere.iterdir()) == []


def test_a_session_file_that_is_a_symlink_is_not_followed(capsys, project, tmp_path):
    target = tmp_path / "target.jsonl"
    target.write_text("")
    sessions = project / TRAJECTORY / "sessions"
    sessions.mkdir(parents=True)
    (sessions / "s1.jsonl").symlink_to(target)
    _, err = ask(capsys, project, "retry policy", "--session", "s1")
    assert "s1.jsonl is a symbolic link; not followed" in err
    assert target.read_text() == ""


def test_a_partial_last_line_in_the_session_file_is_passed_over(capsys, project):
    ask(capsys, project, "retry policy", "--session", "s1")
    path = project / TRAJECTORY / "sessions" / "s1.jsonl"
    with path.open("ab") as stream:
        stream.write(b'{"kind":"query","hits":[{"sou')
    hits, err = ask(capsys, project, "retry policy", "--session", "s1")
    assert err == "" and all(h["content"].startswith("already provided") for h in hits)
    lines = path.read_bytes().split(b"\n")
    assert lines[-1] == b"" and all(
        json.loads(line)
        for line in lines[:-1]
        if not line.startswith(b'{"kind":"query","hits":[{"sou')
    )


def _total(root: Path, session: str) -> str:
    last = (root / TRAJECTORY / "sessions" / f"{session}.jsonl").read_text().splitlines()[-1]
    return f"{json.loads(last)['total']:,}"


def test_the_session_path_imports_no_textual(project):
    import subprocess
    import sys

    code = (
        "import sys; from tierscope.cli import main; "
        f"main(['query', 'retry policy', '--root', {str(project)!r}, '--session', 's1']); "
        "assert 'textual' not in sys.modules and '_hashlib' not in sys.modules, "
        "sorted(m for m in sys.modules if 'hash' in m)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env={**os.environ}
    )
    assert done.returncode == 0, done.stderr
