"""Walking a project's files the way ripgrep does, for when ripgrep is missing: ignore
files respected (`.gitignore`, `.ignore`, `.rgignore`, `.git/info/exclude`), hidden entries
and symlinks skipped, the built-in excludes applied, no recursion (any depth is fine)."""

from __future__ import annotations

import fnmatch
import os
import re
import stat
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .files import read_head
from .ignore_rules import BUILTIN_EXCLUDED_DIRS, BUILTIN_EXCLUDED_FILES, MACHINE_DATA_FILES
from .project import is_inside

IGNORE_FILES = (".gitignore", ".ignore", ".rgignore")
IGNORE_FILE_BYTES = 1 << 20


@dataclass(frozen=True, slots=True)
class WalkedFile:
    """A regular file the walk found, and its size."""

    path: Path
    size: int


class _Rules:
    """The ignore files of one directory, as a gitignore matcher for paths below it."""

    def __init__(self, directory: Path, extra: list[str] | None = None) -> None:
        lines: list[str] = list(extra or ())
        for name in IGNORE_FILES:
            # A regular file only, never waiting (a FIFO), never through a link (ripgrep
            # reads no linked ignore file either).
            lines += (
                read_head(directory / name, IGNORE_FILE_BYTES)
                .decode("utf-8", "replace")
                .splitlines()
            )
        self.directory = directory
        self.spec = None
        # Per rule: whether it ends in `/**` (it names what is inside a folder, never
        # the folder itself), and its matcher.
        self.folder_rules: list[tuple[bool, Any]] = []
        rules = [line for line in lines if line.strip() and not line.startswith("#")]
        if rules:
            # pathspec costs ~30 ms to import: only the ripgrep-less scan pays it (_spec).
            try:
                self.spec = _spec(rules)
            except (ValueError, re.error):  # a line that is no pattern: the others apply
                rules = _readable_rules(rules)
                self.spec = _spec(rules)
            if len(self.spec.patterns) == len(rules):
                self.folder_rules = [
                    (rule.rstrip().endswith("/**"), pattern)
                    for rule, pattern in zip(rules, self.spec.patterns, strict=True)
                    if pattern.include is not None
                ]

    def verdict(self, relative: str, is_dir: bool) -> bool | None:
        """True: ignored; False: re-included by a `!` rule; None: no rule applies. The
        last rule matching decides; for a folder, a rule `x/**` matches only what is
        inside x (git: a folder excluded is not looked into, whatever names its files)."""
        if self.spec is None:
            return None
        if not is_dir or not self.folder_rules:
            return self.spec.check_file(relative + "/" if is_dir else relative).include
        decided = None
        for inside_only, pattern in self.folder_rules:
            if pattern.match_file(relative if inside_only else relative + "/") is not None:
                decided = pattern.include
        return decided


def _spec(rules: list[str]) -> Any:
    """pathspec's matcher for these rules, without the warnings Python's `re` gives about
    some of them (`[[`: a possible nested set) on stderr."""
    import pathspec

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        return pathspec.GitIgnoreSpec.from_lines(rules)


def _readable_rules(rules: list[str]) -> list[str]:
    """The rules as ripgrep reads them: a lone `!` whitelists everything below (`!*`), a
    line that is no pattern (a dangling `\\`, a range `[z-a]`) is skipped."""
    readable = []
    for rule in rules:
        if rule.strip() == "!":
            rule = "!*"
        try:
            _spec([rule])
        except (ValueError, re.error):
            continue
        readable.append(rule)
    return readable


_IGNORED = "ignored (.gitignore, .ignore or .rgignore rules)"


def _left_out(
    path: Path, is_dir: bool, rules: list[_Rules], *, include_ignored: bool, machine_data: bool
) -> str | None:
    """Why the walk leaves an entry of a folder out, as a few words (`in node_modules/`,
    `machine data (*.json)`, _IGNORED, `hidden (.drafts/)`), or None when it goes in."""
    name = path.name
    if include_ignored:
        return "in .git/" if is_dir and name == ".git" else None
    if is_dir:
        if name in BUILTIN_EXCLUDED_DIRS:
            return f"in {name}/"
    else:
        for kind, patterns in (
            ("built output", BUILTIN_EXCLUDED_FILES),
            ("machine data", () if machine_data else MACHINE_DATA_FILES),
        ):
            for pattern in patterns:
                if fnmatch.fnmatchcase(name, pattern):
                    return f"{kind} ({pattern})"
    # A rule that matches decides; a hidden entry no rule names is left out (ripgrep:
    # `!/.github/` in an ignore file searches .github/).
    verdict = _verdict(path, is_dir, rules)
    if verdict:
        return _IGNORED
    if verdict is None and name.startswith("."):
        return f"hidden ({name}{'/' if is_dir else ''})"
    return None


