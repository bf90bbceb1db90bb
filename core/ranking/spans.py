"""The parts of a text a snippet can be: sections (a heading and what follows, or a heading
with its subsections) and paragraphs (code blocks are code_blocks.py's); and which kind
of text a file is.

Headings are markdown's (`## Title`, a title underlined with `===` or `---`, or an HTML
heading such as `<h3 name="config">`); in a Vim help file, its sections and tagged
entries; reStructuredText's and plain text's (a title underlined with a repeated
punctuation character, a Sphinx object description), an AsciiDoc file's, a manual page's,
an Org file's and an RDoc file's are rst_headings.py's, asciidoc_text.py's, roff_text.py's,
org_text.py's and rdoc_text.py's."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath

from .code_lines import CodeLines

# A notebook's text, as ranking and snippets read it, is its cells': markdown (notebooks.py).
# And scdoc's manual pages (`alacritty.5.scd`): sections under `#` headings, as markdown's.
MARKDOWN_SUFFIXES = frozenset(
    {".md", ".markdown", ".mdx", ".mdown", ".rmd", ".qmd", ".livemd", ".cheatmd", ".mdc", ".ipynb",
     ".scd"}
)  # fmt: skip
ASCIIDOC_SUFFIXES = frozenset({".adoc", ".asciidoc"})
# RDoc, in which Ruby projects write their READMEs (Rails' activerecord/README.rdoc).
RDOC_SUFFIX = ".rdoc"
PLAIN_SUFFIXES = frozenset({".txt", ".rst", ""})
# Manual pages, written in roff (`man/man1/fzf.1`).
ROFF_SUFFIXES = frozenset({*(f".{section}" for section in range(1, 10)), ".man"})
# YAML: settings, read as code, but a manual written in it is documentation where
# yaml_documents.py tells one (jq's), and an older edition's in a version's folder.
YAML_SUFFIXES = (".yml", ".yaml")

HEADING = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]|$)")
FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})")  # indented too: in a list item, an admonition, a tab
# A markdown setext underline, and what cannot be the title above one (a list item, a
# quote, a table row, an HTML block, indented code): those lines end in a rule instead.
# A title may open on inline HTML followed by text (yargs' `<a name="x"></a>.option(key)`):
# a block tag, or a tag alone on its line, opens an HTML block (CommonMark).
SETEXT = re.compile(r" {0,3}(={2,}|-{2,})[ \t]*$")
_NOT_SETEXT_TITLE = re.compile(
    r" {0,3}(?:[-*+][ \t]|\d{1,9}[.)][ \t]|[>|]|<(?![aA][\s>]|/[aA]>)|<[^>]*>[ \t]*$)| {4}|\t"
)
# An HTML heading in markdown (`<h3 name="config">`, `<h1 align="center">Title</h1>`): its
# level, and the text after its opening tag on the same line.
_HTML_HEADING = re.compile(r" {0,3}<[hH]([1-6])(?=[\s>/])[^>]*>(.*)$")
_TAG = re.compile(r"<[^>]*>")
# An rst adornment: one punctuation character, three times or more.
ADORNMENT = re.compile(r"([!-/:-@\[-`{-~])\1{2,}[ \t]*$")
# A `#` heading with words (an rst adornment of six `#`, over and under a title, has none).
_HASHED_TITLE = re.compile(r" {0,3}#{1,6}[ \t]+\S")
# An AsciiDoc labelled list's term (asciidoc_text.py) and an Org reference entry
# (org_text.py) come below every heading.
ASCIIDOC_TERM_LEVEL = 7
# A front matter block's fence -> what its first written line is: a key (YAML's `title:`,
# TOML's `title =` or `[params]`) or a comment.
_FRONT_MATTER_KEY = {
    "---": re.compile(r"[ \t]*(?:#|[\w\"'$-][^:\n]*:(?:[ \t]|$))"),
    "+++": re.compile(r"[ \t]*(?:#|\[|[\w\"'-][^=\n]*=)"),
}


@dataclass(frozen=True, slots=True)
class Span:
    """A run of lines."""

    start: int  # 0-based line index, inclusive
    end: int  # exclusive


@dataclass(frozen=True, slots=True)
class Heading:
    """A heading: its first line (an rst overline, else its title), the line holding its
    words, and its level (1 is the highest)."""

    start: int
    title: int
    level: int


def split_lines(text: str) -> list[str]:
    """A text's lines, without their line ends (`\n` or `\r\n`). A final line end adds
    no line."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if "\r" in text:
        lines = [line[:-1] if line.endswith("\r") else line for line in lines]
    return lines


