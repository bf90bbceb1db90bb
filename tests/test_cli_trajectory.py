"""`tierscope trajectory list | show | tail | compact` as a user runs them."""

from __future__ import annotations

import gzip
import json
import os
import select
import signal
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

import pytest

from tierscope.cli import main

from process_watch import interruptible

TODAY = date.today().isoformat()


def record(agent: str, phase: str, second: int, query: str = "token budget", **extra) -> dict:
    return {
        "ts": f"{TODAY}T10:30:{second:02d}.000Z",
        "agent": agent,
        "phase": phase,
        "query_id": f"q-{second}",
        "query": query,
        **extra,
    }


def write_jsonl(path: Path, *records: dict, tail: bytes = b"") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"".join(json.dumps(r).encode() + b"\n" for r in records) + tail)
    return path


@pytest.fixture
def logs(tmp_path) -> Path:
    directory = tmp_path / "trajectory"
    write_jsonl(
        directory / f"implement-{TODAY}.jsonl",
        record("implement", "intent", 1),
        record("implement", "execute", 2, served_by="grep", result_count=4, total_ms=38.2),
        record("implement", "intent", 5, query="ranking"),
        tail=b"not json\n",
    )
    write_jsonl(directory / f"review-{TODAY}.jsonl", record("review", "intent", 3))
    archive = directory / "plan-2026-01-01.jsonl.gz"
    archive.write_bytes(gzip.compress(json.dumps(record("plan", "intent", 0)).encode() + b"\n"))
    return directory


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["trajectory", *args])
    out, err = capsys.readouterr()
    return code, out, err


# -- list ----------------------------------------------------------------------------------


def test_list_shows_agent_date_size_lines_and_compression(capsys, logs):
    code, out, _err = run(capsys, "list", "--dir", str(logs))
    assert code == 0
    rows = {line.split()[-1]: line.split() for line in out.splitlines()[2:]}
    assert rows[f"implement-{TODAY}.jsonl"][0] == "implement"
    assert rows[f"implement-{TODAY}.jsonl"][4] == "4"
    assert rows["plan-2026-01-01.jsonl.gz"][-2] == "gz"


def test_list_json_is_an_array_of_files(capsys, logs):
    code, out, _err = run(capsys, "list", "--dir", str(logs), "--json")
    files = {item["file"]: item for item in json.loads(out)}
    assert code == 0
    assert files["plan-2026-01-01.jsonl.gz"] | {"size": 0, "path": ""} == {
        "file": "plan-2026-01-01.jsonl.gz",
        "path": "",
        "agent": "plan",
        "date": "2026-01-01",
        "size": 0,
        "lines": 1,
        "compressed": True,
    }
    assert files[f"review-{TODAY}.jsonl"]["lines"] == 1


def test_list_of_a_missing_directory_says_so_and_succeeds(capsys, tmp_path):
    code, out, err = run(capsys, "list", "--dir", str(tmp_path / "none"))
    assert (code, out) == (0, "")
    assert "no trajectory files" in err
    assert run(capsys, "list", "--dir", str(tmp_path / "none"), "--json")[1] == "[]\n"


def test_the_directory_comes_from_the_projects_config(capsys, make_project):
    root = make_project({".tierscope.yaml": "qmd_context:\n  trajectory:\n    dir: logs/t\n"})
    write_jsonl(root / "logs/t" / f"implement-{TODAY}.jsonl", record("implement", "intent", 1))
    code, out, _err = run(capsys, "list", "--root", str(root), "--json")
    assert code == 0
    assert [item["file"] for item in json.loads(out)] == [f"implement-{TODAY}.jsonl"]


# -- show ----------------------------------------------------------------------------------


def test_show_by_name_inside_the_directory_lists_every_line_and_flags_malformed(capsys, logs):
    code, out, _err = run(capsys, "show", f"implement-{TODAY}", "--dir", str(logs))
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["LINE", "TIME", "AGENT"]
    assert "ranking" in lines[3]
    assert "! invalid JSON" in lines[4] and "not json" in lines[4]
    assert lines[-1].startswith("4 of 4 lines shown; 1 malformed (25.0% data loss)")


