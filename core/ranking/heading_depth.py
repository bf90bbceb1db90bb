"""The sections a page's many subsections start: a topic's own section (`## Eager
Loading`, which says what it is) answers a question naming the topic before the dozen
subsections below it titled with the same words and one more (`#### Eager Loading
Multiple Relationships`); span_choice.py counts a deep heading's words less."""

from __future__ import annotations

from .spans import Heading

# Levels below the page's top sections (those of the lowest level under its title) that a
# heading may lie and still count its words in full: a top section's subsections (`###`
# under `##`) are often the answer themselves (an FAQ's questions).
FULL_DEPTH = 1


def deep_sections(
    headings: list[Heading], title: Heading | None, lines: list[str], kind: str
) -> set[int]:
    """The first lines of the sections whose headings lie deeper than FULL_DEPTH below the
    page's top ones (of a document of `kind`, spans.document_kind); none in a Vim help
    file, whose tagged entries (deepest of all) are what is looked up."""
    levels = [heading.level for heading in headings if heading is not title]
    if not levels:
        return set()
    if kind == "plain":  # imported only here, as spans.py does: most queries read none
        from .vim_help import is_vim_help

        if is_vim_help(lines):
            return set()
    top = min(levels)
    return {h.start for h in headings if h is not title and h.level - top > FULL_DEPTH}
