"""What a session has received, and what of a new hit it has received already."""

from __future__ import annotations

from tierscope.models import Hit, left_out_marker
from tierscope.session.memory import (
    NEW,
    PART,
    REPEAT,
    SessionMemory,
    gap_marker,
    reference_text,
)
from tierscope.session.names import is_session_id

SECTION = "\n".join(
    f"Line {number}: the retry policy backs off exponentially with jitter."
    for number in range(1, 31)
)


def hit(content: str, start: int | None = 1, source: str = "docs/retry.md") -> Hit:
    end = None if start is None else start + content.count("\n")
    return Hit(source, 0.9, content, "grep", start, end)


def remembered(*sent: Hit) -> SessionMemory:
    """A memory that has received each hit in full."""
    memory = SessionMemory()
    for one in sent:
        assessment = memory.assess(one)
        memory.remember(
            {
                "source": one.source,
                "start": one.line_start,
                "end": one.line_end,
                "hash": assessment.content_hash,
                "sent": "full",
                "runs": [list(run) for run in assessment.runs],
            }
        )
    return memory


def test_a_section_never_received_is_new():
    assert SessionMemory().assess(hit(SECTION)).kind == NEW


def test_the_same_section_again_is_a_repeat_that_says_where_it_was_provided():
    first = hit(SECTION, start=12)
    assessment = remembered(first).assess(hit(SECTION, start=12))
    assert assessment.kind == REPEAT
    assert assessment.where == "docs/retry.md:12-41"
    assert reference_text(assessment.where) == (
        "already provided in this session: docs/retry.md:12-41"
    )


def test_the_same_text_under_another_name_is_a_repeat_of_the_original():
    memory = remembered(hit(SECTION, start=1))
    copy = hit(SECTION, start=1, source="dist/retry.md")
    assessment = memory.assess(copy)
    assert (assessment.kind, assessment.where) == (REPEAT, "docs/retry.md:1-30")


def test_a_hit_inside_lines_already_received_is_a_repeat():
    lines = SECTION.split("\n")
    memory = remembered(hit(SECTION, start=1))
    inner = hit("\n".join(lines[4:20]), start=5)
    assert memory.assess(inner).kind == REPEAT


def test_an_overlapping_hit_leaves_out_the_lines_received_and_keeps_the_new_ones():
    lines = [f"Line {n}: rollout waves pause when health checks fail twice." for n in range(1, 61)]
    memory = remembered(hit("\n".join(lines[:40]), start=1))
    overlapping = hit("\n".join(lines[20:60]), start=21)
    assessment = memory.assess(overlapping)
    assert assessment.kind == PART
    kept = assessment.content.split("\n")
    assert kept[0] == gap_marker(21, 40) == "[lines 21-40 already provided in this session]"
    assert kept[1:] == lines[40:60]
    # Only the new lines are remembered as sent.
    ((first, hashes),) = assessment.runs
    assert first == 41 and len(hashes) == 20 * 8


def test_a_line_changed_since_it_was_sent_is_new_again():
    lines = SECTION.split("\n")
    memory = remembered(hit(SECTION, start=1))
    edited = lines.copy()
    edited[10] = "Line 11: the retry policy now gives up after five attempts."
    assessment = memory.assess(hit("\n".join(edited), start=1))
    assert assessment.kind == PART
    assert "Line 11: the retry policy now gives up after five attempts." in assessment.content
    assert "[lines 1-10 already provided in this session]" in assessment.content
    assert "[lines 12-30 already provided in this session]" in assessment.content


def test_a_file_whose_lines_moved_is_new_again():
    memory = remembered(hit(SECTION, start=1))
    assert memory.assess(hit(SECTION.replace("Line 1:", "Line one:"), start=3)).kind == NEW


def test_a_received_line_shorter_than_its_marker_is_sent_again_rather_than_marked():
    lines = ["## Retry", *SECTION.split("\n")[:5]]
    memory = remembered(hit("## Retry", start=1))
    assessment = memory.assess(hit("\n".join(lines), start=1))
    assert assessment.kind == NEW


LONG_PAGE = [f"Line {n}: rollout waves pause when health checks fail twice." for n in range(1, 101)]


def two_passages(first: range, second: range) -> Hit:
    """A hit of two passages of LONG_PAGE (1-based line ranges), as snippets cut them."""
    shown = [
        *(LONG_PAGE[n - 1] for n in first),
        left_out_marker(first.stop, second.start - 1),
        *(LONG_PAGE[n - 1] for n in second),
    ]
    return Hit("docs/rollout.md", 0.9, "\n".join(shown), "grep", first.start, second.stop - 1)


def test_a_hit_of_two_passages_remembers_the_lines_of_each_and_not_those_between():
    memory = remembered(two_passages(range(1, 11), range(51, 61)))
    assert (
        memory.assess(hit("\n".join(LONG_PAGE[50:60]), start=51, source="docs/rollout.md")).kind
        == REPEAT
    )
    between = hit("\n".join(LONG_PAGE[20:30]), start=21, source="docs/rollout.md")
    assert memory.assess(between).kind == NEW


def test_a_two_passage_hit_leaves_out_the_lines_received_and_keeps_its_marker():
    memory = remembered(hit("\n".join(LONG_PAGE[0:20]), start=1, source="docs/rollout.md"))
    assessment = memory.assess(two_passages(range(1, 21), range(51, 61)))
    assert assessment.kind == PART
    kept = assessment.content.split("\n")
    assert kept == [
        gap_marker(1, 20),
        left_out_marker(21, 50),
        *LONG_PAGE[50:60],
    ]
    ((first, hashes),) = assessment.runs
    assert first == 51 and len(hashes) == 10 * 8


def test_a_hit_without_a_span_is_a_repeat_only_as_the_very_same_text():
    memory = remembered(hit("Use JWT for the API.", start=None, source="store:decision/4"))
    assert memory.assess(hit("Use JWT for the API.", start=None, source="store:x")).kind == REPEAT
    assert memory.assess(hit("Use OAuth.", start=None)).kind == NEW


def test_records_with_wrong_types_are_passed_over():
    memory = SessionMemory.from_records(
        [
            {"hits": "not a list"},
            {"hits": [{"source": 3}, {"source": "a.md", "runs": [[1, 2], "x", [None, "ab"]]}]},
            {"hits": [{"source": "a.md", "hash": 5, "sent": "full"}]},
        ]
    )
    assert memory.texts == {} and memory.lines == {"a.md": {}}


def test_session_ids_are_checked_before_they_name_a_file():
    for good in ("s1", "impl-42", "A.b_c-d", "x" * 64):
        assert is_session_id(good), good
    for bad in ("", ".", "..", "../x", "a/b", "-rf", "x" * 65, "s 1", "s1\n", "s\x1b1", "é"):
        assert not is_session_id(bad), bad
