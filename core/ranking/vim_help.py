"""Vim help files (a Neovim plugin's `doc/*.txt`): how their sections and tagged entries
are told (spans.py reads a plain text file's headings with these when it is one)."""

from __future__ import annotations

import re

from .spans import Heading

# A Vim help file (a Neovim plugin's doc/*.txt), told by its first line opening with its own
# tag (`*telescope.txt*`) or a modeline near its end (`vim:tw=78:ts=8:ft=help:norl:`).
_VIM_FILE_TAG = re.compile(r"\*[\w.-]+\.txt\*")
_VIM_MODELINE = re.compile(r"\bvim?:.*\b(?:ft|filetype)=help\b")
# Its sections: a rule of `=` (or `-`) over a title line; its entries: a line ending in a
# tag (`*telescope.defaults.history*`, perhaps after the entry's name) after a blank line.
_VIM_RULE = re.compile(r"(?:={20,}|-{20,})[ \t]*$")
_VIM_TAG_END = re.compile(r"\*[^*\s|]+\*[ \t]*$")
# A headline over a run of entries: a line in capitals after a blank line ("REORDERING
# TAB PAGES:", "LOCAL ARGUMENT LIST"; one ending in a tag is an entry), no longer than a
# help file's lines are (78 characters) with room to spare: no hostile line is tried
# against the pattern, whose spaces could be split between its parts many ways.
_VIM_HEADLINE = re.compile(r"[A-Z][A-Z0-9 .()_,/'-]*[A-Z0-9)]:?[ \t]*$")
HEADLINE_MAX_CHARS = 100


def is_vim_help(lines: list[str]) -> bool:
    """Whether a plain text is a Vim help file: its first line opens with its tag, or one
    of its last lines is a modeline setting `ft=help`."""
    if lines and _VIM_FILE_TAG.match(lines[0]):
        return True
    return any(_VIM_MODELINE.search(line) for line in lines[-5:])


def vim_help_headings(lines: list[str]) -> list[Heading]:
    """A Vim help file's title line (its first, opening with its tag), its sections (a
    rule of `=`, level 1, or of `-`, level 2, over a title line), its headlines (level 3:
    Vim's tabpage.txt groups its `:tabmove` entries under "REORDERING TAB PAGES:", and
    "reorder tab pages" was served the lines above it, ending on it) and its tagged
    entries (a line ending in a tag after a blank line: an option's, a function's),
    level 4."""
    headings: list[Heading] = []
    if lines and _VIM_FILE_TAG.match(lines[0]):
        headings.append(Heading(0, 0, 1))
    for index in range(1, len(lines)):
        line = lines[index]
        if _VIM_RULE.match(line):
            if index + 1 < len(lines) and lines[index + 1].strip():
                level = 1 if line.lstrip()[0] == "=" else 2
                headings.append(Heading(index, index + 1, level))
        elif not lines[index - 1].strip() and "*" in line and _VIM_TAG_END.search(line):
            headings.append(Heading(index, index, 4))
        elif (
            len(line) <= HEADLINE_MAX_CHARS
            and not lines[index - 1].strip()
            and _VIM_HEADLINE.match(line)
        ):
            headings.append(Heading(index, index, 3))
    return headings
