"""The store tier: the context store's entries answering a query as hits."""

from __future__ import annotations

import json
import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tierscope.config.model import Config, StoreSettings
from tierscope.models import ResolvedScope, TierStatus
from tierscope.store.entries import WriteRequest
from tierscope.store.location import STORE_ENV
from tierscope.store.store import ContextStore
from tierscope.tiers.base import Deadline, TierRequest
from tierscope.tiers.registry import load_tier
from tierscope.tiers.store import NO_STORE_REASON, StoreTier, bm25_score


@pytest.fixture(autouse=True)
def no_store_override(monkeypatch):
    monkeypatch.delenv(STORE_ENV, raising=False)


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "repo"
    root.mkdir()
    return root


def request_for(root, query: str, limit: int = 10) -> TierRequest:
    config = Config(store=StoreSettings(path=".tierscope/context.sqlite", limit=limit))
    return TierRequest(
        query=query,
        root=root,
        scope=ResolvedScope("all", (), (), ()),
        config=config,
        timeout=5.0,
    )


def fill(root, *requests: WriteRequest) -> list[int]:
    with ContextStore.open(root / ".tierscope" / "context.sqlite") as store:
        return list(store.write_many(requests))


def entry(content: str, entry_type: str = "discovery", **fields) -> WriteRequest:
    return WriteRequest(
        run_id=fields.pop("run_id", "run-1"), type=entry_type, content=content, **fields
    )


def search(root, query: str, **kwargs):
    return StoreTier().search(request_for(root, query, **kwargs), Deadline.after(5))


def test_the_registry_knows_the_store_tier():
    assert load_tier("store").name == "store"


def test_without_a_database_the_tier_is_unavailable_and_creates_nothing(project):
    outcome = search(project, "anything")
    probe = StoreTier().probe(request_for(project, "anything"))
    assert (outcome.status, outcome.reason) == (TierStatus.UNAVAILABLE, NO_STORE_REASON)
    assert (probe.usable, probe.reason) == (False, NO_STORE_REASON)
    assert not (project / ".tierscope").exists()


def test_the_probe_counts_the_entries(project):
    fill(project, entry("one"), entry("two"))
    probe = StoreTier().probe(request_for(project, "x"))
    assert probe.usable and probe.details["entries"] == 2


def test_hits_carry_the_entry_and_a_score_in_the_unit_interval(project):
    _located, loose, _unrelated = fill(
        project,
        entry("token budget packer skips hits", file="core/budget.py", line=42),
        entry("the token budget is 2000 by default", "decision"),
        entry("unrelated"),
    )
    outcome = search(project, "token budget")
    assert outcome.status is TierStatus.SERVED
    assert {hit.source for hit in outcome.hits} == {"core/budget.py", f"store:decision/{loose}"}
    by_source = {hit.source: hit for hit in outcome.hits}
    assert by_source["core/budget.py"].content == "token budget packer skips hits"
    assert (by_source["core/budget.py"].line_start, by_source["core/budget.py"].line_end) == (
        42,
        42,
    )
    assert by_source[f"store:decision/{loose}"].line_start is None
    assert all(hit.tier == "store" and 0.0 <= hit.score <= 1.0 for hit in outcome.hits)
    assert [h.score for h in outcome.hits] == sorted((h.score for h in outcome.hits), reverse=True)


def test_better_matching_entries_score_higher(project):
    fill(
        project,
        *(entry(f"filler entry {n}") for n in range(20)),
        entry("cache " + "words " * 40),
        entry("cache cache cache"),
    )
    first, second = search(project, "cache").hits
    assert first.content == "cache cache cache"
    assert first.score > second.score


def test_structured_entries_are_served_as_readable_prose(project):
    issue = {"issue_type": "dead-code", "description": "parser branch never taken",
             "suggestion": "remove the branch"}  # fmt: skip
    fill(project, entry(json.dumps(issue), "review_issue", file="src/parse.py", line=3))
    (hit,) = search(project, "parser branch").hits
    assert hit.content == (
        "Review issue (dead-code): parser branch never taken Suggestion: remove the branch"
    )


