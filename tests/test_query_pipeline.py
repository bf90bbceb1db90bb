"""One query, one way through: the context filter judges each source once (the grep tier
picking its files and the engine checking what was served share it), a refusal is a typed
value, and budget and timeout text is read in one place (the api)."""

from __future__ import annotations

import pytest

from tierscope import filtering
from tierscope.api import NOT_A_BUDGET, Project, QueryOptions, read_budget, read_timeout
from tierscope.models import RefusalReason

PAGE = "---\nsignal: high\n---\n# Drain window\n\nThe drain window closes before a rollback.\n"


@pytest.fixture
def project(make_project):
    return make_project(
        {
            ".tierscope.yaml": "qmd_context:\n  tiers: [grep]\n",
            "docs/drain.md": PAGE,
            "docs/rollback.md": PAGE.replace("Drain window", "Rollback"),
        }
    )


def test_each_source_is_judged_once_per_query(project, monkeypatch):
    judged: list[str] = []
    real = filtering.read_signal

    def counting(path):
        judged.append(path.name)
        return real(path)

    monkeypatch.setattr(filtering, "read_signal", counting)

    result = Project(project).run(QueryOptions(text="drain window rollback"), trajectory=False)

    assert {hit.source for hit in result.hits} == {"docs/drain.md", "docs/rollback.md"}
    assert sorted(judged) == ["drain.md", "rollback.md"]


def test_a_refusal_says_why_as_a_value_and_as_words(project):
    result = Project(project).run(QueryOptions(text="drain", scope="nowhere"), trajectory=False)

    assert result.refused is not None
    assert result.refused.reason is RefusalReason.UNKNOWN_SCOPE
    assert result.refused.message == "Invalid scope: nowhere"
    assert result.hits == ()


@pytest.mark.parametrize(
    ("typed", "read"),
    [(None, None), ("", None), ("  ", None), ("0", 0), (" 150 ", 150), (150, 150),
     ("abc", NOT_A_BUDGET), ("1.5", NOT_A_BUDGET), ("-5", NOT_A_BUDGET), (-5, NOT_A_BUDGET)],
)  # fmt: skip
def test_budget_text_and_numbers_are_read_in_one_place(typed, read):
    assert read_budget(typed) == read


@pytest.mark.parametrize(
    ("typed", "read"),
    [(None, None), ("abc", None), ("0", None), ("-1", None), ("2.5", 2.5), (3.0, 3.0)],
)
def test_timeout_text_that_is_not_positive_reads_as_not_given(typed, read):
    assert read_timeout(typed) == read


def test_a_budget_that_is_not_a_whole_number_is_refused_with_what_was_typed(project):
    result = Project(project).run(QueryOptions(text="drain", budget="1.5"), trajectory=False)

    assert result.refused is not None
    assert result.refused.reason is RefusalReason.BAD_BUDGET
    assert "'1.5'" in result.refused.message


def test_a_timeout_number_that_is_not_positive_is_refused(project):
    result = Project(project).run(QueryOptions(text="drain", timeout=0.0), trajectory=False)

    assert result.refused is not None
    assert result.refused.reason is RefusalReason.BAD_TIMEOUT
