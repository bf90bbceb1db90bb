"""The kinds of value a setting holds, each named the way a problem names it ("expected
positive integer, got 0"), with its bounds or choices and the check the loader applies."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ValueKind:
    """A kind of value. `name` is what a wrong value was expected to be; `type` the YAML
    value it is read from: boolean, string, strings (a list of strings), integer, number,
    or choice (one of `choices`). `minimum` and `maximum` are inclusive bounds of a number,
    `above` an exclusive lower one."""

    name: str
    type: str
    choices: tuple[str, ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    above: float | None = None

    def read(self, raw: object) -> tuple[bool, object]:
        """Whether `raw` (as YAML gave it) is a value of this kind, and the value as the
        model holds it (a list becomes a tuple)."""
        if self.type == "boolean":
            return isinstance(raw, bool), raw
        if self.type == "string":
            return isinstance(raw, str), raw
        if self.type == "choice":
            return isinstance(raw, str) and raw in self.choices, raw
        if self.type == "strings":
            if isinstance(raw, list) and all(isinstance(item, str) for item in raw):
                return True, tuple(raw)
            return False, raw
        if not isinstance(raw, int | float) or isinstance(raw, bool):
            return False, raw
        if self.type == "integer" and not isinstance(raw, int):
            return False, raw
        return self._within(raw), raw

    def _within(self, number: float) -> bool:
        return (
            (self.minimum is None or number >= self.minimum)
            and (self.maximum is None or number <= self.maximum)
            and (self.above is None or number > self.above)
        )


def choice(name: str, choices: tuple[str, ...]) -> ValueKind:
    """A kind whose values are one of `choices`, named `name` in problems."""
    return ValueKind(name, "choice", choices)


BOOLEAN = ValueKind("boolean", "boolean")
STRING = ValueKind("string", "string")
STRINGS = ValueKind("list of strings", "strings")
POSITIVE_INTEGER = ValueKind("positive integer", "integer", above=0)
POSITIVE_NUMBER = ValueKind("positive number", "number", above=0)
NON_NEGATIVE_NUMBER = ValueKind("non-negative number", "number", minimum=0)
SCORE = ValueKind("score", "number", minimum=0, maximum=1)
COMPRESSION_LEVEL = ValueKind("compression level", "integer", minimum=1, maximum=9)
