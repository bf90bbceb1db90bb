"""The grep tier ranks files and shows the best window, with ripgrep or without it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tierscope.config.model import Config
from tierscope.models import ResolvedScope, TierStatus
from tierscope.tiers.base import Deadline, TierRequest
from tierscope.tiers.grep import GrepTier, find_ripgrep
from tierscope.tiers.grep_rank import FileMatches, query_terms, rank_files


@pytest.fixture(params=["ripgrep", "python"])
def engine(request, monkeypatch):
    if request.param == "python":
        monkeypatch.setenv("TIERSCOPE_GREP_ENGINE", "python")
    else:
        monkeypatch.delenv("TIERSCOPE_GREP_ENGINE", raising=False)
        if find_ripgrep() is None:
            pytest.skip("rg not available")
    return request.param


def search(root, query, paths=("docs",), private=(), config=None):
    scope = ResolvedScope("docs", (), (), tuple((root / p).resolve() for p in paths))
    request = TierRequest(query, root, scope, config or Config(), 5.0, private_paths=private)
    return GrepTier().search(request, Deadline.after(5.0))


def test_query_terms_drop_stopwords_and_keep_literal_text():
    assert query_terms("How does the token budget work?") == ("token", "budget", "work")
    assert query_terms("the of and") == ("the", "of", "and")
    assert query_terms("foo( [bar]* -xy") == ("foo", "bar", "xy")


def test_file_matching_more_distinct_terms_ranks_first(make_project, engine):
    root = make_project(
        {
            "docs/one.md": "token token token token\n",
            "docs/both.md": "the token budget is enforced here\n",
        }
    )
    outcome = search(root, "token budget")
    assert outcome.status is TierStatus.SERVED
    assert [h.source for h in outcome.hits] == ["docs/both.md", "docs/one.md"]
    assert all(0 <= h.score <= 1 for h in outcome.hits)
    assert outcome.hits[0].score > outcome.hits[1].score


def test_rarer_term_weighs_more(make_project, engine):
    files = {f"docs/common{i}.md": "rollback happens\n" for i in range(5)}
    files["docs/rare.md"] = "canary only\n"
    files["docs/common0.md"] = "rollback happens\n"
    root = make_project(files)
    outcome = search(root, "rollback canary")
    assert outcome.hits[0].source == "docs/rare.md"


def test_snippet_is_the_best_window_not_the_first_matching_line(make_project, engine):
    lines = ["# Title", "A budget is mentioned early.", *["filler"] * 20,
             "The token budget is cut here.", "Tokens are estimated from words.",
             *["filler"] * 5]  # fmt: skip
    root = make_project({"docs/a.md": "\n".join(lines) + "\n"})
    outcome = search(root, "token budget")
    hit = outcome.hits[0]
    assert "The token budget is cut here." in hit.content
    assert "mentioned early" not in hit.content
    assert hit.line_start <= 23 <= hit.line_end
    assert hit.line_end - hit.line_start + 1 <= 5


def test_regex_and_glob_characters_are_searched_literally(make_project, engine):
    root = make_project({"docs/a.md": "call foo( here\n", "docs/b.md": "fooo\n"})
    outcome = search(root, "foo(")
    assert outcome.status is TierStatus.SERVED
    assert outcome.hits[0].source in {"docs/a.md", "docs/b.md"}
    dash = search(root, "-e foo(")
    assert dash.status is TierStatus.SERVED


def test_binary_and_oversized_files_are_skipped(make_project, engine):
    config = Config()
    big = "needle " * (config.grep.max_filesize // 7 + 10)
    root = make_project(
        {"docs/bin.dat": b"needle\x00\x01\x02", "docs/big.md": big, "docs/ok.md": "needle\n"}
    )
    outcome = search(root, "needle")
    assert [h.source for h in outcome.hits] == ["docs/ok.md"]


def test_non_utf8_files_are_decoded_with_replacement(make_project, engine):
    root = make_project({"docs/latin.md": "caf\xe9 needle\n".encode("latin-1")})
    outcome = search(root, "needle")
    assert outcome.hits[0].content == "caf\ufffd needle"


def test_private_state_inside_a_scope_is_never_searched(make_project, engine):
    root = make_project(
        {
            "docs/a.md": "needle\n",
            "docs/trajectory/implement-2026-11-23.jsonl": '{"query": "needle"}\n',
        }
    )
    outcome = search(root, "needle", private=((root / "docs/trajectory").resolve(),))
    assert [h.source for h in outcome.hits] == ["docs/a.md"]


def test_no_match_is_empty_with_a_reason(make_project, engine):
    root = make_project({"docs/a.md": "nothing here\n"})
    outcome = search(root, "zebra")
    assert outcome.status is TierStatus.EMPTY
    assert "zebra" in outcome.reason


def test_reason_and_notes_say_which_engine_ran(make_project, engine):
    root = make_project({"docs/a.md": "needle\n"})
    outcome = search(root, "needle")
    expected = "ripgrep" if engine == "ripgrep" else "python scan"
    assert outcome.reason == f"1 hit ({expected})"
    assert outcome.notes == (f"engine: {expected}",)


def test_ripgrep_and_python_scan_rank_alike(make_project, monkeypatch):
    if find_ripgrep() is None:
        pytest.skip("rg not available")
    root = make_project(
        {
            "docs/a.md": "token budget\nmore token text\n",
            "docs/b.md": "budget only\n",
            "docs/sub/c.md": "token\n\nbudget far\n",
        }
    )
    with_rg = search(root, "token budget")
    monkeypatch.setenv("TIERSCOPE_GREP_ENGINE", "python")
    without = search(root, "token budget")
    assert [(h.source, h.score, h.content) for h in with_rg.hits] == [
        (h.source, h.score, h.content) for h in without.hits
    ]


@given(
    st.lists(
        st.dictionaries(
            st.integers(min_value=1, max_value=60),
            st.sets(st.sampled_from(["alpha", "beta", "gamma"]), min_size=1),
            min_size=1,
            max_size=12,
        ),
        min_size=1,
        max_size=25,
    )
)
def test_lazy_ranking_yields_every_file_once_best_first(per_file_lines):
    terms = ("alpha", "beta", "gamma")
    files = []
    for index, lines in enumerate(per_file_lines):
        matches = FileMatches(f"f{index:02d}.md")
        for number, found in lines.items():
            for term in found:
                matches.add_match(number, term)
        files.append(matches)
    ranked = list(rank_files(files, terms, 5))
    assert sorted(r.path for r in ranked) == sorted(f.path for f in files)
    keys = [(-r.score, r.path) for r in ranked]
    assert keys == sorted(keys)
    assert all(0 <= r.score <= 1 for r in ranked)


def test_words_match_at_word_starts_not_inside_other_words(make_project, engine):
    root = make_project(
        {
            "docs/a.md": "Raise RetryBudgetExhausted when out.\n",
            "docs/b.md": "Budgets are counted per skill.\n",
        }
    )
    outcome = search(root, "budget")
    assert [h.source for h in outcome.hits] == ["docs/b.md"]


def test_single_characters_are_never_searched(make_project, engine):
    root = make_project({"docs/a.md": "a b c x\n"})
    assert query_terms("a\"b'c$(x)") == ()
    assert search(root, "a\"b'c$(x)").status is TierStatus.EMPTY
