"""The workbench's Store view: the context store by run and type, searched, one page at a
time, with every entry readable in full; and what it says before there is a store."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import closing

import pytest
from textual.widgets import Input, Static
from tui_checks import NARROW, on_screen, settled_text
from tui_fakes import ScriptedProject

from tierscope.store.entries import ReadFilters, WriteRequest
from tierscope.store.location import store_path
from tierscope.store.store import ContextStore
from tierscope.tui.app import TierscopeApp
from tierscope.tui.screens.store import PAGE_SIZE, WRITE_EXAMPLE
from tierscope.tui.widgets.store_entries import EntryTable
from tierscope.tui.widgets.store_filters import FilterList

pytestmark = pytest.mark.anyio

REVIEW_ISSUE = {
    "issue_type": "over-engineering",
    "description": "Rollback handles five edge cases not in the spec",
    "suggestion": "Remove the network partition branch",
}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def engine() -> ScriptedProject:
    return ScriptedProject()


@pytest.fixture
def store(engine) -> Iterator[ContextStore]:
    """The engine's project store with three runs: 60 discoveries and 4 decisions in
    sprint-1, an error and a review issue in sprint-2, one discovery in sprint-3."""
    requests = [
        WriteRequest(
            "sprint-1", "discovery", f"Host {i} drains slowly when the scheduler rebalances"
        )
        for i in range(60)
    ]
    requests += [
        WriteRequest("sprint-1", "decision", f"Keep {n} retries before a rollback")
        for n in range(4)
    ]
    requests += [
        WriteRequest(
            "sprint-2",
            "error",
            "TypeError in parse_config: timeout was None",
            file="src/harbor/config.py",
            line=17,
        ),
        WriteRequest(
            "sprint-2",
            "review_issue",
            json.dumps(REVIEW_ISSUE),
            task_id="T-12",
            file="src/harbor/rollback.py",
            line=88,
        ),
        WriteRequest("sprint-3", "discovery", "The rollback path (AND its retries) is untested"),
    ]
    with ContextStore.open(store_path(engine.root, engine.config)) as opened:
        opened.write_many(requests)
        yield opened


async def settle(pilot) -> None:
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def show_store(pilot) -> None:
    await pilot.press("f6")
    await settle(pilot)


async def choose(pilot, list_id: str, value: str | None) -> None:
    """Move the highlight of a filter list to `value`, as a user does with the arrows."""
    filters = pilot.app.screen.query_one(list_id, FilterList)
    filters.focus()
    target = [choice.value for choice in filters.choices].index(value)
    step = "down" if target > filters.highlighted else "up"
    await pilot.press(*[step] * abs(target - filters.highlighted))
    await settle(pilot)


async def search(pilot, text: str) -> None:
    """Put `text` in the search field (as a paste would: one change, not one per key)."""
    field = pilot.app.screen.query_one("#store-search", Input)
    field.focus()
    field.value = text
    await settle(pilot)


def count_line(app) -> str:
    return str(app.screen.query_one("#store-count", Static).content)


def listed(app) -> list:
    return list(app.screen.query_one(EntryTable).entries)


def expected(store: ContextStore, **filters) -> tuple[list, int]:
    """What the store itself answers for a filter: the first page and the total."""
    result = store.read(ReadFilters(limit=PAGE_SIZE, **filters))
    return list(result.entries), result.total


async def test_the_view_opens_on_every_run_with_a_page_and_the_total(engine, store):
    entries, total = expected(store)
    app = TierscopeApp(engine)
    async with app.run_test(size=(140, 45)) as pilot:
        await show_store(pilot)
        assert listed(app) == entries
        assert count_line(app) == f"showing 1–{PAGE_SIZE} of {total}"


async def test_choosing_a_type_lists_only_that_type_with_its_total(engine, store):
    entries, total = expected(store, types=("decision",))
    app = TierscopeApp(engine)
    async with app.run_test(size=(140, 45)) as pilot:
        await show_store(pilot)
        await choose(pilot, "#store-types", "decision")
        assert listed(app) == entries
        assert {entry.type for entry in listed(app)} == {"decision"}
        assert count_line(app) == f"showing 1–{total} of {total}"


async def test_search_and_type_together_narrow_the_list_and_the_total(engine, store):
    entries, total = expected(store, types=("discovery",), search="rollback")
    app = TierscopeApp(engine)
    async with app.run_test(size=(140, 45)) as pilot:
        await show_store(pilot)
        await choose(pilot, "#store-types", "discovery")
        await search(pilot, "rollback")
        assert listed(app) == entries
        assert count_line(app) == f"showing 1–{total} of {total}"
        assert total > 0


async def test_search_text_full_of_fts_syntax_is_searched_as_plain_words(engine, store):
    entries, total = expected(store, search='rollback AND (retries"')
    app = TierscopeApp(engine)
    async with app.run_test(size=(140, 45)) as pilot:
        await show_store(pilot)
        await search(pilot, 'rollback AND (retries"')
        assert listed(app) == entries
        assert count_line(app) == f"showing 1–{total} of {total}"
        assert total > 0


async def test_choosing_a_run_narrows_the_entries_and_the_type_counts(engine, store):
    app = TierscopeApp(engine)
    async with app.run_test(size=(140, 45)) as pilot:
        await show_store(pilot)
        await choose(pilot, "#store-runs", "sprint-2")
        types = app.screen.query_one("#store-types", FilterList)
        counts = {choice.value: choice.count for choice in types.choices}
        assert {entry.run_id for entry in listed(app)} == {"sprint-2"}
        assert counts == {
            None: 2,
            "discovery": 0,
            "error": 1,
            "decision": 0,
            "review_issue": 1,
            "scratchpad": 0,
            "codebase_analysis": 0,
        }


async def test_brackets_page_through_the_entries(engine, store):
    _, total = expected(store)
    second_page = store.read(ReadFilters(limit=PAGE_SIZE, offset=PAGE_SIZE)).entries
    app = TierscopeApp(engine)
    async with app.run_test(size=(140, 45)) as pilot:
        await show_store(pilot)
        app.screen.query_one(EntryTable).focus()
        await pilot.press("right_square_bracket")
        await settle(pilot)
        assert listed(app) == list(second_page)
        assert count_line(app) == f"showing {PAGE_SIZE + 1}–{total} of {total}"
        await pilot.press("right_square_bracket")
        await settle(pilot)
        assert count_line(app) == f"showing {PAGE_SIZE + 1}–{total} of {total}"
        await pilot.press("left_square_bracket")
        await settle(pilot)
        assert count_line(app) == f"showing 1–{PAGE_SIZE} of {total}"


async def test_the_detail_shows_structured_entries_as_json_with_file_and_line(engine, store):
    app = TierscopeApp(engine)
    async with app.run_test(size=(140, 45)) as pilot:
        await show_store(pilot)
        await choose(pilot, "#store-types", "review_issue")
        facts = str(app.screen.query_one("#entry-facts", Static).content)
        body = str(app.screen.query_one("#entry-body", Static).content)
    assert "at      src/harbor/rollback.py:88" in facts
    assert "task    T-12" in facts
    assert json.loads(body) == REVIEW_ISSUE
    assert body == json.dumps(REVIEW_ISSUE, indent=2)


async def test_without_a_store_the_view_says_how_to_create_one(engine):
    app = TierscopeApp(engine)
    async with app.run_test(size=(140, 45)) as pilot:
        await show_store(pilot)
        empty = str(app.screen.query_one("#store-empty", Static).content)
        assert app.screen.query_one("#store-switcher").current == "store-empty"
    assert WRITE_EXAMPLE in empty
    assert not store_path(engine.root, engine.config).exists()


async def test_r_reads_again_and_shows_entries_written_meanwhile(engine, store):
    app = TierscopeApp(engine)
    async with app.run_test(size=(140, 45)) as pilot:
        await show_store(pilot)
        store.write(WriteRequest("sprint-4", "decision", "Ship the drain fix behind a flag"))
        app.screen.query_one(EntryTable).focus()
        await pilot.press("r")
        await settle(pilot)
        runs = app.screen.query_one("#store-runs", FilterList)
        assert "sprint-4" in [choice.value for choice in runs.choices]
        assert listed(app)[0].content == "Ship the drain fix behind a flag"


def test_store_view_snapshot(snap_compare, engine, store):
    # Fixed timestamps: the snapshot must not depend on when the test runs.
    with closing(sqlite3.connect(store.path)) as connection, connection:
        connection.execute(
            "UPDATE context SET created_at = printf('2026-11-23 10:%02d:00.000', id % 60)"
        )
    app = TierscopeApp(engine)

    async def run_before(pilot) -> None:
        await show_store(pilot)
        await choose(pilot, "#store-runs", "sprint-2")
        app.screen.query_one(EntryTable).focus()
        await pilot.press("down")
        await settle(pilot)

    assert snap_compare(app, run_before=run_before, terminal_size=(130, 40))


async def test_slash_puts_the_cursor_in_the_search_box_and_types_nothing(engine, store):
    app = TierscopeApp(engine)
    async with app.run_test(size=(120, 40)) as pilot:
        await show_store(pilot)
        search_box = app.screen.query_one("#store-search", Input)
        await pilot.press("slash")
        assert app.focused is search_box
        assert search_box.value == ""


async def test_at_80x24_entries_detail_and_search_all_have_room(engine, store):
    app = TierscopeApp(engine)
    async with app.run_test(size=NARROW) as pilot:
        await show_store(pilot)
        screen = app.screen
        await settled_text(pilot)  # the layout for 80 columns is done
        assert on_screen(app, screen.query_one("#store-search", Input))
        entries = screen.query_one(EntryTable)
        assert entries.region.height >= 6
        assert entries.region.width >= 70
        shown = await settled_text(pilot, entries)
        assert "Host 59 drains slowly" in shown or "untested" in shown
        assert screen.query_one("#store-detail").region.height >= 4


def test_store_view_snapshot_at_80x24(snap_compare, engine, store):
    with closing(sqlite3.connect(store.path)) as connection, connection:
        connection.execute(
            "UPDATE context SET created_at = printf('2026-11-23 10:%02d:00.000', id % 60)"
        )
    app = TierscopeApp(engine)

    async def run_before(pilot) -> None:
        await show_store(pilot)
        await choose(pilot, "#store-runs", "sprint-2")
        app.screen.query_one(EntryTable).focus()
        await pilot.press("down")
        await settle(pilot)

    assert snap_compare(app, run_before=run_before, terminal_size=NARROW)
