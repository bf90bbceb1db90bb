"""BM25 over whole files (Robertson/Sparck Jones weights, Lucene's defaults).

Every query term counts; a term's frequency saturates (the tenth mention adds little);
long files are normalised by length; rarity (IDF) is computed over every file of the
scope, matched or not. Scores are divided by the most a file could score for the query,
so they lie in [0, 1] and a file holding every term, often, in a short text comes near 1.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

TYPE_CHECKING = False  # typing itself is not imported (tests/test_startup.py)
if TYPE_CHECKING:
    from .path_terms import PathTerms

K1 = 1.2
B = 0.75
# A query term in a file's path adds this many times the term's rarity: a page named for
# what the question asks about is often the answer (measured with `tierscope eval`).
PATH_WEIGHT = 1.5
# A term a folder's or the file's name holds among words the query does not have
# (`git-get-tar-commit-id.md` for "extract a tar archive", `plugins/git-commit/` for "the
# git plugin") adds this share of PATH_WEIGHT: the file is named for something else.
# Measured with `tierscope eval` on 34 sets: MRR@10 up on 13 (tldr 0.329 -> 0.372, the
# how-to questions 0.546 -> 0.573, Polly 0.776 -> 0.833, dune 0.550 -> 0.590, httpie,
# click, Phoenix, Svelte, pip, Textual 0.871 -> 0.875), down on 4 (git 0.731 -> 0.710,
# the demo 0.918 -> 0.907, Express, Slim), mean +0.007; at 0.5, +0.005. Named only for a
# name of one word (`doc_comments.rs` only holding "doc comment"), +0.005 at 0.3 and
# +0.001 at 0 (Magit's `magit-section.org`, clap's `doc_comments.rs` lost).
INSIDE_NAME_SHARE = 0.3
# A query term among a file's headings (markdown) or definitions (code) adds this many
# times its rarity: the file is about it (see structure.py).
STRUCTURE_WEIGHT = 0.5
# The terms found together within a few lines (a passage) add this many times their
# rarity: a file that answers has them side by side, a long file that mentions each
# somewhere does not.
PROXIMITY_WEIGHT = 1.0
# A code file that defines a name the query spells whole (`add_typer`, `echo`) counts that
# name's terms this much again: the definition, not the files that import or call it.
DEFINITION_WEIGHT = 1.0
# A document read whole adds its best section, scored as a text of its own
# (section_scores.py), this many times; its score is then out of the most a document can
# score, the section counted at this weight: a page whose one section answers outranks a
# long page holding each term in a section of its own. Code has no such field, and scores
# as before against the most a code file can. Measured with `tierscope eval` (README).
SECTION_WEIGHT = 1.0
PROXIMITY_LINES = 10
# A term weighs its rarity (IDF) to this power: a rare word of a long question does not
# outweigh the rest of it. Measured with `tierscope eval` on 58 sets: mean MRR@10 0.8414 at
# 0.5, 0.8407 at 0.4, 0.8347 at 0.75 (26 sets down: pandoc, phoenix, uv, pydantic, jinja).
IDF_POWER = 0.5


def _fields() -> float:
    """The fields' weights every file can score in (the text's at most K1 + 1)."""
    return K1 + 1 + PATH_WEIGHT + STRUCTURE_WEIGHT + PROXIMITY_WEIGHT


def idf(documents: int, frequency: int) -> float:
    """Rarity of a term found in `frequency` of `documents` files (never negative)."""
    documents = max(documents, frequency, 1)
    return math.log(1 + (documents - frequency + 0.5) / (frequency + 0.5))


def held_weight(keys: Iterable[str], weights: Mapping[str, float], default: float = 0.0) -> float:
    """The weight of the terms `keys` names, summed exactly. Keys are often a set, whose
    order changes from run to run (strings hash with a seed per process): summed in that
    order, of two places or files holding the same terms one weighed a rounding error more
    in some runs, and the same question got another answer."""
    return math.fsum(weights.get(key, default) for key in keys)


def saturated(tf: float, length_ratio: float) -> float:
    """A term's weight-free contribution: tf saturating towards K1 + 1."""
    return tf * (K1 + 1) / (tf + K1 * (1 - B + B * length_ratio))


