"""Values rendered as YAML lines in the layout of the file they go into, in the YAML 1.1
the loader reads; and plain-data helpers for values rewritten whole."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

import yaml

from .edit_errors import ConfigEditError
from .yaml_tree import dotted


@dataclass(frozen=True, slots=True)
class Layout:
    step: int  # indentation of a nested mapping relative to its key
    sequence_offset: int  # indentation of a block sequence's "-" relative to its key
    newline: str


def entry_lines(
    key: str, value: object, indent: int, layout: Layout, quote: str | None
) -> list[str]:
    pad = " " * indent
    name = inline_text(key, None)
    if is_block(value):
        column = indent + (layout.step if isinstance(value, dict) else layout.sequence_offset)
        return [f"{pad}{name}:", *value_lines(value, column, layout, quote)]
    return [f"{pad}{name}: {inline_text(value, quote)}"]


def value_lines(value: object, column: int, layout: Layout, quote: str | None) -> list[str]:
    """A block mapping or sequence whose keys or dashes start at `column`."""
    if isinstance(value, dict):
        return [
            line
            for key, item in value.items()
            for line in entry_lines(str(key), item, column, layout, quote)
        ]
    assert isinstance(value, list), "only mappings and lists are written as blocks"
    pad = " " * column
    return [f"{pad}- {inline_text(item, quote)}" for item in value]


def is_block(value: object) -> bool:
    if isinstance(value, dict):
        return bool(value)
    # Lists of collections are written in flow style: the schema only has lists of strings.
    return (
        isinstance(value, list)
        and bool(value)
        and not any(isinstance(item, dict | list) for item in value)
    )


def inline_text(value: object, quote: str | None) -> str:
    """`value` on one line, in the YAML 1.1 the loader reads: strings that would read
    back as something else (`yes`, `2000`, `~`) are quoted."""
    if isinstance(value, str) and quote in ("'", '"'):
        text = _dump(value, default_style=quote)
    else:
        text = _dump(value, default_flow_style=True)
    if "\n" in text:
        text = _dump(value, default_style='"') if isinstance(value, str) else json.dumps(value)
    return text


def _dump(
    value: object, *, default_style: str | None = None, default_flow_style: bool | None = False
) -> str:
    text = yaml.safe_dump(
        value,
        width=float("inf"),
        allow_unicode=True,
        sort_keys=False,
        default_style=default_style,
        default_flow_style=default_flow_style,
    )
    return text.removesuffix("\n...\n").removesuffix("\n")


def plain(value: object, key: str) -> object:
    """`value` as plain YAML data (tuples become lists); anything else is refused."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list | tuple):
        return [plain(item, key) for item in value]
    if isinstance(value, Mapping):
        return {str(name): plain(item, key) for name, item in value.items()}
    raise ConfigEditError(f"cannot write a {type(value).__name__} to {key}")


def nest(parts: tuple[str, ...], value: object) -> object:
    for part in reversed(parts):
        value = {part: value}
    return value


def set_in(data: dict, parts: tuple[str, ...], value: object, full: tuple[str, ...]) -> None:
    for part in parts[:-1]:
        child = data.get(part)
        if child is None:
            child = data[part] = {}
        if not isinstance(child, dict):
            raise ConfigEditError(f"cannot set {dotted(full)}: {part} is not a mapping")
        data = child
    data[parts[-1]] = value


def remove_in(data: dict, parts: tuple[str, ...]) -> None:
    for part in parts[:-1]:
        data = data[_actual_key(data, part)]
    del data[_actual_key(data, parts[-1])]


def _actual_key(data: dict, part: str) -> object:
    """The key of `data` that reads as `part` (keys like 1 or true are not strings)."""
    return next(name for name in data if str(name) == part)
