"""The workbench's Trajectories view: files listed with their facts, days merged by time,
filters with next/previous match, malformed lines flagged, follow mode, replay into the
Query view, the budget over a session, and files of any size opened without reading
them whole."""

from __future__ import annotations

import gzip
import subprocess
import sys
from datetime import date
from pathlib import Path

import orjson
import pytest
from textual.widgets import DataTable, Input, Select, Static
from tui_checks import NARROW, settled_text
from tui_fakes import ScriptedProject

from tierscope.api import QueryOptions
from tierscope.config.model import Config, TokenBudgets, TrajectorySettings
from tierscope.trajectory.paths import LogFileInfo, log_file
from tierscope.tui.app import VIEWS, TierscopeApp
from tierscope.tui.query_runner import WORKBENCH_AGENT
from tierscope.tui.screens.query import QueryScreen
from tierscope.tui.screens.trajectories import TrajectoriesScreen
from tierscope.tui.screens.trajectory_filtering import MALFORMED
from tierscope.tui.trajectory_reading import FileRow
from tierscope.tui.widgets.replay_comparison import ReplayComparison
from tierscope.tui.widgets.session_budget import SessionBudget
from tierscope.tui.widgets.trajectory_files import TrajectoryFiles, file_prompt
from tierscope.tui.widgets.trajectory_lines import TrajectoryLines

pytestmark = pytest.mark.anyio

SIZE = (120, 40)
DAY = "2026-11-20"
# The Query view (where the app opens) and this one: the footer stays the same as other
# views come and go.
VIEWS_SHOWN = tuple(view for view in VIEWS if view.mode in ("query", "trajectories"))
BROKEN_LINE = b'{"ts":"2026-11-20T09:30:00.000Z","agent":"review-sprint","phase":"exec\n'


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def directory(tmp_path) -> Path:
    return tmp_path / "trajectory"


@pytest.fixture
def engine(directory) -> ScriptedProject:
    budgets = TokenBudgets(single_search=2000, accumulated=3000, session=15000)
    config = Config(trajectory=TrajectorySettings(dir=str(directory)), token_budgets=budgets)
    return ScriptedProject(config=config)


def stamp(minute: int, second: int = 0) -> str:
    return f"{DAY}T09:{minute:02d}:{second:02d}.000Z"


def query_lines(agent: str, minute: int, number: int, text: str, **execute) -> list[dict]:
    """The intent and execute lines one query of `agent` writes."""
    query_id = f"q-{agent[:4]}{number:04d}"
    intent = {
        "ts": stamp(minute),
        "agent": agent,
        "phase": "intent",
        "query_id": query_id,
        "query": text,
        "scope": "grimoires",
        "budget": 2000,
        "tiers": ["qmd", "ck", "grep"],
        "skill": agent,
        "root": "/srv/harbor",
    }
    done = {
        "ts": stamp(minute, 1),
        "agent": agent,
        "phase": "execute",
        "query_id": query_id,
        "query": text,
        "scope": "grimoires",
        "mode": "grep",
        "served_by": "grep",
        "result_count": 4,
        "tiers": [
            {"tier": "qmd", "status": "unavailable", "latency_ms": 0.4, "count": 0},
            {"tier": "ck", "status": "unavailable", "latency_ms": 0.1, "count": 0},
            {"tier": "grep", "status": "served", "latency_ms": 21.5, "count": 4},
        ],
        "budget": {"used": 1200, "limit": 2000, "dropped": 1},
        "total_ms": 38.2,
        **execute,
    }
    return [intent, done]


def write_lines(path: Path, records: list[dict], extra: bytes = b"") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"".join(orjson.dumps(record) + b"\n" for record in records) + extra)
    return path


