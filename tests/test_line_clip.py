"""Where a line too long to serve whole is clipped: around the most of the query, with
markers where text is left out."""

from __future__ import annotations

from tierscope.ranking.analysis import query_terms
from tierscope.ranking.line_clip import CLIP_MARKER, clip_line
from tierscope.ranking.matching import TermMatcher

FILLER = "filler " * 60


def clipped(line: str, query: str, limit: int) -> str:
    matcher = TermMatcher(query_terms(query))
    weights = {term.key: 1.0 for term in matcher.terms}
    return clip_line(line, weights, matcher, limit)


def test_a_long_line_is_clipped_around_the_most_of_the_query_with_markers():
    line = f"start {FILLER}the alpha and the bravo {FILLER}alpha bravo charlie {FILLER}end"
    shown = clipped(line, "alpha bravo charlie", 120)
    assert "alpha bravo charlie" in shown
    assert shown.startswith(CLIP_MARKER.lstrip()) and shown.endswith(CLIP_MARKER.rstrip())
    assert len(shown) <= 120 + 2 * len(CLIP_MARKER)


def test_a_line_a_little_over_the_cap_is_served_whole():
    line = "alpha " + "x" * 110
    assert clipped(line, "alpha", 100) == line
