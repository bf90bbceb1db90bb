"""Counting the query's terms in every file of a scope with ripgrep.

ripgrep prints each match (`--only-matching`), grouped under its file's path
(`--heading`), the path ended by a NUL (`--null`): a file name may hold newlines and
colons, never a NUL, and a matched word holds neither. `--stats` adds how many files and
bytes were searched: the scope's size for IDF and length normalisation.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from ..config.model import Config
from ..ignore_rules import ripgrep_excludes
from ..models import ResolvedScope
from ..process import ProcessResult, run_bounded
from ..project import is_inside, relative_source
from ..ranking.candidates import Candidates
from ..ranking.matching import TermMatcher
from .base import Deadline

_STATS = re.compile(rb"(\d+) files searched\n(?:\d+ bytes printed\n)?(\d+) bytes searched")


def ripgrep_argv(
    rg: str,
    root: Path,
    scope: ResolvedScope,
    matcher: TermMatcher,
    config: Config,
    private_paths: tuple[Path, ...],
) -> tuple[str, ...]:
    argv = [
        rg, "--no-config", "--only-matching", "--no-line-number", "--heading", "--null",
        "--with-filename", "--stats", "--no-messages", "--color", "never",
        "--max-filesize", str(config.grep.max_filesize),
    ]  # fmt: skip
    for glob in scope.include:  # before the excludes: a later glob wins
        argv += ["--glob", glob]
    if config.filtering.include_ignored:
        argv += ["--no-ignore", "--hidden", "--glob", "!.git/"]
    else:
        argv += ["--no-require-git", *ripgrep_excludes(config.filtering.include_machine_data)]
    for private in private_paths:
        if is_inside(private, root) and private != root:
            argv += ["--glob", f"!/{_glob_escape(relative_source(private, root))}"]
            if private.is_dir():
                argv += ["--glob", f"!/{_glob_escape(relative_source(private, root))}/**"]
    argv += ["-e", matcher.pattern, "--"]
    argv += [relative_source(p, root) or "." for p in scope.grep_paths]
    return tuple(argv)


def _glob_escape(text: str) -> str:
    return re.sub(r"([*?\[\]{}\\!])", r"\\\1", text)


def parse_output(stdout: bytes, matcher: TermMatcher) -> tuple[Candidates, int]:
    """The term counts per file and the scope's size; also how many files were left out
    because their names are not UTF-8 (a source must print as text)."""
    candidates = Candidates()
    words: dict[bytes, list[str]] = {}
    skipped_names = 0
    last = 0
    # One file: its path, NUL, one matched word per line, then an empty line. A word is
    # never empty, so the first empty line after the NUL ends the file; a cut-off last
    # file (output capped) has none and is left out.
    while True:
        nul = stdout.find(b"\0", last)
        end = stdout.find(b"\n\n", nul + 1) if nul >= 0 else -1
        if end < 0:
            break
        raw_path, lines = stdout[last:nul], stdout[nul + 1 : end]
        last = end + 2
        try:
            path = raw_path.decode("utf-8")
        except UnicodeDecodeError:
            skipped_names += 1
            continue
        path = path.removeprefix("./")
        counts: dict[str, int] = {}
        for word, occurrences in Counter(lines.split(b"\n")).items():
            keys = words.get(word)
            if keys is None:
                keys = words[word] = matcher.keys_of(word.decode("utf-8", "replace"))
            for key in keys:
                counts[key] = counts.get(key, 0) + occurrences
        if counts:
            candidates.frequencies[path] = counts
    stats = _STATS.search(stdout, last)
    if stats:
        candidates.documents = int(stats.group(1))
        candidates.total_bytes = int(stats.group(2))
    return candidates, skipped_names


def describe_failure(result: ProcessResult) -> str | None:
    """Why ripgrep's run gives nothing usable; None when its output can be used (exit 2
    means some file could not be read: the others still count)."""
    if result.launch_error:
        return f"ripgrep: {result.launch_error}"
    if result.returncode not in (0, 1, 2) and not result.truncated:
        return f"ripgrep exited {result.returncode}: {result.first_stderr_line()}"
    return None


def run_ripgrep(argv: tuple[str, ...], root: Path, deadline: Deadline) -> ProcessResult:
    return run_bounded(argv, deadline, cwd=root)
