"""What is worked out from a file's text alone, remembered for a process that answers query
after query (the MCP server, the workbench, `tierscope eval`): a file read again for the
next question is not worked out again. Keyed by the text itself (or its lines), so a file
that changed is worked out anew and nothing is ever answered from what a file used to say.
Bounded by the characters (or lines) kept; the least recently used go first."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from functools import wraps

TYPE_CHECKING = False  # typing itself is not imported (tests/test_startup.py)
if TYPE_CHECKING:
    from typing import Any, TypeVar

    Made = TypeVar("Made")

# About 8 MB of text kept with what was made of it, and marks for 400,000 lines: the files
# of a few hundred questions on a project such as Textual (1,200 files, 9 MB, 230,000
# lines).
MAX_CHARS = 8_000_000
MAX_LINES = 400_000


class _Kept:
    """Values by key, each with its cost, at most `bound` in all; least recently used
    first out."""

    def __init__(self, bound: int) -> None:
        self.bound = bound
        self.size = 0
        self.values: dict[Hashable, tuple[Any, int]] = {}

    def get(self, key: Hashable) -> tuple[Any, int] | None:
        found = self.values.pop(key, None)
        if found is not None:
            self.values[key] = found  # the most recently used last
        return found

    def made(self, key: Hashable, make: Callable[[], Made], cost: Callable[[Made], int]) -> Made:
        """The value kept for `key`, else `make()`'s, kept at its `cost`."""
        found = self.get(key)
        if found is not None:
            return found[0]
        value = make()
        self.put(key, value, cost(value))
        return value

    def put(self, key: Hashable, value: object, cost: int) -> None:
        if cost > self.bound:
            return  # kept, it would push out everything else
        while self.values and self.size + cost > self.bound:
            oldest = next(iter(self.values))
            self.size -= self.values.pop(oldest)[1]
        self.values[key] = (value, cost)
        self.size += cost

    def clear(self) -> None:
        self.values.clear()
        self.size = 0


def memo_by_text(
    max_chars: int = MAX_CHARS,
) -> Callable[[Callable[[str, str], str]], Callable[[str, str], str]]:
    """Decorate `make(text, kind) -> str`, a pure function of its arguments. A result
    that is the text itself costs only the text."""

    def decorate(make: Callable[[str, str], str]) -> Callable[[str, str], str]:
        kept = _Kept(max_chars)

        @wraps(make)
        def remembered(text: str, kind: str) -> str:
            return kept.made(
                (text, kind),
                lambda: make(text, kind),
                lambda made: len(text) + (len(made) if made is not text else 0),
            )

        remembered.forget = kept.clear  # type: ignore[attr-defined]
        return remembered

    return decorate


def memo_of_text(
    max_chars: int = MAX_CHARS,
) -> Callable[[Callable[[str], Made]], Callable[[str], Made]]:
    """Decorate `make(text) -> value`, a pure function of the text whose value is never
    changed by those it is handed to; each value costs its text's length."""

    def decorate(make: Callable[[str], Made]) -> Callable[[str], Made]:
        kept = _Kept(max_chars)

        @wraps(make)
        def remembered(text: str) -> Made:
            return kept.made(text, lambda: make(text), lambda _: max(len(text), 1))

        remembered.forget = kept.clear  # type: ignore[attr-defined]
        return remembered

    return decorate


def memo_by_lines(
    max_lines: int = MAX_LINES,
) -> Callable[[Callable[..., tuple[Made, ...]]], Callable[..., tuple[Made, ...]]]:
    """Decorate `make(lines, **options) -> tuple`, one value per line and a pure function
    of the lines' text and the options (hashable)."""

    def decorate(make: Callable[..., tuple[Made, ...]]) -> Callable[..., tuple[Made, ...]]:
        kept = _Kept(max_lines)

        @wraps(make)
        def remembered(lines: list[str], **options: Hashable) -> tuple[Made, ...]:
            return kept.made(
                (tuple(lines), *sorted(options.items())),
                lambda: make(lines, **options),
                lambda _: max(len(lines), 1),
            )

        remembered.forget = kept.clear  # type: ignore[attr-defined]
        return remembered

    return decorate
