"""Manual pages at a project's root (tmux's `tmux.1`): told by their name and first bytes
(project_survey.py counts them as documentation)."""

from __future__ import annotations

import re
from pathlib import Path

from .files import read_head

# Numbered changelogs (Magit's docs/CHANGELOG.1 ... .4, written in Org): no manual pages.
NUMBERED_LOG = re.compile(r"(?:changelog|changes|news|history)\.\d$", re.I)
# A manual page at the root (tmux's `tmux.1`): a name, one dot, a section number, and a
# first line of roff (a comment, a request or a macro: `.\"`, `.TH`, `.Dd`, `'\"`). A
# licence named with its version (`LGPL-2.1`) holds prose.
_MANUAL_PAGE_NAME = re.compile(r"[A-Za-z][\w+-]*\.[1-9]")
_ROFF_START = re.compile(rb"(?:\.[\\A-Za-z]|'\\\")")


def is_manual_page(path: Path) -> bool:
    """Whether a file of the root is a manual page: its name (`tmux.1`, not a numbered
    changelog) and its first bytes (roff) say so. Read as any untrusted file is: a regular
    file only, never waiting (files.read_head)."""
    name = path.name
    if not _MANUAL_PAGE_NAME.fullmatch(name) or NUMBERED_LOG.match(name):
        return False
    return _ROFF_START.match(read_head(path, 3)) is not None
