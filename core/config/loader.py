"""Find and read the project's config. A broken file never stops a query: every value that
cannot be used becomes a `ConfigProblem` (with file:line) and its default is kept."""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Collection, Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..project import is_inside
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

SECTION = "qmd_context"
PROJECT_CONFIG_NAMES = (".tierscope.yaml", ".loa.config.yaml")
# A config is a few kilobytes; anything this large is a mistake or an attack.
MAX_CONFIG_BYTES = 1 << 20


def discover_config(root: Path, explicit: str | None = None) -> ConfigSource:
    """Which config file applies, and why: --config > $TIERSCOPE_CONFIG > $QMD_CONFIG_FILE
    > <root>/.tierscope.yaml > <root>/.loa.config.yaml > built-in defaults."""
    if explicit:
        return ConfigSource(_absolute(explicit, Path.cwd()), "--config")
    for variable in ("TIERSCOPE_CONFIG", "QMD_CONFIG_FILE"):
        value = os.environ.get(variable)
        if value:
            return ConfigSource(_absolute(value, Path.cwd()), f"${variable}")
    for name in PROJECT_CONFIG_NAMES:
        candidate = root / name
        if candidate.is_file():
            return ConfigSource(candidate, f"found {name} in the project root")
    return ConfigSource(None, "no config file found; built-in defaults")


def _absolute(value: str, base: Path) -> Path:
    path = Path(value).expanduser()
    return path if path.is_absolute() else base / path


class ConfigRefused(OSError):
    """A config file that is not read at all: too large, or not a regular file."""


def read_config_bytes(path: Path) -> bytes:
    """The bytes of a config file, read within bounds: a regular file (a FIFO would block
    the query) of at most MAX_CONFIG_BYTES (a huge file costs seconds and gigabytes to
    parse). Raises FileNotFoundError, ConfigRefused, or OSError for a failed read."""
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            raise ConfigRefused(errno.EINVAL, "not a regular file")
        with os.fdopen(descriptor, "rb", closefd=False) as stream:
            data = stream.read(MAX_CONFIG_BYTES + 1)
    finally:
        os.close(descriptor)
    if len(data) > MAX_CONFIG_BYTES:
        raise ConfigRefused(
            errno.EFBIG,
            f"larger than {MAX_CONFIG_BYTES >> 20} MiB ({max(info.st_size, len(data)):,} bytes)",
        )
    return data


def read_config_text(path: Path) -> str:
    """`read_config_bytes` decoded as the loader reads it (UTF-8, bad bytes replaced)."""
    return read_config_bytes(path).decode("utf-8", errors="replace")


def unreadable_reason(exc: OSError) -> str:
    """Why a config file could not be used, in a few words."""
    if isinstance(exc, FileNotFoundError):
        return "file not found"
    if isinstance(exc, ConfigRefused):
        return exc.strerror or str(exc)
    return f"cannot read ({exc.strerror or exc})"


def load_config(root: Path, explicit: str | None = None) -> Config:
    source = discover_config(root, explicit)
    if source.path is None:
        return Config(source=source)
    if source.path.parent == root and not is_inside(source.path.resolve(), root.resolve()):
        # The project's own config file is a link out of the project: the file it names is
        # not the project's to show (its values would be echoed in the warnings).
        problem = ConfigProblem(
            "a symbolic link out of the project; not read; using defaults", str(source.path)
        )
        return Config(source=source, problems=(problem,))
    try:
        text = read_config_text(source.path)
    except OSError as exc:
        problem = ConfigProblem(f"{unreadable_reason(exc)}; using defaults", str(source.path))
        return Config(source=source, problems=(problem,))
    return parse_config(text, source)


def parse_config(text: str, source: ConfigSource) -> Config:
    """Overlay the `qmd_context` section of `text` on the defaults."""
    # Imported here: a project without a config file never pays for the YAML parser.
    from .yaml_nodes import YamlSyntaxError, load_located

    file = str(source.path) if source.path else "<config>"
    try:
        located = load_located(text, only_key=SECTION)
    except YamlSyntaxError as exc:
        problem = ConfigProblem(f"invalid YAML ({exc}); using defaults", file, exc.line)
        return Config(source=source, problems=(problem,))
    reader = _SectionReader(located, file)
    document = located.data
    if document is None:
        return Config(source=source)
    if not isinstance(document, Mapping):
        reader.problem("", "the file is not a mapping; using defaults")
        return Config(source=source, problems=tuple(reader.problems))
    section = document.get(SECTION)
    if section is None:
        return Config(source=source)
    if not isinstance(section, Mapping):
        reader.problem(SECTION, "must be a mapping; using defaults")
        return Config(source=source, problems=tuple(reader.problems))
    return reader.read(section, source)


class _SectionReader:
    def __init__(self, located, file: str) -> None:
        self.lines = located.lines
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
