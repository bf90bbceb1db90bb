"""A document's best section, scored as a text of its own (section_scores.py)."""

from __future__ import annotations

from tierscope.ranking.bm25 import saturated
from tierscope.ranking.section_scores import SECTION_LENGTH, best_section_parts
from tierscope.ranking.spans import markdown_headings

WEIGHTS = {"sandbox": 2.0, "templat": 1.0, "safe": 1.5}


def parts_of(lines: list[str], line_terms: dict[int, dict[str, int]]) -> dict[str, float]:
    return best_section_parts(lines, line_terms, markdown_headings(lines), WEIGHTS)


def test_the_section_holding_the_terms_together_is_the_best():
    lines = [
        "# Guide",
        "sandbox here",
        "## Other",
        "templates",
        "## Safe sandbox",
        "safe templates",
    ]
    line_terms = {
        2: {"sandbox": 1},
        4: {"templat": 1},
        5: {"safe": 1, "sandbox": 1},
        6: {"safe": 1, "templat": 1},
    }

    parts = parts_of(lines, line_terms)

    assert set(parts) == {"sandbox", "safe", "templat"}
    length = len("## Safe sandbox") + 1 + len("safe templates") + 1
    ratio = length / SECTION_LENGTH
    assert parts["safe"] == WEIGHTS["safe"] * saturated(2, ratio)
    assert parts["sandbox"] == WEIGHTS["sandbox"] * saturated(1, ratio)


def test_a_section_is_measured_by_its_own_length():
    short = ["# Sandbox", "the sandbox"]
    long = ["# Sandbox", "the sandbox", *["filler words " * 20] * 20]

    in_short = parts_of(short, {1: {"sandbox": 1}, 2: {"sandbox": 1}})
    in_long = parts_of(long, {1: {"sandbox": 1}, 2: {"sandbox": 1}})

    assert in_short["sandbox"] > in_long["sandbox"]


def test_the_lines_before_the_first_heading_are_a_section():
    lines = ["safe templates", "", "# Later", "sandbox"]

    parts = parts_of(lines, {1: {"safe": 1, "templat": 1}, 4: {"sandbox": 1}})

    assert set(parts) == {"safe", "templat"}


def test_a_page_without_headings_is_one_section():
    lines = ["safe", "templates", "sandbox"]

    parts = parts_of(lines, {1: {"safe": 1}, 2: {"templat": 1}, 3: {"sandbox": 1}})

    assert set(parts) == {"safe", "templat", "sandbox"}


def test_no_line_holding_a_term_gives_no_parts():
    assert parts_of(["# Guide", "nothing"], {}) == {}
    assert parts_of(["# Guide", "other"], {2: {"unweighed": 3}}) == {}
