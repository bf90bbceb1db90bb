"""Which of a query's words a passage miss's passage holds, and which the lines served in
its place hold: a passage holding fewer of them is a gap in words (the question asks in
words the answer does not use), which no choice among the file's sections would mend; one
holding as many or more is a choice to mend."""

from __future__ import annotations

from dataclasses import dataclass

from ..ranking.analysis import query_terms
from ..ranking.matching import TermMatcher
from .metrics import QueryEvaluation


@dataclass(frozen=True, slots=True)
class WordsHeld:
    """The query's words (as it spelt them) in the passage and in the lines served."""

    passage: tuple[str, ...]
    served: tuple[str, ...]

    @property
    def fewer_in_passage(self) -> bool:
        return len(self.passage) < len(self.served)


def words_held(evaluation: QueryEvaluation) -> WordsHeld | None:
    """For a passage miss, the query's words its passage and the lines served hold, each
    in the query's order; None for any other query."""
    hit = evaluation.passage_miss()
    if hit is None:
        return None
    terms = query_terms(evaluation.query.text)
    if not terms:
        return WordsHeld((), ())
    matcher = TermMatcher(terms)

    def held(text: str) -> tuple[str, ...]:
        found = matcher.count(text)
        return tuple(term.word or term.label for term in terms if found.get(term.key))

    return WordsHeld(held(evaluation.query.passage), held(hit.content))