@pytest.fixture
def day_files(directory) -> dict[str, Path]:
    """Two agents on one day, their queries interleaved in time, plus an older day. The
    review file has a pivot, a citation and one malformed line."""
    implement = [
        *query_lines("implement", 1, 1, "token budget"),
        *query_lines("implement", 5, 2, "rollback idempotent"),
        *query_lines("implement", 9, 3, "deployment window"),
    ]
    review = [
        *query_lines("review-sprint", 3, 1, "mirror fallback timeout"),
        {
            "ts": stamp(4),
            "agent": "review-sprint",
            "phase": "pivot",
            "reason": "Initial query too broad",
            "original_query": "mirror fallback timeout",
            "new_query": "registry mirror fallback",
        },
        *query_lines("review-sprint", 7, 2, "registry mirror fallback"),
        {
            "ts": stamp(8),
            "agent": "review-sprint",
            "phase": "cite",
            "claim": "The mirror reuses the primary's timeout",
            "file": "src/harbor/registry.py",
            "line": 76,
        },
    ]
    older = query_lines("implement", 2, 9, "scheduler hosts")
    older = [{**record, "ts": record["ts"].replace(DAY, "2026-11-18")} for record in older]
    return {
        "implement": write_lines(directory / f"implement-{DAY}.jsonl", implement),
        "review": write_lines(directory / f"review-sprint-{DAY}.jsonl", review, BROKEN_LINE),
        "older": write_lines(directory / "implement-2026-11-18.jsonl", older),
    }


def workbench(engine: ScriptedProject) -> TierscopeApp:
    return TierscopeApp(engine, views=VIEWS_SHOWN)


async def settle(pilot, rounds: int = 4) -> None:
    """Let the workers (listing, indexing, matching) and their messages run out."""
    for _ in range(rounds):
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def show_trajectories(pilot) -> TrajectoriesScreen:
    await pilot.press("f3")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, TrajectoriesScreen)
    for field in screen.query(Input):
        field.cursor_blink = False
    return screen


async def show_budget(pilot) -> SessionBudget:
    """The Trajectories view with its Budget tab open, once its counting has ended."""
    screen = await show_trajectories(pilot)
    await pilot.press("b")
    await settle(pilot)
    return screen.query_one(SessionBudget)


async def wait_until(pilot, condition, attempts: int = 100) -> None:
    """Give the app time (follow mode polls on a timer) until `condition()` holds."""
    for _ in range(attempts):
        if condition():
            return
        await pilot.pause(0.1)
    assert condition()


def entry_list(screen) -> TrajectoryLines:
    return screen.query_one(TrajectoryLines)


def shown(screen) -> list:
    """The entries the list shows, in order."""
    lines = entry_list(screen)
    return [lines.entry(lines.position_at(row)) for row in range(lines.row_count)]


def static_text(screen, selector: str) -> str:
    return str(screen.query_one(selector, Static).content)


async def choose(pilot, selector: str, value: str) -> None:
    pilot.app.screen.query_one(selector, Select).value = value
    await settle(pilot)


async def type_filter(pilot, text: str) -> None:
    pilot.app.screen.query_one("#trajectory-text", Input).value = text
    await settle(pilot)


# -- files and the merged day ---------------------------------------------------------------


async def test_files_are_listed_with_agent_date_size_line_count_and_compression(engine, day_files):
    app = workbench(engine)
    async with app.run_test(size=SIZE) as pilot:
        screen = await show_trajectories(pilot)
        rows = screen.query_one(TrajectoryFiles).rows
        listed = {row.info.path.name: row for row in rows}
        assert set(listed) == {path.name for path in day_files.values()}
        review = listed[day_files["review"].name]
        assert (review.info.agent, review.info.day.isoformat()) == ("review-sprint", DAY)
        assert review.info.size == day_files["review"].stat().st_size
        assert review.lines == len(day_files["review"].read_bytes().splitlines())
        assert not review.info.compressed


async def test_the_newest_day_opens_with_its_files_merged_by_time(engine, day_files):
    app = workbench(engine)
    async with app.run_test(size=SIZE) as pilot:
        screen = await show_trajectories(pilot)
        entries = [entry for entry in shown(screen) if not entry.flagged]
        assert {entry.agent for entry in entries} == {"implement", "review-sprint"}
        stamps = [entry.ts for entry in entries]
        assert stamps == sorted(stamps)
        assert "2 files merged by time" in static_text(screen, "#trajectory-summary")


