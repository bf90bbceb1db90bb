"""The eval report as text (a table, then the misses) or as one JSON object."""

from __future__ import annotations

from .metrics import Summary
from .runner import EvaluationReport

_HEADER = (
    f"{'':<22}{'queries':>8}{'MRR@10':>8}{'hit@1':>7}{'hit@5':>7}{'tok/hit':>8}"
    f"{'passage':>9}{'long':>7}{'dups':>6}{'ms':>7}"
)
MISS_TOP = 3


def _row(label: str, summary: Summary) -> str:
    passage = "-" if summary.passage_share is None else f"{summary.passage_share:.0%}"
    return (
        f"{label:<22.22}{summary.queries:>8}{summary.mrr:>8.3f}{summary.hit_at_1:>7.2f}"
        f"{summary.hit_at_5:>7.2f}{summary.tokens_per_hit:>8.0f}{passage:>9}"
        f"{summary.long_line_share:>7.1%}{summary.duplicate_hits:>6}"
        f"{summary.median_latency_ms:>7.0f}"
    )


def render_report(report: EvaluationReport, misses: int | None = None) -> str:
    """The figures table (ladder, its groups, each tier) and the list of misses:
    queries whose expected file was not first, with what came first instead."""
    lines = [_HEADER, _row("ladder", report.ladder)]
    lines += [_row(f"  {key}", summary) for key, summary in report.groups.items()]
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
        " passage; long = characters in lines over 1,000; ms = median latency."
    )
    found = report.misses()
    if found:
        shown = found if misses is None else found[:misses]
        lines.append("")
        lines.append(f"misses ({len(found)}: the expected file was not first):")
        for evaluation in shown:
            query = evaluation.query
            rank = evaluation.ladder.rank_of(query.expected)
            got = ", ".join(h.source for h in evaluation.ladder.hits[:MISS_TOP]) or "nothing"
            where = f"rank {rank}" if rank else "not in top 10"
            scope = query.scope or "(default)"
            lines.append(f"  line {query.line} [{scope}] {query.text!r}")
            lines.append(f"      expected {' | '.join(query.expected)}: {where}; got {got}")
        if len(shown) < len(found):
            lines.append(f"  ... and {len(found) - len(shown)} more (--misses N to show more)")
    return "\n".join(lines)


def report_dict(report: EvaluationReport) -> dict:
    return {
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
                "tier_ranks": {
                    name: answer.rank_of(e.query.expected) for name, answer in e.tiers.items()
                },
            }
            for e in report.evaluations
        ],
    }
