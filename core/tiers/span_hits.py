"""Hits a tool located by line span (ck), checked against the files as they are now: a
file that is gone, outside the scope or not a regular file is dropped; the span is re-read
and capped like every snippet."""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import replace
from pathlib import Path

from ..files import Unreadable, read_text_file
from ..models import Hit
from ..ranking.analysis import query_terms
from ..ranking.matching import TermMatcher
from ..ranking.sections import cut_span
from ..scopes import in_scope
from .base import TierRequest


def refresh_spans(request: TierRequest, hits: tuple[Hit, ...]) -> tuple[tuple[Hit, ...], list[str]]:
    """The hits whose files can still be read, each with its span's current text."""
    root = Path(os.path.realpath(request.root))
    terms = query_terms(request.query)
    matcher = TermMatcher(terms) if terms else None
    weights = {term.key: 1.0 for term in terms}
    settings = request.config.snippets
    kept: list[Hit] = []
    left_out: Counter = Counter()
    for hit in hits:
        path = root / hit.source
        if not in_scope(path, request.scope):
            left_out[f"outside scope {request.scope.name}"] += 1
            continue
        try:
            document = read_text_file(path, root, request.config.grep.max_filesize)
        except Unreadable as exc:
            left_out[f"file {exc}"] += 1
            continue
        line_terms = matcher.lines(document.text) if matcher else {}
        snippet = cut_span(
            document.text,
            hit.line_start or 1,
            hit.line_end or hit.line_start or 1,
            line_terms,
            weights,
            max_chars=settings.max_chars,
            max_line_chars=settings.max_line_chars,
            matcher=matcher,
        )
        if snippet is None:
            left_out["span past the end of the file (changed since indexed)"] += 1
            continue
        kept.append(
            replace(hit, content=snippet.text, line_start=snippet.line_start,
                    line_end=snippet.line_end)
        )  # fmt: skip
    notes = [f"{count} results left out: {why}" for why, count in left_out.items()]
    return tuple(kept), notes