async def test_marked_files_open_together_and_enter_opens_the_highlighted_one(engine, day_files):
    app = workbench(engine)
    async with app.run_test(size=SIZE) as pilot:
        screen = await show_trajectories(pilot)
        files = screen.query_one(TrajectoryFiles)
        files.focus()
        names = [row.info.path.name for row in files.rows]
        files.highlighted = names.index(day_files["older"].name)
        await pilot.press("enter")
        await settle(pilot)
        assert {entry.query for entry in shown(screen)} == {"scheduler hosts"}
        files.focus()
        for path in (day_files["older"], day_files["implement"]):
            files.highlighted = names.index(path.name)
            await pilot.press("space")
        await pilot.press("enter")
        await settle(pilot)
        queries = [entry.query for entry in shown(screen) if entry.phase == "intent"]
        assert queries[0] == "scheduler hosts"  # the older day first
        assert len(queries) == 4


async def test_a_compressed_file_is_listed_as_such_and_opens_like_a_plain_one(
    engine, directory, day_files
):
    packed = directory / "audit-2026-11-01.jsonl.gz"
    packed.write_bytes(gzip.compress(day_files["implement"].read_bytes()))
    app = workbench(engine)
    async with app.run_test(size=SIZE) as pilot:
        screen = await show_trajectories(pilot)
        files = screen.query_one(TrajectoryFiles)
        (row,) = [row for row in files.rows if row.info.path == packed]
        assert row.info.compressed and row.lines == 6
        assert "gz" in str(files.get_option_at_index(files.rows.index(row)).prompt)
        screen.open_paths([packed])
        await settle(pilot)
        plain = [entry.text for entry in shown(screen)]
        screen.open_paths([day_files["implement"]])
        await settle(pilot)
        assert plain == [entry.text for entry in shown(screen)]


async def test_t_opens_every_file_of_today(engine, directory, day_files):
    from datetime import date

    today = write_lines(
        log_file(directory, "plan", date.today()), query_lines("plan", 1, 1, "sprint plan")
    )
    app = workbench(engine)
    async with app.run_test(size=SIZE) as pilot:
        screen = await show_trajectories(pilot)
        await choose(pilot, "#trajectory-phase", "intent")
        await pilot.press("t")
        await settle(pilot)
        assert screen.opened.paths == (today,)
        assert [entry.query for entry in shown(screen)] == ["sprint plan"]


async def test_a_file_is_opened_by_path(engine, day_files, tmp_path):
    elsewhere = write_lines(tmp_path / "exported.jsonl", query_lines("audit", 1, 1, "jwt auth"))
    app = workbench(engine)
    async with app.run_test(size=SIZE) as pilot:
        screen = await show_trajectories(pilot)
        await pilot.press("o")
        screen.query_one("#trajectory-path", Input).value = str(elsewhere)
        await pilot.press("enter")
        await settle(pilot)
        assert screen.opened.paths == (elsewhere,)
        assert [entry.agent for entry in shown(screen)] == ["audit", "audit"]


# -- filters -------------------------------------------------------------------------------


async def test_filtering_by_agent_lists_only_its_lines_and_counts_them(engine, day_files):
    app = workbench(engine)
    async with app.run_test(size=SIZE) as pilot:
        screen = await show_trajectories(pilot)
        total = len(screen.opened)
        await choose(pilot, "#trajectory-agent", "implement")
        entries = shown(screen)
        assert {entry.agent for entry in entries} == {"implement"}
        assert len(entries) == 6
        assert entry_list(screen).border_title.startswith(f"Entries · 6 of {total} match")


async def test_phase_and_text_filters_narrow_together(engine, day_files):
    app = workbench(engine)
    async with app.run_test(size=SIZE) as pilot:
        screen = await show_trajectories(pilot)
        await choose(pilot, "#trajectory-phase", "execute")
        assert {entry.phase for entry in shown(screen)} == {"execute"}
        await type_filter(pilot, "MIRROR")
        assert [entry.query for entry in shown(screen)] == [
            "mirror fallback timeout",
            "registry mirror fallback",
        ]


async def test_next_and_previous_match_move_between_matches_among_all_lines(engine, day_files):
    app = workbench(engine)
    async with app.run_test(size=SIZE) as pilot:
        screen = await show_trajectories(pilot)
        await pilot.press("m")  # every line, matches marked
        await type_filter(pilot, "rollback")
        lines = entry_list(screen)
        lines.focus()
        assert lines.row_count == len(screen.opened)
        await pilot.press("home", "n")
        first = lines.entry(lines.selected)
        await pilot.press("n")
        second = lines.entry(lines.selected)
        assert (first.phase, second.phase) == ("intent", "execute")
        assert first.query == second.query == "rollback idempotent"
        await pilot.press("N")
        assert lines.selected is not None and lines.entry(lines.selected) == first
        assert entry_list(screen).border_title.endswith("match 1")


