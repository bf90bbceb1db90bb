"""Reading a logged query back: its intent and execute lines found together among others,
what to ask to run it again and what it found then; and match searches bounded by a stop
(how the workbench searches a huge file in steps)."""

from __future__ import annotations

import json
from pathlib import Path

from tierscope.trajectory.filters import EntryFilter
from tierscope.trajectory.index import LineIndex
from tierscope.trajectory.merged import merge_by_time
from tierscope.trajectory.replay import find_pair, logged_query


def intent(query_id: str, query: str, second: int, **extra) -> dict:
    return {
        "ts": f"2026-11-23T10:30:{second:02d}Z",
        "agent": "implement",
        "phase": "intent",
        "query_id": query_id,
        "query": query,
        "scope": "notes",
        "budget": 500,
        "skill": "implement",
        **extra,
    }


def execute(query_id: str, query: str, second: int, **extra) -> dict:
    return {
        "ts": f"2026-11-23T10:30:{second:02d}Z",
        "agent": "implement",
        "phase": "execute",
        "query_id": query_id,
        "query": query,
        "scope": "notes",
        "served_by": "ck",
        "result_count": 2,
        "tiers": [
            {"tier": "qmd", "status": "empty", "count": 0},
            {"tier": "ck", "status": "served", "count": 2},
        ],
        "budget": {"used": 310, "limit": 500, "dropped": 0},
        **extra,
    }


def indexed(tmp_path: Path, *records: dict) -> LineIndex:
    path = tmp_path / "implement-2026-11-23.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    index = LineIndex(path)
    index.build()
    return index


def interleaved(tmp_path: Path) -> LineIndex:
    """Two parallel queries, their lines interleaved, and a citation naming one's id."""
    return indexed(
        tmp_path,
        intent("q-a", "token budget", 1),
        intent("q-b", "rollback", 2),
        {"ts": "2026-11-23T10:30:03Z", "phase": "cite", "note": "after q-a", "query_id": "q-a"},
        execute("q-b", "rollback", 4, served_by="grep"),
        execute("q-a", "token budget", 5),
    )


def test_an_intent_finds_its_own_execute_past_another_querys_lines(tmp_path):
    with interleaved(tmp_path) as index:
        pair = find_pair(index, 0)
        assert (pair.intent.line_no, pair.execute.line_no) == (1, 5)


def test_an_execute_finds_its_own_intent_before_it(tmp_path):
    with interleaved(tmp_path) as index:
        pair = find_pair(index, 3)
        assert (pair.intent.line_no, pair.execute.line_no) == (2, 4)


def test_a_line_that_is_no_half_of_a_query_has_no_pair(tmp_path):
    with interleaved(tmp_path) as index:
        pair = find_pair(index, 2)
        assert (pair.intent, pair.execute) == (None, None)


def test_the_other_half_is_only_looked_for_within_the_window(tmp_path):
    with interleaved(tmp_path) as index:
        assert find_pair(index, 0, window=3).execute is None
        assert find_pair(index, 0, window=4).execute.line_no == 5


def test_a_logged_query_asks_what_the_intent_asked_and_keeps_what_it_found(tmp_path):
    with interleaved(tmp_path) as index:
        logged = logged_query(find_pair(index, 4), index.path.name)
    assert (logged.text, logged.scope, logged.budget, logged.skill) == (
        "token budget",
        "notes",
        500,
        "implement",
    )
    ran = logged.ran
    assert ran.where == "implement-2026-11-23.jsonl:5"
    assert (ran.served_by, ran.result_count, ran.budget_used, ran.budget_limit) == (
        "ck",
        2,
        310,
        500,
    )
    assert [(tier.tier, tier.status, tier.count) for tier in ran.tiers] == [
        ("qmd", "empty", 0),
        ("ck", "served", 2),
    ]


def test_without_its_intent_a_query_is_asked_again_from_its_execute_line(tmp_path):
    with indexed(tmp_path, execute("q-c", "jwt auth", 1)) as index:
        logged = logged_query(find_pair(index, 0), index.path.name)
    assert (logged.text, logged.scope, logged.budget, logged.skill) == (
        "jwt auth",
        "notes",
        500,
        None,
    )


def test_an_intent_still_running_is_asked_again_with_nothing_found_then(tmp_path):
    with indexed(tmp_path, intent("q-d", "deployment window", 1)) as index:
        logged = logged_query(find_pair(index, 0), index.path.name)
    assert logged.text == "deployment window" and logged.ran is None


def test_match_searches_stop_where_told_in_either_direction(tmp_path):
    records = [execute(f"q-{n}", f"query {n}", n) for n in range(10)]
    with indexed(tmp_path, *records) as index:
        everything = EntryFilter()
        some = EntryFilter(text="query")
        assert list(index.matches(everything, 2, stop=5)) == [2, 3, 4]
        assert list(index.matches(some, 2, stop=5)) == [2, 3, 4]
        assert list(index.matches(some, 7, reverse=True, stop=4)) == [7, 6, 5]
        assert list(index.matches(some, 8, stop=100)) == [8, 9]
        view = merge_by_time([index])
        assert list(view.matches(some, 1, stop=3)) == [1, 2]
        assert list(view.matches(some, 3, reverse=True, stop=-5)) == [3, 2, 1, 0]
