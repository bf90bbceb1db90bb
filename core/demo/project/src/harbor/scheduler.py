"""Placement: which hosts receive the containers of a deployment.

Hosts are filled best-fit by free memory, then CPU. The disruption budget caps how many
hosts may be draining (replacing containers) at the same time during a rollout.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Host:
    name: str
    free_cpu: float  # cores
    free_mem_mb: int
    draining: bool = False
    labels: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Demand:
    replicas: int
    cpu: float
    mem_mb: int
    required_labels: frozenset[str] = frozenset()


class PlacementError(Exception):
    """Not enough capacity, or the disruption budget forbids touching more hosts."""


def fits(host: Host, demand: Demand) -> bool:
    return (
        not host.draining
        and host.free_cpu >= demand.cpu
        and host.free_mem_mb >= demand.mem_mb
        and demand.required_labels <= host.labels
    )


def place(demand: Demand, hosts: list[Host], disruption_budget: int) -> list[str]:
    """Host names for each replica, best fit first; at most `disruption_budget` hosts used."""
    draining = sum(1 for host in hosts if host.draining)
    allowed = disruption_budget - draining
    if allowed <= 0:
        raise PlacementError(f"disruption budget exhausted ({draining} hosts already draining)")
    candidates = sorted(
        (host for host in hosts if fits(host, demand)),
        key=lambda host: (host.free_mem_mb, host.free_cpu),
    )
    chosen = candidates[:allowed]
    if not chosen:
        raise PlacementError("no host has room for one replica")
    # Round-robin over the chosen hosts; capacity is re-checked by the host agent.
    return [chosen[i % len(chosen)].name for i in range(demand.replicas)]