# -- malformed lines -----------------------------------------------------------------------


async def test_a_malformed_line_is_listed_flagged_with_its_parse_error(engine, day_files):
    app = workbench(engine)
    async with app.run_test(size=SIZE) as pilot:
        screen = await show_trajectories(pilot)
        summary = static_text(screen, "#trajectory-summary")
        assert "1 malformed" in summary and "data loss" in summary
        await choose(pilot, "#trajectory-phase", MALFORMED)
        (entry,) = shown(screen)
        assert entry.flagged and "invalid JSON" in entry.error
        lines = entry_list(screen)
        row = "".join(segment.text for segment in lines.render_line(0))
        assert row.startswith("!") and entry.error in row
        detail = str(screen.query_one("#trajectory-detail-body", Static).content)
        assert "malformed" in detail and entry.error in detail


# -- the selected line ---------------------------------------------------------------------


async def test_a_query_line_shows_its_intent_and_execute_together(engine, day_files):
    app = workbench(engine)
    async with app.run_test(size=SIZE) as pilot:
        screen = await show_trajectories(pilot)
        await type_filter(pilot, "q-impl0002")
        lines = entry_list(screen)
        lines.move_cursor(1)  # the execute line
        await pilot.pause()
        detail = str(screen.query_one("#trajectory-detail-body", Static).content)
        assert detail.count('"query_id": "q-impl0002"') == 2
        # The selected line first, then the other half of its query.
        assert detail.index('"phase": "execute"') < detail.index("its intent")
        assert detail.index("its intent") < detail.index('"phase": "intent"')
        assert "grep served · 4 hits" in detail


async def test_lines_of_other_shapes_show_every_field(engine, day_files):
    app = workbench(engine)
    async with app.run_test(size=SIZE) as pilot:
        screen = await show_trajectories(pilot)
        await choose(pilot, "#trajectory-phase", "cite")
        detail = str(screen.query_one("#trajectory-detail-body", Static).content)
        assert '"file": "src/harbor/registry.py"' in detail and '"line": 76' in detail


# -- follow mode ---------------------------------------------------------------------------


def append_in_another_process(path: Path, records: list[dict]) -> None:
    code = (
        "import json, sys; from pathlib import Path; "
        "from tierscope.trajectory.writer import append_records; "
        "append_records(Path(sys.argv[1]), json.loads(sys.argv[2]))"
    )
    subprocess.run(
        [sys.executable, "-c", code, str(path), orjson.dumps(records).decode()],
        check=True,
        timeout=60,
    )


async def test_follow_mode_shows_lines_another_process_appends(engine, day_files):
    app = workbench(engine)
    async with app.run_test(size=SIZE) as pilot:
        screen = await show_trajectories(pilot)
        await choose(pilot, "#trajectory-agent", "implement")
        before = len(shown(screen))
        await pilot.press("f")
        appended = query_lines("implement", 30, 4, "canary rollout")
        append_in_another_process(day_files["implement"], appended)
        lines = entry_list(screen)
        await wait_until(pilot, lambda: lines.row_count == before + 2)
        assert [entry.query for entry in shown(screen)[-2:]] == ["canary rollout"] * 2
        assert lines.at_end  # the cursor follows the newest line
        assert "following" in lines.border_subtitle


def newest_row_is_on_screen(lines: TrajectoryLines) -> bool:
    top = round(lines.scroll_y)
    last = lines.row_count - 1
    return lines.cursor_row == last and top <= last < top + lines.scrollable_content_region.height


async def test_follow_mode_scrolls_every_appended_line_into_view(engine, day_files):
    app = workbench(engine)
    async with app.run_test(size=SIZE) as pilot:
        screen = await show_trajectories(pilot)
        lines = entry_list(screen)
        await pilot.press("f")
        await settle(pilot)
        assert newest_row_is_on_screen(lines)
        for round_number in range(2):
            before = lines.row_count
            appended = [
                record
                for number in range(15)
                for record in query_lines("implement", 30 + round_number, 10 + number, "canary")
            ]
            append_in_another_process(day_files["implement"], appended)
            await wait_until(pilot, lambda before=before: lines.row_count == before + 30)
            await settle(pilot)
            assert newest_row_is_on_screen(lines), (lines.cursor_row, lines.scroll_y)


