"""Pack hits into a token budget: best score first, skip what does not fit and keep going,
so a later, smaller hit may still fit. Never exceeds the budget."""

from __future__ import annotations

from collections.abc import Iterable

from .models import BudgetEntry, BudgetReport, Hit


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
