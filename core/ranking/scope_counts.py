"""What a search over a scope's files hands the ranking: per file, how often each query
term occurs, and the scope's size (how many files, how many bytes) for IDF and length
normalisation. Its own module, light to import: a search fills it while the ranking
(candidates.py) is still being imported."""

from __future__ import annotations

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
    # Per key, how many of the scope's files hold it, when the search counted more files
    # than it hands over (qmd's index, its candidates cut at a limit).
    known_frequencies: dict[str, int] = field(default_factory=dict)

    def document_frequency(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for terms in self.frequencies.values():
            for key in terms:
                counts[key] = counts.get(key, 0) + 1
        for key, known in self.known_frequencies.items():
            counts[key] = max(counts.get(key, 0), known)
        return counts

    def scorer(self, keys: tuple[str, ...]) -> Scorer:
        documents = max(self.documents, len(self.frequencies))
        known = [n for n in self.lengths.values()]
        if self.documents and self.total_bytes:
            average = self.total_bytes / self.documents
        else:
            average = sum(known) / len(known) if known else 1.0
        return Scorer.for_scope(keys, documents, self.document_frequency(), average)
