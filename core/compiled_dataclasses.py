"""Dataclass methods compiled once, not at every start.

`@dataclass` writes each class's `__init__`, `__eq__`, `__repr__`... as source text and
compiles it when the module is imported: about 0.8 ms a class, some 40 ms of every
`tierscope query` (the data flowing through a query is frozen dataclasses). Python keeps
compiled modules in `.pyc` files; this keeps those generated functions the same way: their
code objects, keyed by the exact source text and the interpreter's bytecode magic, in one
file of the user cache directory. A key that is not there is compiled as usual.

The hook is a module global `exec` in `dataclasses` (the name `_create_fn` calls), so it
touches nothing but the compilation of generated dataclass methods.

`dataclasses` itself imports `inspect` (with `ast`, `dis`, `tokenize`: ~10 ms, a third of
a headless query's start) for one call, made only for a class without a docstring, and
`copy` (with `weakref`, ~1 ms) for `asdict` and `astuple`. This module imports
`dataclasses` first, with stand-ins that import the real modules on first use; every
dataclass a query uses has a docstring, and a query copies none, so a query never does (a
test holds it). Any other importer of `inspect` or `copy` gets the real module, as always.
"""

from __future__ import annotations

import atexit
import importlib
import marshal
import os
import sys
import types
from importlib._bootstrap_external import MAGIC_NUMBER  # as importlib.util names it

from .debugging import report_exception
from .marshal_cache import cache_path, load_dict

_DEFERRED = ("inspect", "copy")


class _OnFirstUse(types.ModuleType):
    """What `dataclasses` holds as one of _DEFERRED: the real module's attributes, the
    real module imported the first time one is asked for."""

    def __getattr__(self, name: str) -> object:
        if sys.modules.get(self.__name__) is self:
            del sys.modules[self.__name__]
        return getattr(importlib.import_module(self.__name__), name)


def _import_dataclasses() -> None:
    """Import `dataclasses` holding stand-ins for the modules it uses in rare calls
    (unless it is already imported: then there is nothing left to save)."""
    if "dataclasses" in sys.modules:
        return
    stand_ins = {name: _OnFirstUse(name) for name in _DEFERRED if name not in sys.modules}
    sys.modules.update(stand_ins)
    try:
        import dataclasses  # noqa: F401
    finally:
        # Only `dataclasses` holds the stand-ins; the next import of either is the real one.
        for name, stand_in in stand_ins.items():
            if sys.modules.get(name) is stand_in:
                del sys.modules[name]


# source text -> its marshalled code object, turned into code only when asked for: a start
# uses some of the entries, and making a code object costs more than reading its bytes.
# Only the methods of tierscope's own dataclasses: the workbench imports Textual, the MCP
# server its SDK, and every start reads the whole file.
_code: dict[str, bytes] = {}
_added = False
_used: set[str] = set()  # the entries this start used or added
# At most this many entries are written (a query uses about 350, the workbench about as
# many more); past it, those this start used are kept first. Methods of dataclasses an
# older tierscope had go this way.
_MAX_ENTRIES = 2_000
_OWN_PACKAGE = __name__.partition(".")[0]
# Earlier formats, each removed once this one is written: v1 compiled the methods
# inheriting this module's future flags; v2 kept any package's dataclasses.
_OLD_FORMATS = ("dataclass-code-{magic}.marshal", "dataclass-code-v2-{magic}.marshal")


def _cache_file() -> str:
    return cache_path(f"dataclass-code-v3-{MAGIC_NUMBER.hex()}.marshal")


def _load(path: str) -> dict[str, bytes]:
    loaded = load_dict(path, "dataclass code cache")
    return {k: v for k, v in loaded.items() if isinstance(k, str) and isinstance(v, bytes)}


def _save(path: str) -> None:
    """Write the cache atomically (a temp file renamed over it); any failure is silent:
    the next start compiles again."""
    if not _added:
        return
    # Imported here, at exit: this module runs first at every start, and a start needs
    # nothing of it.
    import contextlib

    from .file_replace import replace_file

    kept = _code
    if len(kept) > _MAX_ENTRIES:
        first = sorted(kept, key=lambda source: source not in _used)  # a stable sort
        kept = {source: kept[source] for source in first[:_MAX_ENTRIES]}
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        replace_file(path, marshal.dumps(kept), new_file_mode=0o600)
    except (OSError, ValueError):
        report_exception(f"cannot write the dataclass code cache {path}")
        return
    # This interpreter's cache in an earlier format is read by no version now.
    for old in _OLD_FORMATS:
        with contextlib.suppress(OSError):
            os.unlink(cache_path(old.format(magic=MAGIC_NUMBER.hex())))


def _exec(source, globals=None, locals=None):
    global _added
    if not isinstance(source, str):
        return exec(source, globals, locals)
    own = _is_own(globals)
    code = None
    if own:
        _used.add(source)
        compiled = _code.get(source)
        if compiled is not None:
            try:
                code = marshal.loads(compiled)
            except (EOFError, ValueError, TypeError):
                code = None
    if code is None:
        # As `exec` compiles it: without this module's `from __future__ import
        # annotations`, which would leave the methods' annotations as strings.
        code = compile(source, "<dataclass>", "exec", dont_inherit=True)
        if own:
            _code[source] = marshal.dumps(code)
            _added = True
    return exec(code, globals, locals)


def _is_own(namespace: object) -> bool:
    """Whether a dataclass's methods are made in a module of tierscope's (`dataclasses`
    hands them the namespace of the class's module)."""
    name = namespace.get("__name__") if isinstance(namespace, dict) else None
    return isinstance(name, str) and name.partition(".")[0] == _OWN_PACKAGE


def install() -> None:
    """Serve dataclass methods from the cache from now on (once per process)."""
    _import_dataclasses()
    import dataclasses

    if getattr(dataclasses, "exec", None) is _exec or os.environ.get("TIERSCOPE_NO_CODE_CACHE"):
        return
    if sys.flags.dont_write_bytecode:  # the user asked Python not to cache compiled code
        return
    path = _cache_file()
    _code.update(_load(path))
    dataclasses.exec = _exec  # type: ignore[attr-defined]
    atexit.register(_save, path)
