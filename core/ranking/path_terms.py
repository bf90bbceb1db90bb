"""The query terms a file's path holds: its folders and name count as a field of their own
(bm25.PATH_WEIGHT)."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable
from itertools import accumulate

from . import bm25
from .matching import TermMatcher


def paths_terms(paths: Iterable[str], matcher: TermMatcher) -> dict[str, frozenset[str]]:
    """The query terms each path holds, for the paths that hold any: one search over all
    of them joined, then a count of only those that matched (most paths hold none)."""
    if not bm25.PATH_WEIGHT:
        return {}
    listed = list(paths)
    joined = "\n".join(listed)
    starts = list(accumulate((len(path) + 1 for path in listed), initial=0))
    if not joined.isascii():
        hit: set[int] = {bisect_right(starts, offset) - 1 for offset, _ in matcher.matches(joined)}
        found = {}
        for index in hit:
            terms = frozenset(matcher.count(listed[index]))
            if terms:
                found[listed[index]] = terms
        return found
    # ASCII: lower-casing keeps every offset, so the matches in the joined paths are each
    # path's own matches (none crosses a newline), and a path's terms are those of its
    # matched words (what `matcher.count(path)` would find), each word analysed once.
    words: dict[int, list[str]] = {}
    for offset, word in matcher.matches(joined):
        words.setdefault(bisect_right(starts, offset) - 1, []).append(word)
    keys_of: dict[str, list[str]] = {}
    found = {}
    for index, matched in words.items():
        keys = set()
        for word in matched:
            if word not in keys_of:
                keys_of[word] = matcher.keys_of(word)
            keys.update(keys_of[word])
        if keys:
            found[listed[index]] = frozenset(keys)
    return found


def path_terms(path: str, matcher: TermMatcher) -> frozenset[str]:
    """The query terms a file's path holds (its folders and name)."""
    if not bm25.PATH_WEIGHT or not matcher.holds_any(path):
        return frozenset()
    return frozenset(matcher.count(path.replace("/", " ")))
