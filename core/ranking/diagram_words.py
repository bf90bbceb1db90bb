"""The names a diagram written as text repeats, blanked so they count once (as many
spaces: line numbers and columns are kept). A mermaid diagram in a markdown fenced block
names its participants on every arrow (`Client->>Server: HTTP GET Request`) and note
(`Note right of Server: ...`), and a flowchart its nodes on every edge (`A[Start] -->
B`): Uvicorn's websockets page counted `Client` seventeen times, twelve of them in its
diagram, and came before the page that answered. What the arrows and notes say, and the
lines declaring the participants, still count (markup_words.py calls this)."""

from __future__ import annotations

import re

from .spans import fenced_blocks

_MERMAID_FENCE = re.compile(r"[ \t]*(?:`{3,}|~{3,})[ \t]*\{?mermaid\b", re.IGNORECASE)
# An arrow of a sequence diagram, a state diagram or a flowchart.
_ARROW = re.compile(r"<?(?:-{1,2}|={2,}|-\.)(?:>>|>|x|o|\)|-)|<<-{1,2}>>")
# What a message or a transition's label follows: the names the arrow joins.
# (Only on a line holding a `:`, the label's after it read at once: a line of dashes and no
# label is not tried at every arrow against the rest of the line.)
_JOINED_NAMES = re.compile(r"[ \t]*(?P<names>[^:\n]*?(?:" + _ARROW.pattern + r")[^:\n]*+):")
_NOTE_PLACE = re.compile(
    r"[ \t]*(?P<names>note[ \t]+(?:right[ \t]+of|left[ \t]+of|over)[^:\n]*):", re.I
)
# A node's label in a flowchart's edge: `A[Start]`, `B{Is it?}`, `C(Done)`, `-->|Yes|`.
_LABEL = re.compile(r"\[[^\]\n]*\]|\([^)\n]*\)|\{[^}\n]*\}|\|[^|\n]*\||\"[^\"\n]*\"")


def without_diagram_names(text: str) -> str:
    """A markdown text with the names its mermaid diagrams repeat blanked; the text itself
    when it has no mermaid block."""
    lines = text.split("\n")
    changed = False
    for block in fenced_blocks(lines):
        if not _MERMAID_FENCE.match(lines[block.start]):
            continue
        first = True
        for index in range(block.start + 1, block.end - 1):
            line = lines[index]
            if not line.strip():
                continue
            if first:  # the diagram's kind: `sequenceDiagram`, `flowchart LR`
                blanked, first = " " * len(line), False
            else:
                blanked = _names_blanked(line)
            if blanked != line:
                lines[index], changed = blanked, True
    return "\n".join(lines) if changed else text


def _names_blanked(line: str) -> str:
    """A diagram's line without the names its arrow joins or its note is placed by."""
    found = (_JOINED_NAMES.match(line) or _NOTE_PLACE.match(line)) if ":" in line else None
    if found is not None:
        start, end = found.span("names")
        return line[:start] + " " * (end - start) + line[end:]
    if _ARROW.search(line) is None:
        return line  # a participant declared, a loop's or an alternative's label
    # A flowchart's edge: only its labels are read.
    shown = [" "] * len(line)
    for label in _LABEL.finditer(line):
        shown[label.start() : label.end()] = line[label.start() : label.end()]
    return "".join(shown)
