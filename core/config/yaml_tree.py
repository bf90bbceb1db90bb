"""Reading a config file's YAML node tree: the data as the loader sees it, the keys of
entries, and where nodes sit in the text. The editors locate their splices with these."""

from __future__ import annotations

from collections.abc import Mapping

import yaml

from .edit_errors import ConfigEditError
from .loader import SECTION
from .model import normalise_skill
from .yaml_nodes import YamlSyntaxError, load_located

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
MISSING = object()
_NULL_TAG = "tag:yaml.org,2002:null"
OVERRIDES = (SECTION, "skill_overrides")


def compose(text: str) -> yaml.Node | None:
    try:
        return yaml.compose(text, Loader=_Loader)
    except yaml.YAMLError as exc:
        raise ConfigEditError(f"invalid YAML: {yaml_message(exc)}", yaml_line(exc)) from None


def section_data(text: str) -> object:
    """The file's data as the loader reads it: only the qmd_context section converted
    (merge keys resolved, unknown tags kept as text), other top-level keys None."""
    try:
        return load_located(text, only_key=SECTION).data
    except YamlSyntaxError as exc:
        raise ConfigEditError(f"invalid YAML: {exc}", exc.line) from None


def section_data_after(text: str, action: str) -> object:
    """`section_data` of an edited text; an edit that breaks the YAML (say, removing
    an anchor that is still referred to) is refused."""
    try:
        return load_located(text, only_key=SECTION).data
    except YamlSyntaxError as exc:
        raise ConfigEditError(
            f"cannot {action}: the file would no longer be valid YAML ({exc})", exc.line
        ) from None


def construct_node(node: yaml.Node) -> dict:
    try:
        return yaml.constructor.SafeConstructor().construct_object(node, deep=True)
    except yaml.constructor.ConstructorError as exc:
        raise ConfigEditError(
            f"cannot rewrite this flow mapping: {yaml_message(exc)}", node_line(node)
        ) from None


def constructed_key(key: yaml.Node) -> str:
    if isinstance(key, yaml.ScalarNode):
        try:
            return str(yaml.constructor.SafeConstructor().construct_object(key))
        except yaml.constructor.ConstructorError:
            return key.value  # a key with an application's own tag: its text
    return str(key.value)


def lookup(data: object, parts: tuple[str, ...]) -> object:
    for index, part in enumerate(parts):
        if not isinstance(data, Mapping):
            return MISSING
        keys = [name for name in data if str(name) == part]
        if not keys and parts[:index] == OVERRIDES:
            keys = [name for name in data if normalise_skill(str(name)) == normalise_skill(part)]
        if not keys:
            return MISSING
        data = data[keys[-1]]
    return data


def block_children(node: yaml.Node | None):
    """(column of the key, value) for every block collection held by a block mapping."""
    if not isinstance(node, yaml.MappingNode) or node.flow_style:
        return
    for key, value in node.value:
        if value.start_mark.index < key.end_mark.index:
            continue  # an alias: its marks describe the anchor, elsewhere
        if isinstance(value, yaml.MappingNode | yaml.SequenceNode) and not value.flow_style:
            if value.value:
                yield key.start_mark.column, value
            yield from block_children(value)


def first_quote(node: yaml.Node) -> str | None:
    """The quote style of the first quoted string under `node`, so new values match."""
    pending = [node]
    seen: set[int] = set()
    while pending:
        current = pending.pop(0)
        if id(current) in seen:
            continue
        seen.add(id(current))
        if isinstance(current, yaml.ScalarNode):
            if current.style in ("'", '"'):
                return current.style
        elif isinstance(current, yaml.MappingNode):
            pending.extend(value for _, value in current.value)
        elif isinstance(current, yaml.SequenceNode):
            pending.extend(current.value)
    return None


def is_null(node: yaml.Node) -> bool:
    return isinstance(node, yaml.ScalarNode) and node.tag == _NULL_TAG


def kind_of(node: yaml.Node) -> str:
    if isinstance(node, yaml.SequenceNode):
        return "list"
    return "mapping" if isinstance(node, yaml.MappingNode) else "scalar"


def node_line(node: yaml.Node) -> int:
    return node.start_mark.line + 1


def split_key(key: str) -> tuple[str, ...]:
    parts = tuple(key.strip().removeprefix(f"{SECTION}.").split("."))
    if not key.strip() or any(not part.strip() for part in parts):
        raise ConfigEditError(
            f"invalid key {key!r}: expected dotted names like scopes.docs.ck_path"
        )
    return parts


def dotted(parts: tuple[str, ...]) -> str:
    return ".".join(parts)


def yaml_message(exc: yaml.YAMLError) -> str:
    if isinstance(exc, yaml.MarkedYAMLError):
        return exc.problem or exc.context or "invalid YAML"
    return str(exc).splitlines()[0]


def yaml_line(exc: yaml.YAMLError) -> int | None:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    return mark.line + 1 if mark is not None else None
