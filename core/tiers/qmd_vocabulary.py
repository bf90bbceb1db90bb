"""The tokens of qmd's index, for finding a query word inside a token.

qmd's tokenizer splits no identifier: `Tree.NodeCollapsed` is the tokens `tree` and
`nodecollaps`, which the prefix "collaps"* never matches, though the grep tier counts the
word there. The index's vocabulary lists every token; a stem of INNER_STEM_LENGTH letters
or more is also searched as each token holding it after the token's start (qmd_fts). The
ranking core, reading the files, then counts it only where it starts a word part
(`NodeCollapsed` counts, `uncollapsible` does not).

Listing the vocabulary costs a pass over the whole index (80 ms for 1,000 files; at most
LISTING_SECONDS, keeping LISTED_TOKENS tokens), so the list is kept in the user cache,
keyed by the index file's and its write-ahead log's size and modification time: any write
to the index lists it again. Only which documents are worth reading depends on it; what
they say is always read from the files.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable, Mapping
from pathlib import Path

from ..marshal_cache import data_cache_path, keep_entry, load_dict
from .base import Deadline

# A shorter stem is inside too many tokens (`ui` in `build`).
INNER_STEM_LENGTH = 4
# At most this many tokens a stem, those in the most documents first.
INNER_TOKENS = 50
# Listing stops after this long: an index too large to list so quickly is searched by
# prefixes only, and not listed again until it changes (the tier's timeout is for the
# search, not for this).
LISTING_SECONDS = 0.5
# At most this many tokens are kept, those in the most documents first (about 10 bytes
# each: the cache's entries stay well under its size limit).
LISTED_TOKENS = 60_000
_ENTRIES = 4  # the vocabularies of the indexes in use
_PROGRESS_STEPS = 1000


def inner_tokens(
    conn: sqlite3.Connection,
    index_file: Path,
    stems: Mapping[str, str],
    deadline: Deadline,
) -> dict[str, list[str]]:
    """Per term key, the index's tokens holding one of its `stems` (stem -> term key) after
    their start (`nodecollaps` for `collaps`), at most INNER_TOKENS a stem, those in the
    most documents first. Empty when the vocabulary cannot be listed in time."""
    wanted = {stem: key for stem, key in stems.items() if len(stem) >= INNER_STEM_LENGTH}
    if not wanted:
        return {}
    listed = vocabulary(conn, index_file, deadline)
    found: dict[str, list[str]] = {}
    for stem, key in wanted.items():
        tokens = _holding(listed, stem)
        if tokens:
            found.setdefault(key, []).extend(tokens)
    return found


def _holding(listed: str, stem: str) -> list[str]:
    """The first INNER_TOKENS tokens of `listed` (one a line) holding `stem` after their
    start, found with `str.find` (a pattern anchored on lines took 3 ms a stem on the
    20,000 tokens of 1,000 files)."""
    tokens: list[str] = []
    at = listed.find(stem)
    while at != -1 and len(tokens) < INNER_TOKENS:
        start = listed.rfind("\n", 0, at) + 1
        end = listed.find("\n", at)
        end = len(listed) if end == -1 else end
        token = listed[start:end]
        # Letters and digits only: a line of a planted cache file could hold MATCH syntax.
        if start < at and token.isalnum():
            tokens.append(token)
        at = listed.find(stem, end)
    return tokens


def vocabulary(conn: sqlite3.Connection, index_file: Path, deadline: Deadline) -> str:
    """The index's tokens, one a line, those in the most documents first: from the cache
    when the index has not changed since it was listed, else listed and kept. An index
    not listed within LISTING_SECONDS is kept as an empty listing."""
    key = _index_key(index_file)
    cache = _cache_file()
    if key is not None and cache is not None:
        kept = load_dict(cache, "qmd vocabulary cache").get(key)
        if isinstance(kept, str):
            return kept
    listing = Deadline.after(min(LISTING_SECONDS, deadline.remaining()), deadline.cancel)
    listed = _list_tokens(conn, listing)
    if listed is None and (deadline.expired() or deadline.cancelled):
        return ""  # the query's own time ran out: the next query may list it
    if key is not None and cache is not None:
        # An index not listed in time is remembered so, as an empty listing.
        keep_entry(cache, key, listed or "", _ENTRIES, "qmd vocabulary cache")
    return listed or ""


def _index_key(index_file: Path) -> tuple | None:
    """What changes whenever qmd writes the index: its path, and the size and modification
    time of it and of its write-ahead log."""
    parts: list[object] = [os.path.realpath(index_file)]
    for path in (str(index_file), f"{index_file}-wal"):
        try:
            found = os.stat(path)
        except FileNotFoundError:
            parts += [None, None]
            continue
        except OSError:
            return None
        parts += [found.st_size, found.st_mtime_ns]
    return tuple(parts)


def _list_tokens(conn: sqlite3.Connection, deadline: Deadline) -> str | None:
    """The tokens, one a line, those in the most documents first; None when SQLite fails
    or `deadline` passes first."""
    if deadline.expired() or deadline.cancelled:
        return None
    conn.set_progress_handler(
        lambda: 1 if deadline.expired() or deadline.cancelled else 0, _PROGRESS_STEPS
    )
    try:
        conn.execute(
            "CREATE VIRTUAL TABLE IF NOT EXISTS temp.vocabulary"
            " USING fts5vocab(main, documents_fts, row)"
        )
        rows = conn.execute(
            "SELECT term FROM temp.vocabulary ORDER BY doc DESC LIMIT ?", (LISTED_TOKENS,)
        ).fetchall()
    except sqlite3.Error:
        return None
    finally:
        conn.set_progress_handler(None, 0)
    return "\n".join(_tokens(row[0] for row in rows))


def _tokens(terms: Iterable[object]) -> Iterable[str]:
    """Tokens as a MATCH expression may quote them: letters and digits (qmd's unicode61
    tokenizer makes no other), none holding a line break."""
    return (term for term in terms if isinstance(term, str) and term.isalnum())


def _cache_file() -> str | None:
    return data_cache_path("qmd-vocabulary-v1.marshal")
