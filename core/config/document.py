"""A config file held as text and edited key by key, disturbing nothing else.

Round-trip YAML emitters re-emit the whole file: they re-indent other tools' sections,
normalise spacing and null spellings, and attach comments to the wrong keys (a key added
at the end of a mapping lands after the comment that introduces the next section). So
every edit here is a splice of the text, located with the marks of the YAML node tree:
only the lines of the edited entry change, and comments, blank lines, key order, quoting,
indentation and every other section of the file stay byte-for-byte as they were.

Values are read and written with the YAML 1.1 rules the loader uses (PyYAML), so what
`get` returns and what `set` writes is exactly what the engine will see.
"""

from __future__ import annotations

import difflib
import errno
import json
import os
import re
import secrets
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import yaml

from .config_file import (
    UTF8_BOM,
    digest_on_disk,
    edit_lock,
    fsync_directory,
    refuse_read_only,
    sha256,
)
from .loader import SECTION, read_config_bytes
from .model import normalise_skill
from .yaml_nodes import MERGE_TAG, YamlSyntaxError, load_located

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_MISSING = object()
_NULL_TAG = "tag:yaml.org,2002:null"
# An alias token, possibly after the ':' or '-' indicator, whitespace and comments.
_ALIAS = re.compile(r"(?:[\s:?-]|#[^\n]*)*(\*[^\s,\[\]{}]+)")
# Node properties (anchor, tag) that prefix a value: kept when the value is replaced.
_PROPERTIES = re.compile(r"[&!][^\s]*(?:[ \t]+[&!][^\s]*)*")
_SKIP_SPACE = re.compile(r"(?:\s|#[^\n]*)*")
_OVERRIDES = (SECTION, "skill_overrides")


