"""The config form: every setting of `qmd_context`, grouped as the file groups them.

It draws what it is given (the file's values, the settings in effect, the problems) and
reports edits as messages; the screen writes them to the document.

A section of plain settings below the general ones is built when it comes near the part
of the form in view (or when a problem's key takes the cursor to it): until then it keeps
its fields' room, so the form is as long and scrolls the same, and opening the view
builds only what can be seen.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

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


@dataclass(frozen=True, slots=True)
class Shown:
    """What the form was last asked to draw, for the fields built after that."""

    file_value: FileValue
    problems: tuple[ConfigProblem, ...]


class FormSection(Vertical):
    """A bordered group of plain settings. Built at once or later (`build`); unbuilt, it
    is as tall as its fields will be without messages (their labels' rows), and its border."""

    def __init__(self, group: SettingGroup, *, built: bool = True) -> None:
        super().__init__(classes="form-section")
        self.border_title = group.title
        self.fields = tuple(
            (FieldSpec.of(setting, group.key(setting)), setting.default)
            for setting in group.settings
            if setting.label
        )
        self.built = built
        self.ready = built  # its fields are composed and show what the form was given
        if not built:
            self.styles.height = sum(SettingField.rows(spec) for spec, _ in self.fields) + 2

    def edits(self, key: str) -> bool:
        return any(matches_key(spec.key, key) for spec, _default in self.fields)

    def compose(self) -> ComposeResult:
        if self.built:
            yield from self._fields()

    def _fields(self) -> Iterable[SettingField]:
        for spec, default in self.fields:
            yield SettingField(spec, default=default, id=field_id(spec.key))

    async def build(self) -> bool:
        """Mount the fields; False when they were built already."""
        if self.built:
            return False
        self.built = True
        await self.mount_all(self._fields())
        self.styles.height = None  # the stylesheet's `height: auto` again
        return True


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

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._shown: Shown | None = None

    def compose(self) -> ComposeResult:
        yield FormSection(GENERAL)
        with Vertical(classes="form-section") as tiers:
            tiers.border_title = "Tiers (fallback order)"
            yield TierOrder(id="tier-order")
        for group in TIER_GROUPS:
            yield FormSection(group, built=False)
        with Vertical(classes="form-section") as scopes:
            scopes.border_title = "Scopes"
            yield ScopesTable(id="scopes")
        with Vertical(classes="form-section") as overrides:
            overrides.border_title = "Skill overrides"
            yield OverridesTable(id="overrides")
        for group in LATER_GROUPS:
            yield FormSection(group, built=False)

    # Building the sections near the view ----------------------------------------------

    def on_resize(self) -> None:
        self._build_near_view()

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self._build_near_view()

    def _build_near_view(self) -> None:
        """Build the sections within half a view's height of the rows in view, so the
        cursor moving on (Tab) or the wheel finds the next fields built."""
        height = self.scrollable_content_region.height
        if not height:
            return
        margin = max(height // 2, 5)
        top, bottom = self.scroll_y - margin, self.scroll_y + height + margin
        for section in self.query_children(FormSection):
            region = section.virtual_region_with_margin
            if not section.built and region.y < bottom and region.bottom > top:
                self.run_worker(self._build(section), group="form-sections")

    def build_section(self, key: str) -> bool:
        """Build the section whose field edits `key`; False when no unbuilt one does."""
        for section in self.query_children(FormSection):
            if not section.ready and section.edits(key):
                self.run_worker(self._build(section), group="form-sections")
                return True
        return False

    async def _build(self, section: FormSection, then_focus: str | None = None) -> None:
        if await section.build():
            # Until now `show` passed these fields over: they show what it was given last.
            section.ready = True
            for field in section.query_children(SettingField):
                if self._shown is not None:
                    field.show(self._shown.file_value(field.key))
                    field.show_problems(self._shown.problems)
        if then_focus is not None:
            self.call_after_refresh(self.focus_key, then_focus)

    def fields(self) -> Iterable[SettingField]:
        """The plain settings (not the scope and override editors' fields) built so far."""
        for field in self.query(SettingField):
            section = field.parent
            if field.spec.key == field.key and (
                not isinstance(section, FormSection) or section.ready
            ):
                yield field

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
        self._shown = Shown(file_value, problems)
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
        for section in self.query_children(FormSection):
            if not section.ready and section.edits(key):
                # Once built (here, or by a build under way), the cursor goes to the field.
                self.run_worker(self._build(section, then_focus=key), group="form-sections")
                return True
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