def next_written(lines: list[str], index: int) -> int:
    """The first line from `index` on that is not blank (`len(lines)` if none)."""
    while index < len(lines) and not lines[index].strip():
        index += 1
    return index


def last_written(lines: list[str], index: int, floor: int) -> int:
    """The last line from `index` back, down to `floor`, that is not blank (`floor` if
    none above it is; `floor` may be -1)."""
    while index > floor and not lines[index].strip():
        index -= 1
    return index


def written_lines(lines: Iterable[str]) -> frozenset[str]:
    """The distinct lines that hold anything, stripped: what two texts are compared by to
    tell a copy edited here and there (`mostly_within`: dedup.py, file_hits.py,
    span_choice.py)."""
    return frozenset(stripped for line in lines if (stripped := line.strip()))


def mostly_within(
    lines: frozenset[Hashable], other: frozenset[Hashable], share: float, least: int
) -> bool:
    """Whether at least `share` of `lines` (written_lines, `least` of them or more) are
    lines of `other` too: a copy of it, edited here and there."""
    return len(lines) >= least and len(lines & other) >= share * len(lines)


def document_kind(path: str) -> str:
    suffix = PurePosixPath(path).suffix.lower()
    if suffix in MARKDOWN_SUFFIXES:
        return "markdown"
    if suffix in ASCIIDOC_SUFFIXES:
        return "asciidoc"
    if suffix in PLAIN_SUFFIXES:
        return "plain"
    if suffix in ROFF_SUFFIXES:
        return "roff"
    if suffix == RDOC_SUFFIX:
        return "rdoc"
    return "org" if suffix == ".org" else "code"


def front_matter_end(lines: list[str]) -> int:
    """The index of the line after a front matter block, else 0: YAML between `---` lines
    (Jekyll, Docusaurus, VitePress) or TOML between `+++` lines (Hugo), its first line a
    key's (`title: Routing`, `title = "Routing"`) or a comment: a page opening on a
    thematic break (`---`) has none."""
    if not lines or lines[0].strip() not in _FRONT_MATTER_KEY:
        return 0
    fence = lines[0].strip()
    keyed = False  # whether its first written line was looked at
    for index in range(1, len(lines)):
        line = lines[index]
        if line.strip() == fence:
            return index + 1
        if not keyed and line.strip():
            if not _FRONT_MATTER_KEY[fence].match(line):
                return 0
            keyed = True
    return 0


def document_headings(lines: list[str], path: str) -> list[Heading]:
    """The headings of a document, in order (none for code); found once for a file's
    CodeLines, which ranking and its snippet both read (the list is not to be changed)."""
    if isinstance(lines, CodeLines):
        kind = document_kind(path)
        found = lines.headings.get(kind)
        if found is None:
            found = lines.headings[kind] = _document_headings(lines, path)
        return found
    return _document_headings(lines, path)


def _document_headings(lines: list[str], path: str) -> list[Heading]:
    kind = document_kind(path)
    if kind == "markdown":
        return markdown_headings(lines)
    if kind == "asciidoc":
        from .asciidoc_text import asciidoc_headings

        return asciidoc_headings(lines)
    if kind == "plain":
        from .vim_help import is_vim_help, vim_help_headings

        if is_vim_help(lines):
            return vim_help_headings(lines)
        from .rst_headings import underlined_headings

        # Markdown in a .txt file (pandoc's MANUAL.txt: 254 `#` headings, and two rules
        # inside its fenced code that read as underlines) when `#` headings are more.
        underlined, marked = underlined_headings(lines), markdown_headings(lines)
        hashed = sum(1 for heading in marked if _HASHED_TITLE.match(lines[heading.title]))
        return marked if hashed > len(underlined) else underlined
    if kind == "roff":
        from .roff_text import roff_headings

        return roff_headings(lines)
    if kind == "org":
        from .org_text import org_headings

        return org_headings(lines)
    if kind == "rdoc":
        from .rdoc_text import rdoc_headings

        return rdoc_headings(lines)
    return []


