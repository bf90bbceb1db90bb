"""Spans that point elsewhere instead of saying anything: a table of contents (a list of
links) in a document, a block of imports in code. Snippets prefer what they point at
(span_choice.py)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from itertools import accumulate

from ..text_memo import memo_by_lines
from .code_blocks import indentation
from .file_roles import IMPORTS_ONLY, MOVED_PAGE, TABLE_OF_CONTENTS, Role
from .spans import Span, document_kind
from .stand_in_pages import pulls_in_only, refers_elsewhere, says_it_moved

# A list item that is a link and nothing else (`* [Install](#install)`): a line of a table
# of contents. A span more than NAVIGATION_SHARE of whose lines are such items points at
# answers rather than giving them: it is never the second passage.
_LINK_ITEM = re.compile(r"[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+\[[^\]]*\]\([^)]*\)[ \t]*$")
# One linking to a section of its own page (`- [Revoking Tokens](#revoking-tokens)`): a
# page's table of contents, repeating its headings.
_IN_PAGE_LINK_ITEM = re.compile(r"[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+\[[^\]]*\]\(#[^)\s]*\)[ \t]*$")
NAVIGATION_SHARE = 0.5
# reStructuredText's: a list item that is a cross-reference alone (`* :doc:`Writing
# commands <howto/custom-management-commands>``), and Sphinx's table of contents directive,
# whose indented lines list pages.
# And DocC's (Swift's documentation): a symbol link alone (``- ``aliases`` ``) or an
# article's (`- <doc:Subcommands>`), the lists of a `## Topics` section.
_ROLE_LINK_ITEM = re.compile(
    r"(?:[-*+]|\d{1,9}[.)])[ \t]+(?::(?:doc|ref|any):`[^`]+`_{0,2}[.,;]?|``[^`]+``|<doc:[^>\s]+>)$"
)
_TOCTREE = re.compile(r"\.\.[ \t]+toctree::")
# A markdown link reference definition (`[read_line]: ../std/io/struct.Stdin.html`): the
# Rust book ends each chapter with dozens, a URL's words matching a question's. A span
# mostly made of them points elsewhere too.
LINK_DEFINITION = re.compile(r" {0,3}\[([^\]]+)\]:[ \t]*\S+")  # its label, grouped
# One whose target is on the next line, indented (the Rails Guides write 392 so:
# `[`decrement_counter`]:`, then `    https://api.rubyonrails.org/...`): its label's line,
# and the target's.
LINK_LABEL_ALONE = re.compile(r" {0,3}\[([^\]]+)\]:[ \t]*$")
LINK_TARGET_BELOW = re.compile(r"[ \t]+\S+(?:[ \t]+[\"'(][^\n]*)?$")


def defines_a_link_over_two_lines(lines: list[str], index: int) -> bool:
    """Whether line `index` is the label of a link reference definition whose target is
    the line under it."""
    return (
        index + 1 < len(lines)
        and bool(LINK_LABEL_ALONE.match(lines[index]))
        and bool(LINK_TARGET_BELOW.match(lines[index + 1]))
    )


_LIST_MARKS = frozenset("-*+0123456789")
# In code, the lines that bring names in from elsewhere: an import block names what a
# question is about without saying anything of it. A span of code more than
# NAVIGATION_SHARE of whose lines are imports is navigation, as a table of contents is,
# and is the passage only of a file where no other code holds a term (span_choice.py).
_IMPORT = re.compile(
    r"[ \t]*(?:import[ \t({]|from[ \t]+\S+[ \t]+import\b|use[ \t]+[\w:{]"
    # Rust: `pub use`, `pub(crate) use`; `mod name;` declares a module kept in another file
    # (`mod name {` holds it, and is no import), `extern crate name;` links one.
    r"|pub(?:\([^)]*\))?[ \t]+(?:use[ \t]|mod[ \t]+\w+[ \t]*;)|mod[ \t]+\w+[ \t]*;"
    r"|extern[ \t]+crate[ \t]"
    r"|#[ \t]*include\b|(?:const|let|var|local)[ \t]+[\w{}, \t]+=[ \t]*require\b"
    # Ruby: `require "x"`, `require_relative "x"`, `autoload :Name` (Rails' frameworks open
    # with a file of them).
    r"|require(?:_relative)?[ \t(]+['\"]|autoload[ \t(]+:"
    r"|package[ \t]+[\w.]+;?[ \t]*$"
    r"|export[ \t].*\bfrom[ \t]+['\"]|\}[ \t]*from[ \t]+['\"]"
    # An export list names what is defined elsewhere in the file, as an import names what
    # is defined in another (Node's `module.exports = {`, Python's `__all__ = [`, `export {`).
    r"|module\.exports[ \t]*=[ \t]*\{|export[ \t]*\{|__all__[ \t]*(?::[^=]*)?\+?=[ \t]*[\[(])"
)
# Node's and JavaScript's export lists, whose lines name what the module defines; an object
# of methods written `module.exports = {` is none (Koa's lib/response.js).
_EXPORT_LIST = re.compile(r"[ \t]*(?:module\.exports[ \t]*=|export)[ \t]*\{")


def navigation_test(lines: list[str], *, code: bool) -> Callable[[Span], bool]:
    """Whether a span of these lines is navigation: more than NAVIGATION_SHARE of its
    written lines are links of a list (a document) or imports (code). Made once per file;
    each span is then two lookups."""
    marked = _import_lines(lines) if code else _link_lines(lines)
    pointing = list(accumulate(marked, initial=0))
    if not pointing[-1]:
        return lambda span: False
    written = list(accumulate((bool(line.strip()) for line in lines), initial=0))

    def is_navigation(span: Span) -> bool:
        listed = pointing[span.end] - pointing[span.start]
        return listed > NAVIGATION_SHARE * (written[span.end] - written[span.start])

    return is_navigation


def without_contents_lines(
    lines: list[str], line_terms: Mapping[int, Mapping[str, int]]
) -> Mapping[int, Mapping[str, int]]:
    """The lines holding the query's terms (1-based), but for a page's own table of
    contents: its items repeat the headings of the sections they link to, whose words
    count there (Laravel's docs: the list atop sanctum.md held every word of "revoke or
    expire API tokens in tests", and was served instead of the sections)."""
    contents = {
        number
        for number in line_terms
        if number <= len(lines)
        and "](#" in lines[number - 1]
        and _IN_PAGE_LINK_ITEM.match(lines[number - 1])
    }
    if not contents or len(contents) == len(line_terms):
        return line_terms  # a page found by its contents alone is served by them
    return {number: terms for number, terms in line_terms.items() if number not in contents}


def points_elsewhere(lines: list[str], line_terms: Mapping[int, Mapping[str, int]]) -> bool:
    """Whether a document's lines holding the query's terms (1-based) are mostly links of a
    list: the file is a table of contents for the question (mdBook's `SUMMARY.md`), which
    names the page that answers it, in a line. Or a page that only pulls in the API
    reference generated from the code (mkdocstrings' `::: pydantic.root_model`): one line,
    and what it shows is written elsewhere."""
    if not line_terms:
        return False
    if pulls_in_only(lines):
        return True
    marked = _link_lines(lines)
    links = sum(1 for number in line_terms if number <= len(lines) and marked[number - 1])
    return links > NAVIGATION_SHARE * len(line_terms)


# A module longer than this is more than its imports (each line is read to tell them).
IMPORTS_ONLY_LINES = 600


def imports_only(lines: list[str], line_terms: Mapping[int, Mapping[str, int]]) -> bool:
    """Whether a code file's lines holding the query's terms (1-based) are mostly imports
    or exports: pytest's `src/pytest/__init__.py`, 80 lines of `from _pytest.x import Y`,
    was served whole for "assertion rewriting import hook"."""
    if not line_terms or len(lines) > IMPORTS_ONLY_LINES:
        return False
    marked = _import_lines(lines, guards=False)  # a guard's `X = None` is no import's name
    imports = sum(1 for number in line_terms if number <= len(lines) and marked[number - 1])
    return imports > NAVIGATION_SHARE * len(line_terms)


@memo_by_lines()  # a file read again for the next question is marked once
def _link_lines(lines: list[str]) -> tuple[bool, ...]:
    """Per line of a document, whether it only points elsewhere (_marked_links)."""
    return tuple(_marked_links(lines))


def _marked_links(lines: list[str]) -> list[bool]:
    """Per line of a document, whether it only points elsewhere: a list item that is a
    link (markdown's `* [Install](#install)`, reStructuredText's `* :doc:`Install
    <install>``, DocC's ``- ``aliases`` ``), a link reference definition (over one line or
    two), a Sphinx `.. toctree::` and the pages it lists."""
    marked = [
        (
            line.lstrip(" \t")[:1] in _LIST_MARKS
            and bool(_LINK_ITEM.match(line) or _ROLE_LINK_ITEM.match(line.strip()))
        )
        or (line[:4].lstrip(" ")[:1] == "[" and bool(LINK_DEFINITION.match(line)))
        for line in lines
    ]
    for index, line in enumerate(lines):
        if line.rstrip().endswith("]:") and defines_a_link_over_two_lines(lines, index):
            marked[index] = marked[index + 1] = True
    for start, line in enumerate(lines):
        if "toctree::" not in line or not _TOCTREE.match(line.strip()):
            continue
        marked[start] = True
        depth = indentation(line)
        for index in range(start + 1, len(lines)):  # the pages listed, indented under it
            if lines[index].strip():
                if indentation(lines[index]) <= depth:
                    break
                marked[index] = True
    return marked


@memo_by_lines()  # a file read again for the next question is marked once
def _import_lines(lines: list[str], *, guards: bool = True) -> tuple[bool, ...]:
    """Per line of code, whether it is part of an import (_marked_imports)."""
    return tuple(_marked_imports(lines, guards=guards))


def _marked_imports(lines: list[str], *, guards: bool = True) -> list[bool]:
    """Per line of code, whether it is part of an import (`import`, `from x import (`, a
    Rust `use`, `#include`, `require(`, a Go `import (` block and what it lists; with
    `guards`, Python's `try:` and `except ImportError:` around imports)."""
    marked = [False] * len(lines)
    closer = ""
    depth = 0  # of the open import's bracket: it ends on the line closing it
    opened = 0  # where an export list's `{` opened
    for index, line in enumerate(lines):
        text = line.strip()
        if closer:
            if closer == "}" and text.endswith("{") and _EXPORT_LIST.match(lines[opened]):
                # A member opening a body: an object of methods, no list of names.
                marked[opened:index] = [False] * (index - opened)
                closer = ""
                continue
            marked[index] = True
            # However the closing line is written: `)` alone, `    envwrap)` (tqdm's
            # grid of names), `  b } from './x';`.
            depth += text.count(_OPENERS[closer]) - text.count(closer)
            if depth <= 0 or text.startswith(closer):
                closer = ""
            continue
        if text and _IMPORT.match(line):
            marked[index] = True
            opened = index
            for opener, closing in _OPENERS_CLOSED.items():  # a bracket left open
                depth = text.count(opener) - text.count(closing)
                if depth > 0:  # `(` at its end, or `(Comparable, disp_len,` hanging
                    closer = closing
                    break
    return _with_names_listed(lines, _with_guards(lines, marked) if guards else marked)


# Python's guarded imports: `try:` over an import, `except ImportError:` (or
# ModuleNotFoundError), and what such an `except` falls back on (another import, `X = None`,
# `pass`, another `try:`). tqdm's pandas support opens with a ladder of them.
_TRY = re.compile(r"[ \t]*try[ \t]*:[ \t]*(?:#.*)?$")
_EXCEPT = re.compile(r"[ \t]*except[ \t(]([^:]*+):[ \t]*(?:#.*)?$")  # what it catches, read once
_IMPORT_ERRORS = re.compile(r"\b(?:ImportError|ModuleNotFoundError)\b")
_FALLBACK = re.compile(
    r"[ \t]*(?:pass|[\w.]+(?:[ \t]*=[ \t]*[\w.]+)*[ \t]*=[ \t]*(?:None|False|True)"
    r"|try[ \t]*:|except\b[^:]*:)[ \t]*(?:#.*)?$"
)


def _catches_import_errors(line: str) -> bool:
    """Whether a line is an `except` catching ImportError or ModuleNotFoundError."""
    found = _EXCEPT.match(line) if "except" in line else None
    return found is not None and _IMPORT_ERRORS.search(found.group(1)) is not None


def _with_guards(lines: list[str], marked: list[bool]) -> list[bool]:
    """The import lines, and the lines guarding Python imports: a `try:` whose first line
    imports, an `except ImportError:` and the fallbacks under it."""
    if not any(marked):
        return marked
    written = [index for index, line in enumerate(lines) if line.strip()]
    for position, index in enumerate(written):
        line = lines[index]
        if position + 1 < len(written) and _TRY.match(line):
            marked[index] = marked[index] or marked[written[position + 1]]
        elif _catches_import_errors(line):
            marked[index] = True
            depth = indentation(line)
            for below in written[position + 1 :]:
                if indentation(lines[below]) <= depth:
                    break
                if _FALLBACK.match(lines[below]):
                    marked[below] = True
    return marked


_OPENERS_CLOSED = {"(": ")", "{": "}", "[": "]"}
_OPENERS = {closing: opener for opener, closing in _OPENERS_CLOSED.items()}


# A line naming nothing but names (`RouterLink,`, `[TabsComponent, CopyButton],`).
_NAMES_ALONE = re.compile(
    r"[\[(]?[ \t]*[A-Za-z_$][\w$]*(?:[ \t]*,[ \t]*[A-Za-z_$][\w$]*)*[ \t]*,?[ \t]*[\])]?[ \t]*,?"
)
_NAME = re.compile(r"[A-Za-z_$][\w$]*")


def _with_names_listed(lines: list[str], marked: list[bool]) -> list[bool]:
    """The import lines, and the lines listing only names the imports bring in, one or a
    few to a line: Angular's `imports: [` of the components imported above (the NestJS
    docs site's page stubs), a Vue `components: {` list."""
    imported = {
        name for index, line in enumerate(lines) if marked[index] for name in _NAME.findall(line)
    }
    if not imported:
        return marked
    for index, line in enumerate(lines):
        if marked[index] or not _NAMES_ALONE.fullmatch(line.strip()):
            continue
        if all(name in imported for name in _NAME.findall(line)):
            marked[index] = True
    return marked


def pointing_elsewhere(
    path: str,
    lines: list[str],
    line_terms: Mapping[int, Mapping[str, int]],
    names: frozenset[str],
) -> Role | None:
    """IMPORTS_ONLY for code whose lines holding the query's terms are mostly imports
    (imports_only); MOVED_PAGE for a page that says it moved (says_it_moved);
    TABLE_OF_CONTENTS for a document whose lines holding the query's terms mostly point at
    the answer: a markdown list of links (points_elsewhere), a short Sphinx page of autodoc
    or include directives alone (pulls_in_only), a manual page's list of bare names
    (roff_text.lists_names; `names`: the keys of the names the query spells). None for any
    other file."""
    kind = document_kind(path)
    if kind == "code":
        return IMPORTS_ONLY if imports_only(lines, line_terms) else None
    if says_it_moved(lines):
        return MOVED_PAGE
    if kind in ("markdown", "plain") and points_elsewhere(lines, line_terms):
        return TABLE_OF_CONTENTS  # a list of links; Sphinx's toctree, its autodoc alone
    if kind == "markdown" and refers_elsewhere(lines):
        return TABLE_OF_CONTENTS
    if kind == "roff":
        from .roff_text import lists_names

        if lists_names(lines, line_terms, names):
            return TABLE_OF_CONTENTS
    return None
