"""Retry policy shared by registry pulls and host-agent calls.

A policy retries only errors it is told are transient, waits with exponential backoff
plus jitter, and never sleeps past the caller's deadline.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")


class TransientError(Exception):
    """A failure worth retrying: a timeout, a refused connection, a 502/503/504."""


class RetryBudgetExhausted(Exception):
    """Every attempt failed, or the deadline left no room for another one."""

    def __init__(self, attempts: int, last: Exception) -> None:
        super().__init__(f"gave up after {attempts} attempts: {last}")
        self.attempts = attempts
        self.last = last


@dataclass(frozen=True)
class RetryPolicy:
    max_attempts: int = 4
    base_delay: float = 0.5  # seconds before the second attempt
    max_delay: float = 8.0
    jitter: float = 0.2  # +/- fraction of each delay, so hosts do not retry in lockstep
    idempotent: bool = True  # a non-idempotent call is tried exactly once

    def delay(self, attempt: int) -> float:
        """Seconds to wait after failed attempt number `attempt` (1-based)."""
        raw = min(self.max_delay, self.base_delay * 2 ** (attempt - 1))
        spread = raw * self.jitter
        return max(0.0, raw + random.uniform(-spread, spread))


REGISTRY_PULL = RetryPolicy(max_attempts=4, base_delay=0.5, max_delay=4.0)
AGENT_CALL = RetryPolicy(max_attempts=3, base_delay=0.25, max_delay=2.0)
DEPLOY_POST = RetryPolicy(max_attempts=1, idempotent=False)


def run_with_retry(
    call: Callable[[], T],
    policy: RetryPolicy,
    deadline: float,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
) -> T:
    """Call until it succeeds, the attempts run out or the deadline would be crossed."""
    attempts = policy.max_attempts if policy.idempotent else 1
    last: Exception | None = None
    for attempt in range(1, attempts + 1):
        try:
            return call()
        except TransientError as exc:
            last = exc
        if attempt == attempts:
            break
        wait = policy.delay(attempt)
        if clock() + wait >= deadline:
            break
        sleep(wait)
    assert last is not None
    raise RetryBudgetExhausted(attempt, last)
