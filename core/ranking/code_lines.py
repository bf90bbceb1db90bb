"""A file's lines that remember what was read of them: ranking and the snippet ask the
same questions of the same lines (which name a line defines: for headings, for a name
looked up, for a block's title), and telling a definition takes a dozen patterns."""

from __future__ import annotations

from collections.abc import Iterable

TYPE_CHECKING = False  # typing itself is not imported (tests/test_startup.py)
if TYPE_CHECKING:
    from .spans import Heading


class CodeLines(list[str]):
    """A file's lines (a list, as split_lines gives them) with the name each line asked
    about defines (None: none), filled by code_definitions as it reads them, and a
    document's headings by the kind of document read (spans.document_kind), once
    spans.document_headings has found them. Never changed once made: the same lines serve
    every file with the same text (read_file.py)."""

    __slots__ = ("defined", "headings")

    def __init__(self, lines: Iterable[str] = ()) -> None:
        super().__init__(lines)
        self.defined: dict[int, str | None] = {}
        self.headings: dict[str, list[Heading]] = {}
