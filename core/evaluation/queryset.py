"""Known-item query sets: `query<TAB>expected file[|another]<TAB>scope<TAB>passage`.

Lines starting with `#` and blank lines are ignored. `expected` is a root-relative path
(alternatives joined by `|`); `scope` and `passage` may be empty or left out. The passage
is a verbatim piece of the expected file that answers the query.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

SHORT_QUERY_WORDS = 4


@dataclass(frozen=True, slots=True)
class KnownItemQuery:
    text: str
    expected: tuple[str, ...]
    scope: str | None
    passage: str
    line: int  # in the query file, for messages
    # The expected files that hold the passage (set when the set is run; a hit on an
    # expected file without it says nothing about the snippet).
    passage_files: tuple[str, ...] = ()

    @property
    def length(self) -> str:
        """ "short" (a few keywords) or "long" (a question in the user's own words)."""
        return "short" if len(self.text.split()) <= SHORT_QUERY_WORDS else "long"


class QuerySetError(ValueError):
    """The query file cannot be used; the message names the file and line."""


def read_query_set(path: Path) -> list[KnownItemQuery]:
    """Every query of the file, in order. Raises QuerySetError for an unusable line."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise QuerySetError(f"{path}: cannot read: {exc}") from exc
    queries: list[KnownItemQuery] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        fields = raw.split("\t")
        if len(fields) < 2 or not fields[0].strip() or not fields[1].strip():
            raise QuerySetError(f"{path}:{number}: expected 'query<TAB>expected file'")
        if len(fields) > 4:
            raise QuerySetError(f"{path}:{number}: more than 4 tab-separated fields")
        fields += [""] * (4 - len(fields))
        expected = tuple(p.strip().removeprefix("./") for p in fields[1].split("|") if p.strip())
        queries.append(
            KnownItemQuery(
                text=fields[0].strip(),
                expected=expected,
                scope=fields[2].strip() or None,
                passage=fields[3].strip(),
                line=number,
            )
        )
    return queries