async def test_without_follow_mode_appended_lines_wait(engine, day_files):
    app = workbench(engine)
    async with app.run_test(size=SIZE) as pilot:
        screen = await show_trajectories(pilot)
        before = entry_list(screen).row_count
        append_in_another_process(day_files["implement"], query_lines("implement", 30, 4, "x"))
        await pilot.pause(1.0)
        assert entry_list(screen).row_count == before


# -- replay --------------------------------------------------------------------------------


async def test_replay_runs_the_logged_query_in_the_query_view_beside_what_it_found(
    engine, day_files
):
    app = workbench(engine)
    async with app.run_test(size=SIZE) as pilot:
        await show_trajectories(pilot)
        await type_filter(pilot, "q-revi0002")
        await pilot.press("escape", "end", "r")
        await settle(pilot)
        assert isinstance(app.screen, QueryScreen)
        assert engine.runs == [
            QueryOptions(
                text="registry mirror fallback",
                scope="grimoires",
                budget=2000,
                skill="review-sprint",
            )
        ]
        comparison = str(app.screen.query_one(ReplayComparison).content)
        assert f"review-sprint-{DAY}.jsonl:" in comparison
        then, now = comparison.splitlines()[1:3]
        assert "grep served · 4 hits · 1,200/2,000 tokens" in then
        assert now.strip().startswith("now")


async def test_a_replay_is_logged_as_the_workbenchs_not_the_skills(engine, directory, day_files):
    app = workbench(engine)
    async with app.run_test(size=SIZE) as pilot:
        await show_trajectories(pilot)
        await type_filter(pilot, "q-revi0002")
        await pilot.press("escape", "end", "r")
        await settle(pilot)
    today = date.today()
    assert not log_file(directory, "review-sprint", today).exists()
    logged = log_file(directory, WORKBENCH_AGENT, today).read_bytes().splitlines()
    records = [orjson.loads(line) for line in logged]
    assert [record["phase"] for record in records] == ["intent", "execute"]
    assert {record["agent"] for record in records} == {WORKBENCH_AGENT}
    assert records[0]["skill"] == "review-sprint"  # the replay still asks as the skill


async def test_replay_is_refused_on_a_line_that_is_not_a_query(engine, day_files):
    app = workbench(engine)
    async with app.run_test(size=SIZE) as pilot:
        screen = await show_trajectories(pilot)
        await choose(pilot, "#trajectory-phase", "pivot")
        await pilot.press("r")
        await settle(pilot)
        assert app.screen is screen
        assert engine.runs == []


# -- budget over a session -----------------------------------------------------------------


async def test_the_budget_tab_shows_each_agent_day_against_the_thresholds(engine, day_files):
    app = workbench(engine)
    async with app.run_test(size=SIZE) as pilot:
        budget = await show_budget(pilot)
        series = {one.agent: one for one in budget.timeline.series}
        assert series["implement"].session_total == 3 * 1200
        body = str(budget.query_one("#session-budget-body", Static).content)
        # Three queries of 1,200 tokens cross the accumulated threshold of 3,000 at the third.
        assert 'accumulated first over at 09:09:01, line 6 "deployment window"' in body
        assert "within every threshold" in body  # review-sprint: two queries


SESSION_DAY = "2026-11-21"


def in_session(record: dict, minute: int, **fields) -> dict:
    ts = record["ts"].replace(DAY, SESSION_DAY).replace("T09:01:", f"T09:{minute:02d}:")
    return {**record, "ts": ts, "session": "impl-hb-52", **fields}


