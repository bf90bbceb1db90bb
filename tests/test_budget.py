"""Token budget packing: never over, best first, skip-and-continue."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tierscope.budget import apply_budget
from tierscope.models import Hit, estimate_tokens


def hit_with_words(words: int, score: float, name: str = "a.md") -> Hit:
    return Hit(name, score, " ".join(["w"] * words), "grep")


def test_tokens_are_words_times_one_point_three_or_characters_over_four():
    assert estimate_tokens("") == 0
    assert estimate_tokens("one") == 2  # ceil(1 * 1.3) > ceil(3 / 4)
    assert estimate_tokens("a b c d e f g h i j") == 13  # ceil(10 * 1.3) > ceil(19 / 4)
    assert estimate_tokens("  spread\n\tover   lines ") == 6  # ceil(23 / 4) > ceil(3 * 1.3)


def test_dense_text_is_not_undercounted():
    row = "|" + "|".join(["0x1f2e3d4c"] * 40) + "|"
    assert estimate_tokens(row) == 111  # one "word" of 441 characters


def test_a_hit_that_does_not_fit_is_skipped_and_a_smaller_later_one_still_fits():
    big = hit_with_words(100, 0.9, "big.md")  # 130 tokens
    small = hit_with_words(10, 0.5, "small.md")  # 13 tokens
    report = apply_budget([big, small], 50)
    assert [e.hit.source for e in report.included] == ["small.md"]
    assert [e.hit.source for e in report.dropped] == ["big.md"]
    assert report.dropped[0].reason == "needs 130 tokens, 50 left"
    assert report.used == 13


def test_hits_are_taken_in_descending_score_order():
    hits = [hit_with_words(10, s, f"{s}.md") for s in (0.2, 0.9, 0.5)]
    report = apply_budget(hits, 1000)
    assert [e.hit.score for e in report.included] == [0.9, 0.5, 0.2]


def test_budget_zero_keeps_nothing_and_says_why():
    report = apply_budget([hit_with_words(1, 0.9)], 0)
    assert report.included == ()
    assert report.dropped[0].reason == "budget is 0"


def test_exact_fit_is_kept():
    report = apply_budget([hit_with_words(10, 0.9)], 13)
    assert report.used == 13 and len(report.included) == 1


@given(
    words=st.lists(st.integers(min_value=0, max_value=400), max_size=30),
    scores=st.lists(st.floats(min_value=0, max_value=1), min_size=30, max_size=30),
    limit=st.integers(min_value=0, max_value=3000),
)
def test_budget_is_never_exceeded_and_every_hit_is_accounted_for(words, scores, limit):
    hits = [hit_with_words(n, scores[i], f"{i}.md") for i, n in enumerate(words)]
    report = apply_budget(hits, limit)
    assert report.used <= limit
    assert report.used == sum(e.tokens for e in report.included)
    assert len(report.included) + len(report.dropped) == len(hits)
    # Skip-and-continue: nothing dropped would still have fitted in what was left.
    left = limit - report.used
    assert all(e.tokens > left for e in report.dropped) or limit == 0
