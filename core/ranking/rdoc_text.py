"""RDoc (`.rdoc`), in which Ruby projects write their READMEs (Rails' frameworks:
activerecord/README.rdoc). Its headings are `= Title` to `====== Title`, at the margin:
verbatim text (a shell session, an example) is indented, so a `=` there is no heading."""

from __future__ import annotations

import re

from .spans import Heading

_HEADING = re.compile(r"(={1,6})(?!=)[ \t]*\S")


def rdoc_headings(lines: list[str]) -> list[Heading]:
    """`= Title` (level 1) to `====== Title` (level 6)."""
    headings: list[Heading] = []
    for index, line in enumerate(lines):
        if line[:1] == "=":
            heading = _HEADING.match(line)
            if heading:
                headings.append(Heading(index, index, len(heading.group(1))))
    return headings
