"""Files whose every line answers (190,000 headings each holding the query, a generated
listing): the work one such file costs is bounded, and a search stops reading files once
its deadline has passed, so a query's time stays near its timeout whatever the tree
holds; and no span of a file is ranked twice."""

from __future__ import annotations

import time

import pytest

import tierscope.tiers.file_hits as file_hits
from tierscope.config.model import Config
from tierscope.models import ResolvedScope
from tierscope.ranking import span_choice
from tierscope.ranking.analysis import query_terms
from tierscope.ranking.long_files import EXCERPT_LINES, MANY_MATCHING_LINES
from tierscope.ranking.matching import TermMatcher
from tierscope.ranking.sections import cut_snippet
from tierscope.tiers.base import Deadline, TierRequest
from tierscope.tiers.grep import GrepTier


def line_terms_of(lines: list[str], matcher: TermMatcher) -> dict[int, dict[str, int]]:
    return matcher.lines("\n".join(lines))


def cut(lines: list[str], query: str, path: str = "docs/a.md"):
    matcher = TermMatcher(query_terms(query))
    terms = line_terms_of(lines, matcher)
    weights = {term.key: 1.0 for term in matcher.terms}
    return cut_snippet(
        "\n".join(lines), path, terms, weights, max_chars=1200, max_line_chars=400,
        matcher=matcher,
    )  # fmt: skip


@pytest.fixture
def chooser_sizes(monkeypatch) -> list[int]:
    """The number of lines each SpanChooser is given."""
    sizes: list[int] = []
    original = span_choice.SpanChooser.__init__

    def counting(self, lines, *args, **kwargs):
        sizes.append(len(lines))
        original(self, lines, *args, **kwargs)

    monkeypatch.setattr(span_choice.SpanChooser, "__init__", counting)
    return sizes


def test_a_file_of_headings_that_all_match_is_cut_from_an_excerpt(chooser_sizes):
    lines = ["# Needles", ""]
    lines += [f"## needle {number}" for number in range(60_000)]
    # The one place the rarer word is written, deep in the file.
    lines[45_000:45_000] = ["## needle threading", "", "Thread the needle with care.", ""]
    snippet = cut(lines, "needle threading")
    assert chooser_sizes and max(chooser_sizes) <= EXCERPT_LINES
    assert "Thread the needle with care." in snippet.text
    # The line numbers are the file's.
    assert lines[snippet.line_start - 1] == "## needle threading"


def test_a_long_file_with_few_matching_lines_is_read_whole(chooser_sizes):
    lines = []
    for number in range(3_000):
        lines += [f"## Part {number}", "", "Some text about other things.", ""]
    lines[-4:] = ["## Threading", "", "How to thread a needle."]
    snippet = cut(lines, "thread needle")
    assert chooser_sizes == [len(lines)]
    assert snippet.line_start == len(lines) - 2
    assert "How to thread a needle." in snippet.text


def test_the_excerpt_holds_the_most_of_the_querys_words(chooser_sizes):
    # Every line holds one word; only one region holds both.
    lines = [f"needle line {number}" for number in range(MANY_MATCHING_LINES * 4)]
    middle = len(lines) // 2
    lines[middle] = "needle and haystack together"
    snippet = cut(lines, "needle haystack", path="notes.txt")
    assert max(chooser_sizes) <= EXCERPT_LINES
    assert "needle and haystack together" in snippet.text
    assert snippet.line_start <= middle + 1 <= snippet.line_end


def test_files_are_no_longer_read_once_the_deadline_has_passed(tmp_path, monkeypatch):
    root = tmp_path / "repo"
    (root / "docs").mkdir(parents=True)
    for number in range(12):
        (root / "docs" / f"page{number:02}.md").write_text(
            f"# Page {number}\n\nA needle in page {number}.\n" + "More text.\n" * number
        )
    deadline = Deadline.after(60.0)
    read: list[str] = []
    original = file_hits.read_in

    def read_then_expire(request, path):
        read.append(path)
        object.__setattr__(deadline, "at", time.monotonic() - 1)  # the time is up
        return original(request, path)

    monkeypatch.setattr(file_hits, "read_in", read_then_expire)
    scope = ResolvedScope("docs", (), (), ((root / "docs").resolve(),))
    request = TierRequest("needle", root, scope, Config(), 60.0)
    outcome = GrepTier().search(request, deadline)
    assert len(read) == 1
    assert [hit.source for hit in outcome.hits] == read
    assert any("deadline" in note for note in outcome.notes)


def test_a_deadline_passed_while_searching_still_serves_the_best_file(tmp_path, monkeypatch):
    # It said "no file matches" when the time was up before the first file was read.
    import tierscope.tiers.grep_ripgrep as grep_ripgrep

    root = tmp_path / "repo"
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "a.md").write_text("# A\n\nA needle.\n")
    (root / "docs" / "b.md").write_text("# B\n\nAnother needle, and more text besides.\n")
    deadline = Deadline.after(60.0)
    original = grep_ripgrep.run_ripgrep

    def search_then_expire(*args, **kwargs):
        result = original(*args, **kwargs)
        object.__setattr__(deadline, "at", time.monotonic() - 1)
        return result

    monkeypatch.setattr(grep_ripgrep, "run_ripgrep", search_then_expire)
    scope = ResolvedScope("docs", (), (), ((root / "docs").resolve(),))
    outcome = GrepTier().search(TierRequest("needle", root, scope, Config(), 60.0), deadline)
    assert [hit.source for hit in outcome.hits] == ["docs/a.md"]
    assert "deadline reached while scoring the best files again" in outcome.notes


def test_each_span_of_a_file_is_ranked_once(monkeypatch):
    ranked: list[object] = []
    original = span_choice.SpanChooser._rank_afresh

    def counting(self, span):
        ranked.append((id(self), span))
        return original(self, span)

    monkeypatch.setattr(span_choice.SpanChooser, "_rank_afresh", counting)
    lines = []
    for number in range(40):
        lines += [f"## Part {number}", "", f"The needle of part {number} and its thread.", ""]
        lines += [f"More about thread {number}." for _ in range(30)] + [""]
    cut(lines, "needle thread")
    assert ranked and len(ranked) == len(set(ranked))
