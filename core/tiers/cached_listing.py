"""The files a scope's search reads, kept in the term index and taken as they were while
nothing that decides them has changed, so a query need not list them again.

Which files a search reads is decided by the names in each folder it walks, the ignore
files it reads (`.gitignore`, `.ignore`, `.rgignore`, `.git/info/exclude`) and the
settings (the filtering switches, the size cap, tierscope's private paths). A name added,
removed or renamed changes its folder's `stat`; so the index keeps the `stat` of every
folder the walk read and of every ignore file, and the listing is used only when all of
them, and the settings, are as they were. A folder whose `stat` changed is read again,
and passes if its entries (name and kind, tierscope's private paths left out) are those
it had: tierscope making its trajectory folder inside a searched one does not make every
later query list the files again. Anything else and the files are listed again.

The listing is kept only when the pure-Python walk (project_walk.py) and ripgrep list the
same files: the walk tells which folders were read, ripgrep is what would list them.
"""

from __future__ import annotations

import os
import stat
import zlib
from array import array
from pathlib import Path

from ..config.model import Config
from ..project import relative_source
from .term_index import NEVER, TermIndex

# Per watched path: size, mtime, ctime, inode, and for a folder its entries' checksum.
WATCHED_FIELDS = 5
NO_DIGEST = -1  # an ignore file: its `stat` alone decides


def watched_paths(root: Path, places: dict[str, list[int]], visited: list[Path]) -> list[str]:
    """What decides the listing of `places` (root-relative, "" the root): every folder the
    walk read, the folders above each place (the walk reads their ignore files too), and
    the ignore files in them."""
    from ..project_walk import IGNORE_FILES  # building only: a query never walks

    folders = dict.fromkeys(visited)
    for place in places:
        current = root
        for part in Path(place).parts[:-1]:
            folders[current] = None
            current = current / part
        folders[current] = None
    watched = [relative_source(folder, root) or "." for folder in folders]
    for folder in folders:
        for name in IGNORE_FILES:
            if os.path.isfile(folder / name):
                watched.append(relative_source(folder / name, root))
    for inside in (".git/info/exclude", ".git/info", ".git"):
        if os.path.exists(root / inside):
            watched.append(inside)
            break
    return watched


def record_listing(
    root: Path,
    config: Config,
    private_paths: tuple[Path, ...],
    places: dict[str, list[int]],
    watched: list[str],
    trusted_before_ns: int,
) -> dict:
    """What the index keeps of a listing: per place the numbers of its files, the
    settings, and the `stat` of every watched path. A `stat` modified at or after
    `trusted_before_ns` could stay as it is through a change in the same clock tick: a
    folder's entries then decide, and an ignore file is never trusted."""
    keys = array("q")
    kept = []
    private = _private_names(private_paths)
    for path in watched:
        try:
            info = os.stat(root / path, follow_symlinks=False)
        except OSError:
            continue
        mtime = NEVER if info.st_mtime_ns >= trusted_before_ns else info.st_mtime_ns
        entries = _entries_digest(root / path, private) if stat.S_ISDIR(info.st_mode) else NO_DIGEST
        if entries is None:
            continue
        keys.extend((info.st_size, mtime, info.st_ctime_ns, info.st_ino, entries))
        kept.append(path)
    return {
        "settings": _settings(config, private_paths),
        "places": {place: array("I", numbers).tobytes() for place, numbers in places.items()},
        "watched": "\0".join(kept),
        "keys": keys.tobytes(),
    }


def _private_names(private_paths: tuple[Path, ...]) -> set[str]:
    return {str(path) for path in private_paths}


def _entries_digest(folder: Path, private: set[str]) -> int | None:
    """A checksum of a folder's entries (name and kind), tierscope's private paths left
    out: what decides a listing when the folder's `stat` has changed for another reason
    (tierscope's own trajectory folder made inside it, a `touch`). None: unreadable."""
    try:
        with os.scandir(folder) as found:
            entries = sorted(
                f"{entry.name}\1{entry.is_dir(follow_symlinks=False):d}{entry.is_symlink():d}"
                for entry in found
                if os.path.join(folder, entry.name) not in private
            )
    except OSError:
        return None
    data = "\0".join(entries).encode("utf-8", "surrogateescape")
    return zlib.crc32(data) << 31 ^ zlib.adler32(data)  # 63 bits: two checksums


def _settings(config: Config, private_paths: tuple[Path, ...]) -> list:
    return [
        config.filtering.include_ignored,
        config.filtering.include_machine_data,
        config.grep.max_filesize,
        [str(path) for path in private_paths],
    ]


def cached_files(
    index: TermIndex,
    root: Path,
    grep_paths: tuple[Path, ...],
    config: Config,
    private_paths: tuple[Path, ...],
) -> tuple[list[int] | None, str]:
    """The numbers of the files under `grep_paths` as the index listed them, each once;
    None, and why, when that listing may no longer hold."""
    listing = index.listing
    if listing is None:
        return None, "the index keeps no listing"
    try:
        if listing["settings"] != _settings(config, private_paths):
            return None, "the filtering settings changed"
        places = listing["places"]
        wanted = [relative_source(path, root) for path in grep_paths]
        if any(place not in places for place in wanted):
            return None, "the scope names a path the index did not list"
        if not _unchanged(root, listing["watched"], listing["keys"], private_paths):
            return None, "files were added, removed or renamed, or ignore rules changed"
        listed = array("I")
        for place in wanted:
            listed.frombytes(places[place])
        # Places nested in others are resolved away (scopes.py); a file is listed twice
        # only under a path given twice.
        numbers = list(dict.fromkeys(listed)) if len(wanted) > 1 else listed.tolist()
        if numbers and max(numbers) >= len(index.raw_paths):
            return None, "the index's listing is unreadable"
    except (KeyError, TypeError, ValueError, IndexError):
        return None, "the index's listing is unreadable"
    return numbers, ""


def _unchanged(root: Path, watched: str, raw_keys: bytes, private_paths: tuple[Path, ...]) -> bool:
    """Whether every watched folder and ignore file is as it was: its `stat`, or for a
    folder whose `stat` changed, its entries."""
    keys = array("q")
    keys.frombytes(raw_keys)
    paths = watched.split("\0") if watched else []
    if len(keys) != WATCHED_FIELDS * len(paths):
        return False
    private: set[str] | None = None
    root_fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        for at, path in enumerate(paths):
            try:
                info = os.stat(path, dir_fd=root_fd, follow_symlinks=False)
            except OSError:
                return False
            size, mtime, ctime, inode, entries = keys[
                WATCHED_FIELDS * at : WATCHED_FIELDS * (at + 1)
            ]
            if (
                mtime != NEVER
                and info.st_mtime_ns == mtime
                and info.st_size == size
                and info.st_ctime_ns == ctime
                and info.st_ino == inode
            ):
                continue
            if entries == NO_DIGEST or not stat.S_ISDIR(info.st_mode):
                return False  # an ignore file changed, or a folder is no longer one
            if private is None:
                private = _private_names(private_paths)
            if _entries_digest(root / path, private) != entries:
                return False
    finally:
        os.close(root_fd)
    return True
