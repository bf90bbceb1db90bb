"""The blocks of a markdown page that are code for the site that renders it, not text a
reader reads: its front matter (YAML between `---` lines, TOML between `+++` lines, at its
top: a Docusaurus, VitePress, Hugo or Jekyll page's title, id, sidebar position), MDX's
`import` and `export` statements (a Docusaurus or Astro page's `import Tabs from
'@theme/Tabs';`) and `<script>` and `<style>` blocks (VitePress' `<script setup>` that
imports the page's components, Laravel's styles for its method lists). Their words count
for nothing (markup_words.py) and no passage shows them (sections.py)."""

from __future__ import annotations

import re

from .spans import Span, fenced_lines, front_matter_end, next_written

# An MDX statement, at a line's start outside fenced code and opening a paragraph:
# JavaScript's `import` of names from a module (`import X from '...'`, `import { A, B }
# from`, `import * as`, `import 'x.css'`; not a sentence, "import the keys from the
# store") or an `export` of a declaration. MDX reads it to the next blank line.
_STATEMENT = re.compile(
    r"(?:import[ \t]+(?:type[ \t]+)?(?:[\w$]+[ \t]*,[ \t]*)?"
    r"(?:[{*'\"]|[\w$]+[ \t]+from[ \t]+['\"])"
    r"|export[ \t]+(?:const|let|var|function|class|default|async|\{|\*)(?![\w$]))"
)
# A block of code for the browser, as CommonMark reads an HTML block: from the line its
# opening tag starts to the line holding its closing tag.
_CODE_ELEMENT = re.compile(r" {0,3}<(script|style)(?=[\s>]|$)", re.IGNORECASE)
_CLOSING_TAG = {
    "script": re.compile(r"</script>", re.IGNORECASE),
    "style": re.compile(r"</style>", re.IGNORECASE),
}


def markup_blocks(lines: list[str], fenced: set[int] | None = None) -> list[Span]:
    """The page's front matter, MDX statements and script and style blocks, in order
    (`fenced`: its lines in fenced code past its front matter, when known)."""
    first = front_matter_end(lines)
    blocks = [Span(0, first)] if first else []
    openings = [
        index
        for index in range(first, len(lines))
        if lines[index][:1] in ("i", "e", "<", " ") and _opens_a_block(lines, index, first)
    ]
    if not openings:
        return blocks
    if fenced is None:
        fenced = fenced_lines(lines, first)
    end = first
    for index in openings:
        if index < end or index in fenced:
            continue  # inside the block before, or code shown
        end = _block_end(lines, index)
        blocks.append(Span(index, end))
    return blocks


def _opens_a_block(lines: list[str], index: int, first: int) -> bool:
    """Whether line `index` (past the front matter, from `first`) opens an MDX statement
    or a script or style block."""
    line = lines[index]
    if line[:1] in ("i", "e"):
        opens_paragraph = index == first or not lines[index - 1].strip()
        return opens_paragraph and bool(_STATEMENT.match(line))
    return "<" in line[:4] and bool(_CODE_ELEMENT.match(line))


def _block_end(lines: list[str], index: int) -> int:
    """Where the block opening on line `index` ends: a statement at the next blank line,
    a script or style block after the line holding its closing tag (or the page's end)."""
    element = _CODE_ELEMENT.match(lines[index])
    if element is None:
        end = index + 1
        while end < len(lines) and lines[end].strip():
            end += 1
        return end
    closing = _CLOSING_TAG[element.group(1).lower()]
    return next(
        (after + 1 for after in range(index, len(lines)) if closing.search(lines[after])),
        len(lines),
    )


def text_start(lines: list[str], blocks: list[Span]) -> int:
    """The page's first line of text: past the markup blocks (`markup_blocks`) and the
    blank lines at its top."""
    start = 0
    for block in blocks:
        while start < block.start and not lines[start].strip():
            start += 1
        if block.start != start:
            break
        start = block.end
    return next_written(lines, start)
