"""Scoring ranked answers against known items."""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .queryset import KnownItemQuery

CUTOFF = 10
LONG_LINE_CHARS = 1000


@dataclass(frozen=True, slots=True)
class RankedHit:
    source: str
    content: str
    tokens: int
    line_start: int | None = None
    line_end: int | None = None


@dataclass(frozen=True, slots=True)
class RankedAnswer:
    """One ranked list of hits for one query (a tier's own, or what the ladder served)."""

    hits: tuple[RankedHit, ...]
    latency_ms: float
    status: str = ""

    def rank_of(self, expected: Sequence[str]) -> int | None:
        """1-based rank of the first hit on an expected file within the cutoff, else None."""
        for rank, hit in enumerate(self.hits[:CUTOFF], start=1):
            if hit.source in expected:
                return rank
        return None


@dataclass(frozen=True, slots=True)
class QueryEvaluation:
    query: KnownItemQuery
    ladder: RankedAnswer
    served_by: str | None
    tiers: dict[str, RankedAnswer]

    def passage_miss(self) -> RankedHit | None:
        """The first hit the ladder served on a file holding the query's passage, when it
        does not show that passage."""
        for hit in self.ladder.hits:
            if self.query.passage and hit.source in self.query.passage_files:
                return None if holds_passage(self.query, hit) else hit
        return None


def normalise_passage(text: str) -> str:
    return " ".join(text.split()).casefold()


def holds_passage(query: KnownItemQuery, hit: RankedHit) -> bool:
    return normalise_passage(query.passage) in normalise_passage(hit.content)


@dataclass(frozen=True, slots=True)
class Summary:
    """Figures over a group of queries for one ranked list (the ladder, or one tier)."""

    queries: int
    mrr: float
    hit_at_1: float
    hit_at_5: float
    tokens_per_hit: float
    tokens_per_query: float
    # Of the hits on an expected file (where the query gives a passage): the share whose
    # content holds the passage.
    passage_share: float | None
    passage_checked: int
    long_line_share: float  # characters in lines over LONG_LINE_CHARS / all characters
    duplicate_hits: int  # hits whose content equals an earlier hit's in the same answer
    median_latency_ms: float

    def to_dict(self) -> dict:
        return {
            "queries": self.queries,
            "mrr@10": round(self.mrr, 4),
            "hit@1": round(self.hit_at_1, 4),
            "hit@5": round(self.hit_at_5, 4),
            "tokens_per_hit": round(self.tokens_per_hit, 1),
            "tokens_per_query": round(self.tokens_per_query, 1),
            "passage_share": None if self.passage_share is None else round(self.passage_share, 4),
            "passage_checked": self.passage_checked,
            "long_line_share": round(self.long_line_share, 4),
            "duplicate_hits": self.duplicate_hits,
            "median_latency_ms": round(self.median_latency_ms, 1),
        }


def summarise(pairs: Iterable[tuple[KnownItemQuery, RankedAnswer]]) -> Summary:
    pairs = list(pairs)
    count = len(pairs)
    ranks = [answer.rank_of(query.expected) for query, answer in pairs]
    hits = [hit for _, answer in pairs for hit in answer.hits]
    checked = contained = 0
    duplicates = 0
    for query, answer in pairs:
        seen: set[str] = set()
        for hit in answer.hits:
            if hit.content in seen:
                duplicates += 1
            seen.add(hit.content)
            if query.passage and hit.source in query.passage_files:
                checked += 1
                if holds_passage(query, hit):
                    contained += 1
    characters = sum(len(hit.content) for hit in hits)
    long_characters = sum(
        len(line) for hit in hits for line in hit.content.split("\n") if len(line) > LONG_LINE_CHARS
    )
    return Summary(
        queries=count,
        mrr=sum(1 / r for r in ranks if r) / count if count else 0.0,
        hit_at_1=sum(1 for r in ranks if r == 1) / count if count else 0.0,
        hit_at_5=sum(1 for r in ranks if r and r <= 5) / count if count else 0.0,
        tokens_per_hit=sum(h.tokens for h in hits) / len(hits) if hits else 0.0,
        tokens_per_query=sum(h.tokens for h in hits) / count if count else 0.0,
        passage_share=contained / checked if checked else None,
        passage_checked=checked,
        long_line_share=long_characters / characters if characters else 0.0,
        duplicate_hits=duplicates,
        median_latency_ms=(statistics.median(a.latency_ms for _, a in pairs) if pairs else 0.0),
    )
