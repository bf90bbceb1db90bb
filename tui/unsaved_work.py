"""What a view tells the App before the workbench quits: whether it holds edits not saved
yet, and how to save them. The App asks every view it has built, and knows none of them in
particular; a view with nothing to lose simply does not have these methods."""

from __future__ import annotations

from typing import Protocol, runtime_checkable


@runtime_checkable
class HoldsUnsavedWork(Protocol):
    def unsaved_changes(self) -> str | None:
        """What holds edits not saved yet (a file, named as the view shows it); None when
        nothing would be lost."""
        ...

    async def save_changes(self) -> bool:
        """Save the edits the way the view always does (its checks, its confirmation).
        True once they are saved; False when refused or cancelled (the view says why)."""
        ...
