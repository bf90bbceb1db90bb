"""Session ids: untrusted text (a flag, an environment variable, an MCP client's argument)
that becomes part of a file name, so it is checked before it touches one."""

from __future__ import annotations

import os
import re

SESSION_ENV = "TIERSCOPE_SESSION"
# A letter or digit first (no `.`/`..`, no leading dash), then letters, digits, `.`, `_`
# and `-`; at most 64 characters. Nothing that means anything to a path or a terminal.
_SESSION_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
SESSION_ID_RULE = "1-64 letters, digits, '.', '_' or '-', starting with a letter or digit"


def is_session_id(value: str) -> bool:
    """Whether `value` may name a session (and so a file)."""
    return _SESSION_ID.fullmatch(value) is not None


def new_session_id(prefix: str) -> str:
    """A fresh id, `<prefix>-<8 hex digits>` (an MCP connection's own session)."""
    return f"{prefix}-{os.urandom(4).hex()}"
