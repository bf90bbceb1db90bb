"""The engine the workbench tests drive is the real one: the same scripted tiers give the
same answer through `ScriptedProject` as through `run_tiers` itself."""

from __future__ import annotations

import threading

import pytest
from tui_fakes import FAKE_ROOT, FakeClock, ScriptedProject, ScriptedTier, compare_outcomes

from tierscope.api import Project, QueryOptions
from tierscope.config.model import Config
from tierscope.engine import run_tiers
from tierscope.events import ignore_event
from tierscope.models import TierStatus
from tierscope.scopes import resolve_scope


def direct_run(options: QueryOptions):
    """`run_tiers` called by hand with tiers answering as `compare_outcomes` says."""
    project = Project(FAKE_ROOT, config=Config())
    request = project.prepare(options).request
    script = {outcome.tier: outcome for outcome in compare_outcomes()}
    clock = FakeClock()
    return run_tiers(
        request,
        query_id="q-direct",
        root=project.root,
        config=project.config,
        scope=resolve_scope(request.scope, project.config, project.root),
        private_paths=project.private_paths(),
        on_event=ignore_event,
        tier_factory=lambda name: ScriptedTier(script[name], clock),
        clock=clock,
    )


def test_run_all_tiers_gives_the_hits_run_tiers_gives():
    options = QueryOptions(text="token budget", all_tiers=True)
    engine = ScriptedProject(compare_outcomes())
    result = engine.run(options, trajectory=False)
    expected = direct_run(options)
    assert result.hits == expected.hits
    assert [(o.tier, o.status, o.reason) for o in result.outcomes] == [
        (o.tier, o.status, o.reason) for o in expected.outcomes
    ]


def test_tiers_after_the_serving_one_are_skipped_with_the_engines_reason():
    engine = ScriptedProject(compare_outcomes())
    result = engine.run(QueryOptions(text="token budget"), trajectory=False)
    expected = direct_run(QueryOptions(text="token budget"))
    assert result.hits == expected.hits
    assert [(o.tier, o.status, o.reason) for o in result.outcomes] == [
        ("qmd", TierStatus.SERVED, "1 hit (BM25 search)"),
        ("ck", TierStatus.SKIPPED, "qmd served"),
        ("grep", TierStatus.SKIPPED, "qmd served"),
    ]


def test_a_cancelled_query_skips_the_tiers_after_the_hung_one():
    engine = ScriptedProject(hang="ck")
    cancel = threading.Event()
    finished = []
    worker = threading.Thread(
        target=lambda: finished.append(
            engine.run(QueryOptions(text="token budget"), cancel=cancel, trajectory=False)
        )
    )
    worker.start()
    assert engine.tier_running.wait(10)
    cancel.set()
    worker.join(10)
    statuses = [(o.tier, o.status.value, o.reason) for o in finished[0].outcomes]
    assert statuses == [
        ("qmd", "unavailable", "qmd not installed (not on PATH)"),
        ("ck", "error", "cancelled"),
        ("grep", "skipped", "query cancelled"),
    ]


def test_total_time_is_the_sum_of_the_scripted_latencies():
    result = ScriptedProject().run(QueryOptions(text="token budget"), trajectory=False)
    assert result.total_ms == pytest.approx(0.4 + 5000.0 + 21.5)
