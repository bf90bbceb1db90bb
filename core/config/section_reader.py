"""Reading the `qmd_context` section of a parsed config file: each setting checked as its
declaration (schema.py) says, each value that cannot be used a `ConfigProblem` with its
line, its default kept. Only a project with a config file imports this."""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from dataclasses import replace

from .loader import SECTION
from .model import (
    BUILTIN_SCOPES,
    DEFAULT_TIERS,
    KNOWN_TIERS,
    Config,
    ConfigProblem,
    ConfigSource,
    ScopeConfig,
    SkillOverride,
)
from .schema import (
    GENERAL,
    GROUPS,
    SCOPES,
    SECTION_KEYS,
    SKILL_OVERRIDES,
    TIERS,
    EntryGroup,
    Setting,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class SectionReader:
    """Collects the problems of one file while its section is read."""

    def __init__(self, lines: dict[str, int], file: str) -> None:
        self.lines = lines
        self.file = file
        self.problems: list[ConfigProblem] = []

    def problem(self, key: str, message: str, severity: str = "error") -> None:
        line = self.lines.get(key)
        if line is None and "." in key:
            line = self.lines.get(key.rsplit(".", 1)[0])
        short = key.removeprefix(f"{SECTION}.")
        self.problems.append(ConfigProblem(message, self.file, line, short, severity))

    def value(self, body: Mapping, path: str, setting: Setting, default: object) -> Any:
        """`body[setting.name]` checked as the setting's kind; `default` when absent or
        wrong, the problem saying what applies instead (the setting's fallback, else the
        default's value)."""
        if setting.name not in body or body[setting.name] is None:
            return default
        raw = body[setting.name]
        ok, value = setting.kind.read(raw)
        if not ok:
            instead = setting.fallback or f"the default ({_as_yaml(default)})"
            self.problem(
                f"{path}.{setting.name}",
                f"expected {setting.kind.name}, got {raw!r}; using {instead}",
            )
            return default
        return value

    def values(
        self,
        body: Mapping,
        path: str,
        settings: tuple[Setting, ...],
        base: object | None = None,
        retired: Mapping[str, str] | None = None,
    ) -> dict[str, Any]:
        """Each of `settings` read from `body` (defaulting to `base`'s values, else to the
        declared defaults), then a warning for each other key of `body`: unknown, or
        `retired` (a key no longer read, and why)."""
        values = {
            setting.name: self.value(
                body,
                path,
                setting,
                setting.default if base is None else getattr(base, setting.name),
            )
            for setting in settings
        }
        self.unknown(body, path, values, retired)
        return values

    def unknown(
        self,
        body: Mapping,
        path: str,
        known: Collection[str],
        retired: Mapping[str, str] | None = None,
    ) -> None:
        for unknown in [key for key in body if key not in known]:
            why = (retired or {}).get(unknown, "unknown key")
            self.problem(f"{path}.{unknown}", f"{why} (ignored)", "warning")

    def mapping(self, section: Mapping, key: str, path: str) -> Mapping:
        raw = section.get(key)
        if raw is None:
            return {}
        if not isinstance(raw, Mapping):
            self.problem(f"{path}.{key}", f"expected a mapping, got {raw!r}; using defaults")
            return {}
        return raw

    def read(self, section: Mapping, source: ConfigSource) -> Config:
        base = Config()
        general = {
            setting.name: self.value(section, SECTION, setting, setting.default)
            for setting in GENERAL.settings
        }
        # The model holds a float; a file's `5` is read as an int.
        general["timeout_seconds"] = float(general["timeout_seconds"])
        tiers = self.tiers(section)
        scopes = self.scopes(section)
        overrides = self.overrides(section)
        groups = {}
        for group in GROUPS:
            body = self.mapping(section, group.name, SECTION)
            path = f"{SECTION}.{group.name}"
            values = self.values(body, path, group.settings, retired=group.retired)
            groups[group.name] = replace(getattr(base, group.name), **values)
        self.unknown(section, SECTION, SECTION_KEYS)
        for name, override in overrides.items():
            if override.scope and override.scope not in scopes:
                self.problem(
                    f"{SECTION}.skill_overrides.{name}.scope",
                    f"unknown scope {override.scope!r}",
                )
        return Config(
            **general,
            tiers=tiers,
            scopes=scopes,
            skill_overrides=overrides,
            **groups,
            source=source,
            problems=tuple(self.problems),
        )

    def tiers(self, section: Mapping) -> tuple[str, ...]:
        default = DEFAULT_TIERS  # the declared default (TIERS.default), as the model types it
        raw = self.value(section, SECTION, TIERS, default)
        if raw == default:
            return default
        result: list[str] = []
        for index, name in enumerate(raw):
            name = name.strip().lower()
            if name not in KNOWN_TIERS:
                self.problem(f"{SECTION}.tiers.{index}", f"unknown tier {name!r} (ignored)")
            elif name in result:
                self.problem(f"{SECTION}.tiers.{index}", f"tier {name!r} listed twice")
            else:
                result.append(name)
        if not result:
            self.problem(f"{SECTION}.tiers", f"no usable tier listed; using {list(default)}")
            return default
        return tuple(result)

    def scopes(self, section: Mapping) -> dict[str, ScopeConfig]:
        scopes = dict(BUILTIN_SCOPES)
        for name, body in self.entries(section, SCOPES):
            base = scopes.get(name, ScopeConfig())
            values = self.values(body, f"{SECTION}.scopes.{name}", SCOPES.settings, base)
            scopes[name] = ScopeConfig(**values)
        return scopes

    def overrides(self, section: Mapping) -> dict[str, SkillOverride]:
        result: dict[str, SkillOverride] = {}
        for name, body in self.entries(section, SKILL_OVERRIDES):
            path = f"{SECTION}.skill_overrides.{name}"
            result[name] = SkillOverride(**self.values(body, path, SKILL_OVERRIDES.settings))
        return result

    def entries(self, section: Mapping, group: EntryGroup) -> Iterator[tuple[str, Mapping]]:
        """The entries of `group` that are mappings; a problem for each other one."""
        for name, body in self.mapping(section, group.name, SECTION).items():
            if isinstance(body, Mapping):
                yield str(name), body
            else:
                self.problem(f"{SECTION}.{group.name}.{name}", group.not_a_mapping)


def _as_yaml(value: object) -> str:
    """A default as the file would spell it: `true`, `[grimoires/loa/]`, `2000`."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_as_yaml(item) for item in value) + "]"
    return str(value)
