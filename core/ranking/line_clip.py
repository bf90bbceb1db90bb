"""Clipping a line too long to serve whole: cut to about the line cap where most of the
query is, between words, with a visible marker where text is left out."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import islice

from .bm25 import held_weight
from .matching import TermMatcher

CLIP_MARKER = " […] "
# A line is clipped only when over the cap by more than 1/SLACK of it (cutting a few
# characters would lose a sentence's end for nothing); a cut moves up to that much to fall
# between words.
SLACK = 5
# A long line's matches looked at for where to clip it (a line of one word repeated has
# thousands).
MAX_CLIP_MATCHES = 200


def most_shown(limit: int) -> int:
    """The most characters a line shows under a cap of `limit`: one a little over the
    cap is served whole, a clipped one carries its markers."""
    return limit + max(limit // SLACK, len(CLIP_MARKER) * 2)


def clip_line(
    line: str, weights: Mapping[str, float], matcher: TermMatcher | None, limit: int
) -> str:
    """A line over `limit` characters cut to about `limit` where the most of the query is:
    of the windows starting a little before each match, the one holding the greatest
    weight of distinct terms (the earliest of equals)."""
    if len(line) <= limit + limit // SLACK:
        return line
    lead = limit // 6
    start = 0
    if matcher is not None:
        found = [
            (offset, keys)
            for offset, text in islice(matcher.matches(line), MAX_CLIP_MATCHES)
            if (keys := matcher.keys_of(text))
        ]
        best = -1.0
        for first, (offset, _) in enumerate(found):
            window_end = offset - lead + limit
            held = {key for at, keys in found[first:] if at < window_end for key in keys}
            weight = held_weight(held, weights, default=1.0)
            if weight > best:
                best, start = weight, offset - lead
    start = max(0, min(start, len(line) - limit))
    end = start + limit
    # Between words, when a space is near.
    if start > 0 and (space := line.find(" ", start, start + limit // SLACK)) != -1:
        start = space + 1
    if end < len(line) and (space := line.rfind(" ", end - limit // SLACK, end)) != -1:
        end = space
    piece = line[start:end]
    head = tail = ""
    if start > 0:
        head, piece = CLIP_MARKER.lstrip(), piece.lstrip()
    if end < len(line):
        tail, piece = CLIP_MARKER.rstrip(), piece.rstrip()
    return f"{head}{piece}{tail}"
