"""Pack hits into a token budget: best score first, skip what does not fit and keep going,
so a later, smaller hit may still fit. Never exceeds the budget."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from .config.model import Config
from .models import BudgetEntry, BudgetReport, Hit

# A budget smaller than one whole snippet shortens every snippet to fit it, so the best
# hit is served cut rather than skipped for a weaker, shorter one. Tokens are counted as at
# least characters / 4, and dense code or a table counts about one token per 3 characters.
CHARS_PER_TOKEN = 3


def snippets_fitting(config: Config, limit: int) -> Config:
    """`config` with its snippet caps lowered to what a budget of `limit` tokens holds (a
    budget of 0 holds nothing: the trace lists the hits at their own size)."""
    snippets = config.snippets
    most = limit * CHARS_PER_TOKEN
    if limit <= 0 or most >= snippets.max_chars:
        return config
    fitted = replace(snippets, max_chars=most, max_line_chars=min(snippets.max_line_chars, most))
    return replace(config, snippets=fitted)


def apply_budget(hits: Iterable[Hit], limit: int) -> BudgetReport:
    """Every hit ends up either included or dropped (with the reason)."""
    ordered = sorted(hits, key=lambda hit: -hit.score)  # stable: ties keep tier order
    used = 0
    included: list[BudgetEntry] = []
    dropped: list[BudgetEntry] = []
    for hit in ordered:
        tokens = hit.tokens
        if limit <= 0:
            dropped.append(BudgetEntry(hit, tokens, "budget is 0"))
        elif used + tokens <= limit:
            used += tokens
            included.append(BudgetEntry(hit, tokens))
        else:
            left = limit - used
            dropped.append(BudgetEntry(hit, tokens, f"needs {tokens} tokens, {left} left"))
    return BudgetReport(max(limit, 0), used, tuple(included), tuple(dropped))
