"""Ranking for the grep tier: which files matter most for a query, and which window of
lines to show from each.

A file scores higher when it matches more of the query's distinct terms (rarer terms
weigh more), when those terms sit close together in a dense window of lines, and when they
recur more than elsewhere.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

STOPWORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for from
    further had has have having he her here hers him his how i if in into is it its itself just
    me more most my no nor not now of off on once only or other our out over own same she should
    so some such than that the their them then there these they this those through to too under
    until up very was we were what when where which while who whom why will with would you your
    yours""".split()
)
MAX_TERMS = 8
_WORD = re.compile(r"[\w][\w.+#-]*\w|\w", re.UNICODE)


def query_terms(text: str) -> tuple[str, ...]:
    """Lower-cased distinct words of the query, stopwords dropped (unless nothing else is
    left), at most MAX_TERMS. Searched literally: no regex or glob meaning survives."""
    words = [w.lower() for w in _WORD.findall(text)]
    words = list(dict.fromkeys(words))
    kept = [w for w in words if w not in STOPWORDS and len(w) > 1]
    return tuple((kept or words)[:MAX_TERMS])


@dataclass
class FileMatches:
    """Matching lines of one file: line number -> the query terms on that line."""

    path: str  # root-relative POSIX
    lines: dict[int, frozenset[str]] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)

    def add_match(self, number: int, term: str) -> None:
        """One occurrence of `term` on line `number` (ripgrep's --only-matching output)."""
        self.lines[number] = self.lines.get(number, frozenset()) | {term}
        self.counts[term] = self.counts.get(term, 0) + 1

    def add_line(self, number: int, text_lower: str, terms: tuple[str, ...]) -> None:
        found = frozenset(t for t in terms if t in text_lower)
        if not found:
            return
        self.lines[number] = found
        for term in found:
            self.counts[term] = self.counts.get(term, 0) + text_lower.count(term)


@dataclass(frozen=True, slots=True)
class RankedFile:
    path: str
    score: float
    window: tuple[int, int]  # 1-based inclusive line span


def best_window(matches: FileMatches, size: int) -> tuple[int, int, int, int]:
    """The span of at most `size` lines covering the most distinct terms, then the most
    matching lines; earliest wins ties. Returns (start, end, distinct, matching_lines)."""
    numbers = sorted(matches.lines)
    best = (0, 0, -1, -1)
    for first in numbers:
        # One line of lead-in context reads better than starting on the match itself.
        start = max(1, first - 1) if size > 2 else first
        end = start + size - 1
        distinct: set[str] = set()
        hits = 0
        for number in numbers:
            if start <= number <= end:
                distinct |= matches.lines[number]
                hits += 1
        candidate = (start, end, len(distinct), hits)
        if (candidate[2], candidate[3]) > (best[2], best[3]):
            best = candidate
    return best


def rank_files(
    files: list[FileMatches], terms: tuple[str, ...], window_lines: int
) -> list[RankedFile]:
    """Score every file in [0, 1] and return them best first."""
    if not files or not terms:
        return []
    total = len(files)
    document_frequency = {t: sum(1 for f in files if t in f.counts) for t in terms}
    # Rarity among the files that matched at all; a term found nowhere still counts in the
    # denominator, so a query with a missing word never reaches a perfect score.
    idf = {t: math.log(1 + total / max(document_frequency[t], 0.5)) for t in terms}
    idf_total = sum(idf.values()) or 1.0
    most_occurrences = max((sum(f.counts.values()) for f in files), default=1)
    ranked: list[RankedFile] = []
    for f in files:
        if not f.lines:
            continue
        coverage = sum(idf[t] for t in f.counts) / idf_total
        start, end, distinct, matching_lines = best_window(f, window_lines)
        closeness = distinct / len(terms)
        density = matching_lines / window_lines
        # Recurrence relative to the file that mentions the terms most, so that scores
        # spread out instead of every long document saturating at the same value.
        occurrences = sum(f.counts.values())
        recurrence = math.log1p(occurrences) / math.log1p(most_occurrences)
        score = 0.50 * coverage + 0.25 * closeness + 0.10 * density + 0.15 * recurrence
        ranked.append(RankedFile(f.path, round(min(1.0, score), 4), (start, end)))
    ranked.sort(key=lambda r: (-r.score, r.path))
    return ranked


def cut_window(text_lines: list[str], window: tuple[int, int]) -> tuple[str, int, int]:
    """The window's text with blank edge lines trimmed, and its final 1-based span."""
    start, end = window
    end = min(end, len(text_lines))
    while start < end and not text_lines[start - 1].strip():
        start += 1
    while end > start and not text_lines[end - 1].strip():
        end -= 1
    body = "\n".join(line.rstrip() for line in text_lines[start - 1 : end])
    return body, start, end
