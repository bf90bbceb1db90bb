"""The scopes of the config form: each scope's qmd collection, ck path and grep paths,
where it comes from (the file, or built in), and an editor to add, change or remove one."""

from __future__ import annotations

from typing import ClassVar

from tierscope.config.model import BUILTIN_SCOPES, ScopeConfig
from tierscope.config.schema import SCOPES

from .named_entries import NamedEntries
from .setting_field import FieldSpec, value_text


class ScopesTable(NamedEntries):
    group = SCOPES.name
    noun = "scope"
    columns = ("qmd collection", "ck path", "grep paths")
    column_widths: ClassVar[dict[str, int]] = {"grep paths": 22}
    fields = tuple(FieldSpec.of(setting) for setting in SCOPES.settings if setting.label)

    def cells(self, name: str, entry: object) -> tuple[str, ...]:
        scope = entry if isinstance(entry, ScopeConfig) else ScopeConfig()
        return (
            scope.qmd_collection or "—",
            scope.ck_path or "—",
            value_text(scope.grep_paths) or "—",
        )

    def defaults(self, name: str, entry: object | None) -> dict[str, object]:
        # What a key left out of the file falls back to: the built-in scope's value.
        builtin = BUILTIN_SCOPES.get(name, ScopeConfig())
        return {
            "qmd_collection": builtin.qmd_collection,
            "ck_path": builtin.ck_path,
            "grep_paths": value_text(builtin.grep_paths),
        }

    def origin(self, name: str) -> str:
        if name in self.in_file:
            return "file, over built-in" if name in BUILTIN_SCOPES else "file"
        return "built-in"
