"""Rollouts in waves, gated on health, with rollback to the last known good release."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from .health import HealthTracker

WAVES = (0.1, 0.25, 1.0)  # canary, a quarter, everyone


@dataclass(frozen=True)
class Release:
    deployment_id: str
    image: str
    digest: str


@dataclass
class DeploymentState:
    deployment_id: str
    current: Release | None = None
    last_known_good: Release | None = None
    history: list[str] = field(default_factory=list)


class RolloutFailed(Exception):
    pass


def run_rollout(
    state: DeploymentState,
    release: Release,
    containers: list[str],
    replace: Callable[[str, Release], None],
    probe: Callable[[str], bool],
    tracker: HealthTracker,
) -> None:
    """Replace containers wave by wave; roll back and raise on the first unhealthy wave."""
    done = 0
    for fraction in WAVES:
        target = max(1, round(len(containers) * fraction))
        wave = containers[done:target]
        for container in wave:
            replace(container, release)
            tracker.record(container, probe(container))
        done = target
        if any(tracker.unhealthy(container) for container in wave):
            rollback(state, containers, replace)
            raise RolloutFailed(f"wave {fraction:.0%} unhealthy; rolled back")
    state.last_known_good = state.current = release
    state.history.append(release.digest)


def rollback(
    state: DeploymentState,
    containers: list[str],
    replace: Callable[[str, Release], None],
) -> Release:
    """Put every container back on the last known good release.

    Calling it twice replaces the containers twice (hb-44: make it a no-op when they
    already run that release).
    """
    if state.last_known_good is None:
        raise RolloutFailed(f"{state.deployment_id}: nothing to roll back to")
    for container in containers:
        replace(container, state.last_known_good)
    state.current = state.last_known_good
    state.history.append(f"rollback:{state.last_known_good.digest}")
    return state.last_known_good
