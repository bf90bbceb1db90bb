"""Telling machine data from text by content: minified code and one-line records, and
base64 blobs, which a file's name does not always give away."""

from __future__ import annotations

import re

LONG_LINE = 1000
_BASE64_RUN = re.compile(r"[A-Za-z0-9+/]{200,}={0,2}")


def machine_data_kind(text: str) -> str | None:
    """ "minified or one-line data", "base64 data", or None for text a person would read.
    Judged on share of characters: a long table row in a long document is still text."""
    total = len(text)
    if total < 2000:
        return None
    in_long_lines = sum(len(line) for line in text.split("\n") if len(line) > LONG_LINE)
    if in_long_lines * 2 >= total:
        return "minified or one-line data"
    encoded = sum(len(run) for run in _BASE64_RUN.findall(text))
    if encoded * 2 >= total:
        return "base64 data"
    return None