@pytest.fixture
def session_files(directory) -> dict[str, Path]:
    """Two skills querying in one session, with a clearing between, and a query of one
    of them outside any session — on a day after `day_files`' (the view opens on it)."""

    def one(agent: str, minute: int, text: str, used: int, **totals) -> list[dict]:
        intent, done = query_lines(agent, 1, minute, text)
        done = {**done, "budget": {"used": used, "limit": 2000, "dropped": 0}}
        return [in_session(intent, minute), in_session(done, minute, **totals)]

    implement = [
        *one("implement", 1, "rollback on failed health", 1800, accumulated=1800,
             session_tokens=1800),
        {"ts": f"{SESSION_DAY}T09:05:00.000Z", "agent": "implement", "phase": "clearing",
         "session": "impl-hb-52", "cleared_tokens": 3200, "session_tokens": 3200},
        *one("implement", 6, "health retries", 900, accumulated=900, session_tokens=4100,
             repeats=1, saved=420),
    ]  # fmt: skip
    alone = query_lines("implement", 8, 7, "scheduler hosts")
    alone = [{**r, "ts": r["ts"].replace(DAY, SESSION_DAY)} for r in alone]
    review = [
        *one("review-sprint", 3, "rollout review findings", 1400, accumulated=3200,
             session_tokens=3200, repeats=2, saved=610),
        *one("review-sprint", 7, "health check mirror", 1100, accumulated=2000,
             session_tokens=5200),
    ]  # fmt: skip
    return {
        "implement": write_lines(directory / f"implement-{SESSION_DAY}.jsonl", implement + alone),
        "review": write_lines(directory / f"review-sprint-{SESSION_DAY}.jsonl", review),
    }


async def test_the_budget_tab_shows_a_session_of_two_skills_with_its_repeats(engine, session_files):
    app = workbench(engine)
    async with app.run_test(size=SIZE) as pilot:
        budget = await show_budget(pilot)
        (session, alone) = budget.timeline.series
        assert (alone.agent, alone.session, alone.session_total) == ("implement", "", 1200)
        assert session.session == "impl-hb-52" and session.session_total == 5200
        body = str(budget.query_one("#session-budget-body", Static).content)
        assert (
            "session impl-hb-52 · implement, review-sprint · 2026-11-21 · 4 queries"
            " · 1 clearing · 3 repeats avoided (1,030 tokens saved)"
        ) in body
        assert 'accumulated first over at 09:03:01, line 2 "rollout review findings"' in body
        assert "largest 1,800 / 2,000" in body


async def test_the_budget_pane_is_drawn_for_one_width_with_or_without_a_scrollbar(
    engine, session_files
):
    # Its charts are sized to the pane's width when drawn. Had the width changed when the
    # scrollbar came (a pane four lines high at 80x24), every line drawn a moment before
    # would wrap.
    app = workbench(engine)
    async with app.run_test(size=NARROW) as pilot:
        budget = await show_budget(pilot)
        timeline = budget.timeline
        assert budget.max_scroll_y > 0
        scrolling = budget.scrollable_content_region.width
        budget.show(None)  # one short line: nothing to scroll
        await settle(pilot)
        assert budget.max_scroll_y == 0
        assert budget.scrollable_content_region.width == scrolling
        budget.show(timeline)
        await settle(pilot)
        body = budget.query_one("#session-budget-body", Static)
        charts = [
            line
            for line in str(body.content).split("\n")
            if line[:14].strip() in ("per query", "accumulated", "session")
            and line[14:15] in "▁▂▃▄▅▆▇█░│"
        ]
        assert len(charts) == 6  # two series, three charts each
        assert all(len(line) <= scrolling for line in charts)


# -- scale ---------------------------------------------------------------------------------


def write_big_file(path: Path, lines: int) -> None:
    template = (
        '{"ts":"2026-11-20T10:00:00.000Z","agent":"implement","phase":"execute",'
        '"query_id":"q-%08x","query":"token budget %d","result_count":3,"total_ms":12.5}\n'
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(template % (n, n) for n in range(lines)))


async def test_a_100k_line_file_opens_reading_only_the_rows_on_screen(engine, tmp_path):
    big = tmp_path / "big.jsonl"
    write_big_file(big, 100_000)
    app = workbench(engine)
    async with app.run_test(size=SIZE) as pilot:
        screen = await show_trajectories(pilot)
        screen.open_paths([big])
        await settle(pilot)
        lines = entry_list(screen)
        assert lines.row_count == 100_000
        assert shown_row(lines, 0).endswith("token budget 0")
        height = lines.scrollable_content_region.height
        assert lines.entries_read <= 2 * height
        await pilot.press("end")
        await pilot.pause()
        assert shown_row(lines, height - 1).endswith("token budget 99999")
        assert lines.entries_read <= 4 * height
        assert len(screen.query("*")) < 120  # no widget per line
        assert not screen.query(DataTable)


