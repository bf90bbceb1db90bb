"""Where the sentences of a document's prose wrapped at a column (or of code's line
comments) start and end, line by line (`ProseBounds`): a passage cut where one line
carries on the sentence of the line above starts or ends mid-sentence ("we need to
allocate an amount of memory on the heap", the second line of its paragraph).
sentence_windows.py serves windows in whole sentences, passage_ends.py cuts a tail so,
and passage_tails.py cuts one back to a sentence's end."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Mapping, Sequence

from .code_blocks import indentation, run_start
from .spans import ADORNMENT, fenced_blocks

# The end of a sentence on a line: `.`, `!`, `?` or `:`, perhaps closed by a quote, a
# bracket or markup (`**`, `_`, a backquote), then a space or the line's end.
ENDS_A_SENTENCE = re.compile(r"[.!?:][\"')\]*_`]*(?:[ \t]|$)")
_ENDS_THE_LINE = re.compile(r"[.!?:][\"')\]*_`]*[ \t]*$")
# A line that starts a block of its own however the lines above run: a list item, a table
# row, a quote, a directive, a heading, a field (`:param size:`; not an inline role, which
# Sphinx wraps a sentence before: ":mod:`multiprocessing` process").
STARTS_A_BLOCK = re.compile(
    r"[ \t]*(?:[-*+][ \t]|\d{1,9}[.)][ \t]|[|>#]|\.\.[ \t]|:(?![\w:+.-]*:`)\w)"
)
# Markup on a line of its own, never prose: a fence, an HTML tag (and spans.ADORNMENT, a
# heading's underline).
_MARKUP = re.compile(r"[ \t]*(?:```|~~~|<)")
# A line opening the indented code under it: reStructuredText's `::` paragraph end, or a
# code directive; not another directive, whose body is prose (`.. note::`: Alembic's
# passage had ended mid-sentence in one, read as code).
_OPENS_CODE = re.compile(
    r"(?![ \t]*\.\.[ \t]).*::[ \t]*$"
    r"|[ \t]*\.\.[ \t]+(?:code-block|code|sourcecode|doctest|testcode|testoutput"
    r"|parsed-literal|ipython|jupyter-execute|math|prompt)::"
)


# A line comment's marker (Rust's `///` and `//!`, `//`, `#` and a space, `--`, Lisp's
# `;;`): what follows it is prose, a doc comment's sentences wrapped as a page's are.
_LINE_COMMENT = re.compile(r"[ \t]*(?://[/!]?|#(?=[ \t]|$)|--|;+)[ \t]?")


# A window of code starting at most this many lines below the first line of the run of
# line comments it is inside leaves out that comment's lead (uv's uv-cache/src/cli.rs:
# "Prefer, in order:", `///` and the list's first item above `/// 2. The specific cache
# directory`); a lead further up does too when it holds no query term. Measured with
# `tierscope eval`: any lead whatever its length and words cost Polly's MRR@10 0.837 ->
# 0.835 (of two overloads' near-copy doc comments one was served from its start, the other
# not, and both were served) and Rails' answering passage 70% -> 69% (a ten-line lead took
# the budget of a later hit); this reach costs node and ripgrep a token per hit.
COMMENT_LEAD_LINES = 3


def comment_lead(lines: list[str], start: int, matching: Sequence[int]) -> int:
    """The first line of the run of line comments (as indented) that line `start` of code
    is inside, when the lines above `start` in it are the comment's lead: at most
    COMMENT_LEAD_LINES of prose (an example or an empty line aside), or holding no query
    term (`matching`: the sorted lines that do; a window starts at a matching line, never
    there); else `start`."""
    if not _LINE_COMMENT.match(lines[start]):
        return start
    first = run_start(lines, start, _LINE_COMMENT.match)
    if _prose_lines(lines, first, start) > COMMENT_LEAD_LINES and bisect_left(
        matching, first
    ) < bisect_left(matching, start):
        return start
    return first


def _prose_lines(lines: list[str], first: int, end: int) -> int:
    """How many of the comment lines from `first` to `end` are prose: not an empty comment
    line, nor an example indented in it (Go's `//\tassert.Same(t, ptr1, ptr2)`)."""
    count = 0
    for line in lines[first:end]:
        marker = _LINE_COMMENT.match(line)
        text = line[marker.end() :] if marker else line
        if text.strip() and not text.startswith(("\t", "  ")):
            count += 1
    return count


# A list item's first line, up to where its text starts: a sentence wrapped in the item
# runs on under that column (reStructuredText and markdown both indent it so).
_LIST_ITEM = re.compile(r"[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+(?=\S)")


def _item_text_column(line: str) -> int:
    """The column where a list item's text starts on its first line; -1 for another line."""
    item = _LIST_ITEM.match(line)
    return len(item.group(0).expandtabs()) if item else -1


def _is_underline(lines: Sequence[str], index: int) -> bool:
    """Whether line `index` underlines the title above it (an adornment under a line that
    is no `#` heading nor AsciiDoc's `==` one, whose next line is text or a fence)."""
    if not 0 < index < len(lines) or not ADORNMENT.match(lines[index]):
        return False
    return not lines[index - 1].lstrip().startswith(("#", "="))


class ProseBounds:
    """One document's lines, read for where their sentences run on from line to line."""

    @classmethod
    def of_comments(cls, lines: list[str]) -> ProseBounds:
        """Code's line comments read as prose (their markers left out); its other lines
        are as blank lines, which no sentence runs across."""
        texts = []
        for line in lines:
            marker = _LINE_COMMENT.match(line)
            texts.append(line[marker.end() :] if marker else "")
        return cls(texts, {})

    def __init__(self, lines: list[str], headings: Mapping[int, int]) -> None:
        self.lines = lines
        # The lines of headings (a section's first line to its title line), of fenced
        # blocks and of indented code: no sentence runs into or out of them.
        apart: set[int] = set()
        underlines: set[int] = set()
        for start, title in headings.items():
            apart.update(range(start, title + 1))
            if _is_underline(lines, title + 1):
                underlines.add(title + 1)
        # An underlined title's `~~~~` (rst's, AsciiDoc's) is no fence: read as one, it
        # had set every line below it apart from the prose (git-bisect.adoc). The
        # underline itself, an adornment, carries no sentence (`runs_on`).
        unfenced = (
            [("" if index in underlines else line) for index, line in enumerate(lines)]
            if underlines
            else lines
        )
        for block in fenced_blocks(unfenced):
            apart.update(range(block.start, block.end))
        opener: int | None = None  # the indentation of the line opening indented code
        for index, line in enumerate(lines):
            if not line.strip():
                continue
            if opener is not None and indentation(line) > opener:
                apart.add(index)
                continue
            opener = indentation(line) if _OPENS_CODE.match(line) else None
        self.apart = apart

    def runs_on(self, index: int) -> bool:
        """Whether line `index` carries on a sentence of the line above: both are prose at
        the same indentation, the line starts no block, and the one above ends no
        sentence."""
        if index <= 0 or index >= len(self.lines):
            return False
        line, above = self.lines[index], self.lines[index - 1]
        return not (
            not line.strip()
            or not above.strip()
            or index in self.apart
            or index - 1 in self.apart
            or STARTS_A_BLOCK.match(line)
            or _MARKUP.match(line)
            or _MARKUP.match(above)
            or ADORNMENT.match(line)
            or ADORNMENT.match(above)
            or indentation(line) not in (indentation(above), _item_text_column(above))
            or _ENDS_THE_LINE.search(above)
        )

    def sentence_start(self, index: int, floor: int) -> int:
        """The first line of the sentence line `index` is in, not above `floor`."""
        while index > floor and self.runs_on(index):
            index -= 1
        return index

    def sentence_end(self, end: int, floor: int) -> int:
        """The end (exclusive) of a run of lines ending at `end` cut back to where a
        sentence ends, above `floor`; `floor` when none does."""
        while end > floor and self.runs_on(end):
            end -= 1
        return end

    def sentence_finish(self, end: int, limit: int) -> int:
        """The end (exclusive) of the sentence a run of lines ending at `end` ends inside,
        not past `limit`."""
        while end < limit and self.runs_on(end):
            end += 1
        return end

    def next_sentence_start(self, index: int, limit: int) -> int:
        """The first line from `index` that starts a sentence, `limit` when none before."""
        while index < limit and self.runs_on(index):
            index += 1
        return index
