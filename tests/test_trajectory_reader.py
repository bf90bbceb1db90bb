"""Reading trajectory files of any shape and size: tolerant parsing, a chunked byte-offset
index with random access, filters, follow mode, time-merged views and budget timelines."""

from __future__ import annotations

import gzip
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tierscope.config.model import TokenBudgets
from tierscope.trajectory.budget_timeline import (
    ACCUMULATED,
    SESSION,
    SINGLE_SEARCH,
    budget_timeline,
    budget_timeline_of,
)
from tierscope.trajectory.filters import EntryFilter
from tierscope.trajectory.index import LineIndex
from tierscope.trajectory.line_count import count_lines
from tierscope.trajectory.merged import merge_by_time
from tierscope.trajectory.records import TRUNCATED, parse_line
from tierscope.trajectory.writer import append_records

INTENT = {
    "ts": "2026-11-23T10:30:00.123Z",
    "agent": "implement",
    "phase": "intent",
    "query_id": "q-3f9a2c1b",
    "query": "token budget",
    "scope": "grimoires",
    "budget": 2000,
    "tiers": ["qmd", "ck", "grep"],
}
EXECUTE = {
    "ts": "2026-11-23T10:30:00.161Z",
    "agent": "implement",
    "phase": "execute",
    "query_id": "q-3f9a2c1b",
    "query": "token budget",
    "mode": "grep",
    "served_by": "grep",
    "result_count": 4,
    "tiers": [{"tier": "grep", "status": "served", "latency_ms": 21.5, "count": 4}],
    "budget": {"used": 812, "limit": 2000, "dropped": 1},
    "total_ms": 38.2,
}


def jsonl(*records: dict) -> bytes:
    return b"".join(json.dumps(record).encode() + b"\n" for record in records)


def built(path: Path) -> LineIndex:
    index = LineIndex(path)
    index.build()
    return index


def append_in_another_process(path: Path, data: bytes) -> None:
    code = "import sys; f = open(sys.argv[1], 'ab'); f.write(sys.stdin.buffer.read()); f.close()"
    subprocess.run([sys.executable, "-c", code, str(path)], input=data, check=True, timeout=30)


# -- one line ------------------------------------------------------------------------------


def test_query_lines_expose_their_fields():
    intent = parse_line(json.dumps(INTENT).encode() + b"\n", 1, 0)
    execute = parse_line(json.dumps(EXECUTE).encode(), 2, 120)
    assert (intent.agent, intent.phase, intent.query, intent.query_id) == (
        "implement",
        "intent",
        "token budget",
        "q-3f9a2c1b",
    )
    assert intent.budget_limit == 2000 and intent.budget_used is None
    assert (execute.tier, execute.result_count, execute.latency_ms) == ("grep", 4, 38.2)
    assert (execute.budget_used, execute.budget_limit) == (812, 2000)
    assert execute.timestamp is not None and execute.timestamp > intent.timestamp
    assert (execute.line_no, execute.byte_offset, execute.error) == (2, 120, "")


def test_other_jsonl_shapes_are_read_with_every_field_kept():
    pivot = {
        "ts": "2025-12-26T10:30:10Z",
        "agent": "implementing-tasks",
        "phase": "pivot",
        "reason": "Initial query too broad",
        "original_query": "authentication",
        "new_query": "auth initialization bootstrap",
        "result_count": 127,
    }
    entry = parse_line(json.dumps(pivot).encode(), 1, 0)
    assert not entry.flagged
    assert entry.query == "auth initialization bootstrap"
    assert entry.raw == pivot


def test_malformed_line_is_kept_and_flagged_with_its_parse_error():
    entry = parse_line(b'{"phase": "intent", oops}\n', 7, 300)
    assert entry.flagged and "invalid JSON" in entry.error
    assert entry.text == '{"phase": "intent", oops}'
    assert (entry.line_no, entry.byte_offset, entry.raw) == (7, 300, {})


def test_json_that_is_not_an_object_is_flagged():
    assert parse_line(b"[1, 2]\n", 1, 0).error == "not a JSON object (an array)"


