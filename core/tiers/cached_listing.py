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
later query list the files again. Anything else and the files are listed again. A folder
found as it was is noted beside the index with its `stat` as found (FoldersFound): until
that changes, later queries need not read its entries again (a folder of 1,500 entries
took 3.5 ms at every query).

The listing is kept only when the pure-Python walk (project_walk.py) and ripgrep list the
same files: the walk tells which folders were read, ripgrep is what would list them.
"""

from __future__ import annotations

import marshal
import os
import stat
import zlib
from array import array
from pathlib import Path

from ..config.model import Config
from ..debugging import report_exception
from ..marshal_cache import load_dict
from ..project import relative_source
from .term_index import NEVER, TermIndex, index_path

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


FOLDERS_FOUND_SUFFIX = ".folders"


class FoldersFound:
    """The watched folders whose `stat` changed since the index was built and whose
    entries a query read again and found as they were, each with its `stat` as found. A
    folder's `stat` changes whenever its entries do, so while it holds, they are as they
    were. Kept beside the index, for that build of it only (its `built_ns`); read only
    once a folder's `stat` has changed."""

    def __init__(self, index: TermIndex, root: Path) -> None:
        self.index = index
        self.path = index_path(root) + FOLDERS_FOUND_SUFFIX
        self._known: dict | None = None
        self._added = False

    def _folders(self) -> dict:
        if self._known is None:
            loaded = load_dict(self.path, "term index's folders found")
            built = loaded.get("built_ns")
            folders = loaded.get("folders") if built == self.index.built_ns else None
            self._known = folders if isinstance(folders, dict) else {}
        return self._known

    def holds(self, path: str, key: tuple[int, int, int, int]) -> bool:
        """Whether `path` was found as it was with this `stat` (size, mtime, ctime, inode)."""
        return self._folders().get(path) == key

    def add(self, path: str, key: tuple[int, int, int, int]) -> None:
        self._folders()[path] = key
        self._added = True

    def save(self) -> None:
        """Written when a folder was added; a failure costs only a later read again."""
        if not self._added:
            return
        from ..file_replace import replace_file

        data = marshal.dumps({"built_ns": self.index.built_ns, "folders": self._known})
        try:
            replace_file(self.path, data, new_file_mode=0o600)
        except (OSError, ValueError):
            report_exception(f"cannot write {self.path}")


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
        found = FoldersFound(index, root)
        if not _unchanged(root, listing["watched"], listing["keys"], private_paths, found):
            return None, "files were added, removed or renamed, or ignore rules changed"
        found.save()
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


def _unchanged(
    root: Path,
    watched: str,
    raw_keys: bytes,
    private_paths: tuple[Path, ...],
    found: FoldersFound,
) -> bool:
    """Whether every watched folder and ignore file is as it was: its `stat`, or for a
    folder whose `stat` changed, its entries (or the `stat` it had when a query last found
    them as they were: `found`)."""
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
            now = (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino)
            if found.holds(path, now):
                continue
            if private is None:
                private = _private_names(private_paths)
            if _entries_digest(root / path, private) != entries:
                return False
            found.add(path, now)
    finally:
        os.close(root_fd)
    return True
