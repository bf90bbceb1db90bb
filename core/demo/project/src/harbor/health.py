"""Health probes for a deployed container and the tracker that turns them into a verdict."""

from __future__ import annotations

import socket
import urllib.error
import urllib.request
from dataclasses import dataclass, field

# Sprint 1 review asked for this to come from the deployment spec (hb-31).
PROBE_TIMEOUT_SECONDS = 2.0


@dataclass(frozen=True)
class Probe:
    kind: str  # "http" or "tcp"
    host: str
    port: int
    path: str = "/healthz"


def check(probe: Probe) -> bool:
    """One probe. A timeout counts as a failure, never as an exception to the caller."""
    if probe.kind == "tcp":
        try:
            with socket.create_connection((probe.host, probe.port), PROBE_TIMEOUT_SECONDS):
                return True
        except OSError:
            return False
    url = f"http://{probe.host}:{probe.port}{probe.path}"
    try:
        with urllib.request.urlopen(url, timeout=PROBE_TIMEOUT_SECONDS) as response:
            return 200 <= response.status < 300
    except (urllib.error.URLError, TimeoutError, OSError):
        return False


@dataclass
class HealthTracker:
    """Consecutive failures per container; `unhealthy` once the threshold is reached."""

    failure_threshold: int = 2
    failures: dict[str, int] = field(default_factory=dict)

    def record(self, container_id: str, ok: bool) -> None:
        self.failures[container_id] = 0 if ok else self.failures.get(container_id, 0) + 1

    def unhealthy(self, container_id: str) -> bool:
        return self.failures.get(container_id, 0) >= self.failure_threshold
