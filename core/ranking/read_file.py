"""A file as ranking and its snippet read it: its text, its lines and the query terms on
each line (tiers/file_hits.read_file reads it)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cached_property

from ..files import TextFile
from ..text_memo import memo_of_text
from .code_lines import CodeLines
from .notebooks import NotebookView
from .spans import split_lines


@dataclass(frozen=True)
class ReadFile:
    """A file read for ranking: its text and the query terms on each line; for a notebook,
    the text of its cells (`view`, notebooks.py), which the lines and terms are of."""

    document: TextFile
    line_terms: dict[int, dict[str, int]]
    view: NotebookView | None = None
    # Whether words were left out of the terms counted: an HTML tag's attributes, a link's
    # target (markup_words.py).
    markup_left_out: bool = False

    @property
    def text(self) -> str:
        return self.view.text if self.view is not None else self.document.text

    @property
    def size(self) -> int:
        """The length ranking counts: a notebook's cells, not its outputs (an image is
        most of a notebook's bytes); a file without its data URIs' payloads."""
        return len(self.view.text.encode()) if self.view is not None else self.document.size

    @cached_property
    def lines(self) -> list[str]:
        return file_lines(self.text)

    @cached_property
    def term_counts(self) -> dict[str, int]:
        """The query terms in the text read: for a notebook, in its cells (the search
        counted its outputs too: `image/png` keys, tables, logs); without the markup left
        out."""
        counts: Counter[str] = Counter()
        for on_line in self.line_terms.values():
            counts.update(on_line)
        return dict(counts)


@memo_of_text()  # a file read again for the next question is split, and read for names, once
def file_lines(text: str) -> CodeLines:
    """A text's lines, with what is read of them remembered (code_lines.py): the same
    lines for every file with this text, in this process."""
    return CodeLines(split_lines(text))
