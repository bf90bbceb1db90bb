"""Text holding paths, wrapped after a slash rather than in the middle of a name.

Textual wraps a line at its spaces and folds a word longer than the width wherever the
width ends, so a long path reads `…/harbor-22949366/a-long` over `-store-name/…`. Here a
word too long for a line of its own (a path, mostly) is broken after a slash instead, and
only a name longer than the whole width is still folded."""

from __future__ import annotations

import re

from rich.cells import cell_len
from textual.content import Content
from textual.css.styles import RulesMap
from textual.selection import Selection
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual, VisualType
from textual.widgets import Static

_WORD = re.compile(r"\S+\s*|\s+")
# A word's pieces: up to and with each run of slashes.
_PIECE = re.compile(r"[^/]*/+|[^/]+")


def break_offsets(line: str, width: int) -> list[int]:
    """Where to break `line` so that each part fits in `width` cells: at a space, as late
    as each part allows, and within a word too long for a line of its own, after a slash.
    A part's trailing spaces need not fit."""
    offsets: list[int] = []
    used = 0
    for word in _WORD.finditer(line):
        whole = word.group()
        pieces = (
            [word]
            if cell_len(whole.rstrip()) <= width
            else list(_PIECE.finditer(line, word.start(), word.end()))
        )
        for piece in pieces:
            text = piece.group()
            if used and used + cell_len(text.rstrip()) > width:
                offsets.append(piece.start())
                used = 0
            used += cell_len(text)
    return offsets


def wrapped_at_slashes(content: Content, width: int) -> Content:
    """`content` with a line break wherever a line too long for `width` is best broken."""
    if width <= 0 or content.cell_length <= width:
        return content
    lines: list[Content] = []
    for line in content.split("\n"):
        if line.cell_length <= width:
            lines.append(line)
            continue
        lines.extend(part.rstrip() for part in line.divide(break_offsets(line.plain, width)))
    return Content("\n").join(lines)


class SlashWrapped(Visual):
    """A Content drawn as `wrapped_at_slashes` for the width it is given."""

    def __init__(self, content: Content) -> None:
        self.content = content
        self._wrapped: tuple[int, Content] = (-1, content)

    def __str__(self) -> str:
        return self.content.plain

    def at_width(self, width: int) -> Content:
        if self._wrapped[0] != width:
            self._wrapped = (width, wrapped_at_slashes(self.content, width))
        return self._wrapped[1]

    def render_strips(
        self, width: int, height: int | None, style: Style, options: RenderOptions
    ) -> list[Strip]:
        return self.at_width(width).render_strips(width, height, style, options)

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return self.content.get_optimal_width(rules, container_width)

    def get_minimal_width(self, rules: RulesMap) -> int:
        return self.content.get_minimal_width(rules)

    def get_height(self, rules: RulesMap, width: int) -> int:
        return self.at_width(width).get_height(rules, width)


class PathText(Static):
    """A Static whose lines too long for it break after a slash (`SlashWrapped`); text
    selected in it is copied as it is shown."""

    def __init__(self, content: Content | str = "", **kwargs) -> None:
        shown = Content(content) if isinstance(content, str) else content
        super().__init__(SlashWrapped(shown), **kwargs)

    def update(self, content: VisualType = "", *, layout: bool = True) -> None:
        """Show `content` (a Content or plain text, not markup) wrapped at slashes."""
        if isinstance(content, str):
            content = Content(content)
        if isinstance(content, Content):
            content = SlashWrapped(content)
        super().update(content, layout=layout)

    def get_selection(self, selection: Selection) -> tuple[str, str] | None:
        shown = self.visual
        if not isinstance(shown, SlashWrapped):
            return super().get_selection(selection)
        return selection.extract(shown.at_width(self.content_region.width).plain), "\n"
