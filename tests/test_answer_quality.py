"""Answer quality stays above its floors (DESIGN §8): the grep tier's ranking and snippets
on the development query sets in eval/. Floors are set a little under the figures measured
when they were last raised; a change that drops below one must say why in its eval report."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tierscope.api import Project
from tierscope.evaluation.queryset import read_query_set
from tierscope.evaluation.runner import EvaluationReport, evaluate

REPO = Path(__file__).resolve().parent.parent
DEMO = REPO / "core" / "demo" / "project"
EVAL = REPO / "eval"


def find_corpora() -> Path | None:
    """../shared/corpora beside the checkout (or $TIERSCOPE_CORPORA)."""
    candidates = [os.environ.get("TIERSCOPE_CORPORA", ""), REPO.parent / "shared" / "corpora"]
    for candidate in candidates:
        if candidate and (Path(candidate) / "textual" / "docs").is_dir():
            return Path(candidate)
    return None


def assert_clean_answers(report: EvaluationReport) -> None:
    assert report.ladder.duplicate_hits == 0
    assert report.ladder.long_line_share <= 0.02


@pytest.fixture(scope="module")
def demo_report(tmp_path_factory) -> EvaluationReport:
    root = tmp_path_factory.mktemp("quality") / "demo"
    shutil.copytree(DEMO, root)
    queries = read_query_set(EVAL / "demo" / "queries.tsv")
    return evaluate(Project(root), queries, tiers=("grep",))


def test_the_demo_set_ranks_the_right_file_first(demo_report):
    assert demo_report.ladder.queries >= 40
    assert demo_report.ladder.mrr >= 0.90
    assert demo_report.ladder.hit_at_5 >= 0.93


def test_the_demo_set_snippets_hold_the_answer_and_are_clean(demo_report):
    assert demo_report.ladder.passage_share >= 0.84
    assert_clean_answers(demo_report)


def textual_evaluation(query_set: str) -> EvaluationReport:
    corpora = find_corpora()
    if corpora is None:
        pytest.skip("the Textual corpus (../shared/corpora/textual) is not beside this checkout")
    project = Project(corpora / "textual", str(EVAL / "textual" / "tierscope.yaml"))
    queries = read_query_set(EVAL / "textual" / query_set)
    return evaluate(project, queries, tiers=("grep",))


@pytest.fixture(scope="module")
def textual_report() -> EvaluationReport:
    return textual_evaluation("queries.tsv")


def test_the_textual_set_ranks_docs_and_code_above_their_floors(textual_report):
    assert textual_report.ladder.queries >= 250
    assert textual_report.ladder.mrr >= 0.85
    assert textual_report.groups["scope docs"].mrr >= 0.84
    assert textual_report.groups["scope code"].mrr >= 0.84
    assert textual_report.groups["long"].mrr >= 0.80


def test_the_textual_set_snippets_hold_the_answer_and_are_clean(textual_report):
    # 88.8% and 89.8% (code) when set; 87.6% and 87.5% before a long Python definition
    # was served with its whole docstring (code_blocks.block_heads).
    assert textual_report.ladder.passage_share >= 0.84
    assert textual_report.groups["scope code"].passage_share >= 0.84
    assert textual_report.ladder.tokens_per_hit <= 350
    assert_clean_answers(textual_report)


def test_a_name_looked_up_alone_finds_its_definition():
    """eval/textual/definitions.tsv: names that importers, callers and docs also use; the
    file that defines the name comes first, its snippet shows the definition. Before
    definitions counted in ranking and snippets: MRR 0.698, passage 78%."""
    report = textual_evaluation("definitions.tsv")
    assert report.ladder.queries >= 60
    assert report.ladder.mrr >= 0.88
    assert report.ladder.passage_share >= 0.95
    assert_clean_answers(report)


def test_the_held_out_how_to_questions_stay_above_their_floor():
    """eval/textual/howto.tsv: questions in a new user's words, kept out of tuning. Far
    below the development set: most of their misses share almost no word with the page
    that answers them."""
    report = textual_evaluation("howto.tsv")
    assert report.ladder.queries >= 40
    assert report.ladder.mrr >= 0.52
    assert report.ladder.hit_at_5 >= 0.62
    assert_clean_answers(report)


def test_the_checkouts_own_code_outranks_its_tests():
    """eval/self asks about tierscope's implementation in its own checkout, where every
    topic also has tests that name it more often than the code does."""
    project = Project(REPO, str(EVAL / "self" / "tierscope.yaml"))
    report = evaluate(project, read_query_set(EVAL / "self" / "queries.tsv"), tiers=("grep",))
    assert report.ladder.queries >= 48
    assert report.ladder.mrr >= 0.88
    assert report.ladder.hit_at_1 >= 0.80
    assert_clean_answers(report)


@pytest.mark.parametrize(
    ("query", "source", "passage"),
    [
        (
            "grid layout code that repeats column sizes when fewer values than columns are given",
            "src/textual/layouts/grid.py",
            "Repeat an iterable of scalars as many times as required",
        ),
        (
            "clearing a data table keeps the column headers, how do I remove those as well",
            "src/textual/widgets/_data_table.py",
            "columns: Also clear the columns.",
        ),
    ],
)
def test_a_code_files_passage_is_not_pulled_to_where_it_names_itself(query, source, passage):
    """The words of a file's path (`grid`, `layout`; `data`, `table`) are what the whole
    file is about: they pulled the passage to the class named for them, its header and
    attributes, where the answer is a function further down."""
    from tierscope.api import QueryOptions

    corpora = find_corpora()
    if corpora is None:
        pytest.skip("the Textual corpus (../shared/corpora/textual) is not beside this checkout")
    project = Project(corpora / "textual", str(EVAL / "textual" / "tierscope.yaml"))
    result = project.run(QueryOptions(text=query, scope="code", tiers=("grep",)), trajectory=False)
    [hit] = [hit for hit in result.hits if hit.source == source]
    assert passage in hit.content, hit.content
