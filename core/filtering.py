"""Context filtering (seed 004 §3.8): exclude globs, the archive zone, frontmatter signal
levels, and tierscope's own state. Applied to every tier's hits and to grep's walk."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from .config.model import SIGNAL_LEVELS, FilteringSettings
from .files import read_head
from .globs import glob_to_regex
from .project import is_inside, relative_source

_SIGNAL_LINE = re.compile(rb"^signal:\s*['\"]?(low|medium|high)['\"]?\s*$", re.MULTILINE)


@lru_cache(maxsize=4096)
def read_signal(path: Path) -> str:
    """The frontmatter `signal:` of a file; no marker (or unreadable) counts as medium."""
    head = read_head(path, 2048)
    if not head.startswith(b"---"):
        return "medium"
    end = head.find(b"\n---", 3)
    front = head[: end if end != -1 else len(head)]
    match = _SIGNAL_LINE.search(front)
    return match.group(1).decode() if match else "medium"


@dataclass(frozen=True)
class ContextFilter:
    """Decides whether a root-relative source may be used as context, and why not."""

    root: Path
    settings: FilteringSettings
    private_paths: tuple[Path, ...] = ()
    # Compiled when a source is first judged (a query that finds nothing never does).
    _globs: tuple[tuple[str, re.Pattern[str]], ...] | None = field(init=False, repr=False)
    _private: tuple[str, ...] = field(init=False, repr=False)
    # Each source is judged once per query, whichever stage asks (a tier picking its
    # files, the engine checking what every tier served): the decision is kept.
    _decided: dict[str, str | None] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_decided", {})
        object.__setattr__(self, "_globs", None)
        # Root-relative prefixes: sources are root-relative strings, and this check runs
        # for every candidate file.
        private = tuple(
            relative_source(p, self.root) for p in self.private_paths if is_inside(p, self.root)
        )
        object.__setattr__(self, "_private", private)

    def reason_to_exclude(self, source: str) -> str | None:
        """None when `source` may be used; otherwise the one-line reason it may not."""
        try:
            return self._decided[source]
        except KeyError:
            reason = self._decided[source] = self._judge(source)
            return reason

    def _judge(self, source: str) -> str | None:
        for private in self._private:
            if source == private or source.startswith(private + "/") or private == ".":
                return "tierscope's own state (never searched)"
        if not self.settings.enabled:
            return None
        zone = self.settings.archive_zone.strip().strip("/")
        if zone and (source == zone or source.startswith(zone + "/")):
            return f"archive zone {self.settings.archive_zone}"
        globs = self._globs
        if globs is None:
            globs = tuple((g, glob_to_regex(g)) for g in self.settings.exclude)
            object.__setattr__(self, "_globs", globs)
        for raw, regex in globs:
            if regex.match(source):
                return f"exclude glob {raw}"
        if source.endswith((".md", ".markdown")):
            signal = read_signal(self.root / source)
            if SIGNAL_LEVELS.index(signal) < SIGNAL_LEVELS.index(self.settings.signal_threshold):
                return f"signal: {signal} (threshold {self.settings.signal_threshold})"
        return None
