"""A config file held as text and edited key by key, disturbing nothing else.

Round-trip YAML emitters re-emit the whole file: they re-indent other tools' sections,
normalise spacing and null spellings, and attach comments to the wrong keys (a key added
at the end of a mapping lands after the comment that introduces the next section). So
every edit is a splice of the text (yaml_splice), located with the marks of the YAML node
tree (yaml_tree): only the lines of the edited entry change, and comments, blank lines,
key order, quoting, indentation and every other section of the file stay byte-for-byte
as they were.

Values are read and written with the YAML 1.1 rules the loader uses (PyYAML), so what
`get` returns and what `set` writes is exactly what the engine will see.
"""

from __future__ import annotations

import copy
import difflib
import os
from collections.abc import Mapping
from pathlib import Path

import yaml

from ..debugging import report_exception
from ..file_replace import create_file, replace_file
from .config_file import UTF8_BOM, digest_on_disk, edit_lock, sha256, write_target
from .edit_errors import ConfigConflict, ConfigEditError
from .loader import SECTION, read_config_bytes
from .yaml_nodes import YamlSyntaxError, load_located
from .yaml_splice import SpliceEditor
from .yaml_tree import MISSING, lookup, section_data, section_data_after, split_key, yaml_message
from .yaml_values import inline_text, plain

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def parse_value(text: str) -> object:
    """A value typed on a command line, read as YAML: `3000` -> int, `true` -> bool,
    `'["docs/"]'` -> list; an empty string stays an empty string."""
    if text == "":
        return ""
    try:
        return yaml.load(text, Loader=_Loader)
    except yaml.YAMLError as exc:
        raise ConfigEditError(f"{text!r} is not a YAML value ({yaml_message(exc)})") from None


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
        self._read: tuple[str, object] | None = None  # (text, section_data of it), last read

    @classmethod
    def load(cls, path: str | Path, root: Path | None = None) -> ConfigDocument:
        """Read `path` (a regular file of at most 1 MiB; with the project's `root`, not
        its own file linking out of it). An absent file is an empty document that
        creates the file on save. Other read failures raise OSError."""
        path = Path(path)
        try:
            data = read_config_bytes(path, root)
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
        value = lookup(self._section_data(), (SECTION, *split_key(key)))
        return default if value is MISSING else copy.deepcopy(value)

    def _section_data(self) -> object:
        """`section_data` of the current text, parsed once per text: the workbench's form
        reads every group of the section for each key typed. Callers get copies (`get`)."""
        if self._read is None or self._read[0] != self._text:
            self._read = (self._text, section_data(self._text))
        return self._read[1]

    def section_text(self) -> str:
        """The `qmd_context:` block exactly as written in the file ("" when absent)."""
        editor = SpliceEditor(self._text)
        span = editor.section_span()
        return "" if span is None else self._text[span[0] : span[1]]

    def section_first_line(self) -> int | None:
        """The 1-based line of `qmd_context:` in the file, None when absent."""
        span = SpliceEditor(self._text).section_span()
        return None if span is None else self._text.count("\n", 0, span[0]) + 1

    # -- editing -------------------------------------------------------------------------

    def set(self, key: str, value: object) -> None:
        """Set a dotted key under `qmd_context`, creating the section and intermediate
        mappings as needed. Only the lines of that entry change."""
        parts = (SECTION, *split_key(key))
        value = plain(value, key)
        new_text = SpliceEditor(self._text, quotes=self._loaded_editor()).set(parts, value)
        written = lookup(section_data_after(new_text, f"set {key}"), parts)
        if written != value:
            raise ConfigEditError(f"cannot set {key}: the file would read back {written!r}")
        self._text = new_text

    def _loaded_editor(self) -> SpliceEditor | None:
        """The text as loaded, whose quotes an edited value keeps: quotes an earlier edit
        needed (typing `notes` passes through `no`, which must be quoted) do not stick."""
        if self._saved_text == self._text:
            return None
        try:
            return SpliceEditor(self._saved_text)
        except ConfigEditError:
            return None

    def unset(self, key: str) -> bool:
        """Remove a dotted key (every duplicate of it), and any mapping the removal
        leaves empty below `qmd_context`. Returns False when the key was not set."""
        parts = (SECTION, *split_key(key))
        text = self._text
        removed = False
        while True:
            new_text = SpliceEditor(text).unset(parts)
            if new_text is None:
                break
            section_data_after(new_text, f"unset {key}")
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
        new_text = SpliceEditor(self._text).replace_section(text)
        if lookup(section_data(new_text), (SECTION,)) != parsed[SECTION]:
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
            except FileNotFoundError:
                on_disk = ""
            except OSError:
                report_exception(f"cannot read {self.path}; diffing against an empty file")
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
        target = write_target(self.path)  # through a link only within its folder
        data = (UTF8_BOM if self._bom else b"") + self._text.encode("utf-8", "surrogateescape")
        with edit_lock(target):
            self._refuse_conflict(target)
            # A new file gets 0o666 minus the umask, as any editor would create it.
            replace_file(target, data, refuse_read_only=True)
        self._saved_text = self._text
        self._disk_digest = sha256(data)

    def create(self) -> None:
        """Write the text as a new file at `path` (`create_file`: atomic, and never
        replacing or writing through anything at the path, which raises FileExistsError).
        Raises OSError when the file cannot be written."""
        if self.path is None:
            raise ConfigEditError("this document has no file to save to")
        target = Path(os.path.abspath(self.path))
        data = (UTF8_BOM if self._bom else b"") + self._text.encode("utf-8", "surrogateescape")
        with edit_lock(target):
            create_file(target, data)
        self._saved_text = self._text
        self._disk_digest = sha256(data)

    def _refuse_conflict(self, target: Path) -> None:
        if digest_on_disk(target) != self._disk_digest:
            raise ConfigConflict(
                f"{self.path} changed on disk since it was loaded; reload it, or compare "
                "the two versions before saving"
            )


def yaml_inline(value: object) -> str:
    """`value` (plain data) on one line, as `set` writes it: flow style, and quoted only
    where the loader would read it back as something else (or it holds a control
    character, which YAML escapes)."""
    return inline_text(plain(value, ""), None)
