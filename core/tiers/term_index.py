"""The term index: what every file of a project held when `tierscope index` last read it,
so a query on a large project need not read every file again.

Per file: its path, the `stat` it had when read (size, mtime, ctime, inode), its kind
(text, binary, not read) and the bytes a search reads of it. Per token (a run of letters,
digits, `_`, `-` and `.`: no match of a query term crosses anything else, see
matching.py), the files holding it and how often. With them, the files each scope's search
reads, and what decided that (cached_listing.py). A query finds its terms' matches in the
index's list of tokens with the same matcher it would run over the files' text, so a file
unchanged since it was read counts exactly as if it were read now; a file whose `stat`
differs is read again.

One file in the user cache (see `index_path`), written whole under a new name then
renamed. Anything wrong with it (missing, truncated, planted, another version, another
root's) reads as no index: the query scans as usual.
"""

from __future__ import annotations

import marshal
import os
import re
import struct
import sys
import zlib
from array import array
from bisect import bisect_right
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from ..marshal_cache import cache_path

VERSION = 2  # 2: a token may hold a backslash (roff's `escape\-time` is one name)
MAGIC = b"tierscope-terms\n"
_HEADER = struct.Struct("<16sIQQQQQQQ")  # magic, version, then the seven parts' lengths
# A file modified this close to when it was read may have changed again without its
# `stat` showing it: the build waits the window out and reads it again; one still
# changing then is never trusted (read at every query).
RACY_NS = 2_000_000_000
TOKEN = re.compile(r"[\w.\-\\]+")
_OPEN_FLAGS = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | os.O_CLOEXEC
NEVER = -1  # the mtime kept for a file never trusted
# A posting is one 32-bit number: the file's number shifted past 8 bits, and how often the
# token occurs in it; MANY there means the count follows as a number of its own.
MANY = 0xFF
MAX_FILES = 1 << 24
# What an indexed file is: text (its tokens counted), binary (no search counts anything in
# it), or not read (larger than the size cap, or unreadable: listed, so that a change to
# it is seen, and read at a query once it has changed).
TEXT, BINARY, NOT_READ = 0, 1, 2
# Per file: size, mtime, ctime, inode (its `stat` when read), kind, bytes searched.
FIELDS = 6


@dataclass(frozen=True, slots=True)
class IndexedFile:
    """A file as read: where, its `stat` then, and its kind (TEXT, BINARY, NOT_READ)."""

    path: str
    size: int
    mtime_ns: int  # NEVER: not to be trusted
    ctime_ns: int
    inode: int
    kind: int
    searched: int = 0  # the bytes a search reads (files.TextFile.searched); 0 but for text


def stat_key(info: os.stat_result) -> tuple[int, int, int, int]:
    """What must be as it was for a file's counts to be trusted."""
    return (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino)


def index_path(root: Path) -> str:
    """The index of the project at `root`, named by checksums of the root's path (the
    root is also kept inside: an index of another root is never used)."""
    name = os.fsencode(str(root))
    digest = f"{zlib.crc32(name):08x}{zlib.adler32(name):08x}"
    return cache_path(os.path.join("term-index", f"{digest}.bin"))


def count_tokens(text: str) -> dict[str, int]:
    """How often each token occurs in `text`."""
    counts: dict[str, int] = {}
    for token in TOKEN.findall(text):
        counts[token] = counts.get(token, 0) + 1
    return counts


class Postings:
    """Per token, the files holding it and how often, gathered file by file (a file's
    own counts are not kept once added: a large project's would not fit in memory)."""

    def __init__(self) -> None:
        self.by_token: dict[str, array] = {}

    def add(self, number: int, counted: dict[str, int]) -> None:
        """What file number `number` holds."""
        if number >= MAX_FILES:
            raise ValueError(f"more than {MAX_FILES} files: too many for the term index")
        by_token = self.by_token
        for token, count in counted.items():
            found = by_token.get(token)
            if found is None:
                found = by_token[token] = array("I")
            if count < MANY:
                found.append(number << 8 | count)
            else:
                found.append(number << 8 | MANY)
                found.append(count)


