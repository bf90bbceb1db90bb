"""The snippet a query gets from one file, cut as a hit's is (sections.cut_snippet), every
term of the query weighing the same: for tests of how passages are chosen."""

from __future__ import annotations

from tierscope.ranking.analysis import query_terms
from tierscope.ranking.matching import TermMatcher
from tierscope.ranking.sections import Snippet, cut_snippet


def snippet(text: str, path: str, query: str, max_chars: int) -> Snippet:
    matcher = TermMatcher(query_terms(query))
    weights = {term.key: 1.0 for term in matcher.terms}
    return cut_snippet(
        text, path, matcher.lines(text), weights,
        max_chars=max_chars, max_line_chars=120, matcher=matcher,
    )  # fmt: skip