@dataclass(frozen=True, slots=True)
class Scorer:
    """Scores files for one query, given the scope's statistics."""

    weights: Mapping[str, float]  # term key -> idf
    average_length: float
    best_possible: float  # the most a file can score: every term, every field, saturated

    @classmethod
    def for_scope(
        cls, keys: tuple[str, ...], documents: int, frequency: Mapping[str, int], average: float
    ) -> Scorer:
        weights = {key: idf(documents, frequency.get(key, 0)) ** IDF_POWER for key in keys}
        return cls(weights, max(average, 1.0), sum(weights.values()) * _fields() or 1.0)

    def contributions(
        self,
        tf: Mapping[str, float],
        length: float,
        in_path: PathTerms | None = None,
        in_structure: frozenset[str] = frozenset(),
        together: frozenset[str] = frozenset(),
        defined: frozenset[str] = frozenset(),
        structure_share: float = 1.0,
        section: Mapping[str, float] | None = None,
    ) -> dict[str, float]:
        """What each matched term adds to the normalised score (text, path, structure,
        proximity, the definition of a name the query spells); a term among the headings
        adds `structure_share` of its field's weight (structure.heading_share). For a
        document read whole, `section` holds its best section's parts
        (section_scores.best_section_parts): they add SECTION_WEIGHT times, and the score
        is out of the most a document can score."""
        ratio = length / self.average_length
        best = self.best_possible
        if section is not None:
            best *= (_fields() + SECTION_WEIGHT) / _fields()
        parts = {
            key: self.weights[key] * saturated(count, ratio) / best
            for key, count in tf.items()
            if count > 0 and key in self.weights
        }
        named, inside = (in_path.named, in_path.inside) if in_path else ((), ())
        fields = (
            (PATH_WEIGHT, named), (PATH_WEIGHT * INSIDE_NAME_SHARE, inside),
            (STRUCTURE_WEIGHT * structure_share, in_structure),
            (PROXIMITY_WEIGHT, together), (DEFINITION_WEIGHT, defined),
        )  # fmt: skip
        for field_weight, keys in fields:
            # In sorted order, not the set's (see held_weight): a term first added here
            # takes its place among the parts, which are summed in their order.
            for key in sorted(keys):
                if field_weight and key in self.weights:
                    parts[key] = parts.get(key, 0.0) + field_weight * self.weights[key] / best
        for key, value in (section or {}).items():
            parts[key] = parts.get(key, 0.0) + SECTION_WEIGHT * value / best
        return parts

    def score(
        self, tf: Mapping[str, float], length: float, in_path: PathTerms | None = None
    ) -> float:
        return min(1.0, sum(self.contributions(tf, length, in_path).values()))

    def bound(self, tf: Mapping[str, float], in_path: PathTerms | None = None) -> float:
        """The highest score these frequencies can reach at any length (length -> 0).
        Written out: the ranking asks it of every candidate file."""
        weights = self.weights
        k1_plus_1, floor = K1 + 1, K1 * (1 - B)
        total = 0.0
        for key, count in tf.items():
            weight = weights.get(key)
            if weight is not None and count > 0:
                total += weight * count * k1_plus_1 / (count + floor)
        if in_path and PATH_WEIGHT:
            total += PATH_WEIGHT * held_weight(in_path.named, weights)
            total += PATH_WEIGHT * INSIDE_NAME_SHARE * held_weight(in_path.inside, weights)
        return min(1.0, total / self.best_possible)


def closest_terms(
    line_terms: Mapping[int, Mapping[str, int]], weights: Mapping[str, float]
) -> frozenset[str]:
    """The query terms of the best passage: the most weight of distinct terms found within
    PROXIMITY_LINES consecutive lines (two pointers over the matching lines only)."""
    numbers = sorted(line_terms)
    best: frozenset[str] = frozenset()
    best_weight = 0.0
    inside: dict[str, int] = {}
    first = 0
    for number in numbers:
        for key in line_terms[number]:
            inside[key] = inside.get(key, 0) + 1
        while number - numbers[first] >= PROXIMITY_LINES:
            for key in line_terms[numbers[first]]:
                inside[key] -= 1
                if not inside[key]:
                    del inside[key]
            first += 1
        weight = sum(weights.get(key, 0.0) for key in inside)
        if weight > best_weight:
            best, best_weight = frozenset(inside), weight
    return best
