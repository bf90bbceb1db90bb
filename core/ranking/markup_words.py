"""The words of a document that are its markup, blanked so they count for nothing (as
many spaces: line numbers and columns are kept). In markdown: an HTML comment (`<!--
YAML ... -->`), a tag's attributes (`style="font-size: 2em"`, on one line or over several;
not a caption, a title or an image's alternative text: a reader sees those), an attribute
list (`{.collection-method}`, `{test="skip"}`), a link's target
(`[text](../std/question_mark.md)`) and a link reference definition (`[q_mark]:
https://...#the-question-mark-operator`, its target perhaps on the next line): the page
they point to says it; an mdBook include's path (`{{#include ...}}`). In any document,
reStructuredText's markup words: a directive's name (`.. code-block::`), a label, a
role's name (`:meth:`) and a role's or a link's target after its text (`` :meth:`caveats
<QuerySet.bulk_create>` ``) (tiers/file_hits.read_file reads a file so)."""

from __future__ import annotations

import re


def without_markup_words(text: str, kind: str) -> str:
    """A document's text (of `kind`, spans.document_kind) with its markup's words blanked;
    the text itself when it has none."""
    counted = text
    if kind == "markdown":
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
_ATTRIBUTED_TAG = re.compile(r"<[A-Za-z][\w-]*[ \t][^<>\n]*=[^<>\n]*>")
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
_ROLE = re.compile(r":[\w+.-]+(?::[\w+.-]+)?:(?=`)")
_TARGET = re.compile(r"<(?<=[^\s`<] <)[^<>`\n]+>(?=`)")


def _blanked_directive(found: re.Match[str]) -> str:
    """A directive's name or a label, blanked when it starts its line (after spaces)."""
    text, start = found.string, found.start()
    line_start = text.rfind("\n", 0, start) + 1
    return found.group() if text[line_start:start].strip(" \t") else _blanked(found)
