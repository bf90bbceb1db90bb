"""The doctor report: for every tier, whether it can serve each scope here and exactly why
not; the config in use and its problems. Plain data, rendered by the CLI and the workbench."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .api import Project
from .models import ResolvedScope
from .scopes import resolve_scope
from .tiers.base import Probe, TierRequest
from .tiers.registry import load_tier


@dataclass(frozen=True, slots=True)
class TierReport:
    name: str
    enabled: bool
    usable: bool
    reason: str
    path: str | None
    version: str | None
    by_scope: dict[str, Probe] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class DoctorReport:
    root: str
    config_path: str | None
    config_reason: str
    problems: tuple[str, ...]
    has_errors: bool
    tiers: tuple[TierReport, ...]
    scopes: dict[str, ResolvedScope]

    def to_dict(self) -> dict:
        return {
            "root": self.root,
            "config": {
                "path": self.config_path,
                "reason": self.config_reason,
                "problems": list(self.problems),
            },
            "tiers": [
                {
                    "tier": t.name,
                    "enabled": t.enabled,
                    "usable": t.usable,
                    "reason": t.reason,
                    "path": t.path,
                    "version": t.version,
                    "scopes": {
                        scope: {
                            "usable": p.usable,
                            "reason": p.reason,
                            "details": p.details,
                        }
                        for scope, p in t.by_scope.items()
                    },
                }
                for t in self.tiers
            ],
            "scopes": {name: s.to_dict(Path(self.root)) for name, s in self.scopes.items()},
        }


def diagnose(
    project: Project, tier_names: tuple[str, ...] = ("qmd", "ck", "grep", "store")
) -> DoctorReport:
    config = project.config
    scopes = {name: resolve_scope(name, config, project.root) for name in config.scopes}
    private = project.private_paths()
    reports = []
    for name in tier_names:
        by_scope: dict[str, Probe] = {}
        try:
            tier = load_tier(name)
        except Exception as exc:  # a tier that cannot load is itself a finding
            tier = None
            failure = Probe(False, f"cannot load: {type(exc).__name__}: {exc}")
            by_scope = dict.fromkeys(scopes, failure)
        for scope_name, scope in scopes.items():
            if tier is None:
                break
            request = TierRequest(
                query="",
                root=project.root,
                scope=scope,
                config=config,
                timeout=config.timeout_seconds,
                private_paths=private,
            )
            try:
                by_scope[scope_name] = tier.probe(request)
            except Exception as exc:  # a broken probe is itself a finding
                by_scope[scope_name] = Probe(False, f"probe failed: {type(exc).__name__}: {exc}")
        usable = [p for p in by_scope.values() if p.usable]
        first = (usable or list(by_scope.values()) or [Probe(False, "no scopes")])[0]
        reason = first.reason if usable else _common_reason(by_scope)
        reports.append(
            TierReport(
                name=name,
                enabled=name in config.tiers,
                usable=bool(usable),
                reason=reason,
                path=first.path,
                version=first.version,
                by_scope=by_scope,
            )
        )
    problems = tuple(str(p) for p in config.problems)
    return DoctorReport(
        root=str(project.root),
        config_path=str(config.source.path) if config.source.path else None,
        config_reason=config.source.reason,
        problems=problems,
        has_errors=any(p.severity == "error" for p in config.problems),
        tiers=tuple(reports),
        scopes=scopes,
    )


def _common_reason(by_scope: dict[str, Probe]) -> str:
    reasons = list(dict.fromkeys(p.reason for p in by_scope.values()))
    return reasons[0] if len(reasons) == 1 else "; ".join(reasons[:3])
