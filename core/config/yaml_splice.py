"""One edit of a config file's text, spliced at the positions of its YAML nodes: only the
lines of the edited entry change (see config.document for why)."""

from __future__ import annotations

import re
from dataclasses import dataclass

import yaml

from .edit_errors import ConfigEditError
from .loader import SECTION
from .model import normalise_skill
from .yaml_nodes import MERGE_TAG
from .yaml_tree import (
    OVERRIDES,
    block_children,
    compose,
    construct_node,
    constructed_key,
    dotted,
    first_quote,
    is_null,
    kind_of,
    node_line,
)
from .yaml_values import (
    Layout,
    entry_lines,
    inline_text,
    is_block,
    nest,
    remove_in,
    set_in,
    value_lines,
)

# An alias token, possibly after the ':' or '-' indicator, whitespace and comments. A
# comment is read to its line's end at once (`*+`): a run of `#` is not split every way.
_ALIAS = re.compile(r"(?:[\s:?-]|#[^\n]*+)*(\*[^\s,\[\]{}]+)")
# Node properties (anchor, tag) that prefix a value: kept when the value is replaced.
_PROPERTIES = re.compile(r"[&!][^\s]*(?:[ \t]+[&!][^\s]*)*")
_SKIP_SPACE = re.compile(r"(?:\s|#[^\n]*+)*")


@dataclass(frozen=True, slots=True)
class Entry:
    key: yaml.Node
    value: yaml.Node
    path: tuple[str, ...]  # dotted path of this key, from the top of the file