def test_show_filters_by_agent_phase_text_and_malformed(capsys, logs):
    path = str(logs / f"implement-{TODAY}.jsonl")

    def shown(*filters: str) -> list[int]:
        _code, out, _err = run(capsys, "show", path, "--json", *filters)
        return [json.loads(line)["line"] for line in out.splitlines()]

    assert shown() == [1, 2, 3, 4]
    assert shown("--phase", "intent") == [1, 3]
    assert shown("--text", "RANKING") == [3]
    assert shown("--agent", "review") == []
    assert shown("--malformed") == [4]


def test_show_json_lines_carry_the_record_or_the_error(capsys, logs):
    _code, out, _err = run(capsys, "show", str(logs / f"implement-{TODAY}.jsonl"), "--json")
    first, *_middle, last = (json.loads(line) for line in out.splitlines())
    assert first == {"line": 1, "error": None, "record": record("implement", "intent", 1)}
    assert last["record"] is None and last["text"] == "not json" and last["error"]


def test_show_reads_gzip_archives(capsys, logs):
    code, out, _err = run(capsys, "show", "plan-2026-01-01.jsonl.gz", "--dir", str(logs))
    assert code == 0 and "plan" in out.splitlines()[1]


def test_show_of_an_unknown_file_is_one_line_on_stderr(capsys, logs):
    code, out, err = run(capsys, "show", "nobody-2020-01-01", "--dir", str(logs))
    assert (code, out) == (1, "")
    assert err.count("\n") == 1 and "nobody-2020-01-01" in err


# -- tail ----------------------------------------------------------------------------------


def test_tail_prints_the_newest_lines_of_todays_files_in_time_order(capsys, logs):
    code, out, _err = run(capsys, "tail", "-n", "3", "--dir", str(logs))
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 3
    assert "review" in lines[0] and "ranking" in lines[1] and "not json" in lines[2]
    assert "plan" not in out


def test_tail_follow_prints_appended_lines_and_exits_cleanly_on_ctrl_c(logs):
    command = ["trajectory", "tail", "-f", "-n", "1", "--dir", str(logs)]
    process = subprocess.Popen(
        [sys.executable, "-m", "tierscope", *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        preexec_fn=interruptible,
    )
    try:
        assert "not json" in read_line(process)
        new_file = logs / f"newagent-{TODAY}.jsonl"
        write_jsonl(new_file, record("newagent", "intent", 9, query="fresh"))
        assert "fresh" in read_line(process)
        line = json.dumps(record("review", "execute", 10, query="later")).encode() + b"\n"
        with (logs / f"review-{TODAY}.jsonl").open("ab", buffering=0) as out:
            out.write(line[:20])
            time.sleep(0.6)  # long enough for the follower to see the half-written line
            out.write(line[20:])
        assert "later" in read_line(process)
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=10) == 0
        assert b"Traceback" not in process.stderr.read()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def read_line(process: subprocess.Popen, timeout: float = 15.0) -> str:
    ready, _w, _x = select.select([process.stdout], [], [], timeout)
    assert ready, "no output from tail -f"
    return process.stdout.readline().decode()


# -- compact -------------------------------------------------------------------------------


def aged(path: Path, days: int) -> Path:
    moment = time.time() - days * 86400
    os.utime(path, (moment, moment))
    return path


def test_compact_dry_run_prints_the_plan_and_changes_nothing(capsys, logs):
    old = aged(write_jsonl(logs / "implement-2026-01-01.jsonl", {"a": 1}), 60)
    aged(logs / "plan-2026-01-01.jsonl.gz", 400)
    before = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in logs.iterdir()}
    code, out, _err = run(capsys, "compact", "--dry-run", "--dir", str(logs))
    assert code == 0
    assert f"would gzip   {old.name}" in out
    assert "would delete plan-2026-01-01.jsonl.gz" in out
    assert f"would skip   implement-{TODAY}.jsonl  (today's file)" in out
    assert "nothing changed" in out.splitlines()[-1]
    assert {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in logs.iterdir()} == before


def test_compact_applies_retention(capsys, logs):
    aged(write_jsonl(logs / "implement-2026-01-01.jsonl", {"a": 1}), 60)
    aged(logs / "plan-2026-01-01.jsonl.gz", 400)
    code, out, _err = run(capsys, "compact", "--dir", str(logs))
    assert code == 0
    assert out.splitlines()[-1] == "2 changed, 0 kept"
    assert sorted(p.name for p in logs.iterdir()) == [
        "implement-2026-01-01.jsonl.gz",
        f"implement-{TODAY}.jsonl",
        f"review-{TODAY}.jsonl",
    ]