def write_index(
    path: str,
    root: Path,
    built_ns: int,
    files: list[IndexedFile],
    gathered: Postings,
    listing: dict | None = None,
) -> int:
    """Writes the index of `files`, whose tokens `gathered` holds, with the listing a
    query may take as it was (cached_listing.py); returns its size in bytes."""
    postings = gathered.by_token
    vocabulary = sorted(postings)
    offsets = array("Q", [0])
    body = array("I")
    for token in vocabulary:
        body.extend(postings[token])
        offsets.append(len(body))
    meta = marshal.dumps(
        {"root": str(root), "built_ns": built_ns, "listing": listing, "order": sys.byteorder}
    )
    paths = "\0".join(f.path for f in files).encode("utf-8", "surrogatepass")
    numbers = array("q")
    for f in files:
        numbers.extend((f.size, f.mtime_ns, f.ctime_ns, f.inode, f.kind, f.searched))
    words = "\n".join(vocabulary).encode("utf-8", "surrogatepass")
    starts = array("I")  # where each token starts in the vocabulary's text
    at = 0
    for token in vocabulary:
        starts.append(at)
        at += len(token) + 1
    parts = [
        meta, paths, numbers.tobytes(), words, starts.tobytes(), offsets.tobytes(), body.tobytes()
    ]  # fmt: skip
    header = _HEADER.pack(MAGIC, VERSION, *(len(part) for part in parts))
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    # A new file of our own (never an existing one, nor through a link), then renamed.
    temporary = f"{path}.{os.getpid()}.{os.urandom(4).hex()}.tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | os.O_CLOEXEC
    try:
        with open(os.open(temporary, flags, 0o600), "wb") as handle:
            handle.write(header)
            for part in parts:
                handle.write(part)
        os.replace(temporary, path)
    finally:
        if os.path.lexists(temporary):
            os.unlink(temporary)
    return _HEADER.size + sum(len(part) for part in parts)


class BrokenIndex(Exception):
    """The index file cannot be used (the reason is the message)."""


