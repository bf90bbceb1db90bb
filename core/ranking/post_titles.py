"""A dated post named for what a question asks: its title holds the question's words.

A dated post is scored lower than the guide (file_roles.POST_WEIGHT): a release note or a
blog post tells a story around a how-to question's words. A post whose own title is most
of the question ("Remote memory profiling with Memray" for "memray live memory profiling
in the browser") is the page about it, and ranks as any page does.
"""

from __future__ import annotations

from collections.abc import Mapping

from .spans import FENCE, HEADING, front_matter_end

# The share of the query's weight (its terms' rarity) the title holds, and the fewest of
# its terms: one word of a long question says no more than the post's text does.
TITLE_SHARE = 0.5
TITLE_TERMS = 2
# A post's title is among its first lines (after front matter).
TITLE_LINES = 40


def title_line(lines: list[str]) -> int | None:
    """The 1-based number of a markdown post's title line: its first `#` heading among its
    first lines, else its front matter's title (a front matter title that repeats the
    heading counts for nothing: markup_words.py)."""
    front = front_matter_end(lines)
    for index in range(front, min(len(lines), front + TITLE_LINES)):
        heading = HEADING.match(lines[index])
        if heading and len(heading.group(1)) == 1:
            return index + 1
        if FENCE.match(lines[index]):
            break
    from .markup_words import front_matter_title  # read for a dated post only

    title = front_matter_title(lines, front)
    return None if title is None else title + 1


def named_by_title(
    lines: list[str], line_terms: Mapping[int, Mapping[str, int]], weights: Mapping[str, float]
) -> bool:
    """Whether a post's title holds TITLE_TERMS of the query's terms at least, TITLE_SHARE
    of their weight (`weights`: term key -> rarity)."""
    number = title_line(lines)
    if number is None:
        return False
    held = [key for key in line_terms.get(number, ()) if key in weights]
    total = sum(weights.values())
    return (
        len(held) >= TITLE_TERMS
        and total > 0
        and sum(weights[key] for key in held) >= TITLE_SHARE * total
    )