def test_non_utf8_bytes_are_replaced_and_the_line_is_flagged_but_kept():
    entry = parse_line(b'{"agent": "impl", "query": "caf\xe9"}\n', 1, 0)
    assert entry.flagged and "UTF-8" in entry.error
    assert entry.agent == "impl"
    assert entry.query == "caf\ufffd"


def test_a_last_line_without_newline_is_flagged_truncated_even_if_it_parses():
    entry = parse_line(b'{"agent": "impl"}', 1, 0, complete=False)
    assert entry.error == TRUNCATED
    assert entry.agent == "impl"


def test_epoch_and_offset_timestamps_are_understood():
    epoch = parse_line(b'{"ts": 1795429800}', 1, 0)
    offset = parse_line(b'{"ts": "2026-11-23T11:30:00+01:00"}', 1, 0)
    assert epoch.timestamp == offset.timestamp == 1795429800.0


# -- a whole file ----------------------------------------------------------------------------


def test_every_kind_of_bad_line_is_indexed_flagged_and_counted(tmp_path):
    huge = {"agent": "implement", "phase": "execute", "blob": "x" * (1 << 20)}
    path = tmp_path / "t.jsonl"
    path.write_bytes(
        jsonl(INTENT)
        + b"not json\n"
        + b'{"agent": "impl", "q": "\xff\xfe"}\n'
        + b"\n"
        + jsonl(huge)
        + b'{"agent": "implement", "phase": "exe'
    )
    with built(path) as index:
        assert len(index) == 6
        assert index.complete_lines == 5
        assert [index.line(i).flagged for i in range(6)] == [False, True, True, True, False, True]
        assert index.line(4).raw == huge
        assert index.line(5).error.startswith(TRUNCATED)
        assert index.flagged_count == 3
        assert index.data_loss_ratio == 3 / 5
        assert list(index.matches(EntryFilter(flagged_only=True))) == [1, 2, 3, 5]


