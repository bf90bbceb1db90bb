"""What the headless command prints. The workbench's "copy as JSON" uses the same
functions, so both give the same bytes."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from .models import Hit, QueryResult
from .terminal import json_for_terminal


def render_json(hits: Iterable[Hit]) -> str:
    """A JSON array of {"source", "score", "content", "tier"} — exactly these keys."""
    return _dumps([hit.public() for hit in hits])


def render_text(hits: Iterable[Hit]) -> str:
    """Per hit a `--- source (score: s, tier: t) ---` header and its content; nothing
    when there are no hits."""
    blocks = [
        f"--- {hit.source} (score: {round(hit.score, 4)}, tier: {hit.tier}) ---\n{hit.content}"
        for hit in hits
    ]
    return "\n\n".join(blocks)


def explain(result: QueryResult, root: Path, config_source: str) -> dict:
    """The --explain object: results with spans and tokens, and the full trace."""
    request = result.request
    return {
        "results": [hit.detailed() for hit in result.hits],
        "trace": {
            "query_id": result.query_id,
            "query": request.text,
            "root": str(root),
            "config_source": config_source,
            "scope": request.scope,
            "skill": request.skill,
            "timeout": request.timeout,
            "resolved": result.scope.to_dict(root) if result.scope else None,
            "refused": result.refused,
            "served_by": result.served_by,
            "tiers": [outcome.to_dict() for outcome in result.outcomes],
            "deduplicated": result.deduplicated,
            "budget": result.budget.to_dict(),
            "notes": list(result.notes),
            "total_ms": round(result.total_ms, 1),
            **({"session": result.session.to_dict()} if result.session else {}),
        },
    }


def render_explain(result: QueryResult, root: Path, config_source: str) -> str:
    return _dumps(explain(result, root, config_source))


def _dumps(value: object) -> str:
    # The stdlib encoder on purpose: output is small, and importing orjson costs more.
    return json_for_terminal(json.dumps(value, indent=2, ensure_ascii=False))