class ConfigEditError(ValueError):
    """A change that cannot be made; the message says why. `line` is 1-based when known."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


class ConfigConflict(RuntimeError):
    """The file changed on disk after it was loaded: saving would lose that change."""


def parse_value(text: str) -> object:
    """A value typed on a command line, read as YAML: `3000` -> int, `true` -> bool,
    `'["docs/"]'` -> list; an empty string stays an empty string."""
    if text == "":
        return ""
    try:
        return yaml.load(text, Loader=_Loader)
    except yaml.YAMLError as exc:
        raise ConfigEditError(f"{text!r} is not a YAML value ({_yaml_message(exc)})") from None


class ConfigDocument:
    """One config file: its text as loaded, its text as edited, and the means to save
    the edit without losing a concurrent change."""

    def __init__(self, path: Path | None, text: str, disk_digest: str | None) -> None:
        self.path = path
        # A byte order mark is kept aside and written back on save: node marks count
        # characters after it, and an edit located with them would land one off.
        self._bom = text.startswith("\ufeff")
        text = text.removeprefix("\ufeff")
        self._saved_text = text
        self._text = text
        self._disk_digest = disk_digest  # sha256 of the bytes read; None = file absent

    @classmethod
    def load(cls, path: str | Path) -> ConfigDocument:
        """Read `path` (a regular file of at most 1 MiB). An absent file is an empty
        document that creates the file on save. Other read failures raise OSError."""
        path = Path(path)
        try:
            data = read_config_bytes(path)
        except FileNotFoundError:
            return cls(path, "", None)
        # surrogateescape keeps undecodable bytes, so saving never rewrites them.
        return cls(path, data.decode("utf-8", "surrogateescape"), sha256(data))

    @classmethod
    def from_text(cls, text: str, path: str | Path | None = None) -> ConfigDocument:
        """A document over `text` that was not read from disk. Saving it to `path`
        succeeds only while no file exists there."""
        return cls(Path(path) if path is not None else None, text, None)

    # -- state ---------------------------------------------------------------------------

    @property
    def text(self) -> str:
        return self._text

    @property
    def changed(self) -> bool:
        return self._text != self._saved_text

    @property
    def exists(self) -> bool:
        """Whether the file existed when loaded (or has been saved since)."""
        return self._disk_digest is not None

    def render(self) -> str:
        """The whole file as it would be saved."""
        return self._text

    # -- reading -------------------------------------------------------------------------

    def get(self, key: str, default: object = None) -> object:
        """The value at a dotted key under `qmd_context` (`scopes.docs.grep_paths`), as
        the loader reads it; `default` when absent. Raises ConfigEditError when the text
        is not valid YAML."""
        value = _lookup(_section_data(self._text), (SECTION, *_split_key(key)))
        return default if value is _MISSING else value

    def section_text(self) -> str:
        """The `qmd_context:` block exactly as written in the file ("" when absent)."""
        editor = _Editor(self._text)
        span = editor.section_span()
        return "" if span is None else self._text[span[0] : span[1]]

    def section_first_line(self) -> int | None:
        """The 1-based line of `qmd_context:` in the file, None when absent."""
        span = _Editor(self._text).section_span()
        return None if span is None else self._text.count("\n", 0, span[0]) + 1

    # -- editing -------------------------------------------------------------------------

    def set(self, key: str, value: object) -> None:
        """Set a dotted key under `qmd_context`, creating the section and intermediate
        mappings as needed. Only the lines of that entry change."""
        parts = (SECTION, *_split_key(key))
        value = _plain(value, key)
        new_text = _Editor(self._text, quotes=self._loaded_editor()).set(parts, value)
        written = _lookup(_section_data_after(new_text, f"set {key}"), parts)
        if written != value:
            raise ConfigEditError(f"cannot set {key}: the file would read back {written!r}")
        self._text = new_text

    def _loaded_editor(self) -> _Editor | None:
        """The text as loaded, whose quotes an edited value keeps: quotes an earlier edit
        needed (typing `notes` passes through `no`, which must be quoted) do not stick."""
        if self._saved_text == self._text:
            return None
        try:
            return _Editor(self._saved_text)
        except ConfigEditError:
            return None

    def unset(self, key: str) -> bool:
        """Remove a dotted key (every duplicate of it), and any mapping the removal
        leaves empty below `qmd_context`. Returns False when the key was not set."""
        parts = (SECTION, *_split_key(key))
        text = self._text
        removed = False
        while True:
            new_text = _Editor(text).unset(parts)
            if new_text is None:
                break
            _section_data_after(new_text, f"unset {key}")
            text, removed = new_text, True
        self._text = text
        return removed

    def set_section_text(self, text: str) -> None:
        """Replace the `qmd_context:` block with `text` (a raw editor's content), which
        must be YAML holding that one key; everything else in the file is kept."""
        try:
            parsed = load_located(text, only_key=SECTION).data
        except YamlSyntaxError as exc:
            raise ConfigEditError(str(exc), exc.line) from None
        if not isinstance(parsed, Mapping) or list(parsed) != [SECTION]:
            raise ConfigEditError(f"the text must be one mapping with the single key {SECTION}")
        new_text = _Editor(self._text).replace_section(text)
        if _lookup(_section_data(new_text), (SECTION,)) != parsed[SECTION]:
            raise ConfigEditError(
                f"the text does not fit in the file as a top-level {SECTION} block "
                "(check its indentation)"
            )
        self._text = new_text

    # -- disk ----------------------------------------------------------------------------

    def diff(self) -> str:
        """A unified diff from the file as it is on disk now to the edited text."""
        name = str(self.path) if self.path is not None else "<config>"
        on_disk = ""
        if self.path is not None:
            try:
                on_disk = read_config_bytes(self.path).decode("utf-8", "surrogateescape")
            except OSError:
                on_disk = ""
        on_disk = on_disk.removeprefix("\ufeff")
        lines = difflib.unified_diff(
            on_disk.splitlines(keepends=True),
            self._text.splitlines(keepends=True),
            f"{name} (on disk)",
            f"{name} (edited)",
        )
        return "".join(line if line.endswith("\n") else line + "\n" for line in lines)

    def save(self) -> None:
        """Write atomically (temp file in the same directory, fsync, rename), keeping the
        file's mode and byte order mark; create the file when absent. Raises
        ConfigConflict when the file changed on disk since it was loaded, PermissionError
        when it is read-only, OSError when it cannot be written.

        The check for a change and the rename happen under the edit lock, so two savers
        never both pass the check; an editor that holds the lock from loading to saving
        (`config_file.edit_lock`) never meets a conflict at all."""
        if self.path is None:
            raise ConfigEditError("this document has no file to save to")
        target = self.path.resolve()  # through a symlink, to the file it names
        data = (UTF8_BOM if self._bom else b"") + self._text.encode("utf-8", "surrogateescape")
        with edit_lock(target):
            self._refuse_conflict(target)
            refuse_read_only(target)
            try:
                mode: int | None = stat.S_IMODE(target.stat().st_mode)
            except FileNotFoundError:
                mode = None
            temporary = _write_temporary(target, data, mode)
            try:
                os.replace(temporary, target)
            except BaseException:
                temporary.unlink(missing_ok=True)
                raise
            fsync_directory(target.parent)
        self._saved_text = self._text
        self._disk_digest = sha256(data)

    def create(self) -> None:
        """Write the text as a new file at `path`, atomically (temp file, fsync, hard
        link), never replacing what is there: a file, a directory or a symbolic link at
        the path (dangling or not) raises FileExistsError, and nothing is written through
        a link. Raises OSError when the file cannot be written."""
        if self.path is None:
            raise ConfigEditError("this document has no file to save to")
        target = Path(os.path.abspath(self.path))
        data = (UTF8_BOM if self._bom else b"") + self._text.encode("utf-8", "surrogateescape")
        with edit_lock(target):
            temporary = _write_temporary(target, data, None)
            try:
                # link() never follows a link at the target and fails when anything is
                # there; rename() would replace it.
                os.link(temporary, target, follow_symlinks=False)
            except OSError as exc:
                if exc.errno not in _NO_HARD_LINKS:
                    raise
                _create_exclusively(target, data)
            finally:
                temporary.unlink(missing_ok=True)
            fsync_directory(target.parent)
        self._saved_text = self._text
        self._disk_digest = sha256(data)

    def _refuse_conflict(self, target: Path) -> None:
        if digest_on_disk(target) != self._disk_digest:
            raise ConfigConflict(
                f"{self.path} changed on disk since it was loaded; reload it, or compare "
                "the two versions before saving"
            )


# A file system without hard links answers link() with one of these.
_NO_HARD_LINKS = frozenset(
    code
    for code in (errno.EPERM, getattr(errno, "ENOTSUP", None), getattr(errno, "EOPNOTSUPP", None))
    if code is not None
)


def _write_temporary(target: Path, data: bytes, mode: int | None) -> Path:
    """`data` in a new temporary file beside `target`, flushed to disk; `mode` is the
    existing file's exact mode to keep (None: a new file, 0o666 minus the umask, as any
    editor would create it)."""
    temporary = target.with_name(f".{target.name}.{secrets.token_hex(6)}.tmp")
    descriptor = os.open(
        temporary,
        os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW,
        0o666 if mode is None else 0o600,
    )
    try:
        with os.fdopen(descriptor, "wb") as out:
            out.write(data)
            out.flush()
            if mode is not None:
                os.fchmod(out.fileno(), mode)
            os.fsync(out.fileno())
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return temporary


def _create_exclusively(target: Path, data: bytes) -> None:
    """Create `target` and write `data` into it, for a file system without hard links:
    O_EXCL refuses anything already there, a symbolic link included. Not atomic (a
    reader may see the file half written), but it never replaces or follows anything."""
    descriptor = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o666)
    try:
        with os.fdopen(descriptor, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
    except BaseException:
        target.unlink(missing_ok=True)
        raise


# -- the text editor -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Entry:
    key: yaml.Node
    value: yaml.Node
    path: tuple[str, ...]  # dotted path of this key, from the top of the file


@dataclass(frozen=True, slots=True)
class _Layout:
    step: int  # indentation of a nested mapping relative to its key
    sequence_offset: int  # indentation of a block sequence's "-" relative to its key
    newline: str


class _Editor:
    """One edit of one text: locate entries with the node tree, return the new text."""

    def __init__(self, text: str, quotes: _Editor | None = None) -> None:
        self.text = text
        # Where a replaced value takes its quote style from (default: this text).
        self.quotes = quotes
        root = _compose(text)
        if root is not None and not (isinstance(root, yaml.MappingNode) and not root.flow_style):
            raise ConfigEditError("the file's top level is not a block mapping", 1)
        self.root = root
        self.layout = self._detect_layout()

    # -- operations ------------------------------------------------------------------------

    def set(self, parts: tuple[str, ...], value: object) -> str:
        if self.root is None:
            lines = _entry_lines(parts[0], _nest(parts[1:], value), 0, self.layout, None)
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
                    f"cannot set {_dotted(parts)}: {_dotted(entry.path)} is an alias; "
                    "edit its anchor or replace the whole value",
                    _line(entry.key),
                )
            if isinstance(child, yaml.MappingNode) and child.value and child.flow_style:
                # A flow mapping is rewritten whole, in flow style.
                data = _construct_node(child)
                _set_in(data, parts[index + 1 :], value, parts)
                return self._replace(entry, data)
            if isinstance(child, yaml.MappingNode) and child.value:
                mapping = child
                continue
            if _is_null(child) or isinstance(child, yaml.MappingNode):
                return self._replace(entry, _nest(parts[index + 1 :], value))
            raise ConfigEditError(
                f"cannot set {_dotted(parts)}: {_dotted(entry.path)} is a "
                f"{_kind(child)}, not a mapping",
                _line(entry.key),
            )
        raise AssertionError("unreachable: parts is never empty")

    def unset(self, parts: tuple[str, ...]) -> str | None:
        """The text without the entry at `parts`, or None when it is absent."""
        chain: list[_Entry] = []
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
                    f"cannot unset {_dotted(parts)}: {_dotted(entry.path)} is an alias; "
                    "edit its anchor or replace the whole value",
                    _line(entry.key),
                )
            if isinstance(entry.value, yaml.MappingNode) and entry.value.flow_style:
                # Inside a flow mapping: rewrite that mapping whole, without the key.
                data = _construct_node(entry.value)
                _remove_in(data, chain[-1].path[len(entry.path) :])
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
        new_value = _nest(rest[1:], value)
        if not prefix:
            return self._append_top_level(_entry_lines(rest[0], new_value, 0, self.layout, None))
        last = self._entry_of(mapping, -1, prefix)
        self._require_line_start(last)
        column = mapping.value[0][0].start_mark.column
        lines = _entry_lines(rest[0], new_value, column, self.layout, _first_quote(mapping))
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

    def _replace(self, entry: _Entry, value: object) -> str:
        """Give an existing entry a new value, touching only that entry's lines."""
        text, nl = self.text, self.layout.newline
        key, node = entry.key, entry.value
        self._require_line_start(entry)
        colon = self._colon_after(key)
        alias = self._is_alias(entry)
        if alias:
            match = _ALIAS.match(text, colon + 1)
            if match is None:
                raise ConfigEditError(f"cannot locate the value of {_dotted(entry.path)}")
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
        block = _is_block(value) and not flow_before
        quote = self._quote_for(entry)
        key_column = key.start_mark.column

        if not block:
            inline = _inline(value, quote)
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
        lines = _value_lines(value, column, self.layout, quote)
        if same_line:
            # The key line keeps its key, properties and comment; the block goes below.
            head = text[: colon + 1] + (" " + properties if properties else "")
            tail_end = self._line_end(end)
            return head + text[end:tail_end] + nl + nl.join(lines) + text[tail_end:]
        start = self._line_start(content)
        return text[:start] + nl.join(lines) + text[self._line_end(end) :]

    # -- locating --------------------------------------------------------------------------

    def _find(self, mapping: yaml.MappingNode, prefix: tuple[str, ...], part: str) -> _Entry | None:
        """The entry the loader would use for `part`: the last exact match, else (under
        skill_overrides) the last name equal with - and _ alike."""
        candidates = [
            index
            for index, (key, _) in enumerate(mapping.value)
            if key.tag != MERGE_TAG and _constructed_key(key) == part
        ]
        if not candidates and prefix == _OVERRIDES:
            wanted = normalise_skill(part)
            candidates = [
                index
                for index, (key, _) in enumerate(mapping.value)
                if key.tag != MERGE_TAG and normalise_skill(_constructed_key(key)) == wanted
            ]
        return self._entry_of(mapping, candidates[-1], prefix) if candidates else None

    def _entry_at(self, path: tuple[str, ...]) -> _Entry | None:
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

    def _entry_of(self, mapping: yaml.MappingNode, index: int, prefix: tuple[str, ...]) -> _Entry:
        key, value = mapping.value[index]
        return _Entry(key, value, (*prefix, _constructed_key(key)))

    def _is_alias(self, entry: _Entry) -> bool:
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
            raise ConfigEditError("cannot locate a key's ':' in the file", _line(key))
        return colon

    def _require_line_start(self, entry: _Entry) -> None:
        index = entry.key.start_mark.index
        if self.text[self._line_start(index) : index].strip():
            raise ConfigEditError(
                f"cannot edit {_dotted(entry.path)}: its key does not start a line",
                _line(entry.key),
            )

    def _block_column(self, old: yaml.Node, value: object, content: int, key_column: int) -> int:
        same_kind = (isinstance(value, dict) and isinstance(old, yaml.MappingNode)) or (
            isinstance(value, list) and isinstance(old, yaml.SequenceNode)
        )
        if same_kind and isinstance(old, yaml.CollectionNode) and not old.flow_style and old.value:
            return content - self._line_start(content)
        offset = self.layout.step if isinstance(value, dict) else self.layout.sequence_offset
        return key_column + offset

    def _quote_for(self, entry: _Entry) -> str | None:
        if self.quotes is not None:
            loaded = self.quotes._entry_at(entry.path)
            return self.quotes._quote_for(loaded) if loaded is not None else None
        node = entry.value
        if self._is_alias(entry) or _is_null(node):
            return None
        if isinstance(node, yaml.ScalarNode):
            return node.style if node.style in ("'", '"') else None
        return _first_quote(node)

    def _detect_layout(self) -> _Layout:
        newline = "\r\n" if "\r\n" in self.text else "\n"
        step = offset = None
        section = self._find(self.root, (), SECTION) if self.root is not None else None
        for start in (section.value if section else None, self.root):
            for parent_column, child in _block_children(start):
                if isinstance(child, yaml.MappingNode) and step is None:
                    step = child.value[0][0].start_mark.column - parent_column
                if isinstance(child, yaml.SequenceNode) and offset is None:
                    offset = child.start_mark.column - parent_column
        step = step if step and step > 0 else 2
        return _Layout(step, offset if offset is not None and offset >= 0 else step, newline)

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


