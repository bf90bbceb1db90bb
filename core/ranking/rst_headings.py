"""reStructuredText's headings: titles underlined (and perhaps overlined) with an adornment,
a style's level the order in which it first appears; and Sphinx's descriptions of an API's
objects (`.. method:: QuerySet.bulk_create(objs)`), each a heading below every title of
what is written of it, indented under it (spans.document_headings reads a plain-text
document with them)."""

from __future__ import annotations

import re

from .spans import ADORNMENT, Heading

_PUNCTUATION = frozenset(  # string.punctuation
    "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
)


def underlined_headings(lines: list[str]) -> list[Heading]:
    """reStructuredText titles (see `underline_style`); a style's level is the order in
    which it first appears."""
    headings: list[Heading] = []
    levels: dict[tuple[str, bool], int] = {}
    for index in range(len(lines) - 1):
        line = lines[index]
        if line[:1] == "." or (line[:1] in " \t" and ".. " in line):
            found = _OBJECT_DESCRIPTION.match(line)
            if found is not None:
                # Below every title, and each nesting deeper (a class's methods).
                headings.append(Heading(index, index, OBJECT_LEVEL + len(found.group(1))))
                continue
        style = underline_style(lines, index)
        if style is not None:
            level = levels.setdefault(style, len(levels) + 1)
            start = index - 1 if style[1] else index
            headings.append(Heading(start, index, level))
    return headings


# Sphinx's description of one object of an API (`.. method:: QuerySet.bulk_create(objs)`,
# `.. py:function::`, `.. class::`, Django's `.. setting::` and `.. django-admin::`): the
# heading of what is written of it, indented under it.
_OBJECT_DESCRIPTION = re.compile(
    r"([ \t]*)\.\.[ \t]+(?:[a-z]+:)?(?:function|method|class|attribute|data|exception"
    r"|decorator|decoratormethod|classmethod|staticmethod|property|module|describe|object"
    r"|setting|option|envvar|program|type|member|macro|var|django-admin|django-admin-option"
    r"|templatetag|templatefilter|fieldlookup|confval)::[ \t]+\S"
)
# The level of an object description's heading at the margin: below any title's.
OBJECT_LEVEL = 100


def underline_style(lines: list[str], index: int) -> tuple[str, bool] | None:
    """(the adornment character, whether there is an overline) when line `index` is an
    rst title: text, after a blank line (or an overline), over an adornment at least as
    long (or of four characters or more, as docutils allows); unindented, unless under an
    overline."""
    if index + 1 >= len(lines) or lines[index + 1][:1] not in _PUNCTUATION:
        return None
    title = lines[index].rstrip()
    if not title or ADORNMENT.match(title.lstrip()):
        return None
    # Inset, it is a title only under an overline (docstrfmt writes ` Title` so), else a
    # block quote.
    inset = title[0] in " \t"
    under = ADORNMENT.match(lines[index + 1])
    if under is None:
        return None
    length = len(lines[index + 1].rstrip())
    if length < len(title) and length < 4:
        return None
    char = under.group(1)
    above = lines[index - 1].rstrip() if index > 0 else ""
    if above and ADORNMENT.match(above) and above[0] == char:
        before = lines[index - 2].strip() if index > 1 else ""
        return (char, True) if not before else None
    return (char, False) if not above and not inset else None
