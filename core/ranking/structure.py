"""The names a file gives its own parts: a document's headings (markdown, and a front-matter
title; reStructuredText and plain-text titles; AsciiDoc; Org's headlines and entries), and
the functions, classes and constants code defines (told by code_definitions.py, imported
only for a code file). A query term among them says the file is *about* it, not only that
it mentions it."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from .matching import TermMatcher
from .spans import (
    HEADING,
    document_headings,
    document_kind,
    fenced_lines,
    front_matter_end,
    html_heading,
    html_text,
    is_setext_heading,
)

# A front matter title, read to its last character that is no space nor quote (not tried
# at each space: a title line of 100,000 spaces took minutes).
_TITLE = re.compile(r"title:[ \t]*['\"]?(.*[^\s'\"])['\"]?[ \t]*$")


def _org_heading_words(line: str) -> str:
    from .org_text import heading_words  # imported for an Org file only

    return heading_words(line)


# A document's heading line as its words, by kind: without a markdown `#` in plain text
# (pandoc's MANUAL.txt), an AsciiDoc or RDoc title's `=`, an Org headline's stars or an
# entry's bullet and colons; a Vim help file's, a manual page's and an underlined title's
# as written.
# Sphinx's description of one object: the name it describes, without the directive nor
# its arguments (`.. method:: QuerySet.bulk_create(objs)`, `.. envvar:: PYTEST_ADDOPTS`).
_OBJECT_NAME = re.compile(r"[ \t]*\.\.[ \t]+[\w:-]+::[ \t]+([^\s(]+)")


def _plain_heading_words(line: str) -> str:
    described = _OBJECT_NAME.match(line)
    return described.group(1) if described else line.lstrip(" #")


_HEADING_WORDS: dict[str, Callable[[str], str]] = {
    "plain": _plain_heading_words,
    "roff": lambda line: line,
    "org": _org_heading_words,
    "asciidoc": lambda line: line.lstrip("= "),
    "rdoc": lambda line: line.lstrip("= "),
}


def structure_terms(
    lines: list[str], line_terms: Mapping[int, Mapping[str, int]], path: str, matcher: TermMatcher
) -> frozenset[str]:
    """The query terms among the file's headings or the names it defines (code)."""
    return terms_of(structure_names(lines, line_terms, path, matcher), matcher)


def terms_of(names: list[str], matcher: TermMatcher) -> frozenset[str]:
    """The query terms that `names` (structure_names) hold."""
    return frozenset(matcher.count("\n".join(names))) if names else frozenset()


def structure_names(
    lines: list[str], line_terms: Mapping[int, Mapping[str, int]], path: str, matcher: TermMatcher
) -> list[str]:
    """The file's headings (their text) or the names it defines (code) that hold query
    terms. Only the lines holding terms are looked at (and their neighbours, for an
    underline)."""
    names: list[str] = []
    kind = document_kind(path)
    if kind == "markdown":
        fenced = fenced_lines(lines)
        front_end = front_matter_end(lines) - 1
        for number in line_terms:
            index = number - 1
            if index >= len(lines) or index in fenced:
                continue
            line = lines[index]
            if index < front_end:
                title = _TITLE.match(line)
                if title:
                    names.append(title.group(1))
            elif HEADING.match(line) or (
                index + 1 not in fenced and is_setext_heading(lines, index)
            ):
                names.append(line.lstrip(" #"))
            elif _is_html_title(lines, index, fenced):
                names.append(html_text(line))
    elif kind in _HEADING_WORDS:  # the headings spans.document_headings finds
        words = _HEADING_WORDS[kind]
        titles = {heading.title for heading in document_headings(lines, path)}
        names += [words(lines[n - 1]) for n in line_terms if n - 1 in titles]
    else:
        from .code_definitions import defined_as_spelt

        names += [name for _, name in defined_as_spelt(lines, line_terms, matcher)]
    return names


def _is_html_title(lines: list[str], index: int, fenced: set[int]) -> bool:
    """Whether markdown line `index` holds an HTML heading's words: the heading's own line,
    or the line under a tag that stands alone."""
    for start in (index, index - 1):
        if start >= 0 and start not in fenced and lines[start].lstrip(" ")[:1] == "<":
            heading = html_heading(lines, start)
            if heading is not None and heading.title == index:
                return True
    return False


# A document of more headings than this has a heading for nearly any word (a single-file
# manual: Magit's 900 headlines and entries, pandoc's lua-filters.md): a query term among
# them says less that the file is about it. Measured with `tierscope eval`: 30 to 60 give
# the same figures on every set; a square root (20 or 40) lost the held-out how-to set.
HEADINGS_REFERENCE = 40


def heading_share(lines: list[str], path: str) -> float:
    """How much a query term among the document's headings counts towards its structure:
    1 up to HEADINGS_REFERENCE headings, in proportion beyond (code: 1)."""
    if document_kind(path) == "code":
        return 1.0
    headings = len(document_headings(lines, path))
    return min(1.0, HEADINGS_REFERENCE / headings) if headings else 1.0
