"""A query term's weight inside one file: which section of a file answers is told by the
terms that are rare *in that file*. A term in every paragraph of a page about it
(`reactive` in the reactivity guide) says little about where."""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Mapping

from .spans import Span

# A term's weight is multiplied by its rarity among the file's paragraphs to this power
# (measured with `tierscope eval`: 0 → 0.5 raised the share of hits holding the answering
# passage; 1 lowered it).
LOCAL_IDF_POWER = 0.5


def local_weights(
    weights: Mapping[str, float],
    line_terms: Mapping[int, Mapping[str, int]],
    blocks: list[Span],
) -> dict[str, float]:
    """Each term's weight times its rarity among the file's paragraphs (`blocks`, in file
    order), found from the matching lines only (1-based `line_terms`: most lines hold no
    term)."""
    if not LOCAL_IDF_POWER:
        return dict(weights)
    starts = [block.start for block in blocks]
    holding: dict[str, set[int]] = {}
    for number, on_line in line_terms.items():
        found = bisect_right(starts, number - 1) - 1
        if found < 0 or number - 1 >= blocks[found].end:
            continue
        for key in on_line:
            holding.setdefault(key, set()).add(found)
    total = len(blocks) or 1
    local: dict[str, float] = {}
    for key, weight in weights.items():
        count = len(holding.get(key, ()))
        if not count:
            local[key] = weight
            continue
        rarity = math.log(1 + (total - count + 0.5) / (count + 0.5))
        local[key] = weight * rarity**LOCAL_IDF_POWER
    return local
