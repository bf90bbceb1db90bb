"""The effective configuration of one project: the `qmd_context:` section, typed.

Each setting is declared in `schema.py` (kind, bounds, default, label, meaning); these
dataclasses are what the loader builds from a file, and their defaults are the declared
ones (tests/test_config_schema.py holds them equal). `loader.py` records what it could not
use as `ConfigProblem`s instead of failing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

KNOWN_TIERS = ("qmd", "ck", "grep", "store")
DEFAULT_TIERS = ("qmd", "ck", "grep")
SIGNAL_LEVELS = ("low", "medium", "high")
# What a session does with a section it has already received, and past `token_budgets.session`.
REPEAT_POLICIES = ("reference", "skip", "allow")
OVER_SESSION_POLICIES = ("warn", "shrink", "refuse")


@dataclass(frozen=True, slots=True)
class ScopeConfig:
    """Where one scope looks: a qmd collection, a ck search path, grep paths (root-relative).

    `qmd_collection` "all" (or several names joined by commas) queries each collection of
    the other scopes; `ck_path` "" means no ck search for this scope.
    """

    qmd_collection: str = ""
    ck_path: str = ""
    grep_paths: tuple[str, ...] = ()
    # Only files matching one of these globs (`*.md`, `docs/**/*.rst`); empty: every file.
    include: tuple[str, ...] = ()


BUILTIN_SCOPES: dict[str, ScopeConfig] = {
    "grimoires": ScopeConfig("loa-grimoire", ".ck/loa-grimoire/", ("grimoires/loa/",)),
    "skills": ScopeConfig("loa-skills", ".ck/skills/", (".claude/skills/",)),
    "notes": ScopeConfig("loa-grimoire", ".ck/loa-grimoire/", ("grimoires/loa/NOTES.md",)),
    "reality": ScopeConfig("loa-reality", ".ck/reality/", ("grimoires/loa/reality/",)),
    "all": ScopeConfig(
        "all", ".ck/", ("grimoires/loa/", ".claude/skills/", "grimoires/loa/reality/")
    ),
}


@dataclass(frozen=True, slots=True)
class SkillOverride:
    """`skill_overrides.<skill>`: what one skill changes."""

    budget: int | None = None
    scope: str | None = None
    enabled: bool = True


@dataclass(frozen=True, slots=True)
class QmdSettings:
    """`qmd:`"""

    mode: str = "search"  # search (BM25) | query (hybrid, only when models exist)
    min_score: float = 0.0
    limit: int = 10
    refresh: bool = False  # run `qmd update` before querying


@dataclass(frozen=True, slots=True)
class CkSettings:
    """`ck:`"""

    mode: str = "hybrid"  # hybrid | sem | lex
    threshold: float = 0.02
    limit: int = 10


@dataclass(frozen=True, slots=True)
class GrepSettings:
    """`grep:`"""

    limit: int = 10
    max_filesize: int = 2_000_000
    use_index: bool = True  # the term index `tierscope index` built, when there is one


@dataclass(frozen=True, slots=True)
class SnippetSettings:
    """How much of a file one hit shows: the best section, at most `max_chars` characters;
    a line more than a fifth longer is clipped, between words, to the `max_line_chars`
    characters holding most of the query."""

    max_chars: int = 1500
    max_line_chars: int = 500


@dataclass(frozen=True, slots=True)
class TrajectorySettings:
    """`trajectory:`"""

    enabled: bool = True
    dir: str = ""  # "" = the default location (see trajectory.default_dir)
    retention_days: int = 30
    archive_days: int = 365
    compression_level: int = 6


DEFAULT_EXCLUDES = (
    "**/brainstorm-*.md",
    "**/session-notes-*.md",
    "**/meeting-*.md",
    "**/draft-*.md",
    "**/scratch-*.md",
)


@dataclass(frozen=True, slots=True)
class FilteringSettings:
    """`filtering:`"""

    enabled: bool = True
    exclude: tuple[str, ...] = DEFAULT_EXCLUDES
    archive_zone: str = "grimoires/loa/archive/"
    signal_threshold: str = "medium"
    # Files .gitignore/.ignore and the built-in excludes leave out (node_modules/, dist/...).
    include_ignored: bool = False
    # JSON, JSONL, lock files, CSV, gettext catalogs, minified code: not context a reader
    # wants, by default.
    include_machine_data: bool = False


@dataclass(frozen=True, slots=True)
class TokenBudgets:
    """`token_budgets:`"""

    single_search: int = 2000
    accumulated: int = 5000
    session: int = 15000


@dataclass(frozen=True, slots=True)
class SessionSettings:
    """How a query that names a session is answered.

    `repeats`: a section the session has already received is sent as a short reference
    (`reference`), left out (`skip`) or sent again in full (`allow`). `over_session`: past
    `token_budgets.session`, a query is answered as usual with a warning (`warn`), with half
    the budget of the query before it (`shrink`), or with [] (`refuse`)."""

    repeats: str = "reference"
    over_session: str = "warn"


@dataclass(frozen=True, slots=True)
class StoreSettings:
    """`store:`"""

    path: str = ""  # "" = per-project database under the user data dir
    limit: int = 10


@dataclass(frozen=True, slots=True)
class ConfigProblem:
    """Something in a config file that could not be used. Never fatal to a query."""

    message: str
    file: str = ""
    line: int | None = None
    key: str = ""
    severity: str = "error"  # error | warning

    def __str__(self) -> str:
        where = self.file
        if where and self.line is not None:
            where = f"{where}:{self.line}"
        prefix = f"{where}: " if where else ""
        key = f"{self.key}: " if self.key else ""
        return f"{prefix}{key}{self.message}"


@dataclass(frozen=True, slots=True)
class ConfigSource:
    """Which file the settings came from (None = built-in defaults) and why that one."""

    path: Path | None
    reason: str


@dataclass(frozen=True, slots=True)
class Config:
    """The whole `qmd_context:` section, with where it came from and its problems."""

    enabled: bool = True
    default_budget: int = 2000
    timeout_seconds: float = 5.0
    tiers: tuple[str, ...] = DEFAULT_TIERS
    scopes: dict[str, ScopeConfig] = field(default_factory=lambda: dict(BUILTIN_SCOPES))
    skill_overrides: dict[str, SkillOverride] = field(default_factory=dict)
    qmd: QmdSettings = QmdSettings()
    ck: CkSettings = CkSettings()
    grep: GrepSettings = GrepSettings()
    snippets: SnippetSettings = SnippetSettings()
    trajectory: TrajectorySettings = TrajectorySettings()
    filtering: FilteringSettings = FilteringSettings()
    token_budgets: TokenBudgets = TokenBudgets()
    session: SessionSettings = SessionSettings()
    store: StoreSettings = StoreSettings()
    source: ConfigSource = ConfigSource(None, "no config file found; built-in defaults")
    problems: tuple[ConfigProblem, ...] = ()

    def skill_override(self, skill: str | None) -> SkillOverride | None:
        """The override for a skill; `review-sprint` and `review_sprint` are the same skill."""
        if not skill:
            return None
        wanted = normalise_skill(skill)
        for name, override in self.skill_overrides.items():
            if normalise_skill(name) == wanted:
                return override
        return None


def normalise_skill(name: str) -> str:
    return name.strip().lower().replace("_", "-")
