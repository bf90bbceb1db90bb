"""The eval report as text (a table, then the misses) or as one JSON object."""

from __future__ import annotations

from collections.abc import Callable

from ..models import shown_line_ranges
from ..terminal import printable
from .metrics import QueryEvaluation, RankedHit, Summary
from .passage_words import WordsHeld, words_held
from .queryset import SHORT_QUERY_WORDS
from .runner import EvaluationReport

_HEADER = (
    f"{'':<22}{'queries':>8}{'MRR@10':>8}{'hit@1':>7}{'hit@5':>7}{'tok/hit':>8}"
    f"{'passage':>9}{'long':>7}{'dups':>6}{'ms':>7}"
)
MISS_TOP = 3
# The rows of queries by length, told apart from the column of long lines.
_GROUP_LABELS = {
    "short": f"queries of ≤{SHORT_QUERY_WORDS} words",
    "long": f"queries of {SHORT_QUERY_WORDS + 1}+ words",
}


def _row(label: str, summary: Summary) -> str:
    passage = "-" if summary.passage_share is None else f"{summary.passage_share:.0%}"
    return (
        f"{label:<22.22}{summary.queries:>8}{summary.mrr:>8.3f}{summary.hit_at_1:>7.2f}"
        f"{summary.hit_at_5:>7.2f}{summary.tokens_per_hit:>8.0f}{passage:>9}"
        f"{summary.long_line_share:>7.1%}{summary.duplicate_hits:>6}"
        f"{summary.median_latency_ms:>7.0f}"
    )


def render_report(report: EvaluationReport, misses: int | None = None) -> str:
    """The figures table (ladder, its groups, each tier), the list of misses (queries
    whose expected file was not first) and of passage misses (the right file served
    without the answering passage), each at most `misses` long."""
    lines = [_HEADER, _row("ladder", report.ladder)]
    lines += [_row(f"  {_GROUP_LABELS.get(key, key)}", s) for key, s in report.groups.items()]
    for tier in report.tiers:
        others = ", ".join(f"{status} {count}" for status, count in tier.other.items())
        if not tier.ran:
            lines.append(f"{'tier ' + tier.tier:<22}did not run ({others})")
            continue
        lines.append(_row(f"tier {tier.tier}", tier.summary))
        if tier.other:
            lines.append(f"  (did not run for: {others})")
    lines.append(
        "ladder = the answer a skill receives (after dedup and budget); tier rows = each"
        " tier's own ranking. passage = hits on the right file that hold the answering"
        " passage; long = characters in lines over 1,000; dups = hits repeating an earlier"
        " hit's content; ms = median latency."
    )
    lines += _misses(report, misses)
    lines += _passage_misses(report, misses)
    return "\n".join(lines)


def _misses(report: EvaluationReport, limit: int | None) -> list[str]:
    """Queries whose expected file was not first, with what came first instead; a file a
    tier ranked that the answer left out is told apart from one no tier found."""

    def detail(evaluation: QueryEvaluation) -> str:
        query = evaluation.query
        rank = evaluation.ladder.rank_of(query.expected)
        got = ", ".join(printable(h.source) for h in evaluation.ladder.hits[:MISS_TOP]) or "nothing"
        tier = evaluation.tiers.get(evaluation.served_by or "")
        tier_rank = tier.rank_of(query.expected) if tier is not None else None
        if rank:
            where = f"rank {rank}"
        elif tier_rank:
            where = (
                f"not served (the {evaluation.served_by} tier ranked it {tier_rank}; the"
                " budget or dedup left it out)"
            )
        else:
            where = "not in top 10"
        expected = " | ".join(printable(path) for path in query.expected)
        return f"expected {expected}: {where}; got {got}"

    found = report.misses()
    title = f"misses ({len(found)}: the expected file was not first):"
    return _listed(found, limit, title, detail)


