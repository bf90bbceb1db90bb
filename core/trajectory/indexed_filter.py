"""An `EntryFilter` tested against the lines of one `LineIndex`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .filters import EntryFilter

if TYPE_CHECKING:
    from .index import LineIndex


class IndexedTest:
    """An EntryFilter resolved against one index: most lines are decided from their facts,
    the text test reads only the lines that pass those."""

    def __init__(self, index: LineIndex, wanted: EntryFilter) -> None:
        self.index = index
        self.wanted = wanted
        self.facts = index.facts.test(wanted)

    def passes(self, i: int) -> bool:
        index = self.index
        if i >= len(index.facts):  # facts not known yet (or the truncated last line)
            return self.wanted.accepts(index.line(i))
        if not self.facts.passes(i):
            return False
        return not self.wanted.text or self.wanted.text_in(index.raw_line(i))

    def facts_pass(self, i: int) -> bool:
        """Agent, phase and flag tests of a line, from the index when it knows them."""
        if i >= len(self.index.facts):
            return self.wanted.facts_accept(self.index.line(i))
        return self.facts.passes(i)
