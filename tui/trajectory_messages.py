"""Messages the Trajectories view's workers post. Each carries the id of the load (files
opened) or search (filter applied) it belongs to, so the view can ignore those of a load or
search it has replaced."""

from __future__ import annotations

from array import array

from textual.message import Message

from tierscope.trajectory.budget_timeline import BudgetTimeline
from tierscope.trajectory.index_progress import Growth

from .trajectory_reading import FileRow, OpenedTrajectory


class FilesListed(Message):
    """The files of the trajectory directory, with their line counts."""

    def __init__(self, rows: tuple[FileRow, ...]) -> None:
        super().__init__()
        self.rows = rows


class TrajectoryOpened(Message):
    """The files of load `load_id` are open and readable (a single file while its index is
    still being built, merged files once built)."""

    def __init__(self, load_id: int, opened: OpenedTrajectory) -> None:
        super().__init__()
        self.load_id = load_id
        self.opened = opened


class TrajectoryUnreadable(Message):
    """Load `load_id` failed: one line saying why."""

    def __init__(self, load_id: int, error: str) -> None:
        super().__init__()
        self.load_id = load_id
        self.error = error


class IndexingProgressed(Message):
    """How far indexing has got; a newer one replaces an older one still queued."""

    def __init__(self, load_id: int, fraction: float) -> None:
        super().__init__()
        self.load_id = load_id
        self.fraction = fraction

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, IndexingProgressed) and message.load_id == self.load_id


class TrajectoryIndexed(Message):
    """Every file of load `load_id` is indexed."""

    def __init__(self, load_id: int) -> None:
        super().__init__()
        self.load_id = load_id


class MatchesFound(Message):
    """Positions from `start` up to `upto` that pass the filter of search `search_id`;
    `final` on the last step of a search."""

    def __init__(self, search_id: int, start: int, found: array, upto: int, *, final: bool) -> None:
        super().__init__()
        self.search_id = search_id
        self.start = start
        self.found = found
        self.upto = upto
        self.final = final


class TrajectoryGrew(Message):
    """A follow-mode refresh of load `load_id` finished; `growth` None when the files
    were closed meanwhile."""

    def __init__(self, load_id: int, growth: Growth | None) -> None:
        super().__init__()
        self.load_id = load_id
        self.growth = growth


class BudgetCounted(Message):
    """Tokens per agent and day of load `load_id` (None: closed before counted)."""

    def __init__(self, load_id: int, timeline: BudgetTimeline | None) -> None:
        super().__init__()
        self.load_id = load_id
        self.timeline = timeline
