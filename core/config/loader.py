"""Find and read the project's config. A broken file never stops a query: every value that
cannot be used becomes a `ConfigProblem` (with file:line) and its default is kept."""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Mapping
from dataclasses import fields, replace
from pathlib import Path

from .model import (
    BUILTIN_SCOPES,
    KNOWN_TIERS,
    OVER_SESSION_POLICIES,
    REPEAT_POLICIES,
    SIGNAL_LEVELS,
    CkSettings,
    Config,
    ConfigProblem,
    ConfigSource,
    FilteringSettings,
    GrepSettings,
    QmdSettings,
    ScopeConfig,
    SessionSettings,
    SkillOverride,
    SnippetSettings,
    StoreSettings,
    TokenBudgets,
    TrajectorySettings,
)

SECTION = "qmd_context"
PROJECT_CONFIG_NAMES = (".tierscope.yaml", ".loa.config.yaml")
# A config is a few kilobytes; anything this large is a mistake or an attack.
MAX_CONFIG_BYTES = 1 << 20
# The session policies, named by their choices so a wrong value's problem lists them.
REPEATS_KIND = "reference, skip or allow"
OVER_SESSION_KIND = "warn, shrink or refuse"


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

    # -- typed getters: return the default and record a problem on a wrong type ----------

    def value(self, section: Mapping, key: str, path: str, default, kind: str, instead: str = ""):
        """`section[key]` checked as `kind`; `default` when absent or wrong, the problem
        saying what applies instead (`instead`, else the default's value)."""
        if key not in section or section[key] is None:
            return default
        raw = section[key]
        full = f"{path}.{key}"
        checker = _CHECKERS[kind]
        ok, value = checker(raw)
        if not ok:
            instead = instead or f"the default ({_as_yaml(default)})"
            self.problem(full, f"expected {kind}, got {raw!r}; using {instead}")
            return default
        return value

    def mapping(self, section: Mapping, key: str, path: str) -> Mapping:
        raw = section.get(key)
        if raw is None:
            return {}
        if not isinstance(raw, Mapping):
            self.problem(f"{path}.{key}", f"expected a mapping, got {raw!r}; using defaults")
            return {}
        return raw

    def settings(
        self,
        section: Mapping,
        key: str,
        default,
        kinds: dict[str, str],
        retired: Mapping[str, str] | None = None,
    ):
        path = f"{SECTION}.{key}"
        raw = self.mapping(section, key, SECTION)
        changes = {}
        for name in kinds:
            value = self.value(raw, name, path, getattr(default, name), kinds[name])
            changes[name] = value
        for unknown in [k for k in raw if k not in kinds]:
            why = (retired or {}).get(unknown, "unknown key")
            self.problem(f"{path}.{unknown}", f"{why} (ignored)", "warning")
        return replace(default, **changes)

    def read(self, section: Mapping, source: ConfigSource) -> Config:
        base = Config()
        p = SECTION
        enabled = self.value(section, "enabled", p, base.enabled, "boolean")
        budget = self.value(section, "default_budget", p, base.default_budget, "positive integer")
        timeout = self.value(section, "timeout_seconds", p, base.timeout_seconds, "positive number")
        tiers = self.tiers(section)
        scopes = self.scopes(section)
        overrides = self.overrides(section)
        qmd = self.settings(
            section,
            "qmd",
            QmdSettings(),
            {
                "mode": "qmd mode",
                "min_score": "score",
                "limit": "positive integer",
                "refresh": "boolean",
            },
        )
        ck = self.settings(
            section,
            "ck",
            CkSettings(),
            {"mode": "ck mode", "threshold": "non-negative number", "limit": "positive integer"},
        )
        grep = self.settings(
            section,
            "grep",
            GrepSettings(),
            {"limit": "positive integer", "max_filesize": "positive integer"},
            retired={
                "window_lines": "no longer used: a snippet is a section of at most"
                " snippets.max_chars characters"
            },
        )
        snippets = self.settings(
            section,
            "snippets",
            SnippetSettings(),
            {"max_chars": "positive integer", "max_line_chars": "positive integer"},
        )
        trajectory = self.settings(
            section,
            "trajectory",
            TrajectorySettings(),
            {
                "enabled": "boolean",
                "dir": "string",
                "retention_days": "positive integer",
                "archive_days": "positive integer",
                "compression_level": "compression level",
            },
        )
        filtering = self.settings(
            section,
            "filtering",
            FilteringSettings(),
            {
                "enabled": "boolean",
                "exclude": "list of strings",
                "archive_zone": "string",
                "signal_threshold": "signal level",
                "include_ignored": "boolean",
                "include_machine_data": "boolean",
            },
        )
        budgets = self.settings(
            section,
            "token_budgets",
            TokenBudgets(),
            {name.name: "positive integer" for name in fields(TokenBudgets)},
        )
        session = self.settings(
            section,
            "session",
            SessionSettings(),
            {"repeats": REPEATS_KIND, "over_session": OVER_SESSION_KIND},
        )
        store = self.settings(
            section, "store", StoreSettings(), {"path": "string", "limit": "positive integer"}
        )
        known = {
            "enabled", "default_budget", "timeout_seconds", "tiers", "scopes",
            "skill_overrides", "qmd", "ck", "grep", "snippets", "trajectory", "filtering",
            "token_budgets", "session", "store",
        }  # fmt: skip
        for unknown in [k for k in section if k not in known]:
            self.problem(f"{p}.{unknown}", "unknown key (ignored)", "warning")
        for name, override in overrides.items():
            if override.scope and override.scope not in scopes:
                self.problem(
                    f"{p}.skill_overrides.{name}.scope",
                    f"unknown scope {override.scope!r}",
                )
        return Config(
            enabled=enabled,
            default_budget=budget,
            timeout_seconds=float(timeout),
            tiers=tiers,
            scopes=scopes,
            skill_overrides=overrides,
            qmd=qmd,
            ck=ck,
            grep=grep,
            snippets=snippets,
            trajectory=trajectory,
            filtering=filtering,
            token_budgets=budgets,
            session=session,
            store=store,
            source=source,
            problems=tuple(self.problems),
        )

    def tiers(self, section: Mapping) -> tuple[str, ...]:
        default = Config().tiers
        raw = self.value(section, "tiers", SECTION, list(default), "list of strings")
        if raw == list(default):
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
        raw = self.mapping(section, "scopes", SECTION)
        for name, body in raw.items():
            path = f"{SECTION}.scopes.{name}"
            if not isinstance(body, Mapping):
                self.problem(path, "a scope must be a mapping (ignored)")
                continue
            base = scopes.get(str(name), ScopeConfig())
            collection = self.value(body, "qmd_collection", path, base.qmd_collection, "string")
            ck_path = self.value(body, "ck_path", path, base.ck_path, "string")
            grep_paths = self.value(body, "grep_paths", path, base.grep_paths, "list of strings")
            include = self.value(body, "include", path, base.include, "list of strings")
            known = {"qmd_collection", "ck_path", "grep_paths", "include"}
            for unknown in [k for k in body if k not in known]:
                self.problem(f"{path}.{unknown}", "unknown key (ignored)", "warning")
            scopes[str(name)] = ScopeConfig(collection, ck_path, tuple(grep_paths), tuple(include))
        return scopes

    def overrides(self, section: Mapping) -> dict[str, SkillOverride]:
        result: dict[str, SkillOverride] = {}
        raw = self.mapping(section, "skill_overrides", SECTION)
        for name, body in raw.items():
            path = f"{SECTION}.skill_overrides.{name}"
            if not isinstance(body, Mapping):
                self.problem(path, "an override must be a mapping (ignored)")
                continue
            # Named, not quoted: a message that changed with default_budget would read as
            # a new problem after every edit of it (see `config set`, the Config view).
            budget = self.value(
                body, "budget", path, None, "positive integer", instead="default_budget instead"
            )
            scope = self.value(body, "scope", path, None, "string", instead="the query's own scope")
            enabled = self.value(body, "enabled", path, True, "boolean")
            for unknown in [k for k in body if k not in {"budget", "scope", "enabled"}]:
                self.problem(f"{path}.{unknown}", "unknown key (ignored)", "warning")
            result[str(name)] = SkillOverride(budget, scope, enabled)
        return result


