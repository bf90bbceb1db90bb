"""The words of a document that are its markup, blanked so they count for nothing (as many
spaces: line numbers and columns are kept). In markdown: an HTML comment (`<!-- YAML ...
-->`), a tag's attributes (`style="font-size: 2em"`, on one line or over several; not a
caption, a title or an image's alternative text: a reader sees those), an attribute list
(`{.collection-method}`, `{test="skip"}`), a link's target
(`[text](../std/question_mark.md)`) and a link reference definition (`[q_mark]:
https://...#the-question-mark-operator`, its target perhaps on the next line): the page
they point to says it; an mdBook include's path (`{{#include ...}}`); an emoji's
shortcode (`:arrow_right:`); a container directive's name (`:::note`); the names a
mermaid diagram repeats on its arrows (diagram_words.py); a tag's name outside code
(`<VPTeamMembers>`, `<kbd>`); a page's markup blocks (page_markup.py: its front matter,
but for what a reader reads of it; its MDX statements; its script and style blocks). In
any document, reStructuredText's markup words: a directive's name (`.. code-block::`), a
label, a role's name (`:meth:`) and a role's or a link's target after its text (``
:meth:`caveats <QuerySet.bulk_create>` ``) (tiers/file_hits.read_file reads a file so)."""

from __future__ import annotations

import re

from ..text_memo import memo_by_text
from .page_markup import markup_blocks
from .spans import HEADING, fenced_lines, front_matter_end


@memo_by_text()  # a file read again for the next question is blanked once
def without_markup_words(text: str, kind: str) -> str:
    """A document's text (of `kind`, spans.document_kind) with its markup's words blanked;
    the text itself when it has none."""
    counted = text
    if kind == "markdown":
        has_blocks = counted.startswith(("---", "+++")) or bool(_PAGE_CODE_HINT.search(counted))
        if has_blocks or "<" in counted:
            counted = _without_page_markup(counted, has_blocks)
        if "<!--" in counted:
            counted = _HTML_COMMENT.sub(_blanked_lines, counted)
        if "=" in counted and "<" in counted:
            counted = _ATTRIBUTED_TAG.sub(_blanked_but_shown, counted)
            counted = _TAG_OVER_LINES.sub(_blanked_but_shown, counted)
        if "{" in counted:
            counted = _ATTRIBUTE_LIST.sub(_blanked, counted)
        if "](" in counted or "]:" in counted:
            counted = _LINK_TARGET.sub(_blanked, counted)
            counted = _LINK_DEFINITION_OVER_TWO_LINES.sub(_blanked_lines, counted)
        if "{{#" in counted:
            counted = _BOOK_INCLUDE.sub(_blanked, counted)
        if ":" in counted:
            counted = _EMOJI_SHORTCODE.sub(_blanked, counted)
        if ":::" in counted:
            counted = _CONTAINER_DIRECTIVE.sub(_blanked, counted)
        if "mermaid" in counted:
            from .diagram_words import without_diagram_names

            counted = without_diagram_names(counted)
    if ".. " in counted:
        counted = _DIRECTIVE.sub(_blanked_directive, counted)
    if ":`" in counted:
        counted = _ROLE.sub(_blanked, counted)
    if ">`" in counted:
        counted = _TARGET.sub(_blanked, counted)
    return counted


def _blanked(found: re.Match[str]) -> str:
    """What was found, as as many spaces (line numbers and columns are kept)."""
    return " " * len(found.group())


def _blanked_lines(found: re.Match[str]) -> str:
    """What was found over lines, as as many spaces on as many lines."""
    return _NOT_NEWLINE.sub(" ", found.group())


_NOT_NEWLINE = re.compile(r"[^\n]")
# An HTML comment, on one line or over several (Node's `<!-- YAML ... -->` histories):
# nothing a reader of the page sees.
_HTML_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)


# An HTML tag with attributes, on one line (`<p align="center" style="font-size: 2em">`).
# Up to its first `=` no `=` is read, so a tag never closed is tried once, not at each `=`
# against the rest of its line (a line of 60,000 attributes took 30 s).
_ATTRIBUTED_TAG = re.compile(r"<[A-Za-z][\w-]*[ \t][^<>\n=]*=[^<>\n]*>")
# One spread over lines (pydantic's newsletter form: `<input` and `type="email"`,
# `placeholder="Email"` on lines of their own), told by an attribute's grammar.
_TAG_OVER_LINES = re.compile(
    r"<[A-Za-z][\w-]*(?=[ \t]*\n)"
    r"(?:\s+[\w:@.-]+(?:=(?:\"[^\"<>]*\"|'[^'<>]*'|[^\s\"'=<>`]+))?)+\s*/?>"
)
# An attribute list (Pandoc's, kramdown's, Python-Markdown's) ending a line: after a
# heading (Laravel's docs: `#### `binary()` {.collection-method}`), after a fence's
# language (pydantic's: `python {test="skip" upgrade="skip"}`), after an empty link
# (mkdocs-autorefs' anchor `[](){#id}`) or alone (`{: #id .note }`).
_ATTRIBUTE = r"(?:[#.][\w-]+|[\w-]+=(?:\"[^\"\n]*\"|'[^'\n]*'))"
_ATTRIBUTE_LIST = re.compile(
    rf"\{{:?[ \t]*{_ATTRIBUTE}(?:[ \t]+{_ATTRIBUTE})*[ \t]*\}}[ \t]*$", re.MULTILINE
)
# An attribute whose value a reader sees: a caption (mdBook's `<Listing caption="...">`),
# a title, an image's alternative text.
_SHOWN_ATTRIBUTE = re.compile(r"\b(?:caption|title|alt)=([\"'])([^\"'<>\n]*)\1", re.IGNORECASE)


