"""BM25 over whole files (Robertson/Sparck Jones weights, Lucene's defaults).

Every query term counts; a term's frequency saturates (the tenth mention adds little);
long files are normalised by length; rarity (IDF) is computed over every file of the
scope, matched or not. Scores are divided by the most a file could score for the query,
so they lie in [0, 1] and a file holding every term, often, in a short text comes near 1.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

K1 = 1.2
B = 0.75


def idf(documents: int, frequency: int) -> float:
    """Rarity of a term found in `frequency` of `documents` files (never negative)."""
    documents = max(documents, frequency, 1)
    return math.log(1 + (documents - frequency + 0.5) / (frequency + 0.5))


def saturated(tf: float, length_ratio: float) -> float:
    """A term's weight-free contribution: tf saturating towards K1 + 1."""
    return tf * (K1 + 1) / (tf + K1 * (1 - B + B * length_ratio))


@dataclass(frozen=True, slots=True)
class Scorer:
    """Scores files for one query, given the scope's statistics."""

    weights: Mapping[str, float]  # term key -> idf
    average_length: float

    @classmethod
    def for_scope(
        cls, keys: tuple[str, ...], documents: int, frequency: Mapping[str, int], average: float
    ) -> Scorer:
        weights = {key: idf(documents, frequency.get(key, 0)) for key in keys}
        return cls(weights, max(average, 1.0))

    @property
    def best_possible(self) -> float:
        return sum(self.weights.values()) * (K1 + 1) or 1.0

    def contributions(self, tf: Mapping[str, float], length: float) -> dict[str, float]:
        """What each matched term adds to the normalised score."""
        ratio = length / self.average_length
        best = self.best_possible
        return {
            key: self.weights[key] * saturated(count, ratio) / best
            for key, count in tf.items()
            if count > 0 and key in self.weights
        }

    def score(self, tf: Mapping[str, float], length: float) -> float:
        return min(1.0, sum(self.contributions(tf, length).values()))

    def bound(self, tf: Mapping[str, float]) -> float:
        """The highest score these frequencies can reach at any length (length -> 0)."""
        return self.score(tf, 0.0)
