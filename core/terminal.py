"""Untrusted text made safe to print on a terminal.

Queries, file names, config values and logged records are all untrusted (DESIGN §7): an
escape sequence in any of them could retitle the window, clear the screen or hide lines
when echoed raw. Every command that echoes such text goes through `printable`; JSON
output goes through `json_for_terminal`.
"""

from __future__ import annotations

import re
from functools import cache

# C0 controls, DEL and C1 controls (a terminal may read U+009B as CSI), plus the Unicode
# bidirectional overrides and isolates, which reorder what the reader sees.
_CONTROL = r"[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]"
# JSON escapes C0 controls itself; C1 and the bidi controls pass through it verbatim.
_JSON_UNSAFE = r"[\x7f-\x9f\u202a-\u202e\u2066-\u2069]"


@cache
def _compiled(pattern: str) -> re.Pattern[str]:
    """Compiled when first needed (each costs a headless query ~0.4 ms to compile)."""
    return re.compile(pattern)


_KEPT_ON_LINES = frozenset("\t\n")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(char: str) -> str:
    code = ord(char)
    if char in _NAMED:
        return _NAMED[char]
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str, *, keep_newlines: bool = False) -> str:
    """`text` with every control character written as a visible escape (`\\x1b`).

    With `keep_newlines`, newlines and tabs stay (multi-line content); otherwise the
    result is one line, as a table row or a diagnostic must be.
    """
    control = _compiled(_CONTROL)
    if keep_newlines:
        return control.sub(
            lambda match: match[0] if match[0] in _KEPT_ON_LINES else _escape(match[0]), text
        )
    return control.sub(lambda match: _escape(match[0]), text)


def json_for_terminal(text: str) -> str:
    """JSON text with the control characters JSON leaves raw written as `\\u` escapes.

    Only characters inside strings are affected and each escape decodes to the same
    character, so the JSON value is unchanged.
    """
    if text.isascii() and "\x7f" not in text:
        return text  # the one ASCII character of the set is DEL
    return _compiled(_JSON_UNSAFE).sub(lambda match: f"\\u{ord(match[0]):04x}", text)
