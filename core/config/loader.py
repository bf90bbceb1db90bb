"""Find and read the project's config. A broken file never stops a query: every value that
cannot be used becomes a `ConfigProblem` (with file:line) and its default is kept."""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Mapping
from pathlib import Path

from ..project import is_inside
from .model import Config, ConfigProblem, ConfigSource

SECTION = "qmd_context"
PROJECT_CONFIG_NAMES = (".tierscope.yaml", ".loa.config.yaml")
# A config is a few kilobytes; anything this large is a mistake or an attack.
MAX_CONFIG_BYTES = 1 << 20


def discover_config(root: Path, explicit: str | None = None) -> ConfigSource:
    """Which config file applies, and why: --config > $TIERSCOPE_CONFIG > $QMD_CONFIG_FILE
    > <root>/.tierscope.yaml > <root>/.loa.config.yaml > built-in defaults."""
    if explicit:
        return ConfigSource(_absolute(explicit, Path.cwd()), "--config")
    for variable in ("TIERSCOPE_CONFIG", "QMD_CONFIG_FILE"):
        value = os.environ.get(variable)
        if value:
            return ConfigSource(_absolute(value, Path.cwd()), f"${variable}")
    for name in PROJECT_CONFIG_NAMES:
        candidate = root / name
        if candidate.is_file():
            return ConfigSource(candidate, f"found {name} in the project root")
    return ConfigSource(None, "no config file found; built-in defaults")


def _absolute(value: str, base: Path) -> Path:
    path = Path(value).expanduser()
    return path if path.is_absolute() else base / path


class ConfigRefused(OSError):
    """A config file that is not read at all: too large, not a regular file, or the
    project's own file linking out of the project."""


LINKED_OUT = "a symbolic link out of the project"


def links_out(path: Path, root: Path) -> bool:
    """Whether `path`, a config file in the project's root, is a symbolic link to a file
    outside the project: not the project's to read (its values would be echoed)."""
    return path.parent == root and not is_inside(path.resolve(), root.resolve())


def read_config_bytes(path: Path, root: Path | None = None) -> bytes:
    """The bytes of a config file, read within bounds: a regular file (a FIFO would block
    the query) of at most MAX_CONFIG_BYTES (a huge file costs seconds and gigabytes to
    parse); with the project's `root`, not its own file linking out of it (links_out).
    Raises FileNotFoundError, ConfigRefused, or OSError for a failed read."""
    if root is not None and links_out(path, root):
        raise ConfigRefused(errno.EACCES, LINKED_OUT)
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            raise ConfigRefused(errno.EINVAL, "not a regular file")
        with os.fdopen(descriptor, "rb", closefd=False) as stream:
            data = stream.read(MAX_CONFIG_BYTES + 1)
    finally:
        os.close(descriptor)
    if len(data) > MAX_CONFIG_BYTES:
        raise ConfigRefused(
            errno.EFBIG,
            f"larger than {MAX_CONFIG_BYTES >> 20} MiB ({max(info.st_size, len(data)):,} bytes)",
        )
    return data


def read_config_text(path: Path, root: Path | None = None) -> str:
    """`read_config_bytes` decoded as the loader reads it (UTF-8, bad bytes replaced)."""
    return read_config_bytes(path, root).decode("utf-8", errors="replace")


def unreadable_reason(exc: OSError) -> str:
    """Why a config file could not be used, in a few words."""
    if isinstance(exc, FileNotFoundError):
        return "file not found"
    if isinstance(exc, ConfigRefused):
        return exc.strerror or str(exc)
    return f"cannot read ({exc.strerror or exc})"


def load_config(root: Path, explicit: str | None = None) -> Config:
    source = discover_config(root, explicit)
    if source.path is None:
        return Config(source=source)
    if links_out(source.path, root):
        problem = ConfigProblem(f"{LINKED_OUT}; not read; using defaults", str(source.path))
        return Config(source=source, problems=(problem,))
    try:
        text = read_config_text(source.path)
    except OSError as exc:
        problem = ConfigProblem(f"{unreadable_reason(exc)}; using defaults", str(source.path))
        return Config(source=source, problems=(problem,))
    return parse_config(text, source, remember=True)


def parse_config(text: str, source: ConfigSource, *, remember: bool = False) -> Config:
    """Overlay the `qmd_context` section of `text` on the defaults. With `remember` (a
    project's config file, read by every query), the parse is kept in the user cache and
    the same text is not parsed again (parse_cache)."""
    # Imported here: a project without a config file never pays for the YAML parser, nor
    # for the declarations the section is checked against.
    from . import parse_cache
    from .section_reader import SectionReader

    file = str(source.path) if source.path else "<config>"
    parsed = parse_cache.lookup(text, SECTION) if remember else None
    if parsed is None:
        from .yaml_nodes import YamlSyntaxError, load_located

        try:
            located = load_located(text, only_key=SECTION)
        except YamlSyntaxError as exc:
            problem = ConfigProblem(f"invalid YAML ({exc}); using defaults", file, exc.line)
            return Config(source=source, problems=(problem,))
        parsed = (located.data, located.lines)
        if remember:
            parse_cache.remember(text, SECTION, *parsed)
    document, lines = parsed
    reader = SectionReader(lines, file)
    if document is None:
        return Config(source=source)
    if not isinstance(document, Mapping):
        reader.problem("", "the file is not a mapping; using defaults")
        return Config(source=source, problems=tuple(reader.problems))
    section = document.get(SECTION)
    if section is None:
        return Config(source=source)
    if not isinstance(section, Mapping):
        reader.problem(SECTION, "must be a mapping; using defaults")
        return Config(source=source, problems=tuple(reader.problems))
    return reader.read(section, source)
