"""Trajectory files as the Trajectories view holds them, and the reads its workers do.

An `OpenedTrajectory` is one file, or several merged by time, behind one lock. Everything
that changes or closes its indexes (building, refreshing for follow mode, closing) and
every long read a worker does takes the lock, so a file is never closed under a worker;
the UI thread reads single lines without it (the indexes allow readers beside one
writer) and never after it has let go of the trajectory.
"""

from __future__ import annotations

import threading
from array import array
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from tierscope.config.model import TokenBudgets
from tierscope.trajectory.budget_timeline import BudgetTimeline, budget_timeline_of
from tierscope.trajectory.filters import EntryFilter
from tierscope.trajectory.index import LineIndex
from tierscope.trajectory.index_progress import Growth, IndexProgress
from tierscope.trajectory.line_count import count_lines
from tierscope.trajectory.merged import MergedView, merge_by_time
from tierscope.trajectory.paths import LogFileInfo, list_logs
from tierscope.trajectory.records import TrajectoryEntry
from tierscope.trajectory.replay import LoggedQuery, QueryPair, find_pair, logged_query

# Lines a match search covers between two looks at its cancel flag (and two messages).
MATCH_STEP = 20_000


@dataclass(frozen=True, slots=True)
class FileRow:
    """A trajectory file as the files pane lists it; `lines` is None when it could not
    be counted (unreadable, or a cut-off archive)."""

    info: LogFileInfo
    lines: int | None


def list_files(directory: Path, previous: Sequence[FileRow] = ()) -> tuple[FileRow, ...]:
    """The trajectory files of `directory` with their line counts; a file whose size and
    modification time are unchanged keeps its count from `previous` instead of being read
    again."""
    known = {row.info.path: row for row in previous}
    rows = []
    for info in list_logs(directory):
        before = known.get(info.path)
        if before is not None and (before.info.size, before.info.mtime) == (info.size, info.mtime):
            rows.append(FileRow(info, before.lines))
            continue
        try:
            lines: int | None = count_lines(info.path)
        except (OSError, EOFError):
            lines = None
        rows.append(FileRow(info, lines))
    return tuple(rows)


class OpenedTrajectory:
    """One file (`source` is its LineIndex) or several (`source` is their MergedView)."""

    def __init__(self, indexes: Sequence[LineIndex]) -> None:
        self.indexes = tuple(indexes)
        self.paths = tuple(index.path for index in self.indexes)
        self.lock = threading.Lock()
        self.closed = False
        # Several files are merged once built (`build`): merging orders what is indexed.
        self.source: LineIndex | MergedView = (
            self.indexes[0] if len(self.indexes) == 1 else merge_by_time(list(self.indexes))
        )

    @property
    def label(self) -> str:
        if len(self.paths) == 1:
            return self.paths[0].name
        return f"{len(self.paths)} files merged by time"

    @property
    def merged(self) -> bool:
        return len(self.indexes) > 1

    def __len__(self) -> int:
        return len(self.source)

    def line(self, position: int) -> TrajectoryEntry:
        return self.source.line(position)

    def lines(self, start: int, stop: int) -> list[TrajectoryEntry]:
        return self.source.lines(start, stop)

    def locate(self, position: int) -> tuple[LineIndex, int]:
        """The file and line number (0-based) of the line at `position`."""
        if isinstance(self.source, MergedView):
            which, i = self.source.locate(position)
            return self.indexes[which], i
        return self.source, position

    def file_name(self, position: int) -> str:
        index, _i = self.locate(position)
        return index.path.name

    # Facts over every file, for the header and the filter choices.

    @property
    def indexed(self) -> bool:
        return all(index.done for index in self.indexes)

    @property
    def progress(self) -> float:
        """Indexing progress in [0, 1] over every file, by size."""
        totals = [max(index.progress.bytes_total, 1) for index in self.indexes]
        done = sum(
            index.progress.fraction * total
            for index, total in zip(self.indexes, totals, strict=True)
        )
        return done / sum(totals)

    @property
    def flagged_count(self) -> int:
        return sum(index.flagged_count for index in self.indexes)

    @property
    def truncated_tails(self) -> int:
        return sum(index.has_truncated_tail for index in self.indexes)

    @property
    def data_loss_ratio(self) -> float:
        """Malformed / summarised lines over every file (seed 004 §3.3)."""
        summarised = sum(len(index.facts) for index in self.indexes)
        return self.flagged_count / summarised if summarised else 0.0

    @property
    def problems(self) -> tuple[str, ...]:
        return tuple(
            f"{index.path.name}: {index.problem}" for index in self.indexes if index.problem
        )

    def agents(self) -> dict[str, int]:
        return _summed(index.agents() for index in self.indexes)

    def phases(self) -> dict[str, int]:
        return _summed(index.phases() for index in self.indexes)

    def query_at(self, position: int) -> tuple[QueryPair, LoggedQuery | None]:
        """The intent/execute pair of the line at `position` and, if it names a query,
        what to ask to run it again."""
        index, i = self.locate(position)
        pair = find_pair(index, i)
        return pair, logged_query(pair, index.path.name)

    # Work done by workers, under the lock.

    def build(self, cancelled: Callable[[], bool], on_progress: Callable[[float], None]) -> bool:
        """Index every file to the end, one step at a time; False when cancelled or closed
        before the end."""
        for index in self.indexes:
            progress: IndexProgress = index.progress
            while not progress.done:
                with self.lock:
                    if self.closed or cancelled():
                        return False
                    progress = index.index_more()
                on_progress(self.progress)
        if self.merged:
            with self.lock:
                self.source = merge_by_time(list(self.indexes))
        return True

    def refresh(self) -> Growth | None:
        """Pick up lines appended since (follow mode); None once closed."""
        with self.lock:
            if self.closed:
                return None
            return self.source.refresh()

    def match_step(self, wanted: EntryFilter, start: int) -> tuple[array, int] | None:
        """Positions from `start` passing `wanted`, over at most MATCH_STEP lines, and the
        position the step stopped at; None once closed."""
        with self.lock:
            if self.closed:
                return None
            stop = min(start + MATCH_STEP, len(self.source))
            return array("Q", self.source.matches(wanted, start, stop=stop)), stop

    def budget_timeline(self, limits: TokenBudgets) -> BudgetTimeline | None:
        """Tokens per agent and day against `limits`; None once closed."""
        with self.lock:
            if self.closed:
                return None
            return budget_timeline_of(self.source, limits)

    def close(self) -> None:
        """Close every file, waiting for the worker step in progress (if any) to end."""
        with self.lock:
            if self.closed:
                return
            self.closed = True
            for index in self.indexes:
                index.close()


def open_trajectory(paths: Sequence[Path]) -> OpenedTrajectory:
    """Open `paths` (nothing indexed yet); raises OSError for one that cannot be opened,
    having closed the others."""
    indexes: list[LineIndex] = []
    try:
        for path in paths:
            indexes.append(LineIndex(path))
    except OSError:
        for index in indexes:
            index.close()
        raise
    return OpenedTrajectory(indexes)


def _summed(tallies) -> dict[str, int]:
    total: Counter[str] = Counter()
    for tally in tallies:
        total.update(tally)
    return dict(sorted(total.items()))
