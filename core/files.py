"""Reading a project file as untrusted input: only a regular file inside the root, never
blocking (a FIFO or device is refused, not opened for a read that waits), never larger than
the cap, decoded whatever its encoding claims to be."""

from __future__ import annotations

import codecs
import errno
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from .debugging import report_exception
from .project import is_inside

BINARY_SNIFF = 8192
# Why a file that is a symbolic link is not read: links are never followed (DESIGN §7).
SYMBOLIC_LINK = "a symbolic link, not followed"
_OPEN_FLAGS = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | os.O_CLOEXEC
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


@dataclass(frozen=True, slots=True)
class TextFile:
    """A file's decoded text, its size in bytes and modification time when read."""

    text: str
    size: int
    mtime_ns: int
    # The bytes a search reads, as ripgrep counts them: a file with a BOM is read as its
    # text in UTF-8, without the BOM (UTF-16 transcoded); any other file as it is.
    searched: int


class Unreadable(Exception):
    """Why a file was not read (a one-line reason for the trace)."""


class BinaryFile(Unreadable):
    """The file holds binary data (a NUL byte near its start, and no BOM)."""


_BOM_STARTS = tuple(bom for bom, _ in _BOMS)


def decode(data: bytes) -> str:
    """Text of a file's bytes: a BOM names the encoding (UTF-16 and UTF-32 included);
    otherwise UTF-8, undecodable bytes replaced. Raises Unreadable for binary data."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return data.decode(encoding, "replace")
    if b"\0" in data[:BINARY_SNIFF]:
        raise BinaryFile("binary")
    return data.decode("utf-8", "replace")


def _opened_path(fd: int) -> Path | None:
    """Where an open descriptor really points (Linux), to check containment after open."""
    try:
        return Path(os.readlink(f"/proc/self/fd/{fd}"))
    except OSError:
        return None


def read_head(path: Path, size: int) -> bytes:
    """The first `size` bytes of a regular file; b"" for anything else (a FIFO, a device,
    a link, a file that cannot be opened), never waiting."""
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except OSError:
        return b""
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return b""
        return _read_up_to(fd, size)
    except OSError:
        report_exception(f"reading {path} failed after it was opened; read as empty")
        return b""
    finally:
        os.close(fd)


def read_text_file(path: Path, root: Path, max_bytes: int) -> TextFile:
    """The text of `path`, which must be a regular file inside `root` (resolved). Raises
    Unreadable with the reason otherwise."""
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except FileNotFoundError as exc:
        raise Unreadable("no longer exists") from exc
    except OSError as exc:
        if exc.errno == errno.ELOOP and path.is_symlink():
            raise Unreadable(SYMBOLIC_LINK) from exc
        raise Unreadable(f"cannot open: {exc.strerror or exc}") from exc
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise Unreadable("not a regular file")
        real = _opened_path(fd) or Path(os.path.realpath(path))
        if not is_inside(real, root):
            raise Unreadable("outside the project root")
        if info.st_size > max_bytes:
            raise Unreadable(f"larger than {max_bytes} bytes")
        data = _read_up_to(fd, max_bytes + 1)
        if len(data) > max_bytes:
            raise Unreadable(f"larger than {max_bytes} bytes")
        text = decode(data)
        searched = len(data)
        if data.startswith(_BOM_STARTS):
            searched = len(text.removeprefix("\ufeff").encode("utf-8", "surrogatepass"))
        return TextFile(text, len(data), info.st_mtime_ns, searched)
    finally:
        os.close(fd)


def _read_up_to(fd: int, limit: int) -> bytes:
    """At most `limit` bytes from `fd`, fewer at the end of the file."""
    chunks: list[bytes] = []
    while limit > 0:
        chunk = os.read(fd, min(limit, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        limit -= len(chunk)
    return b"".join(chunks)
