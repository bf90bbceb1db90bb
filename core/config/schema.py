"""Every setting of the `qmd_context:` section, declared once: its key, the kind of value
it holds (with its bounds or choices), its built-in default, what the config form calls it
and what it means.

The loader's checks and messages, `config show`'s list of settings (provenance) and the
workbench's config form are derived from these declarations; the typed result is
`model.Config`, whose defaults a test holds equal to the ones declared here, as it holds the
README's config table to the keys, defaults and meanings declared here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from .model import (
    DEFAULT_EXCLUDES,
    DEFAULT_TIERS,
    OVER_SESSION_POLICIES,
    REPEAT_POLICIES,
    SIGNAL_LEVELS,
)
from .value_kinds import (
    BOOLEAN,
    COMPRESSION_LEVEL,
    NON_NEGATIVE_NUMBER,
    POSITIVE_INTEGER,
    POSITIVE_NUMBER,
    SCORE,
    STRING,
    STRINGS,
    ValueKind,
    choice,
)


@dataclass(frozen=True, slots=True)
class Setting:
    """One key: the kind of value it holds, its built-in default, its label in the config
    form ("": the form does not offer it) and its meaning. A wrong value is reported as
    "using the default (...)", or as "using `fallback`" when that is given."""

    name: str
    kind: ValueKind
    default: object
    label: str
    help: str
    fallback: str = ""


@dataclass(frozen=True, slots=True)
class SettingGroup:
    """A mapping of settings: `qmd:`, `ck:`... (the section's own keys have the name "").
    `title` heads the group in the config form; `retired` names keys no longer read and
    says why."""

    name: str
    title: str
    settings: tuple[Setting, ...]
    retired: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    def key(self, setting: Setting) -> str:
        """The setting's dotted key under `qmd_context` (`qmd.limit`)."""
        return f"{self.name}.{setting.name}" if self.name else setting.name

    def in_form(self) -> bool:
        return any(setting.label for setting in self.settings)


@dataclass(frozen=True, slots=True)
class EntryGroup:
    """A mapping of named entries (`scopes:`, `skill_overrides:`), each entry a mapping of
    `settings`; `not_a_mapping` is the problem with an entry that is not one."""

    name: str
    settings: tuple[Setting, ...]
    not_a_mapping: str


GENERAL = SettingGroup(
    "",
    "General",
    (
        Setting("enabled", BOOLEAN, True, "enabled", "master switch"),
        Setting(
            "default_budget",
            POSITIVE_INTEGER,
            2000,
            "default budget",
            "token budget when neither a flag nor a skill override sets one",
        ),
        Setting("timeout_seconds", POSITIVE_NUMBER, 5.0, "timeout (seconds)", "per-tier timeout"),
    ),
)

# Edited in the form by its own widget (the tier order); read item by item by the loader.
TIERS = Setting(
    "tiers",
    STRINGS,
    DEFAULT_TIERS,
    "",
    "which tiers run, in order (`qmd`, `ck`, `grep`, `store`)",
)

SCOPES = EntryGroup(
    "scopes",
    (
        Setting(
            "qmd_collection",
            STRING,
            "",
            "qmd collection",
            "qmd collection(s): a name, several joined by commas, or `all`",
        ),
        Setting(
            "ck_path",
            STRING,
            "",
            "ck path",
            "where ck searches; inside `.ck/` or empty → the grep paths",
        ),
        Setting(
            "grep_paths",
            STRINGS,
            (),
            "grep paths",
            "files and folders grep searches (and what every tier's answer must lie in)",
        ),
        Setting(
            "include",
            STRINGS,
            (),
            "",
            "only files matching one of these globs, in any case (`*.r` matches `arrange.R`):"
            ' `["*.md"]`, `["docs/**/*.rst"]`. A glob without `/` is matched against the'
            " file's name; one with `/` against the path's last folders and name"
            " (`review/*.md` matches `docs/review/notes.md`, not `docs/myreview/notes.md`)."
            " A glob after `!` leaves out what it matches, whatever else does"
            ' (`["*.txt", "!requirements.txt"]`)',
        ),
    ),
    "a scope must be a mapping (ignored)",
)

SKILL_OVERRIDES = EntryGroup(
    "skill_overrides",
    (
        # Named, not quoted: a message that changed with default_budget would read as a
        # new problem after every edit of it (see `config set`, the Config view).
        Setting(
            "budget",
            POSITIVE_INTEGER,
            None,
            "budget",
            "the skill's token budget (instead of `default_budget`)",
            fallback="default_budget instead",
        ),
        Setting(
            "scope",
            STRING,
            None,
            "scope",
            "the skill's scope (instead of the query's)",
            fallback="the query's own scope",
        ),
        Setting("enabled", BOOLEAN, True, "enabled", "false: the skill's queries answer []"),
    ),
    "an override must be a mapping (ignored)",
)

QMD = SettingGroup(
    "qmd",
    "qmd",
    (
        Setting(
            "mode",
            choice("qmd mode", ("search", "query")),
            "search",
            "mode",
            "`search` (BM25) or `query` (hybrid; only used when models exist)",
        ),
        Setting("min_score", SCORE, 0.0, "min score", "drop qmd hits scoring below this"),
        Setting("limit", POSITIVE_INTEGER, 10, "limit", "hits asked of qmd"),
        Setting("refresh", BOOLEAN, False, "refresh first", "run `qmd update` before every query"),
    ),
)

CK = SettingGroup(
    "ck",
    "ck",
    (
        Setting(
            "mode",
            choice("ck mode", ("hybrid", "sem", "lex")),
            "hybrid",
            "mode",
            "`hybrid`, `sem` or `lex`",
        ),
        Setting(
            "threshold",
            NON_NEGATIVE_NUMBER,
            0.02,
            "threshold",
            "ck's `--threshold` (raw RRF score in hybrid mode)",
        ),
        Setting("limit", POSITIVE_INTEGER, 10, "limit", "ck's `--topk`"),
    ),
)

GREP = SettingGroup(
    "grep",
    "grep",
    (
        Setting("limit", POSITIVE_INTEGER, 10, "limit", "files returned by grep"),
        Setting(
            "max_filesize",
            POSITIVE_INTEGER,
            2_000_000,
            "max file size",
            "bytes; larger files are skipped",
        ),
        Setting(
            "use_index",
            BOOLEAN,
            True,
            "use term index",
            "count terms from the term index `tierscope index` built, reading only the"
            " files changed since; `false`: read every file",
        ),
    ),
    retired=MappingProxyType(
        {
            "window_lines": "no longer used: a snippet is a section of at most"
            " snippets.max_chars characters"
        }
    ),
)

SNIPPETS = SettingGroup(
    "snippets",
    "Snippets",
    (
        Setting(
            "max_chars",
            POSITIVE_INTEGER,
            1500,
            "max characters",
            "the most characters one hit shows (its best section, and a second passage"
            " when there is room)",
        ),
        Setting(
            "max_line_chars",
            POSITIVE_INTEGER,
            500,
            "max line characters",
            "a line more than a fifth longer is clipped to the part holding most of the query,"
            " marked `[…]`",
        ),
    ),
)

TRAJECTORY = SettingGroup(
    "trajectory",
    "Trajectory",
    (
        Setting("enabled", BOOLEAN, True, "enabled", "log queries"),
        Setting("dir", STRING, "", "directory", "log directory"),
        Setting(
            "retention_days",
            POSITIVE_INTEGER,
            30,
            "retention (days)",
            "`trajectory compact` gzips older logs",
        ),
        Setting(
            "archive_days",
            POSITIVE_INTEGER,
            365,
            "archive (days)",
            "`trajectory compact` deletes older `.jsonl.gz`",
        ),
        Setting("compression_level", COMPRESSION_LEVEL, 6, "compression", "gzip level"),
    ),
)

FILTERING = SettingGroup(
    "filtering",
    "Filtering",
    (
        Setting("enabled", BOOLEAN, True, "enabled", "context filtering on/off"),
        Setting("exclude", STRINGS, DEFAULT_EXCLUDES, "exclude", "globs (`**` spans folders)"),
        Setting("archive_zone", STRING, "grimoires/loa/archive/", "archive zone", "never searched"),
        Setting(
            "signal_threshold",
            choice("signal level", SIGNAL_LEVELS),
            "medium",
            "signal threshold",
            "frontmatter `signal:` below this is excluded (no marker = medium)",
        ),
        Setting(
            "include_ignored",
            BOOLEAN,
            False,
            "include ignored files",
            "also search what `.gitignore`/`.ignore` and the built-in excludes"
            " (`node_modules/`, `dist/`, ...) leave out",
        ),
        Setting(
            "include_machine_data",
            BOOLEAN,
            False,
            "include machine data",
            "also search machine data (JSON, JSONL, lock files, CSV, gettext catalogs, "
            "minified code)",
        ),
    ),
)

TOKEN_BUDGETS = SettingGroup(
    "token_budgets",
    "Token budgets",
    (
        Setting(
            "single_search",
            POSITIVE_INTEGER,
            2000,
            "single search",
            "seed 004's threshold for one query, drawn in the session budget view",
        ),
        Setting(
            "accumulated",
            POSITIVE_INTEGER,
            5000,
            "accumulated",
            "tokens served since a session's last clearing above which a query says:"
            " synthesize and clear",
        ),
        Setting(
            "session",
            POSITIVE_INTEGER,
            15000,
            "session",
            "tokens served in a whole session above which a query says: stop and synthesize",
        ),
    ),
)

SESSION = SettingGroup(
    "session",
    "Sessions",
    (
        # The policies are named by their choices, so a wrong value's problem lists them.
        Setting(
            "repeats",
            choice("reference, skip or allow", REPEAT_POLICIES),
            "reference",
            "repeats",
            "a section the session has received: `reference` (a few tokens saying where),"
            " `skip` (left out), `allow` (sent again)",
        ),
        Setting(
            "over_session",
            choice("warn, shrink or refuse", OVER_SESSION_POLICIES),
            "warn",
            "over session",
            "past `token_budgets.session`: `warn` (answer as usual), `shrink` (half the"
            " previous query's budget), `refuse` (`[]`)",
        ),
    ),
)

STORE = SettingGroup(
    "store",
    "Store",
    (
        Setting("path", STRING, "", "", "the context store database"),
        Setting("limit", POSITIVE_INTEGER, 10, "", "hits from the store tier"),
    ),
)

# The mappings of plain settings, in the order the section lists them.
GROUPS = (QMD, CK, GREP, SNIPPETS, TRAJECTORY, FILTERING, TOKEN_BUDGETS, SESSION, STORE)

# Every key the section itself may hold.
SECTION_KEYS = frozenset(
    [
        *(setting.name for setting in GENERAL.settings),
        TIERS.name,
        SCOPES.name,
        SKILL_OVERRIDES.name,
        *(group.name for group in GROUPS),
    ]
)
