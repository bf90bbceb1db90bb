"""Talking to the qmd command: the calls a query makes, what their JSON output means (a
broken array is recovered element by element), and why a call failed."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..models import TierStatus
from ..process import ProcessResult, run_bounded
from .base import Deadline
from .qmd_plan import not_found

# A JSON object that starts an array element: after `[`, `,` or at the start of a line.
_ELEMENT_START = re.compile(r"(?:^|[\[,])[ \t\r\n]*\{", re.MULTILINE)
_DECODER = json.JSONDecoder()
# stderr lines qmd prints on every run (an optional native package it lacks, embedding
# hints): never the reason a call failed.
_STDERR_NOISE = ("Cannot find package 'sqlite-vec", "Warning:", "QMD Warning:")
_NOT_FOUND = re.compile(r"Collection not found: (\S+)")


@dataclass
class QmdCall:
    """One search-like qmd call: its entries, or why it failed."""

    argv: tuple[str, ...]
    failure: tuple[TierStatus, str] | None = None
    entries: list[dict] = field(default_factory=list)
    dropped: int = 0  # malformed entries or stray lines
    truncated_at: int | None = None  # bytes kept when the output was capped


def call_qmd(argv: tuple[str, ...], deadline: Deadline, root: Path, allowed: float) -> QmdCall:
    result = run_bounded(argv, deadline, cwd=root)
    failure = call_failure(result, allowed)
    if failure is not None:
        return QmdCall(argv, failure)
    entries, dropped = parse_results(result.stdout)
    truncated = len(result.stdout) if result.truncated else None
    return QmdCall(argv, None, entries, dropped, truncated)


def call_failure(result: ProcessResult, allowed: float) -> tuple[TierStatus, str] | None:
    """The status a finished qmd process ends the tier with, or None when it worked."""
    if result.launch_error:
        return TierStatus.ERROR, f"qmd could not start: {result.launch_error}"
    if result.cancelled:
        return TierStatus.ERROR, "cancelled"
    if result.timed_out:
        return TierStatus.TIMEOUT, f"timed out after {allowed:.1f} s"
    if result.returncode == 0:
        return None
    missing = _NOT_FOUND.search(result.stderr_text)
    if missing:
        return TierStatus.UNAVAILABLE, not_found((missing.group(1),))
    code = result.returncode
    if code is not None and code < 0:
        return TierStatus.ERROR, f"qmd killed by signal {-code}"
    line = error_line(result)
    return TierStatus.ERROR, f"qmd exited with code {code}" + (f": {line}" if line else "")


def literal_text(query: str) -> str:
    """The query with qmd's search syntax disarmed: a leading `-` (negation) and `"`
    (phrases) are removed, so text like `-v "x` is searched for its words."""
    words = (token.replace('"', "").lstrip("-") for token in query.split())
    return " ".join(word for word in words if word)


def lex_document(keywords: tuple[str, ...]) -> str:
    """A structured qmd query: one `lex:` line per keyword, combined as OR by qmd."""
    return "\n".join(f"lex: {keyword}" for keyword in keywords)


def parse_results(stdout: bytes) -> tuple[list[dict], int]:
    """qmd's JSON array as a list of usable result objects, plus how many entries (or
    stray lines) could not be used. A broken array is recovered element by element."""
    text = stdout.decode("utf-8", "replace")
    try:
        document = json.loads(text) if text.strip() else []
    except ValueError:
        return _recover(text)
    if not isinstance(document, list):
        return [], 1
    entries = [item for item in document if _usable(item)]
    return entries, len(document) - len(entries)


def _recover(text: str) -> tuple[list[dict], int]:
    entries: list[dict] = []
    dropped = 0
    position = 0  # everything before this has been accounted for
    broken = False  # the text since `position` belongs to an element that did not decode
    for match in _ELEMENT_START.finditer(text):
        start = match.end() - 1
        if start < position:
            continue  # inside an element already decoded
        if not broken:
            dropped += _stray_lines(text[position : match.start()])
        try:
            item, end = _DECODER.raw_decode(text, start)
        except ValueError:
            # A broken element runs to the next element start: one entry dropped.
            dropped += 1
            position, broken = start + 1, True
            continue
        if _usable(item):
            entries.append(item)
        else:
            dropped += 1
        position, broken = end, False
    if not broken:
        dropped += _stray_lines(text[position:])
    return entries, dropped


def _stray_lines(segment: str) -> int:
    """Lines holding something besides the array's own brackets and commas."""
    return sum(1 for line in segment.splitlines() if line.strip(" \t\r[],"))


def _usable(item: object) -> bool:
    if not isinstance(item, dict):
        return False
    score = item.get("score")
    file = item.get("file")
    return (
        isinstance(file, str)
        and file.startswith("qmd://")
        and isinstance(score, int | float)
        and not isinstance(score, bool)
        and isinstance(item.get("snippet", ""), str)
    )


def split_uri(uri: str) -> tuple[str, str] | None:
    """`qmd://<collection>/<relative path>[?index=<name>]` -> (collection, relative path).
    The path is not percent-encoded: spaces and parentheses appear as they are."""
    collection, sep, relative = uri.removeprefix("qmd://").partition("/")
    head, mark, tail = relative.rpartition("?index=")
    if mark and "/" not in tail:
        relative = head
    if not sep or not collection or not relative:
        return None
    return collection, relative


def error_line(result: ProcessResult) -> str:
    """The line saying why qmd failed: a Node error if there is one, else the first line
    that is not qmd's everyday noise."""
    lines = [line.strip() for line in result.stderr_text.splitlines() if line.strip()]
    meaningful = [line for line in lines if not line.startswith(_STDERR_NOISE)]
    error = next((line for line in meaningful if re.match(r"^\w*Error\b", line)), "")
    return (error or (meaningful[0] if meaningful else ""))[:200]