def shown_row(lines: TrajectoryLines, y: int) -> str:
    return "".join(segment.text for segment in lines.render_line(y)).rstrip()


async def test_opening_another_file_while_indexing_shows_the_other_and_closes_the_first(
    engine, tmp_path, day_files
):
    big = tmp_path / "big.jsonl"
    write_big_file(big, 100_000)
    app = workbench(engine)
    async with app.run_test(size=SIZE) as pilot:
        screen = await show_trajectories(pilot)
        screen.open_paths([big])
        await wait_until(pilot, lambda: screen.opened is not None)
        first = screen.opened
        screen.open_paths([day_files["older"]])
        await settle(pilot)
        assert first.closed
        assert screen.opened.paths == (day_files["older"],)
        assert [entry.query for entry in shown(screen)] == ["scheduler hosts"] * 2


# -- snapshots -----------------------------------------------------------------------------


def test_snapshot_of_a_merged_day(snap_compare, engine, day_files):
    async def run_before(pilot):
        await show_trajectories(pilot)

    assert snap_compare(workbench(engine), run_before=run_before, terminal_size=SIZE)


def test_snapshot_of_a_view_filtered_to_one_agent_and_phase(snap_compare, engine, day_files):
    async def run_before(pilot):
        await show_trajectories(pilot)
        await choose(pilot, "#trajectory-agent", "review-sprint")
        await choose(pilot, "#trajectory-phase", "execute")
        entry_list(pilot.app.screen).focus()
        await pilot.pause()

    assert snap_compare(workbench(engine), run_before=run_before, terminal_size=SIZE)


def test_snapshot_of_a_malformed_line_selected(snap_compare, engine, day_files):
    async def run_before(pilot):
        screen = await show_trajectories(pilot)
        lines = entry_list(screen)
        lines.focus()
        flagged = next(row for row in range(lines.row_count) if shown(screen)[row].flagged)
        lines.move_cursor(flagged)
        await pilot.pause()

    assert snap_compare(workbench(engine), run_before=run_before, terminal_size=SIZE)


async def test_at_80x24_the_entry_list_keeps_its_query_column(engine, day_files):
    app = workbench(engine)
    async with app.run_test(size=NARROW) as pilot:
        screen = await show_trajectories(pilot)
        await settled_text(pilot)  # the layout for 80 columns is done
        lines = entry_list(screen)
        assert lines.region.height >= 5
        shown = await settled_text(pilot, lines)
        assert "mirror fallback" in shown
        assert "token budget" in shown
        assert "implement" in await settled_text(pilot, screen.query_one(TrajectoryFiles))


@pytest.mark.parametrize("size", [NARROW, SIZE], ids=["80x24", "120x40"])
def test_snapshot_of_the_budget_of_a_session(snap_compare, engine, session_files, size):
    async def run_before(pilot):
        budget = await show_budget(pilot)
        # Past the legend, to the session (the pane is four lines high at 80x24). A pane
        # not laid out yet clamps the scroll to 0: scroll again until it holds.
        for _ in range(50):
            budget.scroll_to(y=3, animate=False)
            await settle(pilot)
            if budget.max_scroll_y > 0 and budget.scroll_y == min(3, budget.max_scroll_y):
                break
            await pilot.pause(0.05)

    assert snap_compare(workbench(engine), run_before=run_before, terminal_size=size)


def test_snapshot_at_80x24_of_a_merged_day(snap_compare, engine, day_files):
    async def run_before(pilot):
        await show_trajectories(pilot)

    assert snap_compare(workbench(engine), run_before=run_before, terminal_size=NARROW)


def test_a_log_file_named_with_a_newline_is_listed_on_one_line():
    # A file "ev<newline>il-2026-12-03.jsonl" in the trajectory folder was listed as
    # "ev" over "il-2026-12-0…", its line count and date pushed onto the lines below.
    info = LogFileInfo(Path("ev\nil.jsonl"), "", None, 70, 0.0, False)
    prompt = file_prompt(FileRow(info, 1), marked=False, opened=False).plain
    first, second = prompt.split("\n")
    assert first.startswith("  ev\u240ail.jsonl") and first.endswith("1")
    assert second.strip().startswith("no date")
