"""A file's lines that remember what was read of them: ranking and the snippet ask the
same questions of the same lines (which name a line defines: for headings, for a name
looked up, for a block's title), and telling a definition takes a dozen patterns."""

from __future__ import annotations

from collections.abc import Iterable


class CodeLines(list[str]):
    """A file's lines (a list, as split_lines gives them) with the name each line asked
    about defines (None: none), filled by code_definitions as it reads them."""

    __slots__ = ("defined",)

    def __init__(self, lines: Iterable[str] = ()) -> None:
        super().__init__(lines)
        self.defined: dict[int, str | None] = {}