# -- rendering values ------------------------------------------------------------------


def _entry_lines(
    key: str, value: object, indent: int, layout: _Layout, quote: str | None
) -> list[str]:
    pad = " " * indent
    name = _inline(key, None)
    if _is_block(value):
        column = indent + (layout.step if isinstance(value, dict) else layout.sequence_offset)
        return [f"{pad}{name}:", *_value_lines(value, column, layout, quote)]
    return [f"{pad}{name}: {_inline(value, quote)}"]


def _value_lines(value: object, column: int, layout: _Layout, quote: str | None) -> list[str]:
    """A block mapping or sequence whose keys or dashes start at `column`."""
    if isinstance(value, dict):
        return [
            line
            for key, item in value.items()
            for line in _entry_lines(str(key), item, column, layout, quote)
        ]
    assert isinstance(value, list), "only mappings and lists are written as blocks"
    pad = " " * column
    return [f"{pad}- {_inline(item, quote)}" for item in value]


def _is_block(value: object) -> bool:
    if isinstance(value, dict):
        return bool(value)
    # Lists of collections are written in flow style: the schema only has lists of strings.
    return (
        isinstance(value, list)
        and bool(value)
        and not any(isinstance(item, dict | list) for item in value)
    )


def yaml_inline(value: object) -> str:
    """`value` (plain data) on one line, as `set` writes it: flow style, and quoted only
    where the loader would read it back as something else (or it holds a control
    character, which YAML escapes)."""
    return _inline(_plain(value, ""), None)