def _as_yaml(value: object) -> str:
    """A default as the file would spell it: `true`, `[grimoires/loa/]`, `2000`."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_as_yaml(item) for item in value) + "]"
    return str(value)


def _is_number(raw) -> bool:
    return isinstance(raw, int | float) and not isinstance(raw, bool)


def _choice(options: tuple[str, ...]):
    def check(raw):
        return (isinstance(raw, str) and raw in options), raw

    return check


_CHECKERS = {
    "boolean": lambda raw: (isinstance(raw, bool), raw),
    "string": lambda raw: (isinstance(raw, str), raw),
    "positive integer": lambda raw: (isinstance(raw, int) and not isinstance(raw, bool)
                                     and raw > 0, raw),
    "positive number": lambda raw: (_is_number(raw) and raw > 0, raw),
    "non-negative number": lambda raw: (_is_number(raw) and raw >= 0, raw),
    "score": lambda raw: (_is_number(raw) and 0 <= raw <= 1, raw),
    "compression level": lambda raw: (isinstance(raw, int) and not isinstance(raw, bool)
                                      and 1 <= raw <= 9, raw),
    "list of strings": lambda raw: (
        isinstance(raw, list) and all(isinstance(item, str) for item in raw),
        tuple(raw) if isinstance(raw, list) else raw,
    ),
    "qmd mode": _choice(("search", "query")),
    "ck mode": _choice(("hybrid", "sem", "lex")),
    "signal level": _choice(SIGNAL_LEVELS),
    REPEATS_KIND: _choice(REPEAT_POLICIES),
    OVER_SESSION_KIND: _choice(OVER_SESSION_POLICIES),
}  # fmt: skip
