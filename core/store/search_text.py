"""Free text from a user or an agent, turned into an FTS5 query that cannot be misread.

FTS5 has its own query language (quotes, `*` prefixes, `-`/NOT, AND/OR, NEAR, `col:`
filters, parentheses). Users type none of it on purpose, so every word becomes a quoted
string: operators, column names and stray punctuation are searched as plain words or
dropped, and the query never raises a syntax error.
"""

from __future__ import annotations

import re

# Letters and digits in any script; everything else separates words, as in unicode61.
_WORD = re.compile(r"[^\W_]+")
# Enough for any sentence a person types; bounds the work a pasted document can cause.
MAX_TERMS = 64


def search_terms(text: str) -> tuple[str, ...]:
    """The distinct words of `text`, in order of first appearance, at most MAX_TERMS."""
    seen: dict[str, None] = {}
    for match in _WORD.finditer(text):
        seen.setdefault(match.group().lower(), None)
        if len(seen) == MAX_TERMS:
            break
    return tuple(seen)


def fts_query(text: str, *, any_term: bool = False) -> str | None:
    """An FTS5 MATCH expression for `text`: every word must appear, or any one of them
    with `any_term`. None when `text` holds no searchable word. Never raises."""
    terms = search_terms(text)
    if not terms:
        return None
    joiner = " OR " if any_term else " "
    return joiner.join(f'"{term}"' for term in terms)