def fenced_blocks(lines: list[str], start: int = 0) -> list[Span]:
    """Markdown's fenced code blocks from line `start`, each from its opening fence to its
    closing one (an unclosed one runs to the end). As CommonMark reads them, a block closes
    only at a fence of its own character, at least as long as the opening one, with
    nothing after it: a ```` block holds a ```rust one whole."""
    blocks: list[Span] = []
    opened = -1
    opening = ""
    for index in range(start, len(lines)):
        line = lines[index]
        if "```" not in line and "~~~" not in line:
            continue
        found = FENCE.match(line)
        if not found:
            continue
        marker = found.group(1)
        if opened < 0:
            opened, opening = index, marker
        elif marker.startswith(opening) and not line[found.end() :].strip():
            blocks.append(Span(opened, index + 1))
            opened = -1
    if opened >= 0:
        blocks.append(Span(opened, len(lines)))
    return blocks


def fenced_lines(lines: list[str], start: int = 0) -> set[int]:
    """Indexes of the lines inside fenced code blocks, the fences themselves included."""
    return {
        index for block in fenced_blocks(lines, start) for index in range(block.start, block.end)
    }


def markdown_headings(lines: list[str]) -> list[Heading]:
    """`#` headings and setext ones (a paragraph line underlined with `=` or `-`), outside
    fenced code, HTML comments and front matter. Runs on every served markdown file: each
    line is looked at by its first character before any pattern is tried."""
    headings: list[Heading] = []
    first = front_matter_end(lines)
    fenced = fenced_lines(lines, first)
    text_line = -2  # the last line that may be a setext title (not a heading, not fenced)
    run_start = first  # where the run of text lines ending at text_line began
    commented = False  # inside an HTML comment opened on an earlier line
    for index in range(first, len(lines)):
        if index in fenced:
            continue
        line = lines[index]
        if commented:
            commented = "-->" not in line
            continue
        lead = line.lstrip(" ")[:1]
        if lead == "#":
            heading = HEADING.match(line)
            if heading:
                headings.append(Heading(index, index, len(heading.group(1))))
                continue
        elif lead == "<":
            opened = line.lstrip(" ")
            if opened.startswith("<!--"):  # a comment (`# copy the output here` in it)
                commented = "-->" not in opened[4:]
                continue
            html = html_heading(lines, index)
            if html is not None:
                headings.append(html)
                continue
        elif lead in ("=", "-") and text_line == index - 1 and is_setext_heading(lines, index - 1):
            # The title is the paragraph above the underline, perhaps over several lines.
            start = index - 1
            while start > run_start and not _NOT_SETEXT_TITLE.match(lines[start - 1]):
                start -= 1
            headings.append(Heading(start, index - 1, 1 if lead == "=" else 2))
            continue
        if not line.strip():
            run_start = index + 1
        elif text_line != index - 1:
            run_start = index
        text_line = index
    return headings


def html_heading(lines: list[str], index: int) -> Heading | None:
    """The HTML heading markdown line `index` opens, if it does: its words are on that line
    after the tag, or on the next line when the tag stands alone (`<h3 name="config">`,
    then the title, then `</h3>`). (Fences are the caller's to rule out.)"""
    found = _HTML_HEADING.match(lines[index])
    if found is None:
        return None
    title = index
    if not html_text(found.group(2)) and index + 1 < len(lines) and html_text(lines[index + 1]):
        title = index + 1
    return Heading(index, title, int(found.group(1)))


