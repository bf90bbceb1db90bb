"""Image manifests from the primary registry, with a mirror as fallback.

Registry tokens are short-lived (5 minutes). A 401 refreshes the token once; a timeout
or 5xx from the primary falls back to the mirror, which serves digests only.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from dataclasses import dataclass

from .retry import REGISTRY_PULL, RetryBudgetExhausted, TransientError, run_with_retry

PRIMARY = "https://registry.harbor.internal"
MIRROR = "https://mirror.harbor.internal"
PULL_TIMEOUT_SECONDS = 5.0  # SDD §5.3 says 10 s; see NOTES.md technical debt


@dataclass
class RegistryToken:
    value: str
    expires_at: float

    def fresh(self) -> bool:
        # Refresh 30 s early so a token never expires mid-pull.
        return time.time() < self.expires_at - 30


class Unauthorized(Exception):
    pass


def fetch_token(scope: str) -> RegistryToken:
    request = urllib.request.Request(f"{PRIMARY}/token?scope={scope}")
    with urllib.request.urlopen(request, timeout=PULL_TIMEOUT_SECONDS) as response:
        body = json.load(response)
    return RegistryToken(body["token"], time.time() + body.get("expires_in", 300))


def _get_manifest(base: str, image: str, tag: str, token: RegistryToken | None) -> dict:
    request = urllib.request.Request(f"{base}/v2/{image}/manifests/{tag}")
    if token is not None:
        request.add_header("Authorization", f"Bearer {token.value}")
    try:
        with urllib.request.urlopen(request, timeout=PULL_TIMEOUT_SECONDS) as response:
            return json.load(response)
    except urllib.error.HTTPError as exc:
        if exc.code == 401:
            raise Unauthorized(image) from exc
        if exc.code >= 500:
            raise TransientError(f"{base}: HTTP {exc.code}") from exc
        raise
    except (urllib.error.URLError, TimeoutError) as exc:
        raise TransientError(f"{base}: {exc}") from exc


def resolve_manifest(image: str, tag: str, token: RegistryToken) -> tuple[dict, str]:
    """The manifest and which registry served it ("primary" or "mirror")."""
    if not token.fresh():
        token = fetch_token(f"repository:{image}:pull")
    deadline = time.monotonic() + 3 * PULL_TIMEOUT_SECONDS

    def primary() -> dict:
        try:
            return _get_manifest(PRIMARY, image, tag, token)
        except Unauthorized:
            return _get_manifest(PRIMARY, image, tag, fetch_token(f"repository:{image}:pull"))

    try:
        return run_with_retry(primary, REGISTRY_PULL, deadline), "primary"
    except RetryBudgetExhausted:
        # The mirror needs no token; it is read-only and holds every digest we ever deployed.
        return _get_manifest(MIRROR, image, tag, None), "mirror"