# -- untrusted text on the terminal --------------------------------------------------------

HOSTILE_QUERY = "token \x1b]0;owned\x07\x1b[2J budget\x9b31m"


def test_show_escapes_control_characters_from_logged_queries(capsys, tmp_path):
    path = write_jsonl(
        tmp_path / f"implement-{TODAY}.jsonl",
        record("implement", "intent", 1, query=HOSTILE_QUERY),
        tail=b"broken \x1b[31m line\n",
    )
    code, out, _err = run(capsys, "show", str(path))
    assert code == 0
    assert "\x1b" not in out and "\x07" not in out and "\x9b" not in out
    assert "token \\x1b]0;owned\\x07\\x1b[2J budget\\x9b31m" in out
    assert "broken \\x1b[31m line" in out


def test_show_json_escapes_c1_control_characters_too(capsys, tmp_path):
    path = write_jsonl(
        tmp_path / f"implement-{TODAY}.jsonl", record("implement", "intent", 1, query=HOSTILE_QUERY)
    )
    code, out, _err = run(capsys, "show", str(path), "--json")
    assert code == 0
    assert "\x1b" not in out and "\x9b" not in out
    assert json.loads(out)["record"]["query"] == HOSTILE_QUERY


def test_tail_escapes_control_characters_from_logged_queries(capsys, tmp_path):
    directory = tmp_path / "trajectory"
    write_jsonl(
        directory / f"implement-{TODAY}.jsonl",
        record("implement", "intent", 1, query=HOSTILE_QUERY),
    )
    code, out, _err = run(capsys, "tail", "--dir", str(directory))
    assert code == 0
    assert "\x1b" not in out and "\x07" not in out and "\x9b" not in out
    assert "\\x1b[2J" in out


# -- broken files and directories -------------------------------------------------------------


def corrupt_archive(path: Path) -> Path:
    """A .jsonl.gz whose header is fine and whose compressed data is garbage."""
    data = bytearray(gzip.compress(b"".join(b'{"n": %d}\n' % n for n in range(2000))))
    for offset in range(20, len(data) - 20, 7):
        data[offset] ^= 0x5A
    path.write_bytes(bytes(data))
    return path


def test_list_survives_a_corrupt_archive_and_marks_it(capsys, logs):
    corrupt_archive(logs / "broken-2026-01-02.jsonl.gz")
    code, out, _err = run(capsys, "list", "--dir", str(logs), "--json")
    assert code == 0
    files = {item["file"]: item for item in json.loads(out)}
    assert files["broken-2026-01-02.jsonl.gz"]["lines"] is None
    assert files["plan-2026-01-01.jsonl.gz"]["lines"] == 1
    code, out, _err = run(capsys, "list", "--dir", str(logs))
    assert code == 0 and "broken-2026-01-02.jsonl.gz" in out


def test_show_of_a_corrupt_archive_reports_it_in_one_line(capsys, logs):
    corrupt_archive(logs / "broken-2026-01-02.jsonl.gz")
    code, _out, err = run(capsys, "show", "broken-2026-01-02.jsonl.gz", "--dir", str(logs))
    assert code == 0 and "Traceback" not in err
    assert err.count("\n") == 1


@pytest.mark.parametrize("action", [("list",), ("list", "--json"), ("tail",), ("compact",)])
def test_a_log_directory_that_is_a_file_is_named_as_such(capsys, tmp_path, action):
    blocker = tmp_path / "trajectory"
    blocker.write_text("not a directory")
    code, out, err = run(capsys, *action, "--dir", str(blocker))
    assert code == 1 and out == ""
    assert err == f"tierscope trajectory: {blocker} is a file, not a directory\n"


def test_a_log_directory_under_a_file_names_the_file(capsys, tmp_path):
    blocker = tmp_path / "logs"
    blocker.write_text("not a directory")
    code, _out, err = run(capsys, "list", "--dir", str(blocker / "trajectory"))
    assert code == 1
    assert err == f"tierscope trajectory: {blocker} is a file, not a directory\n"