def _with_rules_of(directory: Path, root: Path, rules: list[_Rules]) -> list[_Rules]:
    """The ignore rules for the entries of `directory`: those above, and its own."""
    extra = _git_excludes(root) if directory == root else None
    here = _Rules(directory, extra)
    return rules if here.spec is None else [*rules, here]  # depth costs nothing


def walk_files(
    start: Path,
    root: Path,
    *,
    include_ignored: bool = False,
    machine_data: bool = False,
    skip: Callable[[Path], bool] = lambda path: False,
    should_stop: Callable[[], bool] = lambda: False,
    visited: list[Path] | None = None,
) -> Iterator[WalkedFile]:
    """Regular files under `start` (itself a file or a folder inside `root`), in a stable
    order. `start` is searched even when hidden or ignored: a scope that names it wants
    it, as ripgrep searches a path it is given. `should_stop` is asked at every folder;
    True ends the walk. Each folder whose entries were read is added to `visited`."""
    try:
        info = os.lstat(start)
    except OSError:
        return
    if stat.S_ISREG(info.st_mode):
        yield WalkedFile(start, info.st_size)
        return
    if not stat.S_ISDIR(info.st_mode):
        return
    stack: list[tuple[Path, list[_Rules]]] = [(start, _rules_above(start, root, include_ignored))]
    while stack:
        if should_stop():
            return
        directory, rules = stack.pop()
        if not include_ignored:
            rules = _with_rules_of(directory, root, rules)
        try:
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError:
            continue
        if visited is not None:
            visited.append(directory)
        subdirectories: list[tuple[Path, list[_Rules]]] = []
        for entry in entries:
            path = Path(entry.path)
            try:
                if entry.is_symlink():
                    continue
                is_dir = entry.is_dir(follow_symlinks=False)
                is_file = entry.is_file(follow_symlinks=False)
            except OSError:
                continue
            if not (is_dir or is_file) or skip(path):
                continue
            if _left_out(
                path, is_dir, rules, include_ignored=include_ignored, machine_data=machine_data
            ):
                continue
            if is_dir:
                subdirectories.append((path, rules))
            else:
                try:
                    size = entry.stat(follow_symlinks=False).st_size
                except OSError:
                    continue
                yield WalkedFile(path, size)
        stack.extend(reversed(subdirectories))


def why_not_walked(
    path: Path,
    start: Path,
    root: Path,
    *,
    include_ignored: bool = False,
    machine_data: bool = False,
) -> str | None:
    """Why `walk_files(start, root)` never yields the file `path` below `start`, as a few
    words (`in node_modules/`, `ignored (.gitignore rules)`, `machine data (*.json)`), or
    None when it does. The same rules as the walk, looked at along the one path."""
    if path == start or not is_inside(path, start):
        return None
    rules = _rules_above(start, root, include_ignored)
    current = start
    for part in path.relative_to(start).parts:
        if not include_ignored:
            rules = _with_rules_of(current, root, rules)
        current = current / part
        reason = _left_out(
            current,
            current != path,
            rules,
            include_ignored=include_ignored,
            machine_data=machine_data,
        )
        if reason:
            return reason
    return None


def _git_excludes(root: Path) -> list[str]:
    """The rules of `.git/info/exclude`: a regular file, never through a link (ripgrep
    would follow one, out of the root too)."""
    exclude = root / ".git" / "info" / "exclude"
    return read_head(exclude, IGNORE_FILE_BYTES).decode("utf-8", "replace").splitlines()


def _rules_above(start: Path, root: Path, include_ignored: bool) -> list[_Rules]:
    """The ignore files of the folders from the root down to `start`'s parent."""
    if include_ignored or start == root or not is_inside(start, root):
        return []
    rules = [_Rules(root, _git_excludes(root))]
    current = root
    for part in start.relative_to(root).parts[:-1]:
        current = current / part
        rules.append(_Rules(current))
    return [rule for rule in rules if rule.spec is not None]


def _verdict(path: Path, is_dir: bool, rules: list[_Rules]) -> bool | None:
    """The deepest ignore file with a rule for `path` decides (as git and ripgrep do):
    True ignored, False re-included by a `!` rule, None when no rule names it."""
    for rule in reversed(rules):
        try:
            relative = path.relative_to(rule.directory).as_posix()
        except ValueError:
            continue
        verdict = rule.verdict(relative, is_dir)
        if verdict is not None:
            return verdict
    return None


def is_plain_file(root: Path, name: str) -> bool:
    """Whether the root-relative `name` is a regular file of the project: no symbolic link
    on the way (a linked `.github/` may point anywhere)."""
    path = root
    try:
        for part in name.split("/"):
            path = path / part
            if path.is_symlink():
                return False
        return path.is_file()
    except OSError:
        return False
