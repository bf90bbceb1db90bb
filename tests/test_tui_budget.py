"""The budget control of the Query view: every change the user makes (a key on the meter, a
click or drag of its bar, a keystroke in the Budget field) re-packs the hits exactly once;
the budget shown is the budget used; the app is idle afterwards; and the next query runs
with the budget the user chose."""

from __future__ import annotations

import contextlib

import pytest
from textual import events
from textual.widgets import Input
from textual.worker import WorkerCancelled, WorkerFailed
from tui_fakes import ScriptedProject

import tierscope.tui.screens.query as query_module
from tierscope.budget import apply_budget
from tierscope.tui.app import TierscopeApp
from tierscope.tui.screens.query import QueryScreen
from tierscope.tui.widgets.budget_meter import BudgetMeter, limit_at

SIZE = (120, 40)
pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture
def repacks(monkeypatch) -> list[int]:
    """The limit of every re-pack the Query view does, in order."""
    done: list[int] = []

    def counting(hits, limit):
        done.append(limit)
        return apply_budget(hits, limit)

    monkeypatch.setattr(query_module, "apply_budget", counting)
    return done


async def settle(pilot) -> None:
    for _ in range(2):
        for worker in list(pilot.app.workers):
            with contextlib.suppress(WorkerCancelled, WorkerFailed):
                await worker.wait()
        await pilot.pause()


def running_timers(app) -> list:
    """Timers of the app and its current screen that are running (not paused or done)."""
    nodes = [app, *app.screen.walk_children(with_self=True)]
    return [
        timer
        for node in nodes
        for timer in list(node._timers)
        if timer._task is not None and not timer._task.done() and timer._active.is_set()
    ]


async def assert_idle(pilot, repacks: list[int]) -> None:
    """Nothing happens any more: no re-pack, no worker, no timer."""
    before = list(repacks)
    await pilot.pause(0.3)
    assert repacks == before, f"still re-packing: {repacks[len(before) :][:10]}"
    assert not [worker for worker in pilot.app.workers if worker.is_running]
    assert running_timers(pilot.app) == []


async def press_at_once(pilot, *keys: str) -> None:
    """Keys arriving faster than the app handles them (a quick typist, key repeat)."""
    for key in keys:
        character = key if len(key) == 1 else None
        pilot.app.post_message(events.Key(key, character))
    await pilot.pause()


async def run_query(pilot, text: str = "token budget") -> QueryScreen:
    screen = pilot.app.screen
    assert isinstance(screen, QueryScreen)
    for field in screen.query(Input):
        field.cursor_blink = False  # a focused field's blinking cursor is a timer of its own
    field = screen.query_one("#query", Input)
    field.focus()
    field.value = text
    await pilot.press("enter")
    await settle(pilot)
    return screen


def shown_and_used(screen: QueryScreen) -> tuple[str, int, int]:
    """The Budget field's text, the meter's limit and the limit of the shown result."""
    return (
        screen.query_one("#budget", Input).value,
        screen.query_one(BudgetMeter).report.limit,
        screen.result.budget.limit,
    )


async def test_each_budget_key_repacks_once_and_the_app_is_idle_after(repacks):
    app = TierscopeApp(ScriptedProject())
    async with app.run_test(size=SIZE) as pilot:
        screen = await run_query(pilot)
        await pilot.press("ctrl+g")
        assert app.focused is screen.query_one(BudgetMeter)
        await pilot.press("left")
        await assert_idle(pilot, repacks)
        assert repacks == [1900]
        assert shown_and_used(screen) == ("1900", 1900, 1900)


async def test_two_quick_budget_keys_repack_twice_and_settle_on_the_second(repacks):
    app = TierscopeApp(ScriptedProject())
    async with app.run_test(size=SIZE) as pilot:
        screen = await run_query(pilot)
        await pilot.press("ctrl+g")
        await press_at_once(pilot, "left", "left")
        await assert_idle(pilot, repacks)
        assert repacks == [1900, 1800]
        assert shown_and_used(screen) == ("1800", 1800, 1800)
        await press_at_once(pilot, "right", "right", "right")
        await assert_idle(pilot, repacks)
        assert repacks == [1900, 1800, 1900, 2000, 2100]
        assert shown_and_used(screen) == ("2100", 2100, 2100)


async def test_dragging_the_bar_repacks_once_per_new_limit(repacks):
    app = TierscopeApp(ScriptedProject())
    async with app.run_test(size=SIZE) as pilot:
        screen = await run_query(pilot)
        meter = screen.query_one(BudgetMeter)
        width, scale = meter.content_region.width, meter.scale
        await pilot.mouse_down(meter, offset=(1 + 10, 1))
        for x in (12, 14, 14, 16):
            await pilot.hover(meter, offset=(1 + x, 1))
        await pilot.mouse_up(meter, offset=(1 + 16, 1))
        await assert_idle(pilot, repacks)
        expected = [limit_at(x, width, scale) for x in (10, 12, 14, 16)]
        assert repacks == expected
        shown = str(expected[-1])
        assert shown_and_used(screen) == (shown, expected[-1], expected[-1])


async def test_typing_a_budget_repacks_once_per_keystroke_and_keeps_what_was_typed(repacks):
    app = TierscopeApp(ScriptedProject())
    async with app.run_test(size=SIZE) as pilot:
        screen = await run_query(pilot)
        await pilot.click("#budget")
        await pilot.press("ctrl+a", "backspace")  # empty: the default applies, no re-pack
        await pilot.press("1", "5", "0", "0")
        await assert_idle(pilot, repacks)
        assert repacks == [1, 15, 150, 1500]
        assert shown_and_used(screen) == ("1500", 1500, 1500)


async def test_typing_a_budget_quickly_keeps_every_character(repacks):
    app = TierscopeApp(ScriptedProject())
    async with app.run_test(size=SIZE) as pilot:
        screen = await run_query(pilot)
        await pilot.click("#budget")
        await pilot.press("ctrl+a", "backspace")
        await press_at_once(pilot, "1", "5", "0", "0")
        await assert_idle(pilot, repacks)
        assert len(repacks) <= 4 and repacks[-1] == 1500
        assert shown_and_used(screen) == ("1500", 1500, 1500)


async def test_the_next_query_runs_with_the_budget_the_user_chose(repacks):
    engine = ScriptedProject()
    app = TierscopeApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        await run_query(pilot)
        await pilot.press("ctrl+g")
        await press_at_once(pilot, "left", "left", "left")
        await assert_idle(pilot, repacks)
        screen = await run_query(pilot, "rollback")
        assert engine.runs[-1].budget == 1700
        assert shown_and_used(screen) == ("1700", 1700, 1700)
        await assert_idle(pilot, repacks)
