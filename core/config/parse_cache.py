"""Config files as parsed before: every query reads its project's config, and parsing it
means importing PyYAML (~20 ms, a third of a headless query's start). What a text parses
to (the data and the line of each key) is kept in one file of the user cache directory,
keyed by the whole text, so a query whose config has not changed does not import the
parser. A text not found there is parsed as usual, then kept; one that does not parse, or
parses to values marshal cannot keep (YAML timestamps), is parsed every time.

As the dataclass code cache (compiled_dataclasses), nothing is read or written when
Python is told not to write bytecode or TIERSCOPE_NO_CODE_CACHE is set, and a broken or
planted cache file only costs a parse: an entry is used only for the very same text.
"""

from __future__ import annotations

import marshal

from ..marshal_cache import data_cache_path, keep_entry, load_dict

_ENTRIES = 32  # texts kept (the newest): the configs of the projects in use

Parsed = tuple[object, dict[str, int]]  # the data, and "a.b.c" -> its 1-based line


def _cache_file() -> str | None:
    return data_cache_path("parsed-configs-v1.marshal")


def _load(path: str) -> dict:
    return load_dict(path, "parsed config cache")


def lookup(text: str, only_key: str) -> Parsed | None:
    """What `text` parsed to before (with `only_key`), or None."""
    path = _cache_file()
    if path is None:
        return None
    found = _load(path).get((only_key, text))
    if (
        isinstance(found, tuple)
        and len(found) == 2
        and isinstance(found[1], dict)
        and all(isinstance(k, str) and type(v) is int for k, v in found[1].items())
    ):
        return found[0], found[1]
    return None


def remember(text: str, only_key: str, data: object, lines: dict[str, int]) -> None:
    """Keep what `text` parsed to; any failure is silent (the next query parses again)."""
    path = _cache_file()
    if path is None:
        return
    try:
        entry = marshal.dumps((data, lines))  # type: ignore[arg-type]  # checked here
    except ValueError:  # a value marshal cannot keep (a YAML timestamp): not kept
        return
    # What is kept must read back as it was parsed (marshal keeps plain data exactly).
    if marshal.loads(entry) != (data, lines):
        return
    keep_entry(path, (only_key, text), (data, lines), _ENTRIES, "parsed config cache")