class SpliceEditor:
    """One edit of one text: locate entries with the node tree, return the new text."""

    def __init__(self, text: str, quotes: SpliceEditor | None = None) -> None:
        self.text = text
        # Where a replaced value takes its quote style from (default: this text).
        self.quotes = quotes
        root = compose(text)
        if root is not None and not (isinstance(root, yaml.MappingNode) and not root.flow_style):
            raise ConfigEditError("the file's top level is not a block mapping", 1)
        self.root = root
        self.layout = self._detect_layout()

    # -- operations ------------------------------------------------------------------------

    def set(self, parts: tuple[str, ...], value: object) -> str:
        if self.root is None:
            lines = entry_lines(parts[0], nest(parts[1:], value), 0, self.layout, None)
            return self._append_top_level(lines)
        mapping = self.root
        for index, part in enumerate(parts):
            entry = self._find(mapping, parts[:index], part)
            if entry is None:
                return self._add(mapping, parts[:index], parts[index:], value)
            if index == len(parts) - 1:
                return self._replace(entry, value)
            child = entry.value
            if self._is_alias(entry):
                raise ConfigEditError(
                    f"cannot set {dotted(parts)}: {dotted(entry.path)} is an alias; "
                    "edit its anchor or replace the whole value",
                    node_line(entry.key),
                )
            if isinstance(child, yaml.MappingNode) and child.value and child.flow_style:
                # A flow mapping is rewritten whole, in flow style.
                data = construct_node(child)
                set_in(data, parts[index + 1 :], value, parts)
                return self._replace(entry, data)
            if isinstance(child, yaml.MappingNode) and child.value:
                mapping = child
                continue
            if is_null(child) or isinstance(child, yaml.MappingNode):
                return self._replace(entry, nest(parts[index + 1 :], value))
            raise ConfigEditError(
                f"cannot set {dotted(parts)}: {dotted(entry.path)} is a "
                f"{kind_of(child)}, not a mapping",
                node_line(entry.key),
            )
        raise AssertionError("unreachable: parts is never empty")

    def unset(self, parts: tuple[str, ...]) -> str | None:
        """The text without the entry at `parts`, or None when it is absent."""
        chain: list[Entry] = []
        mapping: yaml.Node | None = self.root
        for index, part in enumerate(parts):
            if not isinstance(mapping, yaml.MappingNode):
                return None
            entry = self._find(mapping, parts[:index], part)
            if entry is None:
                return None
            chain.append(entry)
            mapping = entry.value
        for entry in chain[:-1]:
            if self._is_alias(entry):
                raise ConfigEditError(
                    f"cannot unset {dotted(parts)}: {dotted(entry.path)} is an alias; "
                    "edit its anchor or replace the whole value",
                    node_line(entry.key),
                )
            if isinstance(entry.value, yaml.MappingNode) and entry.value.flow_style:
                # Inside a flow mapping: rewrite that mapping whole, without the key.
                data = construct_node(entry.value)
                remove_in(data, chain[-1].path[len(entry.path) :])
                return self._replace(entry, data)
        # Walk up while the removal would leave an empty mapping behind (an empty
        # `implement:` is null, which the loader rejects), but keep `qmd_context:`.
        position = len(chain) - 1
        while position >= 2 and len(chain[position - 1].value.value) == 1:
            position -= 1
        target = chain[position]
        self._require_line_start(target)
        start = self._line_start(target.key.start_mark.index)
        end = self._next_line(self._end_of(target.value, target.key.end_mark.index))
        return self.text[:start] + self.text[end:]

    def section_span(self) -> tuple[int, int] | None:
        """Character span of the `qmd_context` block, including comment lines indented
        under it that follow its last entry (commented-out settings)."""
        if self.root is None:
            return None
        entry = self._find(self.root, (), SECTION)
        if entry is None:
            return None
        self._require_line_start(entry)
        start = self._line_start(entry.key.start_mark.index)
        end = self._next_line(self._end_of(entry.value, entry.key.end_mark.index))
        extended = end
        while extended < len(self.text):
            following = self._next_line(extended)
            line = self.text[extended:following]
            if line.startswith((" ", "\t")) and line.lstrip().startswith("#"):
                end = extended = following
            elif not line.strip():
                extended = following
            else:
                break
        return start, end

    def replace_section(self, section: str) -> str:
        nl = self.layout.newline
        section = section.replace("\r\n", "\n").replace("\n", nl)
        if not section.endswith(nl):
            section += nl
        span = self.section_span()
        if span is None:
            return self._append_top_level(section.splitlines())
        return self.text[: span[0]] + section + self.text[span[1] :]

    # -- edits -------------------------------------------------------------------------------

    def _add(
        self,
        mapping: yaml.MappingNode,
        prefix: tuple[str, ...],
        rest: tuple[str, ...],
        value: object,
    ) -> str:
        """Insert a new entry after the last entry of a block mapping, before any
        comments or blank lines that follow it (they introduce what comes next)."""
        new_value = nest(rest[1:], value)
        if not prefix:
            return self._append_top_level(entry_lines(rest[0], new_value, 0, self.layout, None))
        last = self._entry_of(mapping, -1, prefix)
        self._require_line_start(last)
        column = mapping.value[0][0].start_mark.column
        lines = entry_lines(rest[0], new_value, column, self.layout, first_quote(mapping))
        position = self._next_line(self._end_of(last.value, last.key.end_mark.index))
        return self._insert_lines(position, lines)

    def _append_top_level(self, lines: list[str]) -> str:
        position = len(self.text)
        if self.root is not None:
            last = self._entry_of(self.root, -1, ())
            position = self._next_line(self._end_of(last.value, last.key.end_mark.index))
        before = self.text[:position]
        if before.strip() and not before.endswith(self.layout.newline * 2):
            # A new section gets a blank line above it, as sections usually do.
            lines = ["", *lines]
        return self._insert_lines(position, lines)

    def _insert_lines(self, position: int, lines: list[str]) -> str:
        nl = self.layout.newline
        before, after = self.text[:position], self.text[position:]
        if before and not before.endswith("\n"):
            before += nl
        return before + nl.join(lines) + nl + after

    def _replace(self, entry: Entry, value: object) -> str:
        """Give an existing entry a new value, touching only that entry's lines."""
        text, nl = self.text, self.layout.newline
        key, node = entry.key, entry.value
        self._require_line_start(entry)
        colon = self._colon_after(key)
        alias = self._is_alias(entry)
        if alias:
            match = _ALIAS.match(text, colon + 1)
            if match is None:
                raise ConfigEditError(f"cannot locate the value of {dotted(entry.path)}")
            value_start = content = match.start(1)
            end = match.end(1)
            properties = ""
        else:
            value_start = node.start_mark.index
            end = self._end_of(node, key.end_mark.index)
            match = _PROPERTIES.match(text, value_start) if value_start < end else None
            properties = match.group(0) if match else ""
            content = value_start
            if properties:
                skipped = _SKIP_SPACE.match(text, value_start + len(properties))
                assert skipped is not None  # the pattern matches the empty string too
                content = min(skipped.end(), end)
        empty = not alias and value_start == end
        same_line = "\n" not in text[colon:content]
        flow_before = (
            isinstance(node, yaml.MappingNode | yaml.SequenceNode)
            and node.flow_style
            and node.value
        )
        block = is_block(value) and not flow_before
        quote = self._quote_for(entry)
        key_column = key.start_mark.column

        if not block:
            inline = inline_text(value, quote)
            if same_line:
                if empty:
                    return text[: colon + 1] + " " + inline + text[colon + 1 :]
                return text[:content] + inline + text[end:]
            # The value moves up onto the key line; its old lines go.
            anchor_end = value_start + len(properties) if properties else colon + 1
            return (
                text[:anchor_end]
                + " "
                + inline
                + text[anchor_end : self._line_start(content)]
                + text[self._next_line(end) :]
            )

        column = self._block_column(node, value, content, key_column)
        lines = value_lines(value, column, self.layout, quote)
        if same_line:
            # The key line keeps its key, properties and comment; the block goes below.
            head = text[: colon + 1] + (" " + properties if properties else "")
            tail_end = self._line_end(end)
            return head + text[end:tail_end] + nl + nl.join(lines) + text[tail_end:]
        start = self._line_start(content)
        return text[:start] + nl.join(lines) + text[self._line_end(end) :]

    # -- locating --------------------------------------------------------------------------

    def _find(self, mapping: yaml.MappingNode, prefix: tuple[str, ...], part: str) -> Entry | None:
        """The entry the loader would use for `part`: the last exact match, else (under
        skill_overrides) the last name equal with - and _ alike."""
        candidates = [
            index
            for index, (key, _) in enumerate(mapping.value)
            if key.tag != MERGE_TAG and constructed_key(key) == part
        ]
        if not candidates and prefix == OVERRIDES:
            wanted = normalise_skill(part)
            candidates = [
                index
                for index, (key, _) in enumerate(mapping.value)
                if key.tag != MERGE_TAG and normalise_skill(constructed_key(key)) == wanted
            ]
        return self._entry_of(mapping, candidates[-1], prefix) if candidates else None

    def _entry_at(self, path: tuple[str, ...]) -> Entry | None:
        """The entry at `path` through block mappings, None when there is none."""
        entry = None
        mapping: yaml.Node | None = self.root
        for index, part in enumerate(path):
            if not isinstance(mapping, yaml.MappingNode) or mapping.flow_style:
                return None
            entry = self._find(mapping, path[:index], part)
            if entry is None:
                return None
            mapping = entry.value
        return entry

    def _entry_of(self, mapping: yaml.MappingNode, index: int, prefix: tuple[str, ...]) -> Entry:
        key, value = mapping.value[index]
        return Entry(key, value, (*prefix, constructed_key(key)))

    def _is_alias(self, entry: Entry) -> bool:
        # An alias node is the anchored node itself, whose marks lie before the key.
        return entry.value.start_mark.index < entry.key.end_mark.index

    def _end_of(self, node: yaml.Node, not_before: int) -> int:
        """Index just past the last character of `node`'s own text (trailing comments
        and blank lines excluded)."""
        if node.start_mark.index < not_before:
            match = _ALIAS.match(self.text, not_before)
            if match is None:
                raise ConfigEditError("cannot locate an alias in the file")
            return match.end(1)
        if isinstance(node, yaml.MappingNode) and not node.flow_style and node.value:
            key, value = node.value[-1]
            return max(key.end_mark.index, self._end_of(value, key.end_mark.index))
        if isinstance(node, yaml.SequenceNode) and not node.flow_style and node.value:
            position = node.start_mark.index
            for item in node.value:
                position = self._end_of(item, position)
            return position
        end = node.end_mark.index
        while end > node.start_mark.index and self.text[end - 1] in " \t\r\n":
            end -= 1
        return end

    def _colon_after(self, key: yaml.Node) -> int:
        colon = self.text.find(":", key.end_mark.index)
        if colon < 0:
            raise ConfigEditError("cannot locate a key's ':' in the file", node_line(key))
        return colon

    def _require_line_start(self, entry: Entry) -> None:
        index = entry.key.start_mark.index
        if self.text[self._line_start(index) : index].strip():
            raise ConfigEditError(
                f"cannot edit {dotted(entry.path)}: its key does not start a line",
                node_line(entry.key),
            )

    def _block_column(self, old: yaml.Node, value: object, content: int, key_column: int) -> int:
        same_kind = (isinstance(value, dict) and isinstance(old, yaml.MappingNode)) or (
            isinstance(value, list) and isinstance(old, yaml.SequenceNode)
        )
        if same_kind and isinstance(old, yaml.CollectionNode) and not old.flow_style and old.value:
            return content - self._line_start(content)
        offset = self.layout.step if isinstance(value, dict) else self.layout.sequence_offset
        return key_column + offset

    def _quote_for(self, entry: Entry) -> str | None:
        if self.quotes is not None:
            loaded = self.quotes._entry_at(entry.path)
            return self.quotes._quote_for(loaded) if loaded is not None else None
        node = entry.value
        if self._is_alias(entry) or is_null(node):
            return None
        if isinstance(node, yaml.ScalarNode):
            return node.style if node.style in ("'", '"') else None
        return first_quote(node)

    def _detect_layout(self) -> Layout:
        newline = "\r\n" if "\r\n" in self.text else "\n"
        step = offset = None
        section = self._find(self.root, (), SECTION) if self.root is not None else None
        for start in (section.value if section else None, self.root):
            for parent_column, child in block_children(start):
                if isinstance(child, yaml.MappingNode) and step is None:
                    step = child.value[0][0].start_mark.column - parent_column
                if isinstance(child, yaml.SequenceNode) and offset is None:
                    offset = child.start_mark.column - parent_column
        step = step if step and step > 0 else 2
        return Layout(step, offset if offset is not None and offset >= 0 else step, newline)

    # -- lines -------------------------------------------------------------------------------

    def _line_start(self, index: int) -> int:
        return self.text.rfind("\n", 0, index) + 1

    def _line_end(self, index: int) -> int:
        """Index of the line terminator of the line holding `index` (len(text) if none)."""
        newline = self.text.find("\n", index)
        if newline < 0:
            return len(self.text)
        return newline - 1 if newline > 0 and self.text[newline - 1] == "\r" else newline

    def _next_line(self, index: int) -> int:
        newline = self.text.find("\n", index)
        return len(self.text) if newline < 0 else newline + 1
