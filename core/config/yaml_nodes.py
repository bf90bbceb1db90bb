"""Read YAML into plain Python while remembering the line of every key, so a problem can
be reported as file:line. Uses PyYAML's C loader when present (the hot path)."""

from __future__ import annotations

from dataclasses import dataclass, field

import yaml

_Loader: type[yaml.CSafeLoader | yaml.SafeLoader]
try:
    _Loader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - wheels ship the C loader
    _Loader = yaml.SafeLoader


@dataclass
class LocatedYaml:
    """A parsed document and the line of each key path in it."""

    data: object
    lines: dict[str, int] = field(default_factory=dict)  # "a.b.c" -> 1-based line


class YamlSyntaxError(ValueError):
    def __init__(self, message: str, line: int | None) -> None:
        super().__init__(message)
        self.line = line


MERGE_TAG = "tag:yaml.org,2002:merge"
# Values built from one document at most. Aliases let a few lines expand to billions of
# values (an "alias bomb"); a real config has a few hundred.
MAX_VALUES = 100_000


def load_located(text: str, only_key: str | None = None) -> LocatedYaml:
    """Parse text; raise YamlSyntaxError (with its line) when it is not valid YAML or
    expands to more than MAX_VALUES values.

    With `only_key`, only that top-level key's value is converted (the rest of a large
    shared file, with its own tags and anchors, is not our business); other keys map
    to None.
    """
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        message = exc.problem or exc.context or "invalid YAML"
        opened = exc.context_mark
        if exc.context and opened is not None and opened.line + 1 != line:
            # An unclosed `[` or `{` is noticed lines later; say where it started.
            message += f"; {exc.context} that started at line {opened.line + 1}"
        raise YamlSyntaxError(message, line) from None
    except yaml.YAMLError as exc:
        raise YamlSyntaxError(str(exc).splitlines()[0], None) from None
    if node is None:
        return LocatedYaml(None)
    converter = _Converter()
    if only_key is not None and isinstance(node, yaml.MappingNode):
        data: dict = {}
        for key_node, value_node in node.value:
            if isinstance(key_node, yaml.ScalarNode) and key_node.value == only_key:
                converter.lines[only_key] = key_node.start_mark.line + 1
                data[only_key] = converter.convert(value_node, only_key)
            else:
                data.setdefault(str(key_node.value), None)
        return LocatedYaml(data, converter.lines)
    return LocatedYaml(converter.convert(node, ""), converter.lines)


class _Converter:
    """Node tree -> plain data, recording key lines, within MAX_VALUES values."""

    def __init__(self) -> None:
        self.lines: dict[str, int] = {}
        self.scalars = yaml.constructor.SafeConstructor()
        self.remaining = MAX_VALUES

    def convert(
        self,
        node: yaml.Node,
        path: str,
        lines: dict[str, int] | None = None,
        ancestors: frozenset[int] = frozenset(),
    ) -> object:
        lines = self.lines if lines is None else lines
        if id(node) in ancestors:  # `a: &a [*a]`: an alias that contains itself
            raise YamlSyntaxError("recursive alias", node.start_mark.line + 1)
        self.remaining -= 1
        if self.remaining < 0:
            raise YamlSyntaxError(
                f"aliases expand to more than {MAX_VALUES:,} values (an alias bomb?)",
                node.start_mark.line + 1,
            )
        if isinstance(node, yaml.MappingNode | yaml.SequenceNode):
            ancestors = ancestors | {id(node)}
        if isinstance(node, yaml.MappingNode):
            result: dict = {}
            merged: dict = {}
            for key_node, value_node in node.value:
                if key_node.tag == MERGE_TAG:
                    sources = (
                        value_node.value
                        if isinstance(value_node, yaml.SequenceNode)
                        else [value_node]
                    )
                    for source in sources:
                        value = self.convert(source, path, {}, ancestors)
                        if isinstance(value, dict):
                            merged = {**value, **merged}
                    continue
                key = self.convert(key_node, "", {}, ancestors)
                key_str = str(key)
                child = f"{path}.{key_str}" if path else key_str
                lines[child] = key_node.start_mark.line + 1
                result[key] = self.convert(value_node, child, lines, ancestors)
            return {**merged, **result}
        if isinstance(node, yaml.SequenceNode):
            items = []
            for index, item in enumerate(node.value):
                child = f"{path}.{index}"
                lines[child] = item.start_mark.line + 1
                items.append(self.convert(item, child, lines, ancestors))
            return items
        # Scalars: the safe constructor resolves ints, floats, bools and nulls; a tag it
        # does not know (`!vault abc`) keeps its plain text.
        try:
            return self.scalars.construct_object(node, deep=True)
        except yaml.constructor.ConstructorError:
            return node.value
