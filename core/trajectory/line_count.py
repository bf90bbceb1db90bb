"""Counting the lines of a trajectory file without indexing it (the file list)."""

from __future__ import annotations

import gzip
import zlib
from pathlib import Path

_READ_BLOCK = 1 << 20


def count_lines(path: Path) -> int:
    """Lines in a `.jsonl` or `.jsonl.gz` file, a last line without newline included.
    Raises OSError like any read (a corrupt archive included), and EOFError for a
    cut-off archive."""
    opener = gzip.open if path.name.endswith(".gz") else open
    count = 0
    last = b"\n"
    try:
        with opener(path, "rb") as stream:
            while chunk := stream.read(_READ_BLOCK):
                count += chunk.count(b"\n")
                last = chunk[-1:]
    except zlib.error as exc:
        # Callers handle unreadable files as OSError; a corrupt archive is one.
        raise OSError(f"{path.name}: corrupt gzip data ({exc})") from None
    return count + (0 if last == b"\n" else 1)
