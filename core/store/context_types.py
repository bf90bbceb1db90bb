"""The six types of context entry (seed 002), declared once: each one's name, how prose
names its entries, and its content — plain text, or a JSON object with these fields.

The store's checks of an entry, the CLI's `--type` choices and help, the MCP tools' enum
and the workbench's list of types are derived from these declarations. This module imports
nothing heavy: the CLI reads it while building its parser.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

REVIEW_ISSUE_TYPES = (
    "over-engineering",
    "missing-error-handling",
    "pattern-violation",
    "dead-code",
    "spec-intent-mismatch",
    "architecture-concern",
)


@dataclass(frozen=True, slots=True)
class ContentField:
    """A field of a JSON content: what it must be, as a refusal says it ("a non-empty
    string"), and the check. An optional field may be left out; `quote` adds the value
    given to the refusal."""

    name: str
    must_be: str
    accepts: Callable[[object], bool]
    required: bool = True
    quote: bool = False


@dataclass(frozen=True, slots=True)
class ContextType:
    """One type of entry. `plural` names its entries in prose ("review issues"). Its
    content is plain text, or with `json` a JSON object whose `fields` are checked (any
    other key is kept as it is). `pruned`: `context prune` keeps only the newest entries
    of this type."""

    name: str
    plural: str
    json: bool = False
    fields: tuple[ContentField, ...] = ()
    pruned: bool = True


def _non_empty_text(value: object) -> bool:
    return isinstance(value, str) and bool(value.strip())


def _non_negative_integer(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _strings(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _text(value: object) -> bool:
    return isinstance(value, str)


def _boolean(value: object) -> bool:
    return isinstance(value, bool)


def _review_issue_type(value: object) -> bool:
    return value in REVIEW_ISSUE_TYPES


DEFINITIONS = (
    ContextType("discovery", "discoveries"),
    ContextType("error", "errors"),
    ContextType("decision", "decisions"),
    ContextType(
        "review_issue",
        "review issues",
        json=True,
        fields=(
            ContentField(
                "issue_type",
                f"one of: {', '.join(REVIEW_ISSUE_TYPES)}",
                _review_issue_type,
                quote=True,
            ),
            ContentField("description", "a non-empty string", _non_empty_text),
            ContentField("suggestion", "a non-empty string", _non_empty_text),
        ),
    ),
    ContextType(
        "scratchpad",
        "scratchpads",
        json=True,
        fields=(
            ContentField("iteration", "a non-negative integer", _non_negative_integer),
            ContentField("done", "true or false", _boolean),
            ContentField("test_status", "a string", _text),
            ContentField("next_step", "a string", _text),
            # Left out when empty; when present, lists.
            ContentField("blockers", "a list of strings", _strings, required=False),
            ContentField("attempted", "a list of strings", _strings, required=False),
        ),
    ),
    # Seed 002: one document per run, never pruned.
    ContextType("codebase_analysis", "codebase analyses", json=True, pruned=False),
)

BY_NAME = {definition.name: definition for definition in DEFINITIONS}
CONTEXT_TYPES = tuple(BY_NAME)
TEXT_TYPES = tuple(definition.name for definition in DEFINITIONS if not definition.json)
PRUNED_TYPES = tuple(definition.name for definition in DEFINITIONS if definition.pruned)


def types_listed() -> str:
    """The type names, comma-separated: `discovery, error, ..., codebase_analysis`."""
    return ", ".join(CONTEXT_TYPES)


def entries_in_prose() -> str:
    """What the store holds, in a sentence: `discoveries, errors, ... and codebase
    analyses`."""
    plurals = [definition.plural for definition in DEFINITIONS]
    return f"{', '.join(plurals[:-1])} and {plurals[-1]}"
