"""The line over the Trajectories view's entry list: what is open, how many lines it has,
how many are malformed (the data-loss ratio of seed 004 §3.3), or why nothing is open."""

from __future__ import annotations

from pathlib import Path

from textual.content import Content
from textual.widgets import Static

from ..trajectory_reading import OpenedTrajectory
from .short_path import one_line


def loss_text(opened: OpenedTrajectory) -> str:
    """`3 malformed (0.2% data loss)`, or `no malformed lines`."""
    flagged = opened.flagged_count
    if not flagged:
        return "no malformed lines"
    return f"{flagged:,} malformed ({opened.data_loss_ratio:.1%} data loss)"


def summary_content(opened: OpenedTrajectory) -> Content:
    parts: list[tuple[str, str] | str] = [
        (one_line(opened.label), "bold"),
        f" · {len(opened):,} lines · ",
        (loss_text(opened), "$error" if opened.flagged_count else "$foreground-muted"),
    ]
    if opened.truncated_tails:
        parts.append((" · last line incomplete", "$warning"))
    return Content.assemble(*parts)


class TrajectorySummary(Static):
    """One line about the open trajectory."""

    def show(self, opened: OpenedTrajectory | None) -> None:
        if opened is not None:
            self.update(summary_content(opened))

    def show_opening(self, paths: tuple[Path, ...]) -> None:
        label = paths[0].name if len(paths) == 1 else f"{len(paths)} files"
        self.update(Content.styled(f"opening {label}…", "$accent"))

    def show_unreadable(self, error: str) -> None:
        self.update(Content.styled(f"cannot read: {error}", "$error"))

    def show_empty(self, where: str) -> None:
        self.update(
            Content.styled(
                f"No trajectory files in {where} yet: every query writes one line before and "
                "one after it runs.",
                "$foreground-muted",
            )
        )
