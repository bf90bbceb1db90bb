"""The config form: every setting of `qmd_context`, grouped as the file groups them.

It draws what it is given (the file's values, the settings in effect, the problems) and
reports edits as messages; the screen writes them to the document.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widget import Widget

from tierscope.config.model import (
    DEFAULT_TIERS,
    OVER_SESSION_POLICIES,
    REPEAT_POLICIES,
    SIGNAL_LEVELS,
    Config,
    ConfigProblem,
)

from .named_entries import NamedEntries
from .overrides_table import OverridesTable
from .scopes_table import ScopesTable
from .setting_field import FieldSpec, SettingField
from .tier_order import TierOrder

FileValue = Callable[[str], object]


@dataclass(frozen=True, slots=True)
class FormSection:
    title: str
    fields: tuple[FieldSpec, ...]


GENERAL = FormSection(
    "General",
    (
        FieldSpec("enabled", "enabled", "switch"),
        FieldSpec("default_budget", "default budget", "integer"),
        FieldSpec("timeout_seconds", "timeout (seconds)", "number"),
    ),
)
TIER_SECTIONS = (
    FormSection(
        "qmd",
        (
            FieldSpec("qmd.mode", "mode", "choice", ("search", "query")),
            FieldSpec("qmd.min_score", "min score", "number"),
            FieldSpec("qmd.limit", "limit", "integer"),
            FieldSpec("qmd.refresh", "refresh first", "switch"),
        ),
    ),
    FormSection(
        "ck",
        (
            FieldSpec("ck.mode", "mode", "choice", ("hybrid", "sem", "lex")),
            FieldSpec("ck.threshold", "threshold", "number"),
            FieldSpec("ck.limit", "limit", "integer"),
        ),
    ),
    FormSection(
        "grep",
        (
            FieldSpec("grep.limit", "limit", "integer"),
            FieldSpec("grep.max_filesize", "max file size", "integer"),
        ),
    ),
)
LATER_SECTIONS = (
    FormSection(
        "Snippets",
        (
            FieldSpec("snippets.max_chars", "max characters", "integer"),
            FieldSpec("snippets.max_line_chars", "max line characters", "integer"),
        ),
    ),
    FormSection(
        "Trajectory",
        (
            FieldSpec("trajectory.enabled", "enabled", "switch"),
            FieldSpec("trajectory.dir", "directory", "text"),
            FieldSpec("trajectory.retention_days", "retention (days)", "integer"),
            FieldSpec("trajectory.archive_days", "archive (days)", "integer"),
            FieldSpec("trajectory.compression_level", "compression", "integer"),
        ),
    ),
    FormSection(
        "Filtering",
        (
            FieldSpec("filtering.enabled", "enabled", "switch"),
            FieldSpec("filtering.exclude", "exclude", "list"),
            FieldSpec("filtering.archive_zone", "archive zone", "text"),
            FieldSpec("filtering.signal_threshold", "signal threshold", "choice", SIGNAL_LEVELS),
            FieldSpec("filtering.include_ignored", "include ignored files", "switch"),
            FieldSpec("filtering.include_machine_data", "include machine data", "switch"),
        ),
    ),
    FormSection(
        "Token budgets",
        (
            FieldSpec("token_budgets.single_search", "single search", "integer"),
            FieldSpec("token_budgets.accumulated", "accumulated", "integer"),
            FieldSpec("token_budgets.session", "session", "integer"),
        ),
    ),
    FormSection(
        "Sessions",
        (
            FieldSpec("session.repeats", "repeats", "choice", REPEAT_POLICIES),
            FieldSpec("session.over_session", "over session", "choice", OVER_SESSION_POLICIES),
        ),
    ),
)


def default_of(key: str) -> object:
    """The built-in default of a plain setting (`qmd.limit` -> 10)."""
    value: object = Config()
    for part in key.split("."):
        value = getattr(value, part)
    return value


def field_id(key: str) -> str:
    return "field-" + key.replace(".", "--")


class ConfigForm(VerticalScroll, can_focus=False):
    """General settings, tiers, per-tier settings, scopes, overrides, trajectory, filtering.
    It scrolls to whichever field has the cursor, so it is not a tab stop itself."""

    DEFAULT_CSS = """
    ConfigForm {
        padding: 0 1;
    }
    ConfigForm > .form-section {
        height: auto;
        border: round $foreground 25%;
        border-title-color: $foreground;
        border-title-style: bold;
        padding: 0 1;
        margin-bottom: 1;
    }
    ConfigForm > .form-section:focus-within {
        border: round $primary;
    }
    """

    def compose(self) -> ComposeResult:
        yield from self._section(GENERAL)
        with Vertical(classes="form-section") as tiers:
            tiers.border_title = "Tiers (fallback order)"
            yield TierOrder(id="tier-order")
        for section in TIER_SECTIONS:
            yield from self._section(section)
        with Vertical(classes="form-section") as scopes:
            scopes.border_title = "Scopes"
            yield ScopesTable(id="scopes")
        with Vertical(classes="form-section") as overrides:
            overrides.border_title = "Skill overrides"
            yield OverridesTable(id="overrides")
        for section in LATER_SECTIONS:
            yield from self._section(section)

    def _section(self, section: FormSection) -> ComposeResult:
        with Vertical(classes="form-section") as box:
            box.border_title = section.title
            for spec in section.fields:
                yield SettingField(spec, default=default_of(spec.key), id=field_id(spec.key))

    def fields(self) -> Iterable[SettingField]:
        """The plain settings (not the scope and override editors' fields)."""
        return (field for field in self.query(SettingField) if field.spec.key == field.key)

    def show(
        self,
        file_value: FileValue,
        edited: Config,
        names_in_file: Mapping[str, Iterable[str]],
        problems: Iterable[ConfigProblem],
        *,
        replace_typing: bool = False,
    ) -> None:
        """Draw the file's values and their problems; the tables show the settings in
        effect (`edited`), built-in scopes included. The field being typed in keeps its
        text unless `replace_typing` (the file was loaded again)."""
        problems = tuple(problems)
        for field in self.fields():
            field.show(file_value(field.key), replace_typing=replace_typing)
            field.show_problems(problems)
        order = self.query_one(TierOrder)
        listed = file_value("tiers")
        order.show(listed if isinstance(listed, list) else edited.tiers or DEFAULT_TIERS)
        order.show_problems(problems)
        overrides = self.query_one(OverridesTable)
        overrides.show_defaults(edited.default_budget, edited.scopes)
        self.query_one(ScopesTable).show(
            edited.scopes, names_in_file.get("scopes", ()), file_value, problems
        )
        overrides.show(
            edited.skill_overrides, names_in_file.get("skill_overrides", ()), file_value, problems
        )

    def focus_key(self, key: str) -> bool:
        """Put the cursor on what edits `key` (a problem's key); False when nothing does."""
        for field in self.fields():
            if matches_key(field.key, key):
                return _reveal(field.control)
        if matches_key("tiers", key):
            return _reveal(self.query_one(TierOrder).query("Checkbox").first())
        for editor in self.query(NamedEntries):
            if key.startswith(f"{editor.group}."):
                name = key.removeprefix(f"{editor.group}.").split(".")[0]
                if name in editor.entries:
                    editor.post_message(editor.EntryChosen(editor, name))
                return _reveal(editor.table)
        return False


def matches_key(field_key: str, key: str) -> bool:
    return key == field_key or key.startswith(f"{field_key}.")


def _reveal(widget: Widget) -> bool:
    widget.scroll_visible()
    widget.focus()
    return True
