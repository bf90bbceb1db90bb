"""The lines of an open trajectory that pass the Trajectories view's filter, found step by
step by a worker and kept as a sorted array of positions: what "only matches" shows, what
marks matches among all lines, and what next/previous match walk.

The UI thread owns this state; a worker only searches and reports (search id, start,
positions found, where it stopped), and reports of a search that was restarted since are
refused.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left, bisect_right

from tierscope.trajectory.filters import EntryFilter


class MatchSearch:
    """Positions passing `wanted`, known up to `searched_upto`."""

    def __init__(self) -> None:
        self.wanted = EntryFilter()
        self.positions = array("Q")
        self.searched_upto = 0
        self.searching = False
        self.search_id = 0

    @property
    def active(self) -> bool:
        """A filter is set (with none, every line matches and nothing is searched)."""
        return not self.wanted.is_empty

    def change(self, wanted: EntryFilter) -> bool:
        """Search for `wanted` from the first line; False when it is what is searched."""
        if wanted == self.wanted:
            return False
        self.wanted = wanted
        self.restart(0)
        return True

    def restart(self, start: int) -> None:
        """Forget what was found from position `start` on (those lines changed); a search
        in progress is abandoned."""
        self.search_id += 1
        del self.positions[bisect_left(self.positions, start) :]
        self.searched_upto = min(self.searched_upto, start)
        self.searching = False

    def begin(self, total: int) -> int | None:
        """Where a new search step should start, for a source of `total` lines; None when
        no search is needed (no filter, one already running, everything searched)."""
        if not self.active or self.searching or self.searched_upto >= total:
            return None
        self.searching = True
        return self.searched_upto

    def accept(self, search_id: int, start: int, found: array, upto: int, *, final: bool) -> bool:
        """Take a worker's report; False (and nothing changes) for a stale one."""
        if search_id != self.search_id or start != self.searched_upto:
            return False
        self.positions.extend(found)
        self.searched_upto = upto
        if final:
            self.searching = False
        return True

    def number_of(self, position: int) -> int | None:
        """1 for the first match, 2 for the second...; None when `position` is no match."""
        k = bisect_left(self.positions, position)
        if k < len(self.positions) and self.positions[k] == position:
            return k + 1
        return None

    def neighbour(self, position: int, step: int) -> int | None:
        """The first match after `position` (step 1) or before it (step -1), if any yet."""
        if step > 0:
            k = bisect_right(self.positions, position)
        else:
            k = bisect_left(self.positions, position) - 1
        return self.positions[k] if 0 <= k < len(self.positions) else None

    def summary(self, total: int, selected: int | None) -> str:
        """`6 of 13 match · match 2` (`6+` while the search goes on)."""
        searching = self.searching or self.searched_upto < total
        text = f"{len(self.positions):,}{'+' if searching else ''} of {total:,} match"
        number = self.number_of(selected) if selected is not None else None
        return text if number is None else f"{text} · match {number:,}"
