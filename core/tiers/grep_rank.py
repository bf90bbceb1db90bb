"""Ranking for the grep tier: which files matter most for a query, and which window of
lines to show from each.

A file scores higher when it matches more of the query's distinct terms (rarer terms
weigh more), when those terms sit close together in a dense window of lines, and when they
recur more than elsewhere.
"""

from __future__ import annotations

import heapq
import math
import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator
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
    left), at most MAX_TERMS. Single characters are never searched: they match nearly
    every line. Searched literally: no regex or glob meaning survives."""
    words = [w.lower() for w in _WORD.findall(text)]
    words = [w for w in dict.fromkeys(words) if len(w) > 1]
    kept = [w for w in words if w not in STOPWORDS]
    return tuple((kept or words)[:MAX_TERMS])


# What Rust's regex::escape (ripgrep, ck) escapes.
_REGEX_META = frozenset("\\.+*?()|[]{}^$#&-~")


def regex_escape(text: str) -> str:
    """`text` as a literal in a Rust regex (ripgrep's and ck's syntax)."""
    return "".join(f"\\{ch}" if ch in _REGEX_META else ch for ch in text)


def word_start_pattern(term: str) -> str:
    """The Rust regex ripgrep searches for a term: at the start of a word, any ending
    (`budget` finds `budgets` but not `RetryBudgetExhausted`)."""
    return r"\b" + regex_escape(term)


def word_start_regexes(terms: tuple[str, ...]) -> dict[str, re.Pattern[str]]:
    """The same matching in Python, for the scan used when ripgrep is missing."""
    return {term: re.compile(r"\b" + re.escape(term)) for term in terms}


@dataclass
class FileMatches:
    """Matching lines of one file: line number -> the query terms on that line."""

    path: str  # root-relative POSIX
    lines: dict[int, set[str]] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)

    def add_match(self, number: int, term: str) -> None:
        """One occurrence of `term` on line `number` (ripgrep's --only-matching output)."""
        on_line = self.lines.get(number)
        if on_line is None:
            self.lines[number] = {term}
        else:
            on_line.add(term)
        self.counts[term] = self.counts.get(term, 0) + 1

    def add_line(self, number: int, text_lower: str, patterns: dict[str, re.Pattern[str]]) -> None:
        """Every term found at a word start on one (lower-cased) line."""
        for term, pattern in patterns.items():
            occurrences = len(pattern.findall(text_lower))
            if occurrences:
                self.lines.setdefault(number, set()).add(term)
                self.counts[term] = self.counts.get(term, 0) + occurrences


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
        inside = numbers[bisect_left(numbers, start) : bisect_right(numbers, end)]
        distinct = len(frozenset().union(*(matches.lines[n] for n in inside)))
        if (distinct, len(inside)) > (best[2], best[3]):
            best = (start, end, distinct, len(inside))
    return best


def rank_files(
    files: list[FileMatches], terms: tuple[str, ...], window_lines: int
) -> Iterator[RankedFile]:
    """Every file with a score in [0, 1], best first (ties by path), lazily.

    The score is 0.50 coverage + 0.25 closeness + 0.10 density + 0.15 recurrence. Coverage
    and recurrence are cheap; closeness and density need the file's best window. Since
    closeness can be at most the file's distinct-term share and density at most 1, each
    file has an upper bound, and a window is computed only while that bound could still
    beat the next file to yield: on a large corpus the caller takes ten files of thousands.
    """
    if not files or not terms:
        return
    total = len(files)
    document_frequency = {t: sum(1 for f in files if t in f.counts) for t in terms}
    # Rarity among the files that matched at all; a term found nowhere still counts in the
    # denominator, so a query with a missing word never reaches a perfect score.
    idf = {t: math.log(1 + total / max(document_frequency[t], 0.5)) for t in terms}
    idf_total = sum(idf.values()) or 1.0
    most_occurrences = max((sum(f.counts.values()) for f in files), default=1)
    log_most = math.log1p(most_occurrences)
    candidates: list[tuple[float, float, str, FileMatches]] = []
    for f in files:
        if not f.lines:
            continue
        coverage = sum(idf[t] for t in f.counts) / idf_total
        # Recurrence relative to the file that mentions the terms most, so that scores
        # spread out instead of every long document saturating at the same value.
        recurrence = math.log1p(sum(f.counts.values())) / log_most if log_most else 1.0
        partial = 0.50 * coverage + 0.15 * recurrence
        bound = partial + 0.25 * len(f.counts) / len(terms) + 0.10
        candidates.append((bound, partial, f.path, f))
    candidates.sort(key=lambda c: (-c[0], c[2]))
    scored: list[tuple[float, str, tuple[int, int]]] = []  # heap of (-score, path, window)
    next_candidate = 0
    while scored or next_candidate < len(candidates):
        # Score candidates until none left unscored could reach the best scored one.
        while next_candidate < len(candidates) and (
            not scored or candidates[next_candidate][0] + 1e-4 >= -scored[0][0]
        ):
            _, partial, path, f = candidates[next_candidate]
            next_candidate += 1
            start, end, distinct, matching_lines = best_window(f, window_lines)
            closeness = distinct / len(terms)
            density = matching_lines / window_lines
            score = round(min(1.0, partial + 0.25 * closeness + 0.10 * density), 4)
            heapq.heappush(scored, (-score, path, (start, end)))
        negative, path, window = heapq.heappop(scored)
        yield RankedFile(path, -negative, window)


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