def test_entries_of_every_run_are_searched(project):
    fill(project, entry("shared finding", run_id="run-1"), entry("shared finding", run_id="run-2"))
    assert len(search(project, "finding").hits) == 2


def test_the_configured_limit_caps_the_hits(project):
    fill(project, *(entry(f"repeated word {n}") for n in range(8)))
    assert len(search(project, "repeated", limit=3).hits) == 3


def test_entries_with_every_word_are_preferred_over_any_word(project):
    fill(project, entry("budget only"), entry("budget and zebra"))
    outcome = search(project, "budget zebra")
    assert [hit.content for hit in outcome.hits] == ["budget and zebra"]
    assert "all words" in outcome.reason


def test_when_no_entry_has_every_word_any_word_serves(project):
    fill(project, entry("budget only"), entry("nothing here"))
    outcome = search(project, "budget zebra")
    assert [hit.content for hit in outcome.hits] == ["budget only"]
    assert "any word" in outcome.reason


def test_no_match_is_empty(project):
    fill(project, entry("something"))
    assert search(project, "absent").status is TierStatus.EMPTY


@pytest.mark.parametrize("query", ['"', "*", "-- ()", "   "])
def test_a_query_without_words_is_empty(project, query):
    fill(project, entry("something"))
    outcome = search(project, query)
    assert (outcome.status, outcome.hits) == (TierStatus.EMPTY, ())


@pytest.mark.parametrize("query", ['auth* OR "x', "NEAR(a b", "content:auth", "NOT -auth ("])
def test_fts_syntax_in_the_query_is_searched_literally(project, query):
    fill(project, entry("auth middleware content"))
    assert search(project, query).status in (TierStatus.SERVED, TierStatus.EMPTY)


def test_a_passed_deadline_is_a_timeout(project):
    fill(project, entry("something"))
    outcome = StoreTier().search(request_for(project, "something"), Deadline.after(0))
    assert outcome.status is TierStatus.TIMEOUT
    assert outcome.hits == ()


def test_a_cancelled_query_is_a_timeout_that_says_so(project):
    fill(project, entry("something"))
    cancel = threading.Event()
    cancel.set()
    outcome = StoreTier().search(request_for(project, "something"), Deadline.after(5, cancel))
    assert outcome.status is TierStatus.TIMEOUT
    assert "cancelled" in outcome.reason


def test_a_broken_database_is_an_error_not_an_exception(project):
    path = project / ".tierscope" / "context.sqlite"
    path.parent.mkdir()
    path.write_bytes(b"garbage" * 200)
    outcome = search(project, "anything")
    assert outcome.status is TierStatus.ERROR
    assert "not a database" in outcome.reason
    assert not StoreTier().probe(request_for(project, "x")).usable


def test_an_absolute_file_inside_the_root_is_served_root_relative(project):
    fill(project, entry("absolute note", file=str(project / "docs" / "a.md")))
    (hit,) = search(project, "absolute").hits
    assert hit.source == "docs/a.md"


@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e12, max_value=1e12))
def test_bm25_scores_map_into_the_unit_interval(value):
    assert 0.0 <= bm25_score(value) <= 1.0


def test_stronger_bm25_values_map_to_higher_scores():
    assert bm25_score(-0.5) < bm25_score(-2.0) < bm25_score(-10.0)


def test_a_query_run_through_the_engine_is_served_by_the_store(project):
    from tierscope.api import Project, QueryOptions

    fill(project, entry("Using JWT tokens instead of sessions", "decision"))
    (project / ".tierscope.yaml").write_text(
        "qmd_context:\n  tiers: [store, grep]\n  store:\n    path: .tierscope/context.sqlite\n"
    )
    result = Project(project).run(QueryOptions(text="JWT sessions"), trajectory=False)
    assert result.served_by == "store"
    assert [hit.public()["content"] for hit in result.hits] == [
        "Using JWT tokens instead of sessions"
    ]
