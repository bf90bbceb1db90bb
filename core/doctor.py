"""The doctor report: for every tier, whether it can serve each scope here and exactly why
not, with the tool's path and version; for every scope the places each tier would search
and whether they exist; the config in use and its problems. Plain data, rendered by the
CLI and the workbench."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from .api import Project
from .config.model import Config, ConfigProblem, ScopeConfig
from .deadline import Deadline
from .debugging import report_exception
from .models import ResolvedScope
from .project import contain, inside_index_dir
from .scopes import (
    DEFAULT_SCOPE,
    INIT_HINT,
    has_loa_layout,
    has_own_scopes,
    init_would_help,
    is_builtin,
    resolve_scope,
)
from .tiers.base import Probe, TierRequest
from .tiers.registry import load_tier
from .tool_version import tool_version

TIER_NAMES = ("qmd", "ck", "grep", "store")
# `--version` of a healthy tool answers in well under a second (qmd's Node start included).
VERSION_TIMEOUT_SECONDS = 10.0


@dataclass(frozen=True, slots=True)
class TierReport:
    name: str
    enabled: bool
    usable: bool
    reason: str
    path: str | None
    version: str | None
    by_scope: dict[str, Probe] = field(default_factory=dict)

    def shared_details(self) -> dict[str, object]:
        """The probe details every scope reporting them gives the same value, when more than
        one scope reports them (or the tier has a single scope): shown once with the tier,
        not per scope. A scope whose probe failed early reports no details, so it does not
        make a shared detail scope-specific."""
        probes = list(self.by_scope.values())
        values: dict[str, list[object]] = {}
        for probe in probes:
            for key, value in probe.details.items():
                values.setdefault(key, []).append(value)
        return {
            key: reported[0]
            for key, reported in values.items()
            if (len(reported) > 1 or len(probes) == 1)
            and all(value == reported[0] for value in reported)
        }


@dataclass(frozen=True, slots=True)
class PathCheck:
    """One path a scope configures for ck or grep: whether it exists, and why it is not
    searched as written (`problem` "" = it is)."""

    tier: str
    configured: str
    exists: bool
    problem: str = ""

    def to_dict(self) -> dict:
        return {
            "tier": self.tier,
            "path": self.configured,
            "exists": self.exists,
            "searched": not self.problem,
            "problem": self.problem,
        }


@dataclass(frozen=True, slots=True)
class DoctorReport:
    root: str
    config_path: str | None
    config_reason: str
    problems: tuple[str, ...]
    has_errors: bool
    tiers: tuple[TierReport, ...]
    scopes: dict[str, ResolvedScope]
    paths: dict[str, tuple[PathCheck, ...]] = field(default_factory=dict)
    config_problems: tuple[ConfigProblem, ...] = ()
    # Why the default scope searches the project's own files ("" = it is as configured).
    adapted: str = ""
    # What to do about the scope problems, when one command does it ("" = nothing to say).
    hint: str = ""
    # Built-in Loa scopes that find nothing in a project whose config has scopes of its
    # own: not a problem, since nothing there uses them.
    unused: tuple[str, ...] = ()

    @property
    def scope_problems(self) -> tuple[tuple[str, str], ...]:
        """(scope, why) for each scope that can search nothing (none of its paths exist),
        the unused built-in ones left out."""
        return tuple(
            (name, scope.missing)
            for name, scope in self.scopes.items()
            if scope.missing and name not in self.unused
        )

    @property
    def used_scopes(self) -> dict[str, ResolvedScope]:
        """The scopes worth a report of their own: all but the unused built-in ones."""
        return {name: scope for name, scope in self.scopes.items() if name not in self.unused}

    def unused_note(self) -> str:
        """One line on the unused built-in scopes ("" when there are none)."""
        if not self.unused:
            return ""
        return f"built-in scopes {', '.join(self.unused)}: no Loa layout here, not used"

    def to_dict(self) -> dict:
        root = Path(self.root)
        return {
            "root": self.root,
            "adapted": self.adapted,
            "scope_problems": [
                {"scope": name, "problem": problem} for name, problem in self.scope_problems
            ],
            "unused_scopes": list(self.unused),
            "config": {
                "path": self.config_path,
                "reason": self.config_reason,
                "valid": not self.has_errors,
                "problems": list(self.problems),
                "issues": [
                    {
                        "severity": p.severity,
                        "file": p.file,
                        "line": p.line,
                        "key": p.key,
                        "message": p.message,
                    }
                    for p in self.config_problems
                ],
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
            "scopes": {
                name: {
                    **s.to_dict(root),
                    "paths": [check.to_dict() for check in self.paths.get(name, ())],
                }
                for name, s in self.scopes.items()
            },
        }


def diagnose(project: Project, tier_names: tuple[str, ...] = TIER_NAMES) -> DoctorReport:
    """Probe every tier for every scope of the project's config. Never raises for what a
    user can cause: a tier that cannot load or whose probe fails becomes a finding."""
    config = project.config
    scopes = {name: resolve_scope(name, config, project.root) for name in config.scopes}
    private = project.private_paths()
    unused = _unused(scopes, config, project.root)
    reports = []
    for name in tier_names:
        by_scope: dict[str, Probe] = {}
        try:
            tier = load_tier(name)
        except Exception as exc:  # a tier that cannot load is itself a finding
            report_exception(f"doctor: tier {name} cannot load")
            failure = Probe(False, f"cannot load: {type(exc).__name__}: {exc}")
            failed = dict.fromkeys(scopes, failure)
            reports.append(_tier_report(name, name in config.tiers, failed, unused))
            continue
        for scope_name, scope in scopes.items():
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
                report_exception(f"doctor: the {name} probe of scope {scope_name} raised")
                by_scope[scope_name] = Probe(False, f"probe failed: {type(exc).__name__}: {exc}")
        reports.append(_tier_report(name, name in config.tiers, by_scope, unused))
    return DoctorReport(
        root=str(project.root),
        config_path=str(config.source.path) if config.source.path else None,
        config_reason=config.source.reason,
        problems=tuple(str(p) for p in config.problems),
        has_errors=any(p.severity == "error" for p in config.problems),
        tiers=tuple(reports),
        scopes=scopes,
        paths={
            name: path_checks(config.scopes[name], scope, project.root)
            for name, scope in scopes.items()
        },
        config_problems=tuple(config.problems),
        adapted=scopes[DEFAULT_SCOPE].adapted if DEFAULT_SCOPE in scopes else "",
        hint=_hint(scopes, config, project.root),
        unused=unused,
    )


def _hint(scopes: dict[str, ResolvedScope], config: Config, root: Path) -> str:
    """`tierscope init`, when built-in scopes miss their paths in a project not laid out
    like Loa and its config has no scopes of its own (in a Loa project, the missing folder
    is the thing to fix)."""
    builtin_missing = any(
        scope.missing and is_builtin(name, config) for name, scope in scopes.items()
    )
    return INIT_HINT if builtin_missing and init_would_help(config, root) else ""


def _unused(scopes: dict[str, ResolvedScope], config: Config, root: Path) -> tuple[str, ...]:
    """The built-in scopes finding nothing in a project not laid out like Loa whose config
    has scopes of its own: nothing there uses them, so they are no problem."""
    if has_loa_layout(root) or not has_own_scopes(config):
        return ()
    return tuple(
        name for name, scope in scopes.items() if scope.missing and is_builtin(name, config)
    )


def _tier_report(
    name: str, enabled: bool, by_scope: dict[str, Probe], unused: tuple[str, ...]
) -> TierReport:
    """The tier's row: usable, why and where, from the scopes in use (not the `unused`
    built-in ones, unless no other scope is there); each scope's probe in `by_scope`."""
    in_use = {scope: p for scope, p in by_scope.items() if scope not in unused} or by_scope
    usable = [p for p in in_use.values() if p.usable]
    first = (usable or list(in_use.values()) or [Probe(False, "no scopes")])[0]
    return TierReport(
        name=name,
        enabled=enabled,
        usable=bool(usable),
        reason=tier_reason(in_use),
        path=first.path,
        version=first.version or tool_version(first.path, Deadline.after(VERSION_TIMEOUT_SECONDS)),
        by_scope=by_scope,
    )