def html_text(line: str) -> str:
    """A line's text without its HTML tags."""
    return _TAG.sub(" ", line).strip() if "<" in line else line.strip()


def is_heading_decoration(line: str) -> bool:
    """A line under a heading's title that is still the heading: blank, an underline, a
    closing tag."""
    text = line.strip()
    return not text or bool(ADORNMENT.match(text) or SETEXT.match(line)) or not html_text(text)


def heading_alone(lines: list[str], headings: Mapping[int, int], start: int, end: int) -> bool:
    """Whether lines `start` to `end` are the heading starting at `start` and nothing of its
    section (`headings`: a heading's first line -> its title line): its title, then only
    lines that are still the heading."""
    title = headings.get(start)
    return title is not None and all(is_heading_decoration(lines[i]) for i in range(title + 1, end))


def heading_left_alone(
    lines: list[str], headings: Mapping[int, int], starts: list[int], span: Span
) -> int | None:
    """The first line of the last section `span` runs into when `span` holds only that
    section's heading (`headings`: a heading's first line -> its title line; `starts`:
    those first lines, sorted); None otherwise."""
    found = bisect_left(starts, span.end) - 1
    if found < 0 or starts[found] <= span.start:
        return None
    last = starts[found]
    return last if heading_alone(lines, headings, last, span.end) else None


def is_setext_heading(lines: list[str], index: int) -> bool:
    """Whether markdown line `index` is a setext heading's title: underlined with `===` or
    `---`, and not a list item, quote, table row, indented code or an underline itself.
    (Fences and `#` headings are the caller's to rule out.)"""
    if index + 1 >= len(lines) or not SETEXT.match(lines[index + 1]):
        return False
    line = lines[index]
    return bool(line.strip()) and not _NOT_SETEXT_TITLE.match(line) and not SETEXT.match(line)


def document_sections(lines: list[str], headings: list[Heading]) -> list[Span]:
    """Each heading's own section (to the next heading) and each heading with its
    subsections (to the next heading of the same or a higher level), plus the text
    before the first heading (after any front matter). Without headings: the whole text.
    One pass: a heading still open (on the stack) ends at the next one as high or higher."""
    first = front_matter_end(lines)
    if not headings:
        return [Span(first, len(lines))] if first < len(lines) else []
    parent_ends = [len(lines)] * len(headings)
    open_headings: list[int] = []  # positions in `headings`, levels increasing
    for position, heading in enumerate(headings):
        while open_headings and headings[open_headings[-1]].level >= heading.level:
            parent_ends[open_headings.pop()] = heading.start
        open_headings.append(position)
    spans: list[Span] = []
    if headings[0].start > first:
        spans.append(Span(first, headings[0].start))
    for position, heading in enumerate(headings):
        own_end = headings[position + 1].start if position + 1 < len(headings) else len(lines)
        spans.append(Span(heading.start, own_end))
        if parent_ends[position] != own_end:
            spans.append(Span(heading.start, parent_ends[position]))
    return spans


def paragraphs(lines: list[str]) -> list[Span]:
    spans: list[Span] = []
    start = None
    for index, line in enumerate(lines):
        if line.strip():
            if start is None:
                start = index
        elif start is not None:
            spans.append(Span(start, index))
            start = None
    if start is not None:
        spans.append(Span(start, len(lines)))
    return spans


def line_run(
    start: int,
    end: int,
    lines: list[str],
    line_terms: Mapping[int, Mapping[str, int]],
    file_lines: Sequence[int] | None,
) -> tuple[list[str], dict[int, Mapping[str, int]], Sequence[int]]:
    """Lines `start` to `end` (0-based, `end` left out), the terms on them (by their 1-based
    line in the run) and the file's line of each (`file_lines` gives them, when the lines
    are not the file's own: a notebook's cells)."""
    held = {number - start: terms for number, terms in line_terms.items() if start < number <= end}
    numbers = file_lines[start:end] if file_lines is not None else range(start + 1, end + 1)
    return lines[start:end], held, numbers
