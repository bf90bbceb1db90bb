"""A file ranked for a query: its score and what each term added, and how a rule scales
it (weighed), its label saying what the rule took away."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from .file_roles import AS_IS, Role


@dataclass(frozen=True, slots=True)
class RankedFile:
    """A file's score and what each query term added to it; `role` scales the score of a
    test file, a dated post or a translated page (file_roles.py)."""

    path: str
    score: float
    contributions: dict[str, float]
    role: Role = AS_IS

    @property
    def evidence(self) -> float:
        """All its terms and fields added, before its score was capped at the most a file
        can score: of two files at that cap, the one with more evidence leads (git's
        "what does git worktree do": the git-worktree manual, not a config key's page
        whose path comes first in the alphabet)."""
        return sum(part for part in self.contributions.values() if part > 0)


def weighed(entry: RankedFile, weight: float, label: str) -> RankedFile:
    """The file's score scaled by `weight`, the part taken away listed under `label`."""
    parts = {**entry.contributions, label: -(1.0 - weight) * entry.score}
    return RankedFile(entry.path, entry.score * weight, parts, entry.role)


def weighed_where(
    entries: list[RankedFile], paths: Collection[str], weight: float, label: str
) -> list[RankedFile]:
    """The files, each whose path is in `paths` weighed (weighed)."""
    return [weighed(entry, weight, label) if entry.path in paths else entry for entry in entries]
