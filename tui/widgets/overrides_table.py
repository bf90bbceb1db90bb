"""The skill overrides of the config form: per skill, its budget, scope and whether
queries are answered at all, with an editor to add, change or remove one."""

from __future__ import annotations

import re
from collections.abc import Iterable

from textual.suggester import SuggestFromList
from textual.widgets import Input

from tierscope.config.model import SkillOverride, normalise_skill
from tierscope.config.schema import SKILL_OVERRIDES

from .named_entries import NamedEntries
from .setting_field import FieldSpec

SKILL_NAME = re.compile(r"^[a-z0-9_-]+$")


class OverridesTable(NamedEntries):
    group = SKILL_OVERRIDES.name
    noun = "skill"
    columns = ("budget", "scope", "enabled")
    fields = tuple(FieldSpec.of(setting) for setting in SKILL_OVERRIDES.settings if setting.label)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.default_budget = 0

    def show_defaults(self, default_budget: int, scopes: Iterable[str]) -> None:
        """The config's default budget (an override without one uses it) and the scope
        names offered while typing a scope."""
        self.default_budget = default_budget
        suggester = SuggestFromList(list(scopes), case_sensitive=False)
        self.query_one("#entry-scope").query_one(Input).suggester = suggester

    def cells(self, name: str, entry: object) -> tuple[str, ...]:
        override = entry if isinstance(entry, SkillOverride) else SkillOverride()
        return (
            str(override.budget) if override.budget else "—",
            override.scope or "—",
            "yes" if override.enabled else "no",
        )

    def defaults(self, name: str, entry: object | None) -> dict[str, object]:
        return {"budget": self.default_budget or "", "scope": "all", "enabled": True}

    def origin(self, name: str) -> str:
        return "file"

    def name_problem(self, name: str) -> str | None:
        if name and not SKILL_NAME.match(name):
            return "a skill name must match ^[a-z0-9_-]+$"
        taken = {normalise_skill(existing): existing for existing in self.entries}
        if name and normalise_skill(name) in taken:
            existing = taken[normalise_skill(name)]
            return f"skill {existing!r} already has an override; pick it in the table"
        return super().name_problem(name)
