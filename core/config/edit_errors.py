"""What editing a config file can refuse: a change that cannot be made, and a save that
would lose a change made on disk meanwhile."""

from __future__ import annotations


class ConfigEditError(ValueError):
    """A change that cannot be made; the message says why. `line` is 1-based when known."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


class ConfigConflict(RuntimeError):
    """The file changed on disk after it was loaded: saving would lose that change."""