def _passage_misses(report: EvaluationReport, limit: int | None) -> list[str]:
    """Queries whose answer served the right file without the answering passage: which
    lines it served instead."""

    def detail(evaluation: QueryEvaluation) -> str:
        hit = evaluation.passage_miss()
        assert hit is not None
        served = _lines_shown(hit) if hit.line_start else "a snippet"
        words = held[evaluation.query.line]
        assert words is not None
        return (
            f"{printable(hit.source)} {served} served; passage {evaluation.query.passage[:80]!r}"
            f"\n      query terms in the passage: {_words(words.passage)};"
            f" in the lines served: {_words(words.served)}"
        )

    found = report.passage_misses()
    held = {e.query.line: words_held(e) for e in found}
    fewer = sum(1 for words in held.values() if words and words.fewer_in_passage)
    title = (
        f"passage misses ({len(found)}: the right file was served without the passage;"
        f" in {fewer} of them the passage holds fewer query terms than the lines served):"
    )
    return _listed(found, limit, title, detail)


def _words(words: tuple[str, ...]) -> str:
    return ", ".join(words) or "none"


def _lines_shown(hit: RankedHit) -> str:
    """`lines 1, 83-84`: the lines a hit's passages show, not the span they lie in."""
    ranges = _ranges_shown(hit)
    shown = ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in ranges)
    single = len(ranges) == 1 and ranges[0][0] == ranges[0][1]
    return f"{'line' if single else 'lines'} {shown}"


def _ranges_shown(hit: RankedHit) -> list[tuple[int, int]]:
    """The (first, last) lines of each of a hit's passages."""
    return list(shown_line_ranges(hit.content, hit.line_start or 1, hit.line_end or 1))


def _served_lines(evaluation: QueryEvaluation) -> list[list[int]] | None:
    """For a passage miss, the lines its hit on the right file showed instead (as the
    report lists them); None otherwise."""
    hit = evaluation.passage_miss()
    if hit is None or not hit.line_start:
        return None
    return [[first, last] for first, last in _ranges_shown(hit)]


def _listed(
    found: list[QueryEvaluation],
    limit: int | None,
    title: str,
    detail: Callable[[QueryEvaluation], str],
) -> list[str]:
    """A titled list of queries, each with its line, scope and text, then `detail`; at
    most `limit` of them."""
    if not found:
        return []
    shown = found if limit is None else found[:limit]
    lines = ["", title]
    for evaluation in shown:
        query = evaluation.query
        lines.append(f"  line {query.line} [{query.scope or '(default)'}] {query.text!r}")
        lines.append(f"      {detail(evaluation)}")
    if len(shown) < len(found):
        lines.append(f"  ... and {len(found) - len(shown)} more (--misses N to show more)")
    return lines


def report_dict(report: EvaluationReport) -> dict:
    return {
        "problems": list(report.problems),
        "ladder": report.ladder.to_dict(),
        "groups": {key: summary.to_dict() for key, summary in report.groups.items()},
        "tiers": {
            tier.tier: {**tier.summary.to_dict(), "ran": tier.ran, "did_not_run": tier.other}
            for tier in report.tiers
        },
        "queries": [
            {
                "line": e.query.line,
                "query": e.query.text,
                "scope": e.query.scope,
                "expected": list(e.query.expected),
                "rank": e.ladder.rank_of(e.query.expected),
                "served_by": e.served_by,
                "sources": [h.source for h in e.ladder.hits],
                "passage_served": _passage_served(e),
                "served_lines": _served_lines(e),
                **_words_dict(words_held(e)),
                "tier_ranks": {
                    name: answer.rank_of(e.query.expected) for name, answer in e.tiers.items()
                },
            }
            for e in report.evaluations
        ],
    }


def _words_dict(words: WordsHeld | None) -> dict[str, list[str] | None]:
    """The query's words in a passage miss's passage and in the lines served instead."""
    if words is None:
        return {"passage_terms": None, "served_terms": None}
    return {"passage_terms": list(words.passage), "served_terms": list(words.served)}


def _passage_served(evaluation: QueryEvaluation) -> bool | None:
    """Whether the answer's hit on the file holding the passage shows it; None when the
    query gives no passage or no such file was served."""
    query = evaluation.query
    if not any(hit.source in query.passage_files for hit in evaluation.ladder.hits):
        return None
    return evaluation.passage_miss() is None
