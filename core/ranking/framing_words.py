"""Words that frame a question rather than ask it, told by the word beside them: "what am
I doing wrong?" asks for the fix, and its `wrong` found Textual's `WrongType` (a wrong
password is a term); "things like a shared client" names an example (SQL's `LIKE` is a
term); "does the helper let me provide..." asks whether it can, and its `let` found every
JavaScript `let` declaration (pinia's testing helper came below them; Rust's `let
statement` is a term). analysis.query_terms drops them."""

from __future__ import annotations

import re

# A word that frames a question after the word before it.
_FRAMING_PAIRS = frozenset({("doing", "wrong"), ("things", "like"), ("something", "like")})
# `let` before the one it lets: "let me", "lets us".
_LETS_SOMEONE = re.compile(r"lets?[ \t]+(?:me|us|you|them)\b", re.IGNORECASE)


def frames(previous: str, word: str, text: str, found: re.Match[str]) -> bool:
    """Whether the query's word `found` (`word`, lower case, after `previous`) frames the
    question."""
    if (previous, word) in _FRAMING_PAIRS:
        return True
    return word in ("let", "lets") and _LETS_SOMEONE.match(text, found.start()) is not None
