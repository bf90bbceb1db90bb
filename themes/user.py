"""User themes: YAML files in the user's config folder, validated before use.

A file looks like this (only `name` and `primary` are required); tierscope's own colours
(`tier-qmd`, `tier-ck`, `tier-grep`, `tier-store`, `budget-ok`, `budget-over`) sit beside
Textual's, and any other Textual variable goes under `variables:`:

    name: harbour
    dark: true
    primary: "#3fb6a8"
    background: "#10161d"
    tier-qmd: "#c678dd"
    budget-over: "#ff5f5f"
    variables:
      footer-key-foreground: "#3fb6a8"

A file that cannot be used is skipped with a one-line warning naming the file and the
problem; the workbench then falls back to its other themes.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from textual.color import Color, ColorParseError
from textual.theme import Theme

from .builtin import OUR_VARIABLES

# Theme's colour fields, each passed to it by name at the end of parse_theme.
COLOUR_KEYS = (
    "primary",
    "secondary",
    "warning",
    "error",
    "success",
    "accent",
    "foreground",
    "background",
    "surface",
    "panel",
    "boost",
)
KNOWN_KEYS = frozenset({"name", "dark", "variables", *COLOUR_KEYS, *OUR_VARIABLES})


class ThemeFileError(ValueError):
    """A theme file that cannot be used; the message is one line."""


@dataclass(frozen=True, slots=True)
class UserThemes:
    """The themes that loaded, and one warning per file that did not."""

    themes: tuple[Theme, ...]
    warnings: tuple[str, ...]


def load_user_themes(directory: Path, taken: frozenset[str] = frozenset()) -> UserThemes:
    """Load every `*.yaml` / `*.yml` theme in `directory` (missing folder: no themes).

    Names in `taken` (the built-in themes) and repeated names are refused, so a user file
    never silently replaces a theme the workbench depends on.
    """
    if not directory.is_dir():
        return UserThemes((), ())
    themes: list[Theme] = []
    warnings: list[str] = []
    names = set(taken)
    files = sorted([*directory.glob("*.yaml"), *directory.glob("*.yml")])
    for path in files:
        try:
            theme = parse_theme(path.read_text(encoding="utf-8", errors="replace"))
        except (OSError, ThemeFileError) as exc:
            warnings.append(f"theme {path}: {_one_line(exc)}; skipped")
            continue
        if theme.name in names:
            warnings.append(f"theme {path}: the name {theme.name!r} is already taken; skipped")
            continue
        names.add(theme.name)
        themes.append(theme)
    return UserThemes(tuple(themes), tuple(warnings))


def parse_theme(text: str) -> Theme:
    """Turn one theme file's text into a `Theme`, or raise `ThemeFileError`."""
    import yaml

    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        raise ThemeFileError(f"invalid YAML{where}") from exc
    if not isinstance(data, dict):
        raise ThemeFileError("expected a mapping with at least `name` and `primary`")
    unknown = sorted(str(key) for key in data if key not in KNOWN_KEYS)
    if unknown:
        raise ThemeFileError(f"unknown key {unknown[0]!r}")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ThemeFileError("`name` must be a non-empty string")
    if data.get("primary") is None:  # absent, or present with no value
        raise ThemeFileError("`primary` is required")
    colours = {key: _colour(key, data[key]) for key in COLOUR_KEYS if data.get(key) is not None}
    dark = data.get("dark", True)
    if not isinstance(dark, bool):
        raise ThemeFileError("`dark` must be true or false")
    variables = data.get("variables") or {}
    if not isinstance(variables, dict):
        raise ThemeFileError("`variables` must be a mapping")
    checked = {str(key): _variable(str(key), value) for key, value in variables.items()}
    checked |= {key: _colour(key, data[key]) for key in OUR_VARIABLES if key in data}
    return Theme(
        name=name.strip(),
        primary=colours["primary"],
        secondary=colours.get("secondary"),
        warning=colours.get("warning"),
        error=colours.get("error"),
        success=colours.get("success"),
        accent=colours.get("accent"),
        foreground=colours.get("foreground"),
        background=colours.get("background"),
        surface=colours.get("surface"),
        panel=colours.get("panel"),
        boost=colours.get("boost"),
        dark=dark,
        variables=checked,
    )


def _colour(key: str, value: object) -> str:
    if not isinstance(value, str):
        raise ThemeFileError(f'`{key}` must be a colour string such as "#3fb6a8"')
    try:
        Color.parse(value)
    except ColorParseError as exc:
        raise ThemeFileError(f"`{key}`: {value!r} is not a colour") from exc
    return value


def _variable(key: str, value: object) -> str:
    # Our own variables are colours; Textual's may be styles such as "bold", so only
    # ours are parsed.
    if key in OUR_VARIABLES:
        return _colour(f"variables.{key}", value)
    if not isinstance(value, str):
        raise ThemeFileError(f"`variables.{key}` must be a string")
    return value


def _one_line(exc: Exception) -> str:
    text = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    return " ".join(text.split())
