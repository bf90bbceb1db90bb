"""Regular expressions compiled once, not at every start.

Python turns a pattern's text into its engine's code at every start (the `re` module's
cache lives only as long as the process): tierscope's modules compile over a hundred
patterns as they are imported, about 10 ms of every query. This keeps what the compiler
makes of each of those patterns (the engine's code, the pattern's flags and groups) in one
file of the user cache directory, keyed by the pattern's text and flags and the
interpreter's version, and hands it straight to the engine. The engine checks code it is
given before it uses it (`_sre.compile` validates it), so a broken entry is an error, and
an error means the pattern is compiled as usual.

Only patterns compiled by a module's top-level code are kept: those are the same at every
start. A pattern made from a query or a config is compiled as always, so what users type
never fills the file.

The hook is `re._compiler.compile`, which `re` calls for a pattern its in-process cache
does not hold; it reads the engine's arguments by lending `re._compiler` a stand-in for
the engine for the length of one compile.
"""

from __future__ import annotations

import atexit
import marshal
import os
import sys
import types
from re import _compiler, _constants  # type: ignore[attr-defined]

from .debugging import report_exception
from .marshal_cache import cache_path, load_dict

_RE_PACKAGE = os.path.dirname(_compiler.__file__)
_ENGINE = _compiler._sre
_ORIGINAL_COMPILE = _compiler.compile
_MAX_ENTRIES = 1000

# (pattern, flags as given) -> (flags, code, groups, groupindex, indexgroup): the
# engine's arguments after the pattern.
_entries: dict[tuple[str | bytes, int], tuple] = {}
_added = False


def _cache_file() -> str:
    version = f"{sys.implementation.cache_tag}-{sys.hexversion:x}-{_constants.MAGIC}"
    return cache_path(f"regex-code-v1-{version}.marshal")


def _load(path: str) -> dict[tuple[str | bytes, int], tuple]:
    loaded = load_dict(path, "regular expression cache")
    return {
        key: value
        for key, value in loaded.items()
        if isinstance(key, tuple)
        and len(key) == 2
        and isinstance(key[0], (str, bytes))
        and isinstance(key[1], int)
        and isinstance(value, tuple)
        and len(value) == 5
    }


def _save(path: str) -> None:
    """Write the cache atomically; any failure is silent: the next start compiles again."""
    if not _added:
        return
    from .file_replace import replace_file  # at exit: a start needs nothing of it

    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        replace_file(path, marshal.dumps(_entries), new_file_mode=0o600)
    except (OSError, ValueError):
        report_exception(f"cannot write the regular expression cache {path}")


class _RecordingEngine(types.ModuleType):
    """The engine as `re._compiler` sees it during one compile: the same, but the
    arguments of its `compile` are kept."""

    def __init__(self) -> None:
        super().__init__(_ENGINE.__name__)
        self.calls: list[tuple] = []

    def __getattr__(self, name: str) -> object:
        return getattr(_ENGINE, name)

    def compile(self, *arguments: object) -> object:
        self.calls.append(arguments)
        return _ENGINE.compile(*arguments)


def _compiled_at_import() -> bool:
    """Whether the pattern being compiled comes from a module's top-level code (the first
    caller outside the `re` package)."""
    try:
        frame: types.FrameType | None = sys._getframe(2)
    except ValueError:  # called with no caller above (not through `re`)
        return False
    while frame is not None and frame.f_code.co_filename.startswith(_RE_PACKAGE):
        frame = frame.f_back
    return frame is not None and frame.f_code.co_name == "<module>"


def _compile(pattern: object, flags: int = 0) -> object:
    global _added
    if not isinstance(pattern, (str, bytes)) or flags & _constants.SRE_FLAG_DEBUG:
        return _ORIGINAL_COMPILE(pattern, flags)
    key = (pattern, flags)
    known = _entries.get(key)
    if known is not None:
        try:
            return _ENGINE.compile(pattern, *known)
        except Exception:  # any fault in an entry means: compile it anew
            report_exception(f"a cached regular expression failed: {pattern!r}")
            _entries.pop(key, None)
    if not _compiled_at_import() or len(_entries) >= _MAX_ENTRIES:
        return _ORIGINAL_COMPILE(pattern, flags)
    recorder = _RecordingEngine()
    _compiler._sre = recorder
    try:
        compiled = _ORIGINAL_COMPILE(pattern, flags)
    finally:
        _compiler._sre = _ENGINE
    calls = [call for call in recorder.calls if call and call[0] == pattern]
    if len(calls) == 1 and len(calls[0]) == 6:
        flags_out, code, groups, groupindex, indexgroup = calls[0][1:]
        # The compiler's code holds named int constants; the engine takes any int.
        _entries[key] = (flags_out, [int(op) for op in code], groups, groupindex, indexgroup)
        _added = True
    return compiled


def install() -> None:
    """Serve module patterns from the cache from now on (once per process)."""
    if _compiler.compile is _compile or os.environ.get("TIERSCOPE_NO_CODE_CACHE"):
        return
    if sys.flags.dont_write_bytecode:  # the user asked Python not to cache compiled code
        return
    path = _cache_file()
    _entries.update(_load(path))
    _compiler.compile = _compile
    atexit.register(_save, path)
