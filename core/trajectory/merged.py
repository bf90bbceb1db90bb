"""Several trajectory files read as one sequence ordered by time (a merged view)."""

from __future__ import annotations

from array import array
from bisect import bisect_right
from collections.abc import Iterator

from .filters import EntryFilter, search_range
from .index import LineIndex
from .index_progress import Growth
from .records import TrajectoryEntry


class MergedView:
    """The lines of several indexes as one sequence ordered by time.

    Ties keep file order, then line order; a line without a time stays after the line
    before it in its file. Lines indexed after construction appear after `refresh()`.
    One thread may refresh while others read: the layout is replaced in one assignment.
    """

    def __init__(self, indexes: list[LineIndex]) -> None:
        self.indexes = list(indexes)
        # (where each index's lines start among all lines, positions in time order)
        self._layout: tuple[list[int], array] = self._sorted()

    def _sorted(self) -> tuple[list[int], array]:
        keys: list[float] = []
        bases: list[int] = []
        for index in self.indexes:
            bases.append(len(keys))
            keys.extend(index.timestamps())
        return bases, array("Q", sorted(range(len(keys)), key=keys.__getitem__))

    def __len__(self) -> int:
        return len(self._layout[1])

    def locate(self, position: int) -> tuple[int, int]:
        """(which index, line in it) of the line at `position`."""
        bases, order = self._layout
        global_id = order[position]
        which = bisect_right(bases, global_id) - 1
        return which, global_id - bases[which]

    def line(self, position: int) -> TrajectoryEntry:
        which, i = self.locate(position)
        return self.indexes[which].line(i)

    def lines(self, start: int, stop: int) -> list[TrajectoryEntry]:
        return [self.line(p) for p in range(max(start, 0), min(stop, len(self)))]

    def matches(
        self,
        wanted: EntryFilter,
        start: int = 0,
        *,
        reverse: bool = False,
        stop: int | None = None,
    ) -> Iterator[int]:
        """Positions passing `wanted`; same contract as `LineIndex.matches`."""
        positions = search_range(start, stop, len(self), reverse)
        if wanted.is_empty:
            yield from positions
            return
        tests = [index.tester(wanted) for index in self.indexes]
        for position in positions:
            which, i = self.locate(position)
            if tests[which](i):
                yield position

    def refresh(self) -> Growth:
        """Refresh every index and re-sort; positions from `first_changed` on may differ."""
        growths = [index.refresh() for index in self.indexes]
        if not any(growth.changed for growth in growths):
            return Growth(len(self), len(self))
        old_order = self._layout[1]
        self._layout = self._sorted()
        bases, order = self._layout
        changed_from = [
            base + (0 if growth.reset else growth.first_changed)
            for base, growth in zip(bases, growths, strict=True)
        ]
        ends = [*bases[1:], len(order)]
        first = next(
            (
                p
                for p, global_id in enumerate(order)
                if p >= len(old_order)
                or old_order[p] != global_id
                or _is_changed(global_id, changed_from, ends)
            ),
            len(order),
        )
        return Growth(first, len(order), reset=any(growth.reset for growth in growths))


def _is_changed(global_id: int, changed_from: list[int], ends: list[int]) -> bool:
    return any(start <= global_id < end for start, end in zip(changed_from, ends, strict=True))


def merge_by_time(indexes: list[LineIndex]) -> MergedView:
    """One time-ordered view over several (built) indexes."""
    return MergedView(indexes)
