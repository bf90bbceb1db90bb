"""What a search over a scope's files hands the ranking: per file, how often each query
term occurs, and the scope's size (how many files, how many bytes) for IDF and length
normalisation."""

from __future__ import annotations

import heapq
import os
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field

from .bm25 import Scorer


@dataclass
class Candidates:
    """Files holding at least one query term. `documents` and `total_bytes` cover every
    file searched in the scope, matched or not."""

    frequencies: dict[str, dict[str, int]] = field(default_factory=dict)  # path -> key -> tf
    lengths: dict[str, int] = field(default_factory=dict)  # path -> bytes, when known
    documents: int = 0
    total_bytes: int = 0

    def document_frequency(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for terms in self.frequencies.values():
            for key in terms:
                counts[key] = counts.get(key, 0) + 1
        return counts

    def scorer(self, keys: tuple[str, ...]) -> Scorer:
        documents = max(self.documents, len(self.frequencies))
        known = [n for n in self.lengths.values()]
        if self.documents and self.total_bytes:
            average = self.total_bytes / self.documents
        else:
            average = sum(known) / len(known) if known else 1.0
        return Scorer.for_scope(keys, documents, self.document_frequency(), average)


@dataclass(frozen=True, slots=True)
class RankedFile:
    path: str
    score: float
    contributions: dict[str, float]


def file_size(root: str) -> Callable[[str], int | None]:
    """A length lookup for root-relative paths by `stat` (None when the file is gone)."""

    def size(path: str) -> int | None:
        try:
            return os.stat(os.path.join(root, path)).st_size
        except OSError:
            return None

    return size


def rank(
    candidates: Candidates,
    scorer: Scorer,
    length_of: Callable[[str], int | None],
    boosts: Mapping[str, Mapping[str, float]] | None = None,
) -> Iterator[RankedFile]:
    """Every candidate, best first (ties by path), lazily: a file's length is looked up
    only while its best possible score (at length 0) could still beat the best file not
    yet yielded — the caller usually takes ten files of thousands."""
    entries: list[tuple[float, str, Mapping[str, float]]] = []
    for path, counts in candidates.frequencies.items():
        tf: Mapping[str, float] = counts
        extra = boosts.get(path) if boosts else None
        if extra:
            tf = {key: counts.get(key, 0) + extra.get(key, 0) for key in {*counts, *extra}}
        entries.append((scorer.bound(tf), path, tf))
    entries.sort(key=lambda entry: (-entry[0], entry[1]))
    scored: list[tuple[float, str, dict[str, float]]] = []
    position = 0
    while scored or position < len(entries):
        while position < len(entries) and (
            not scored or entries[position][0] + 1e-9 >= -scored[0][0]
        ):
            _, path, tf = entries[position]
            position += 1
            length = candidates.lengths.get(path)
            if length is None:
                length = length_of(path)
            if length is None:
                continue
            contributions = scorer.contributions(tf, length)
            score = min(1.0, sum(contributions.values()))
            heapq.heappush(scored, (-score, path, contributions))
        if not scored:
            return
        negative, path, contributions = heapq.heappop(scored)
        yield RankedFile(path, -negative, contributions)
