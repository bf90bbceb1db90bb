"""eval/session_replay.py, the scripted session the README's figures come from, on the
demo project: with a session, what was sent before is not sent again."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from tierscope.demo import materialise

SCRIPT = Path(__file__).parent.parent / "eval" / "session_replay.py"


def test_a_replayed_session_sends_less_again_than_the_same_queries_without_one(
    tmp_path, capsys, path_without_tools
):
    spec = importlib.util.spec_from_file_location("session_replay", SCRIPT)
    replay = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(replay)
    demo = materialise(tmp_path / "harbor")
    queries = tmp_path / "queries.txt"
    queries.write_text("# three overlapping questions\nrollback\nrollback wave\nrollback health\n")
    assert replay.main([str(demo), "--queries", str(queries), "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)["summary"]
    without, with_session = figures["without"], figures["with"]
    # Lines sent again with a session are only short ones a marker would cost more than
    # (a heading kept above the new lines of a section partly sent before).
    assert without["lines_again"] > 20 * max(with_session["lines_again"], 1)
    assert with_session["repeats"] > 0 and with_session["saved"] > 0
    assert with_session["new_lines"] >= without["new_lines"]
