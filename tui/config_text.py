"""The Config view's reading of config text: which file it edits, how many lines an edit
touches, the diff as the view shows it, the section swapped for the YAML editor's text,
parser messages in the file's line numbers, and the errors an edit brings in."""

from __future__ import annotations

import difflib
import re
from pathlib import Path

from tierscope.api import Project
from tierscope.config.document import ConfigDocument
from tierscope.config.loader import PROJECT_CONFIG_NAMES, read_config_bytes
from tierscope.config.model import ConfigProblem

EDITOR_LINE = re.compile(r"\bline (\d+)")


def config_target(engine: Project) -> Path:
    """The file the view edits: the config in use, else `<root>/.tierscope.yaml`, which
    saving creates (the first name config discovery looks for)."""
    path = engine.config.source.path
    return path if path is not None else engine.root / PROJECT_CONFIG_NAMES[0]


def disk_text(path: Path, root: Path | None = None) -> str | None:
    """The file's text on disk now, read as every reader of a config reads it (a regular
    file of at most 1 MiB, opened without waiting on a FIFO; with the project's `root`,
    not its own file linking out of it); None when there is none or it cannot be read."""
    try:
        return read_config_bytes(path, root).decode("utf-8", "surrogateescape")
    except OSError:
        return None


def changed_lines(before: str, after: str) -> int:
    """How many lines an edit touched: a replaced line counts once, like an added or a
    removed one."""
    matcher = difflib.SequenceMatcher(None, before.splitlines(), after.splitlines(), False)
    return sum(
        max(end - start, new_end - new_start)
        for tag, start, end, new_start, new_end in matcher.get_opcodes()
        if tag != "equal"
    )


def shown_diff(document: ConfigDocument, name: str) -> str:
    """The document's diff against the disk, its headers naming the file as the view does."""
    diff = document.diff()
    return diff.replace(str(document.path), name, 2) if document.path is not None else diff


def with_section_text(document: ConfigDocument, section: str) -> str:
    """The document's text with `section` in place of its `qmd_context:` block (added at
    the end when it has none), taken as it is: it need not parse."""
    text = document.text
    if section and not section.endswith("\n"):
        section += "\n"
    first_line = document.section_first_line()
    if first_line is None:
        return text + ("\n" if text and not text.endswith("\n") else "") + section
    start = 0
    for _ in range(first_line - 1):
        start = text.index("\n", start) + 1
    return text[:start] + section + text[start + len(document.section_text()) :]


def in_file_lines(message: str, first_line: int) -> str:
    """A parser's message about the editor's text with its line numbers made the file's
    (the editor shows the section from line `first_line` of the file)."""
    return EDITOR_LINE.sub(lambda found: f"line {int(found[1]) + first_line - 1}", message)


def plural(count: int, template: str) -> str:
    """`template` with the count in place of {} and an s when it is not 1."""
    return template.format(count) + ("" if count == 1 else "s")


def introduced_errors(
    before: list[ConfigProblem], after: list[ConfigProblem]
) -> list[ConfigProblem]:
    """Errors of `after` that `before` did not have (the file's old errors never block)."""
    known = {(problem.key, problem.message) for problem in before}
    return [
        problem
        for problem in after
        if problem.severity == "error" and (problem.key, problem.message) not in known
    ]