def test_a_file_ending_in_a_newline_has_no_truncated_line(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_bytes(jsonl(INTENT, EXECUTE))
    with built(path) as index:
        assert not index.has_truncated_tail
        assert len(index) == index.complete_lines == 2 == count_lines(path)


def test_gzip_files_read_the_same_as_plain_ones(tmp_path):
    body = jsonl(INTENT, EXECUTE) + b"broken\n" + jsonl(INTENT)
    plain = tmp_path / "a.jsonl"
    plain.write_bytes(body)
    packed = tmp_path / "a.jsonl.gz"
    packed.write_bytes(gzip.compress(body))
    with built(plain) as expected, LineIndex(packed, step_bytes=7) as index:
        steps = 0
        while not index.done:
            index.index_more()
            steps += 1
        assert steps > 1
        assert index.lines(0, len(index)) == expected.lines(0, len(expected))
        assert index.flagged_count == 1
        assert count_lines(packed) == 4


def test_a_cut_off_gzip_keeps_the_lines_before_the_cut_and_says_why(tmp_path):
    records = [{**INTENT, "n": n, "pad": "y" * 200} for n in range(200)]
    packed = gzip.compress(jsonl(*records))
    path = tmp_path / "cut.jsonl.gz"
    path.write_bytes(packed[: len(packed) * 2 // 3])
    with built(path) as index:
        assert index.problem
        assert 0 < index.complete_lines < 200
        assert [index.line(i).raw["n"] for i in range(index.complete_lines)] == list(
            range(index.complete_lines)
        )


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
records_strategy = st.lists(st.dictionaries(st.text(max_size=10), json_values, max_size=6))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(records=records_strategy)
def test_every_valid_record_survives_a_write_read_round_trip(records):
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "t.jsonl"
        path.touch()
        assert append_records(path, records) is None
        with LineIndex(path, step_bytes=64) as index:
            index.build()
            entries = index.lines(0, len(index))
    assert [entry.raw for entry in entries] == records
    assert not any(entry.flagged for entry in entries)


# -- scale: chunked index, random access ----------------------------------------------------


def test_index_of_a_100k_line_file_built_in_chunks_gives_correct_random_access(tmp_path):
    count = 100_000
    path = tmp_path / "big.jsonl"
    agents = ("implement", "review", "plan")
    with path.open("wb") as out:
        for n in range(count):
            out.write(
                b'{"n":%d,"agent":"%s","pad":"%s"}\n' % (n, agents[n % 3].encode(), b"z" * (n % 50))
            )
    index = LineIndex(path, step_bytes=256 * 1024)
    fractions = []
    while not index.done:
        fractions.append(index.index_more().fraction)
    assert len(fractions) > 5
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    assert len(index) == count
    picks = random.Random(4).sample(range(count), 300)
    for n in picks:
        entry = index.line(n)
        assert entry.raw["n"] == n and entry.line_no == n + 1
    screen = index.lines(61_234, 61_284)
    assert [entry.raw["n"] for entry in screen] == list(range(61_234, 61_284))
    assert index.line(-1).raw["n"] == count - 1
    assert index.agents() == {"implement": 33_334, "review": 33_333, "plan": 33_333}
    index.close()


def test_indexing_can_stop_between_steps_and_lines_so_far_are_readable(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_bytes(jsonl(*({**INTENT, "n": n} for n in range(2000))))
    with LineIndex(path, step_bytes=4096) as index:
        steps = []
        progress = index.build(cancelled=lambda: len(steps) >= 3, on_progress=steps.append)
        assert not progress.done and 0 < progress.fraction < 1
        assert 0 < len(index) < 2000
        assert index.line(len(index) - 1).raw["n"] == len(index) - 1
        assert index.build().done and len(index) == 2000


def test_answers_are_the_same_before_and_after_line_facts_are_known(tmp_path):
    path = tmp_path / "t.jsonl"
    review = {**EXECUTE, "agent": "review", "ts": "2026-11-23T10:31:00Z"}
    path.write_bytes(jsonl(INTENT, EXECUTE) + b"broken\n" + jsonl(review))
    wanted = [
        EntryFilter(agent="review"),
        EntryFilter(phase="execute", text="grep"),
        EntryFilter(flagged_only=True),
    ]
    with LineIndex(path) as index:
        progress = index.index_more()
        assert progress.scanned and progress.summarised == 0 and not progress.done
        before = [list(index.matches(each)) for each in wanted]
        times_before = [index.timestamp(i) for i in range(len(index))]
        index.build()
        assert index.progress.summarised == 4 and index.done
        assert [list(index.matches(each)) for each in wanted] == before == [[3], [1, 3], [2]]
        assert [index.timestamp(i) for i in range(len(index))] == times_before


# -- filters -------------------------------------------------------------------------------


def test_filters_by_agent_phase_and_text_ignoring_case(tmp_path):
    path = tmp_path / "t.jsonl"
    review = {**INTENT, "agent": "review", "query": "Ranking ÉCHO"}
    path.write_bytes(jsonl(INTENT, EXECUTE, review, {**EXECUTE, "agent": "review"}))
    with built(path) as index:
        assert list(index.matches(EntryFilter(agent="REVIEW"))) == [2, 3]
        assert list(index.matches(EntryFilter(phase="execute"))) == [1, 3]
        assert list(index.matches(EntryFilter(agent="review", phase="intent"))) == [2]
        assert list(index.matches(EntryFilter(text="ranking"))) == [2]
        assert list(index.matches(EntryFilter(text="écho"))) == [2]
        assert list(index.matches(EntryFilter(agent="nobody"))) == []
        assert list(index.matches(EntryFilter())) == [0, 1, 2, 3]
        assert index.phases() == {"intent": 2, "execute": 2}


def test_jump_to_next_and_previous_match(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_bytes(jsonl(*([INTENT, EXECUTE] * 5)))
    executes = EntryFilter(phase="execute", text="grep")
    with built(path) as index:
        assert next(index.matches(executes, 4)) == 5
        assert next(index.matches(executes, 4, reverse=True)) == 3
        assert next(index.matches(executes, 0, reverse=True), None) is None


# -- follow mode ---------------------------------------------------------------------------


def test_follow_picks_up_lines_appended_by_another_process(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_bytes(jsonl(INTENT))
    with built(path) as index:
        append_in_another_process(path, jsonl(EXECUTE, INTENT))
        growth = index.refresh()
        assert (growth.first_changed, growth.lines, growth.reset) == (1, 3, False)
        assert index.line(1).phase == "execute"
        assert not index.refresh().changed


def test_follow_rereads_a_half_written_line_once_it_is_completed(tmp_path):
    path = tmp_path / "t.jsonl"
    whole = json.dumps(EXECUTE).encode()
    path.write_bytes(jsonl(INTENT))
    with built(path) as index:
        append_in_another_process(path, whole[:40])
        index.refresh()
        assert len(index) == 2 and index.line(1).error.startswith(TRUNCATED)
        append_in_another_process(path, whole[40:] + b"\n")
        growth = index.refresh()
        assert growth.first_changed == 1 and growth.lines == 2
        assert index.line(1).raw == EXECUTE and not index.line(1).flagged
        assert index.flagged_count == 0


def test_a_file_truncated_under_the_reader_is_indexed_again(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_bytes(jsonl(INTENT, EXECUTE, INTENT))
    with built(path) as index:
        path.write_bytes(jsonl(EXECUTE))
        growth = index.refresh()
        assert growth.reset and len(index) == 1
        assert index.line(0).phase == "execute"


# -- several files ---------------------------------------------------------------------------


def stamped(agent: str, second: int, **extra) -> dict:
    return {"ts": f"2026-11-23T10:30:{second:02d}Z", "agent": agent, "phase": "execute", **extra}


def test_merged_view_orders_lines_of_several_files_by_time(tmp_path):
    first = tmp_path / "a.jsonl"
    second = tmp_path / "b.jsonl"
    first.write_bytes(jsonl(stamped("a", 1), stamped("a", 4), {"agent": "a", "note": "no ts"}))
    second.write_bytes(jsonl(stamped("b", 2), stamped("b", 4), stamped("b", 6)))
    with built(first) as a, built(second) as b:
        view = merge_by_time([a, b])
        order = [(entry.agent, entry.ts[-3:-1]) for entry in view.lines(0, len(view))]
        assert order == [("a", "01"), ("b", "02"), ("a", "04"), ("a", ""), ("b", "04"), ("b", "06")]
        assert [view.locate(p) for p in view.matches(EntryFilter(agent="b"))] == [
            (1, 0),
            (1, 1),
            (1, 2),
        ]


def test_merged_view_refresh_says_where_new_lines_landed(tmp_path):
    first = tmp_path / "a.jsonl"
    second = tmp_path / "b.jsonl"
    first.write_bytes(jsonl(stamped("a", 1), stamped("a", 5)))
    second.write_bytes(jsonl(stamped("b", 2)))
    with built(first) as a, built(second) as b:
        view = merge_by_time([a, b])
        assert not view.refresh().changed
        append_in_another_process(second, jsonl(stamped("b", 3)))
        growth = view.refresh()
        assert (growth.first_changed, growth.lines) == (2, 4)
        assert [entry.ts[-3:-1] for entry in view.lines(0, 4)] == ["01", "02", "03", "05"]


# -- budget over a session -----------------------------------------------------------------


LIMITS = TokenBudgets(single_search=1000, accumulated=2500, session=4000)


def used(agent: str, second: int, tokens: int, day: str = "2026-11-23") -> dict:
    return {
        "ts": f"{day}T10:00:{second:02d}Z",
        "agent": agent,
        "phase": "execute",
        "query_id": f"q-{second}",
        "budget": {"used": tokens, "limit": 2000, "dropped": 0},
    }


def timeline_of(tmp_path: Path, *records: dict):
    path = tmp_path / "t.jsonl"
    path.write_bytes(jsonl(*records))
    with built(path) as index:
        return budget_timeline_of(index, LIMITS)


def test_tokens_accumulate_per_agent_per_day_and_crossings_are_flagged(tmp_path):
    timeline = timeline_of(
        tmp_path,
        used("implement", 1, 900),
        used("review", 2, 300),
        used("implement", 3, 1200),
        {**INTENT, "agent": "implement", "ts": "2026-11-23T10:00:04Z"},
        used("implement", 5, 800),
        used("implement", 6, 700, day="2026-11-24"),
    )
    assert [(one.agent, str(one.day)) for one in timeline.series] == [
        ("implement", "2026-11-23"),
        ("review", "2026-11-23"),
        ("implement", "2026-11-24"),
    ]
    implement = timeline.series[0]
    assert [point.accumulated for point in implement.points] == [900, 2100, 2900]
    assert [point.over for point in implement.points] == [(), (SINGLE_SEARCH,), (ACCUMULATED,)]
    assert implement.first_over(ACCUMULATED).query_id == "q-5"
    assert implement.exceeded == (SINGLE_SEARCH, ACCUMULATED)
    assert timeline.series[2].session_total == 700


def test_a_clearing_line_restarts_accumulated_but_not_the_session(tmp_path):
    clearing = {"ts": "2026-11-23T10:00:03Z", "agent": "implement", "phase": "clearing"}
    timeline = timeline_of(
        tmp_path,
        used("implement", 4, 900),
        used("implement", 1, 2000),
        clearing,
        used("implement", 5, 900),
        used("implement", 6, 900),
    )
    (series,) = timeline.series
    assert [(p.accumulated, p.session, p.cleared) for p in series.points] == [
        (2000, 2000, False),
        (0, 2000, True),
        (900, 2900, False),
        (1800, 3800, False),
        (2700, 4700, False),
    ]
    assert series.first_over(SESSION).query_id == "q-6"
    assert series.peak_accumulated == 2700


def test_lines_without_budget_or_flagged_do_not_count(tmp_path):
    entries = [
        parse_line(json.dumps(INTENT).encode(), 1, 0),
        parse_line(b'{"phase": "execute", "budget": {"used": 5}', 2, 0, complete=False),
    ]
    assert budget_timeline(entries, LIMITS).series == ()


def in_session(agent: str, second: int, tokens: int, **totals) -> dict:
    return {**used(agent, second, tokens), "session": "s1", **totals}


def test_lines_of_a_session_form_one_series_whatever_agent_wrote_them(tmp_path):
    timeline = timeline_of(
        tmp_path,
        in_session("implement", 1, 900, accumulated=900, session_tokens=900),
        used("implement", 2, 300),
        in_session("review", 3, 1800, accumulated=2700, session_tokens=2700, repeats=2, saved=640),
        {"ts": "2026-11-23T10:00:04Z", "agent": "review", "phase": "clearing", "session": "s1",
         "cleared_tokens": 2700, "session_tokens": 2700},
        in_session("implement", 5, 400, accumulated=400, session_tokens=3100, repeats=1, saved=90),
    )  # fmt: skip
    session, plain = timeline.series
    assert (plain.agent, plain.session, [p.used for p in plain.points]) == ("implement", "", [300])
    assert (session.session, session.agent, session.agents) == (
        "s1",
        "implement",
        ("implement", "review"),
    )
    assert [(p.accumulated, p.session, p.cleared) for p in session.points] == [
        (900, 900, False),
        (2700, 2700, False),
        (0, 2700, True),
        (400, 3100, False),
    ]
    assert (session.repeats, session.saved) == (3, 730)
    assert session.first_over(ACCUMULATED).query_id == "q-3"


def test_a_sessions_recorded_totals_count_its_lines_in_other_files(tmp_path):
    # Only this file is on show; the session had 4,500 tokens before it.
    timeline = timeline_of(
        tmp_path, in_session("review", 1, 200, accumulated=200, session_tokens=4700)
    )
    (series,) = timeline.series
    assert (series.points[0].accumulated, series.session_total) == (200, 4700)
    assert series.exceeded == (SESSION,)