def _blanked_but_shown(found: re.Match[str]) -> str:
    """An HTML tag blanked but for the values of the attributes a reader sees (and its
    line ends)."""
    tag = found.group()
    kept = [(shown.start(2), shown.end(2)) for shown in _SHOWN_ATTRIBUTE.finditer(tag)]
    parts, at = [], 0
    for start, end in kept:
        parts += [_NOT_NEWLINE.sub(" ", tag[at:start]), tag[start:end]]
        at = end
    return "".join(parts) + _NOT_NEWLINE.sub(" ", tag[at:])


# A markdown link's target, after its text (`](../std/result/question_mark.md)`, an
# image's too), or a link reference definition's line (`[q_mark]: https://...`).
_LINK_TARGET = re.compile(
    r'(?<=\])\([^()\s]*(?:[ \t]+"[^"\n]*")?\)'
    r"|^ {0,3}\[[^\]\n]+\]:[ \t]*\S[^\n]*",
    re.MULTILINE,
)

# A link reference definition with its target on the next line, indented (the Rails
# Guides': `[`decrement_counter`]:`, then `    https://api.rubyonrails.org/...`).
_LINK_DEFINITION_OVER_TWO_LINES = re.compile(
    r"^ {0,3}\[[^\]\n]+\]:[ \t]*\n[ \t]+\S+(?:[ \t]+[\"'(][^\n]*)?$", re.MULTILINE
)


# mdBook's include of another file's lines, shown as those lines (`{{#include
# ../listings/ch07-managing-growing-projects/listing-07-11/src/lib.rs}}`,
# `{{#rustdoc_include ...}}`): the path's words are no words of the page.
_BOOK_INCLUDE = re.compile(r"\{\{#\w+[ \t][^{}\n]*\}\}")


# reStructuredText's markup words: a directive's name (`.. code-block::`, `.. method::`;
# its argument is text) or a label (`.. _topics-db-queries:`) at a line's start (told by
# _blanked_directive), a role's name (`:meth:`, `:py:func:`) and a target written after a
# role's or a link's text (`` :doc:`the tutorial </intro/tutorial01>` ``, `` `Django
# <https://...>`_ ``). Each starts with a literal, which Python's engine skips to: one
# alternation of the three read Django's docs ten times slower.
_DIRECTIVE = re.compile(r"\.\.[ \t]+(?:[\w.:-]+::|_[^:\n]+:(?=[ \t]*$))", re.MULTILINE)
# An emoji's shortcode (`:arrow_right:`, mkdocs-material's `:material-github:`), between
# spaces or punctuation: no word of `10:30:45` nor `a:b:c`.
_EMOJI_SHORTCODE = re.compile(r"(?<![\w:]):[a-z][a-z0-9_+-]*:(?![\w:])")
# A container directive's name (Docusaurus' `:::tip`, Starlight's `:::note[New in v7.1.0]`,
# VitePress' `::: warning`, MyST's `:::{note}`): markup, on most of a site's pages (mocha's
# `note` put them above the page answering "note down a test to write later"). A title
# after it is shown, and counts.
_CONTAINER_DIRECTIVE = re.compile(r"^[ \t]*:{3,}[ \t]*(?:\{[\w-]+\}|[A-Za-z][\w-]*)?", re.MULTILINE)
_ROLE = re.compile(r":[\w+.-]+(?::[\w+.-]+)?:(?=`)")
_TARGET = re.compile(r"<(?<=[^\s`<] <)[^<>`\n]+>(?=`)")


def _blanked_directive(found: re.Match[str]) -> str:
    """A directive's name or a label, blanked when it starts its line (after spaces)."""
    text, start = found.string, found.start()
    line_start = text.rfind("\n", 0, start) + 1
    return found.group() if text[line_start:start].strip(" \t") else _blanked(found)