def tier_reason(by_scope: dict[str, Probe]) -> str:
    """The tier's reason: the one its usable scopes share (or, when none is usable, the
    few distinct reasons why not); a count when the usable scopes differ, so that no single
    scope's state (one stale collection) reads as the whole tier's."""
    usable = [p for p in by_scope.values() if p.usable]
    if not by_scope:
        return "no scopes"
    reasons = Counter(p.reason for p in (usable or by_scope.values()))
    if len(reasons) == 1:
        return next(iter(reasons))
    if usable:
        return f"usable in {len(usable)} of {len(by_scope)} scopes (see each scope)"
    return "; ".join(list(reasons)[:3])


def path_checks(scope: ScopeConfig, resolved: ResolvedScope, root: Path) -> tuple[PathCheck, ...]:
    """The scope's configured ck path and grep paths, each checked on disk."""
    checks = []
    if scope.ck_path.strip():
        checks.append(_check("ck", scope.ck_path.strip(), root, resolved.ck_paths))
    checks.extend(_check("grep", raw, root, resolved.grep_paths) for raw in scope.grep_paths)
    return tuple(checks)


def _check(tier: str, raw: str, root: Path, searched: tuple[Path, ...]) -> PathCheck:
    path, refused = contain(raw, root)
    if path is None:
        return PathCheck(tier, raw, False, refused)
    if not path.exists():
        return PathCheck(tier, raw, False, "does not exist")
    if path in searched:
        return PathCheck(tier, raw, True)
    if tier == "ck" and inside_index_dir(path, root):
        return PathCheck(tier, raw, True, "inside a .ck/ index directory: not searched")
    return PathCheck(tier, raw, True, "inside another path of the scope: searched with it")
