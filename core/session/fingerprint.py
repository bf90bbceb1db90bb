"""What a session remembers of a section it sent: a hash of the whole text (the same
section found again, under any name) and a hash per line (a section that overlaps one
sent before, for the lines they share)."""

from __future__ import annotations

from zlib import crc32

try:
    # hashlib would load OpenSSL first (about 2.5 ms a query); BLAKE2 is built in.
    from _blake2 import blake2b
except ImportError:  # an interpreter without the built-in module
    from hashlib import blake2b

LINE_HASH_WIDTH = 8  # hex digits per line hash


def content_hash(text: str) -> str:
    """16 hex digits of BLAKE2b over the UTF-8 text."""
    return blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


def line_hash(line: str) -> str:
    """CRC-32 of one line, 8 hex digits: compared only with the line at the same number
    of the same file, so a chance match needs both and is 1 in 4 billion."""
    return f"{crc32(line.encode('utf-8', 'surrogatepass')):08x}"
