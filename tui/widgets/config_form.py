"""The config form: every setting of `qmd_context`, grouped as the file groups them.

It draws what it is given (the file's values, the settings in effect, the problems) and
reports edits as messages; the screen writes them to the document.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widget import Widget

from tierscope.config.model import DEFAULT_TIERS, KNOWN_TIERS, Config, ConfigProblem
from tierscope.config.schema import GENERAL, GROUPS, SettingGroup

from .named_entries import NamedEntries
from .overrides_table import OverridesTable
from .scopes_table import ScopesTable
from .setting_field import FieldSpec, SettingField
from .tier_order import TierOrder

FileValue = Callable[[str], object]

# The tiers' own settings follow the tier order; the other groups come after the scopes
# and overrides. A group none of whose settings has a label is not in the form.
TIER_GROUPS = tuple(group for group in GROUPS if group.in_form() and group.name in KNOWN_TIERS)
LATER_GROUPS = tuple(group for group in GROUPS if group.in_form() and group.name not in KNOWN_TIERS)


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
        for group in TIER_GROUPS:
            yield from self._section(group)
        with Vertical(classes="form-section") as scopes:
            scopes.border_title = "Scopes"
            yield ScopesTable(id="scopes")
        with Vertical(classes="form-section") as overrides:
            overrides.border_title = "Skill overrides"
            yield OverridesTable(id="overrides")
        for group in LATER_GROUPS:
            yield from self._section(group)

    def _section(self, group: SettingGroup) -> ComposeResult:
        with Vertical(classes="form-section") as box:
            box.border_title = group.title
            for setting in group.settings:
                if setting.label:
                    key = group.key(setting)
                    spec = FieldSpec.of(setting, key)
                    yield SettingField(spec, default=setting.default, id=field_id(key))

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
