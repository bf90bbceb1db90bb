"""Counting the query's terms in every file of a scope with ripgrep.

ripgrep prints each match (`--only-matching`), grouped under its file's path
(`--heading`), the path ended by a NUL (`--null`): a file name may hold newlines and
colons, never a NUL, and a matched word holds neither. `--stats` adds how many files and
bytes were searched: the scope's size for IDF and length normalisation.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from ..config.model import Config
from ..globs import any_case_glob
from ..ignore_rules import ripgrep_excludes
from ..models import ResolvedScope
from ..process import DEFAULT_STDOUT_CAP, ProcessResult, run_bounded
from ..project import is_inside, relative_source
from ..ranking.matching import TermMatcher
from ..ranking.scope_counts import Candidates
from ..scopes import path_end_glob
from .base import Deadline

OUTPUT_CAP = DEFAULT_STDOUT_CAP
INCLUDED_TYPE = "tierscopeincluded"  # a scope's include globs of file names
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
        *_selection(root, scope.include, config, private_paths),
    ]  # fmt: skip
    argv += ["-e", matcher.pattern, "--"]
    argv += _places(root, scope.grep_paths)
    return tuple(argv)


def files_argv(
    rg: str,
    root: Path,
    paths: tuple[Path, ...],
    include: tuple[str, ...],
    config: Config,
    private_paths: tuple[Path, ...],
) -> tuple[str, ...]:
    """ripgrep listing (NUL-ended paths) the files the counting run over `paths` would
    search: the same selection, no pattern, and no size cap (ripgrep would take each
    file's size for it; the caller, which has it, applies `grep.max_filesize` itself)."""
    selection = _selection(root, include, config, private_paths, size_cap=False)
    return (
        rg, "--no-config", "--files", "--null", "--no-messages", *selection,
        "--", *_places(root, paths),
    )  # fmt: skip


def _selection(
    root: Path,
    include: tuple[str, ...],
    config: Config,
    private_paths: tuple[Path, ...],
    *,
    size_cap: bool = True,
) -> list[str]:
    """Which files a run reads: size cap, the scope's globs, ignore rules, private paths.

    Include globs of file names (`*.md`) are a file type ripgrep selects, and the built-in
    file excludes a type it leaves out: types match file names only, and a type left out
    wins over one selected (a `--glob` include would win over a type left out). Include
    globs of paths (`docs/**/*.rst`) can only be globs, and then the excludes are globs
    after them (a later glob wins), at the cost of also leaving out a folder named like
    an excluded file (`phx.gen.json/`)."""
    argv = ["--max-filesize", str(config.grep.max_filesize)] if size_cap else []
    left_out = [glob[1:] for glob in include if glob.startswith("!")]
    include = tuple(glob for glob in include if not glob.startswith("!"))
    by_path = any("/" in glob for glob in (*include, *left_out))
    if by_path:
        for glob in include:  # in any case
            argv += ["--glob", any_case_glob(path_end_glob(glob) if "/" in glob else glob)]
    elif include:
        for glob in include:
            argv += ["--type-add", f"{INCLUDED_TYPE}:{any_case_glob(glob)}"]
        argv += ["--type", INCLUDED_TYPE]
    for glob in left_out:  # after what they leave out of: a later glob wins
        argv += ["--glob", "!" + any_case_glob(path_end_glob(glob) if "/" in glob else glob)]
    if config.filtering.include_ignored:
        argv += ["--no-ignore", "--hidden", "--glob", "!.git/"]
    else:
        machine_data = config.filtering.include_machine_data
        argv += ["--no-require-git", *ripgrep_excludes(machine_data, as_globs=by_path)]
    for private in private_paths:
        if is_inside(private, root) and private != root:
            argv += ["--glob", f"!/{_glob_escape(relative_source(private, root))}"]
            if private.is_dir():
                argv += ["--glob", f"!/{_glob_escape(relative_source(private, root))}/**"]
    return argv


def _places(root: Path, paths: tuple[Path, ...]) -> list[str]:
    return [relative_source(p, root) or "." for p in paths]


def listing_argv(counting_argv: tuple[str, ...]) -> tuple[str, ...]:
    """The same search listing only the matching files' paths (NUL-ended): the output of
    a scope whose matches overflow the counting run's cap."""
    per_match = {"--only-matching", "--no-line-number", "--heading"}
    return (
        counting_argv[0],
        "--files-with-matches",
        *(a for a in counting_argv[1:] if a not in per_match),
    )


def parse_listing(stdout: bytes, candidates: Candidates) -> list[str]:
    """The listed paths (UTF-8 names only); the scope's size goes into `candidates`."""
    pieces = stdout.split(b"\0")
    _read_stats(pieces[-1], candidates)
    return _decoded(pieces[:-1])


def listed_paths(stdout: bytes) -> list[str]:
    """The paths of a `--files --null` listing (UTF-8 names only, as the counting run
    takes them: such a name cannot be a source)."""
    return _decoded(stdout.split(b"\0")[:-1])


def _decoded(names: list[bytes]) -> list[str]:
    listed = []
    for raw in names:
        try:
            listed.append(raw.decode("utf-8").removeprefix("./"))
        except UnicodeDecodeError:
            continue
    return listed


def _glob_escape(text: str) -> str:
    return re.sub(r"([*?\[\]{}\\!])", r"\\\1", text)


def parse_output(stdout: bytes, matcher: TermMatcher) -> tuple[Candidates, int]:
    """The term counts per file and the scope's size; also how many files were left out
    because their names are not UTF-8 (a source must print as text). See OutputCounts."""
    counts = OutputCounts(matcher)
    counts.feed(stdout)
    return counts.finish()


class OutputCounts:
    """ripgrep's output read as it comes (`feed`, any number of times, with pieces cut
    anywhere), then the counts and the scope's size (`finish`).

    One file is its path, NUL, one matched word per line, then an empty line. A path holds
    no NUL and a word no newline, so splitting at NULs gives each file's words followed by
    the next file's path; a word is never empty, so the first empty line ends the words.
    A cut-off last file (output capped) has no empty line and is left out, and so is the
    scope's size after it. A file is read once its empty line has come; the output so far
    is decoded at once when it all is UTF-8 (the words always are; a file name may not be,
    and then each name is decoded on its own). This runs once per matching file (thousands
    on a large project): the same run of words is counted once."""

    def __init__(self, matcher: TermMatcher) -> None:
        self.matcher = matcher
        self.candidates = Candidates()
        self.skipped_names = 0
        self._keys_of_word: dict[str, list[str]] = {}
        self._counted: dict[str, dict[str, int]] = {}
        self._pending = b""  # not read yet: it starts at a path (or is the size after)
        self._files = 0  # files read
        self._stopped = False  # a file without its empty line: nothing after it counts

    def feed(self, data: bytes) -> None:
        if self._stopped or not data:
            return
        pending = self._pending + data
        last_nul = pending.rfind(b"\0")
        if last_nul < 0:
            self._pending = pending
            return
        end = pending.find(b"\n\n", last_nul)
        if end < 0:
            # The last file's words may go on: read up to the file before it.
            before = pending.rfind(b"\0", 0, last_nul)
            end = pending.find(b"\n\n", before) if before >= 0 else -1
            if end < 0 or end > last_nul:
                self._pending = pending
                return
        self._pending = pending[end + 2 :]
        complete = pending[:end]
        try:
            self._read(complete.decode("utf-8"))
        except UnicodeDecodeError:
            self._read_names_one_by_one(complete)

    def finish(self) -> tuple[Candidates, int]:
        if self._files and not self._stopped and b"\0" not in self._pending:
            _read_stats(self._pending, self.candidates)
        return self.candidates, self.skipped_names

    def _read(self, text: str) -> None:
        """Whole files: paths and words; the last file's words come without their empty
        line."""
        frequencies = self.candidates.frequencies
        counted = self._counted
        keys_of_word = self._keys_of_word
        keys_of = self.matcher.keys_of
        pieces = text.split("\0")
        path = pieces[0]
        for number, piece in enumerate(pieces[1:], start=2):
            end = piece.find("\n\n")
            if end < 0:
                if number < len(pieces):
                    self._stopped = True
                    return
                end = len(piece)
            block = piece[:end]
            counts = counted.get(block)
            if counts is None:
                counts = {}
                for word in block.split("\n"):
                    keys = keys_of_word.get(word)
                    if keys is None:
                        keys = keys_of_word[word] = keys_of(word)
                    for key in keys:
                        counts[key] = counts.get(key, 0) + 1
                counted[block] = counts
            if counts:
                frequencies[path.removeprefix("./")] = counts
            path = piece[end + 2 :]
        self._files += len(pieces) - 1

    def _read_names_one_by_one(self, data: bytes) -> None:
        """`_read` for output holding a name that is not UTF-8 (that file is left out)."""
        frequencies = self.candidates.frequencies
        pieces = data.split(b"\0")
        raw_path = pieces[0]
        for number, piece in enumerate(pieces[1:], start=2):
            end = piece.find(b"\n\n")
            if end < 0:
                if number < len(pieces):
                    self._stopped = True
                    return
                end = len(piece)
            counts = self._counts(piece[:end].decode("utf-8", "replace"))
            if counts:
                try:
                    frequencies[raw_path.decode("utf-8").removeprefix("./")] = counts
                except UnicodeDecodeError:
                    self.skipped_names += 1
            raw_path = piece[end + 2 :]
        self._files += len(pieces) - 1

    def _counts(self, block: str) -> dict[str, int]:
        counts = self._counted.get(block)
        if counts is None:
            counts = {}
            for word in block.split("\n"):
                keys = self._keys_of_word.get(word)
                if keys is None:
                    keys = self._keys_of_word[word] = self.matcher.keys_of(word)
                for key in keys:
                    counts[key] = counts.get(key, 0) + 1
            self._counted[block] = counts
        return counts


def _read_stats(tail: bytes, candidates: Candidates) -> None:
    """The scope's size from `--stats`, printed after the last file."""
    stats = _STATS.search(tail)
    if stats:
        candidates.documents = int(stats.group(1))
        candidates.total_bytes = int(stats.group(2))


def describe_failure(result: ProcessResult) -> str | None:
    """Why ripgrep's run gives nothing usable; None when its output can be used (exit 2
    means some file could not be read: the others still count)."""
    if result.launch_error:
        return f"ripgrep: {result.launch_error}"
    if result.returncode not in (0, 1, 2) and not result.truncated:
        return f"ripgrep exited {result.returncode}: {result.first_stderr_line()}"
    return None


def run_ripgrep(
    argv: tuple[str, ...],
    root: Path,
    deadline: Deadline,
    on_output: Callable[[bytes], object] | None = None,
    meanwhile: Callable[[], object] | None = None,
) -> ProcessResult:
    """The counting run; `on_output` reads its output as ripgrep writes it, `meanwhile` is
    done while ripgrep searches."""
    return run_bounded(
        argv,
        deadline,
        cwd=root,
        stdout_cap=OUTPUT_CAP,
        on_stdout=on_output,
        meanwhile=meanwhile,
    )


def run_listing(argv: tuple[str, ...], root: Path, deadline: Deadline) -> ProcessResult:
    """A listing is a path per file: its cap is the default, not the counting run's."""
    return run_bounded(listing_argv(argv), deadline, cwd=root)
