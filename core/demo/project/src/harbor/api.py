"""The HTTP surface: create a deployment, read it, roll it back.

Every request carries an API token (`Authorization: Bearer hb_...`); tokens are scoped
to one team and hashed at rest.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Callable
from dataclasses import dataclass

Handler = Callable[[dict, dict], tuple[int, dict]]


@dataclass(frozen=True)
class Route:
    method: str
    pattern: re.Pattern[str]
    handler: Handler


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def authorised(header: str | None, known_digests: set[str]) -> bool:
    if not header or not header.startswith("Bearer hb_"):
        return False
    digest = token_digest(header.removeprefix("Bearer "))
    return any(hmac.compare_digest(digest, known) for known in known_digests)


def create_deployment(params: dict, body: dict) -> tuple[int, dict]:
    # POST is not idempotent: the client retries only with the same Idempotency-Key.
    return 202, {"id": body.get("name", ""), "status": "scheduled"}


def get_deployment(params: dict, body: dict) -> tuple[int, dict]:
    return 200, {"id": params["id"]}


def rollback_deployment(params: dict, body: dict) -> tuple[int, dict]:
    return 202, {"id": params["id"], "status": "rolling-back"}


ROUTES = (
    Route("POST", re.compile(r"^/deployments$"), create_deployment),
    Route("GET", re.compile(r"^/deployments/(?P<id>[\w-]+)$"), get_deployment),
    Route("POST", re.compile(r"^/deployments/(?P<id>[\w-]+)/rollback$"), rollback_deployment),
)


def dispatch(method: str, path: str, headers: dict, body: dict, tokens: set[str]):
    if not authorised(headers.get("Authorization"), tokens):
        return 401, {"error": "missing or unknown API token"}
    for route in ROUTES:
        match = route.pattern.match(path)
        if route.method == method and match:
            return route.handler(match.groupdict(), body)
    return 404, {"error": f"no route for {method} {path}"}
