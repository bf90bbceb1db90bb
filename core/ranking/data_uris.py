"""A data URI's payload left out of a file's text: an image shown inline in a page
(Laravel's mcp.md, `![Authorization screen example](data:image/png;base64,iVBORw0...)`,
35 KB of base64), an icon in a stylesheet (`url(data:image/svg+xml,%3Csvg...)`). No one
reads it: it is shown as `…` after its media type (`data:image/png;base64,…`), so it
neither makes the page machine data, nor weighs in ranking, nor is served (and counted)
as text. Line numbers are kept: a payload is written on one line."""

from __future__ import annotations

import re

PAYLOAD_MARK = "…"
# A payload shorter than this is left as written (`data:,Hello%2C%20World`): a reader
# reads it, and it is no burden.
SHORTEST_LEFT_OUT = 64
# `data:` and a media type with its parameters, then the payload: base64, or
# percent-encoded (a quote, a parenthesis or a space ends it, as it ends a link).
_DATA_URI = re.compile(
    r"\bdata:[a-z]+/[\w.+-]+(?:;[\w.+-]+=[\w.+\"-]+)*(?:;base64)?,"
    rf"([A-Za-z0-9+/_%-]{{{SHORTEST_LEFT_OUT},}}=*)",
    re.IGNORECASE,
)


def without_data_payloads(text: str) -> str:
    """`text` with each data URI's payload shown as PAYLOAD_MARK; the text itself when it
    holds none."""
    if "data:" not in text:
        return text
    return _DATA_URI.sub(_payload_left_out, text)


def _payload_left_out(found: re.Match[str]) -> str:
    return found.group()[: found.start(1) - found.start()] + PAYLOAD_MARK