class TermIndex:
    """An index file opened for lookups: its files, its tokens, and each token's postings
    read from the file when asked for."""

    def __init__(self, fd: int, meta: dict, raw_paths: list[bytes], numbers, vocabulary):
        self._fd = fd
        self.root = str(meta["root"])
        self.built_ns = int(meta["built_ns"])
        listing = meta.get("listing")
        self.listing: dict | None = listing if isinstance(listing, dict) else None
        self.raw_paths = raw_paths  # UTF-8; a file's number is its place here
        self.numbers = numbers  # FIELDS numbers per file
        self.vocabulary = vocabulary  # tokens, one per line; a token's number is its line
        self.starts = array("I")  # where each line starts
        self.tokens = 0
        self._offsets_start = self._body_start = self._body_size = 0

    @cached_property
    def paths(self) -> list[str]:
        return [raw.decode("utf-8", "surrogatepass") for raw in self.raw_paths]

    def path(self, number: int) -> str:
        """One file's path (`paths` decodes them all)."""
        return self.raw_paths[number].decode("utf-8", "surrogatepass")

    @classmethod
    def open(cls, path: str) -> TermIndex:
        """Raises BrokenIndex (FileNotFoundError when there is none)."""
        fd = os.open(path, _OPEN_FLAGS)
        try:
            return cls._read(fd)
        except BrokenIndex:
            os.close(fd)
            raise
        except (OSError, ValueError, TypeError, EOFError, KeyError, struct.error) as exc:
            os.close(fd)
            raise BrokenIndex(f"unreadable: {exc}") from exc

    @classmethod
    def _read(cls, fd: int) -> TermIndex:
        head = os.pread(fd, _HEADER.size, 0)
        if len(head) != _HEADER.size:
            raise BrokenIndex("truncated")
        magic, version, *lengths = _HEADER.unpack(head)
        if magic != MAGIC or version != VERSION:
            raise BrokenIndex("another format")
        meta_size, paths_size, numbers_size, words_size, starts_size, offsets_size, body_size = (
            lengths
        )
        front = meta_size + paths_size + numbers_size + words_size + starts_size
        if os.fstat(fd).st_size != _HEADER.size + front + offsets_size + body_size:
            raise BrokenIndex("truncated")
        data = os.pread(fd, front, _HEADER.size)
        if len(data) != front:
            raise BrokenIndex("truncated")
        view = memoryview(data)
        at = meta_size + paths_size
        meta = marshal.loads(view[:meta_size])
        if not isinstance(meta, dict):
            raise BrokenIndex("another format")
        if meta.get("order") != sys.byteorder:
            raise BrokenIndex("written on a machine of another byte order")
        raw_paths = bytes(view[meta_size:at]).split(b"\0") if paths_size else []
        numbers = array("q")
        numbers.frombytes(view[at : at + numbers_size])
        at += numbers_size
        words = str(view[at : at + words_size], "utf-8", "surrogatepass")
        starts = array("I")
        starts.frombytes(view[at + words_size :])
        tokens = len(starts)
        if (
            len(numbers) != FIELDS * len(raw_paths)
            or offsets_size != 8 * (tokens + 1)
            or (tokens and starts[-1] >= len(words))
        ):
            raise BrokenIndex("inconsistent")
        index = cls(fd, meta, raw_paths, numbers, words)
        index.starts = starts
        index.tokens = tokens
        index._offsets_start = _HEADER.size + front
        index._body_start = index._offsets_start + offsets_size
        index._body_size = body_size
        return index

    def stat_keys(self) -> list[tuple[int, int, int, int] | None]:
        """Each file's `stat_key` when it was read (None: never to be trusted)."""
        n = self.numbers
        return [
            None if n[at + 1] == NEVER else (n[at], n[at + 1], n[at + 2], n[at + 3])
            for at in range(0, len(n), FIELDS)
        ]

    def size(self, number: int) -> int:
        return self.numbers[FIELDS * number]

    def kind(self, number: int) -> int:
        return self.numbers[FIELDS * number + 4]

    def searched(self, number: int) -> int:
        return self.numbers[FIELDS * number + 5]

    def token_at(self, offset: int) -> int:
        """The number of the token holding `offset` of `vocabulary`."""
        token = bisect_right(self.starts, offset) - 1
        start = self.starts[token] if token >= 0 else -1
        if token < 0 or (start and self.vocabulary[start - 1] != "\n"):
            raise BrokenIndex("inconsistent")
        return token

    def postings(self, token: int) -> list[tuple[int, int]]:
        """(file number, occurrences) of each file holding token number `token`. Raises
        BrokenIndex when the index says otherwise than it can hold."""
        if not 0 <= token < self.tokens:
            raise BrokenIndex("no such token")
        bounds = array("Q")
        bounds.frombytes(os.pread(self._fd, 16, self._offsets_start + 8 * token))
        start, end = bounds
        if not start <= end <= self._body_size // 4:
            raise BrokenIndex("inconsistent")
        raw = os.pread(self._fd, (end - start) * 4, self._body_start + start * 4)
        data = array("I")
        data.frombytes(raw)
        low = 0 if sys.byteorder == "little" else 3  # where each entry keeps its count
        if bytes([MANY]) not in raw[low::4]:
            found = [(entry >> 8, entry & 0xFF) for entry in data]
        else:  # an entry saying MANY is followed by the count
            found, at = [], 0
            while at < len(data):
                entry = data[at]
                count = entry & 0xFF
                if count == MANY:
                    at += 1
                    if at == len(data):
                        raise BrokenIndex("inconsistent")
                    count = data[at]
                found.append((entry >> 8, count))
                at += 1
        if found and max(found)[0] >= len(self.raw_paths):
            raise BrokenIndex("inconsistent")
        return found

    def close(self) -> None:
        os.close(self._fd)

    def __enter__(self) -> TermIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
