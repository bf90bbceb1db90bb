"""Org mode (`.org`: Emacs's outline format, in which Magit and many Emacs packages write
their manuals). Its headlines are lines opening with stars, one a level (`* Buffers`,
`** Status Buffer`); a reference's entries are description-list terms alone on their line
(`- Key: C-x g (magit-status) ::`, `- User Option: magit-display-buffer-function ::`),
each an entry below every headline, as an AsciiDoc labelled list's term is. Neither counts
inside a block (`#+begin_src` ... `#+end_src`, any case), whose lines are code or quoted
text."""

from __future__ import annotations

import re

from .spans import ASCIIDOC_TERM_LEVEL, Heading

_HEADLINE = re.compile(r"(\*+)[ \t]+\S")
# A term alone on its line: a list item at the margin whose text ends with ` ::`.
_TERM = re.compile(r"[-+][ \t]+\S.*[ \t]::[ \t]*$")
_BLOCK = re.compile(r"[ \t]*#\+(begin|end)_(\S+)", re.IGNORECASE)
# A headline's stars and a term's bullet and closing colons: markup, not its words.
_HEADLINE_MARKUP = re.compile(r"^(?:\*+|[-+])[ \t]+|[ \t]+::[ \t]*$")


def org_headings(lines: list[str]) -> list[Heading]:
    """Headlines (level: their stars) and reference entries (below every headline),
    outside blocks; an unclosed block runs to the end."""
    headings: list[Heading] = []
    block: str | None = None
    for index, line in enumerate(lines):
        lead = line[:1]
        if lead in (" ", "\t", "#"):
            found = _BLOCK.match(line)
            if found is None:
                continue
            edge, name = found.group(1).lower(), found.group(2).lower()
            if block is None and edge == "begin":
                block = name
            elif block == name and edge == "end":
                block = None
        elif block is not None:
            continue
        elif lead == "*":
            headline = _HEADLINE.match(line)
            if headline:
                headings.append(Heading(index, index, len(headline.group(1))))
        elif lead in ("-", "+") and line.rstrip(" \t").endswith("::") and _TERM.match(line):
            headings.append(Heading(index, index, ASCIIDOC_TERM_LEVEL))
    return headings


def heading_words(line: str) -> str:
    """A headline's or an entry's text without its stars, bullet or closing colons."""
    return _HEADLINE_MARKUP.sub("", line.strip())
