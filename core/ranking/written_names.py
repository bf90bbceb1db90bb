"""A word a query writes as a name although it is an English word: capitalised inside a
sentence (urfave/cli's "is the After hook still run": its `After` field), as a call or a
member is written (analysis.query_terms reads those)."""

from __future__ import annotations

import re


def capitalised_inside(text: str, found: re.Match[str]) -> bool:
    """Whether a word of one part is capitalised inside a sentence (not its first word,
    not after `.`, `?`, `!`, `:`, a hyphen or a quote), and not `I`."""
    word = found.group()
    if len(word) < 2 or not word[0].isupper() or not word[1:].islower():
        return False
    before = text[: found.start()].rstrip()
    return bool(before) and before[-1] not in ".?!:-\"'`"


def written_as_code(text: str, found: re.Match[str]) -> bool:
    """Whether a word is written as code: alone between backticks (`` `here` ``), or as a
    format or template key (`%(here)s`, `{here}`)."""
    start, end = found.span()
    before, after = text[max(0, start - 2) : start], text[end : end + 1]
    return (
        (before[-1:] == "`" and after == "`")
        or (before == "%(" and after == ")")
        or (before[-1:] == "{" and after == "}")
    )


def written_as_a_name(text: str, found: re.Match[str]) -> bool:
    """Whether a word is written as a name: as a call (`at()`), capitalised inside a
    sentence, or as code."""
    return (
        text.startswith("(", found.end())
        or capitalised_inside(text, found)
        or written_as_code(text, found)
    )
