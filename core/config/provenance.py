"""The effective settings of a query and where each value came from.

Precedence (DESIGN §3): explicit flag > skill override > config file > built-in default.
The values themselves come from the resolved `QueryRequest` (the engine applies the
precedence); this module only says, for each one, which rule supplied it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from ..models import QueryRequest
from .loader import SECTION, read_config_text
from .model import Config, SkillOverride
from .schema import GROUPS, SCOPES, SKILL_OVERRIDES
from .yaml_nodes import YamlSyntaxError, load_located

FLAG = "flag"
SKILL_OVERRIDE = "skill override"
FILE = "file"
DEFAULT = "default"


@dataclass(frozen=True, slots=True)
class EffectiveSetting:
    """One setting: its value, its origin (flag, skill override, file, default) and
    where exactly (the flag, or the file:line of the key)."""

    key: str
    value: object
    origin: str
    where: str = ""


@dataclass(frozen=True, slots=True)
class Provenance:
    skill: str | None
    override_name: str | None  # the skill_overrides key that matched the skill
    settings: tuple[EffectiveSetting, ...]


def key_lines(config: Config, root: Path | None = None) -> dict[str, int]:
    """`qmd_context.a.b` -> line, for every key in the config's file ({} without one, or
    when the file is not read: with the project's `root`, one linking out of it). Only
    the section is converted: aliases elsewhere in a shared file are not ours."""
    path = config.source.path
    if path is None:
        return {}
    try:
        return load_located(read_config_text(path, root), only_key=SECTION).lines
    except (OSError, YamlSyntaxError):
        return {}


def effective_settings(
    config: Config,
    request: QueryRequest,
    *,
    explicit: Collection[str] = (),
    lines: Mapping[str, int] | None = None,
    root: Path | None = None,
) -> Provenance:
    """Every setting of `request` (resolved from `config`) and of `config`, each with
    its origin. `explicit` names the request fields given as flags (scope, budget,
    timeout); `lines` are the file's key lines (read from its file when not given, as
    key_lines reads it for the project's `root`)."""
    explainer = _Explainer(config, key_lines(config, root) if lines is None else lines)
    override = config.skill_override(request.skill)
    override_name = explainer.override_name(override)
    settings = [
        explainer.enabled(override_name, override),
        explainer.chosen(
            "scope",
            request.scope,
            flag="--scope" if "scope" in explicit else None,
            override=(override_name, "scope", override.scope if override else None),
        ),
        explainer.chosen(
            "budget",
            request.budget,
            flag="--budget" if "budget" in explicit else None,
            override=(override_name, "budget", override.budget if override else None),
            file_key="default_budget",
        ),
        explainer.chosen(
            "timeout_seconds",
            request.timeout,
            flag="--timeout" if "timeout" in explicit else None,
            file_key="timeout_seconds",
        ),
        explainer.from_file("tiers", list(config.tiers)),
    ]
    for group in GROUPS:
        values = getattr(config, group.name)
        for setting in group.settings:
            settings.append(explainer.from_file(group.key(setting), _shown(values, setting.name)))
    settings.extend(explainer.scopes())
    settings.extend(explainer.overrides())
    return Provenance(request.skill, override_name, tuple(settings))


def _shown(values: object, name: str) -> object:
    value = getattr(values, name)
    return list(value) if isinstance(value, tuple) else value


class _Explainer:
    def __init__(self, config: Config, lines: Mapping[str, int]) -> None:
        self.config = config
        self.lines = lines
        self.rejected = {problem.key for problem in config.problems}
        path = config.source.path
        self.file = path.name if path is not None else ""

    def in_file(self, key: str) -> bool:
        """Whether the file sets `key` to a value the loader accepted."""
        return f"{SECTION}.{key}" in self.lines and key not in self.rejected

    def where(self, key: str) -> str:
        line = self.lines.get(f"{SECTION}.{key}")
        return f"{self.file}:{line}" if line is not None else self.file

    def from_file(self, key: str, value: object) -> EffectiveSetting:
        if self.in_file(key):
            return EffectiveSetting(key, value, FILE, self.where(key))
        if f"{SECTION}.{key}" in self.lines:
            return EffectiveSetting(
                key, value, DEFAULT, f"file value rejected at {self.where(key)}"
            )
        return EffectiveSetting(key, value, DEFAULT)

    def chosen(
        self,
        key: str,
        value: object,
        *,
        flag: str | None,
        override: tuple[str | None, str, object] = (None, "", None),
        file_key: str | None = None,
    ) -> EffectiveSetting:
        if flag is not None:
            return EffectiveSetting(key, value, FLAG, flag)
        override_name, field, override_value = override
        if override_name is not None and override_value:
            path = f"skill_overrides.{override_name}.{field}"
            return EffectiveSetting(key, value, SKILL_OVERRIDE, f"{path} at {self.where(path)}")
        if file_key is not None:
            setting = self.from_file(file_key, value)
            return EffectiveSetting(key, value, setting.origin, setting.where)
        return EffectiveSetting(key, value, DEFAULT)

    def enabled(
        self, override_name: str | None, override: SkillOverride | None
    ) -> EffectiveSetting:
        if self.config.enabled and override is not None and not override.enabled:
            path = f"skill_overrides.{override_name}.enabled"
            return EffectiveSetting(
                "enabled", False, SKILL_OVERRIDE, f"{path} at {self.where(path)}"
            )
        return self.from_file("enabled", self.config.enabled)

    def override_name(self, override: SkillOverride | None) -> str | None:
        for name, candidate in self.config.skill_overrides.items():
            if candidate is override:
                return name
        return None

    def scopes(self) -> Iterator[EffectiveSetting]:
        for name, scope in self.config.scopes.items():
            for setting in SCOPES.settings:
                key = f"scopes.{name}.{setting.name}"
                yield self.from_file(key, _shown(scope, setting.name))

    def overrides(self) -> Iterator[EffectiveSetting]:
        for name, override in self.config.skill_overrides.items():
            for setting in SKILL_OVERRIDES.settings:
                key = f"skill_overrides.{name}.{setting.name}"
                if f"{SECTION}.{key}" in self.lines:
                    yield self.from_file(key, getattr(override, setting.name))