def _inline(value: object, quote: str | None) -> str:
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


def _plain(value: object, key: str) -> object:
    """`value` as plain YAML data (tuples become lists); anything else is refused."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list | tuple):
        return [_plain(item, key) for item in value]
    if isinstance(value, Mapping):
        return {str(name): _plain(item, key) for name, item in value.items()}
    raise ConfigEditError(f"cannot write a {type(value).__name__} to {key}")


def _nest(parts: tuple[str, ...], value: object) -> object:
    for part in reversed(parts):
        value = {part: value}
    return value


def _set_in(data: dict, parts: tuple[str, ...], value: object, full: tuple[str, ...]) -> None:
    for part in parts[:-1]:
        child = data.get(part)
        if child is None:
            child = data[part] = {}
        if not isinstance(child, dict):
            raise ConfigEditError(f"cannot set {_dotted(full)}: {part} is not a mapping")
        data = child
    data[parts[-1]] = value


def _remove_in(data: dict, parts: tuple[str, ...]) -> None:
    for part in parts[:-1]:
        data = data[_actual_key(data, part)]
    del data[_actual_key(data, parts[-1])]


def _actual_key(data: dict, part: str) -> object:
    """The key of `data` that reads as `part` (keys like 1 or true are not strings)."""
    return next(name for name in data if str(name) == part)


# -- reading the tree --------------------------------------------------------------------


def _compose(text: str) -> yaml.Node | None:
    try:
        return yaml.compose(text, Loader=_Loader)
    except yaml.YAMLError as exc:
        raise ConfigEditError(f"invalid YAML: {_yaml_message(exc)}", _yaml_line(exc)) from None


def _section_data(text: str) -> object:
    """The file's data as the loader reads it: only the qmd_context section converted
    (merge keys resolved, unknown tags kept as text), other top-level keys None."""
    try:
        return load_located(text, only_key=SECTION).data
    except YamlSyntaxError as exc:
        raise ConfigEditError(f"invalid YAML: {exc}", exc.line) from None


def _section_data_after(text: str, action: str) -> object:
    """`_section_data` of an edited text; an edit that breaks the YAML (say, removing
    an anchor that is still referred to) is refused."""
    try:
        return load_located(text, only_key=SECTION).data
    except YamlSyntaxError as exc:
        raise ConfigEditError(
            f"cannot {action}: the file would no longer be valid YAML ({exc})", exc.line
        ) from None


def _construct_node(node: yaml.Node) -> dict:
    try:
        return yaml.constructor.SafeConstructor().construct_object(node, deep=True)
    except yaml.constructor.ConstructorError as exc:
        raise ConfigEditError(
            f"cannot rewrite this flow mapping: {_yaml_message(exc)}", _line(node)
        ) from None


def _constructed_key(key: yaml.Node) -> str:
    if isinstance(key, yaml.ScalarNode):
        try:
            return str(yaml.constructor.SafeConstructor().construct_object(key))
        except yaml.constructor.ConstructorError:
            return key.value  # a key with an application's own tag: its text
    return str(key.value)


def _lookup(data: object, parts: tuple[str, ...]) -> object:
    for index, part in enumerate(parts):
        if not isinstance(data, Mapping):
            return _MISSING
        keys = [name for name in data if str(name) == part]
        if not keys and parts[:index] == _OVERRIDES:
            keys = [name for name in data if normalise_skill(str(name)) == normalise_skill(part)]
        if not keys:
            return _MISSING
        data = data[keys[-1]]
    return data


def _block_children(node: yaml.Node | None):
    """(column of the key, value) for every block collection held by a block mapping."""
    if not isinstance(node, yaml.MappingNode) or node.flow_style:
        return
    for key, value in node.value:
        if value.start_mark.index < key.end_mark.index:
            continue  # an alias: its marks describe the anchor, elsewhere
        if isinstance(value, yaml.MappingNode | yaml.SequenceNode) and not value.flow_style:
            if value.value:
                yield key.start_mark.column, value
            yield from _block_children(value)


def _first_quote(node: yaml.Node) -> str | None:
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


def _is_null(node: yaml.Node) -> bool:
    return isinstance(node, yaml.ScalarNode) and node.tag == _NULL_TAG


def _kind(node: yaml.Node) -> str:
    if isinstance(node, yaml.SequenceNode):
        return "list"
    return "mapping" if isinstance(node, yaml.MappingNode) else "scalar"


def _line(node: yaml.Node) -> int:
    return node.start_mark.line + 1


def _split_key(key: str) -> tuple[str, ...]:
    parts = tuple(key.strip().removeprefix(f"{SECTION}.").split("."))
    if not key.strip() or any(not part.strip() for part in parts):
        raise ConfigEditError(
            f"invalid key {key!r}: expected dotted names like scopes.docs.ck_path"
        )
    return parts


def _dotted(parts: tuple[str, ...]) -> str:
    return ".".join(parts)


def _yaml_message(exc: yaml.YAMLError) -> str:
    if isinstance(exc, yaml.MarkedYAMLError):
        return exc.problem or exc.context or "invalid YAML"
    return str(exc).splitlines()[0]


def _yaml_line(exc: yaml.YAMLError) -> int | None:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    return mark.line + 1 if mark is not None else None