# What a page's markup blocks other than its front matter start with (page_markup.py).
_PAGE_CODE_HINT = re.compile(
    r"^(?:import|export)[ \t]|<(?:script|style)\b", re.MULTILINE | re.IGNORECASE
)
# A front matter line's key (YAML's `title:`, a list item's `-`, TOML's `title =` and
# `[params]`) or a block scalar's indicator (`description: >`), then its value, quoted or
# not: read to its last character that is no space nor quote, not tried at each space
# (a run of 100,000 spaces took minutes).
_FRONT_MATTER_LINE = re.compile(
    r"[ \t]*(?:-[ \t]+)?(?:[\w\"'$.-]+[ \t]*[:=](?=[ \t]|$)|\[[^\]\n]*\])?[ \t]*"
    r"(?:[>|][-+]?[ \t]*$)?[\"'\[]?(?P<value>(?:.*[^\s\"'\]])?)[\"'\]]*[ \t]*\r?$"
)
_TITLE_KEY = re.compile(r"[ \t]*title[ \t]*[:=]")
_WORD = re.compile(r"[^\W_]+")


# Measured with `tierscope eval`: the whole front matter counting for nothing lost MRR@10
# on six sets (pandoc 0.762 -> 0.726: its manuals are titled above `# Introduction`; Zod
# 0.717 -> 0.689, expressjs-site 0.784 -> 0.768, Textual 0.880 -> 0.870 and how-to 0.565 ->
# 0.533: their pages have no heading but the title, Textual's FAQ its `alt_titles`); the
# title counting only on a page without a `#` heading still lost pandoc and Textual; this
# rule loses only dplyr 0.812 -> 0.806 (colwise.Rmd had answered "across output column
# names" by its `output:` key).
def _without_page_markup(text: str, has_blocks: bool) -> str:
    """A markdown page with its markup blocks blanked (page_markup.py; when `has_blocks`
    says it may have some), but for the words a reader reads in its front matter: its
    title, unless its first heading says it already (vitest's `title: In-Source Testing |
    Guide` over `# In-Source Testing` counted the heading's words twice), and a value of
    several words (a description, Textual's `alt_titles` of its FAQ pages). Keys, one-word
    values (an id, a layout, a date, a sidebar position, `output:
    rmarkdown::html_vignette`) and statements count for nothing. Its tags' names outside
    code count for nothing either: they are its markup, not its words (the words between
    them are); vitest's team page, `<VPTeamPage>` and `<VPTeamPageTitle>` tags around one
    sentence, was served for "team members"."""
    lines = text.split("\n")
    front = front_matter_end(lines)
    fenced = fenced_lines(lines, front)
    blocks = markup_blocks(lines, fenced) if has_blocks else []
    repeated = front > 0 and _title_repeated(lines, front, fenced)
    for block in blocks:
        for index in range(block.start, block.end):
            line = lines[index]
            shown = None
            if 0 < index < front - 1:
                found = _FRONT_MATTER_LINE.match(line)
                value = found.group("value").strip() if found else ""
                titled = _TITLE_KEY.match(line) is not None
                if found is not None and value and (not repeated if titled else " " in value):
                    shown = found.span("value")
            if shown is None:
                lines[index] = " " * len(line)
            else:
                start, end = shown
                lines[index] = " " * start + line[start:end] + " " * (len(line) - end)
    for index, line in enumerate(lines):
        if "<" in line and index not in fenced:
            lines[index] = _TAG_OR_CODE_SPAN.sub(_tag_blanked, line)
    return "\n".join(lines)


def front_matter_title(lines: list[str], front: int) -> int | None:
    """The index of the title line of a front matter ending before line `front`
    (`title: Routing`, Hugo's `title = "Routing"`), else None."""
    return next((index for index in range(1, front) if _TITLE_KEY.match(lines[index])), None)


def _title_repeated(lines: list[str], front: int, fenced: set[int]) -> bool:
    """Whether the front matter's title is the page's first `#` heading again: all the
    heading's words are the title's, and half of them or more (`| Guide` aside)."""
    found = front_matter_title(lines, front)
    if found is None:
        return False
    title = lines[found]
    heading = next(
        (
            line
            for index, line in enumerate(lines[front:], front)
            if line.lstrip(" ")[:1] == "#" and HEADING.match(line) and index not in fenced
        ),
        None,
    )
    if heading is None:
        return False
    said = set(_WORD.findall(heading.lower()))
    titled = set(_WORD.findall(_TITLE_KEY.sub("", title, count=1).lower()))
    return bool(said) and said <= titled and 2 * len(said) >= len(titled)


# An HTML tag, or a component's (VitePress' `<VPTeamMembers>`, MDX's `<Tabs>`, `<div h-2
# />`) with attributes that take no value (those that do are _ATTRIBUTED_TAG's); or a code
# span, kept: `<Tabs>` in backquotes is text. A span opens on a whole run of backquotes and
# closes on the next run as long, and each run, as each run of other text, is read once
# (`++`, `*+`): backquotes that close nothing, or a tag never closed over a run of spaces,
# are not tried split every way (a line of forty such runs took hours).
_TAG_OR_CODE_SPAN = re.compile(
    r"(?P<code>(?<!`)(`+)(?!`)(?:[^`]++|(?!\2(?!`))`++)*+\2(?!`))"
    r"|</?[A-Za-z][\w.:-]*(?:[ \t][^<>=`\n]*+)?/?>"
)


def _tag_blanked(found: re.Match[str]) -> str:
    return found.group() if found.group("code") else _blanked(found)
