"""Paths as a person wants to read them in a narrow column."""

from __future__ import annotations

import re
from pathlib import Path

# The fewest letters of a folder's name shown when it is cut: "harb…/" says little.
MIN_FOLDER_START = 5
# A location's lines after its path (`:19-48`, `:3`).
_LINES = re.compile(r":\d+(?:-\d+)?$")
# A newline, tab or carriage return in a name, drawn as its control picture: a path is
# shown on one line, and `new\nline.md` is not `new`.
_ONE_LINE = str.maketrans({"\n": "\u240a", "\t": "\u2409", "\r": "\u240d"})


def one_line(text: str) -> str:
    """`text` with its line breaks and tabs drawn as symbols, so that it takes one line."""
    return text.translate(_ONE_LINE)


def short_path(path: str | Path | None, root: Path | None = None) -> str:
    """Root-relative when inside `root`, `~/…` when inside the home folder, else as is;
    "-" for no path; on one line."""
    if path is None or str(path) == "":
        return "-"
    return one_line(_shortened(Path(path), root))


def _shortened(path: Path, root: Path | None) -> str:
    if root is not None:
        try:
            return path.relative_to(root).as_posix() or "."
        except ValueError:
            pass
    try:
        return f"~/{path.relative_to(Path.home()).as_posix()}"
    except (ValueError, RuntimeError):
        return str(path)


def fit_path(text: str, width: int) -> str:
    """`text` (a path, perhaps with `:line` after it) in at most `width` cells: the file
    name and as many of the folders nearest it as fit (`…/themes/README.md:1-17`), since
    those tell apart files of one name; when even the nearest does not fit, its start,
    if MIN_FOLDER_START of its letters do (`…/implemen…/SKILL.md:20-35`). A file name
    that does not fit with its lines drops them (`…/sparse-checkout.adoc`); one too long
    even alone keeps its start and ends in an ellipsis."""
    if width <= 0:
        return ""
    text = one_line(text)
    if len(text) <= width:
        return text
    folder, slash, name = text.rpartition("/")
    if not slash:
        return text[: width - 1] + "…"
    if len(name) + 2 > width:
        bare = _LINES.sub("", text)
        if bare != text:  # its file name may fit without its lines, which the preview shows
            return fit_path(bare, width)
        return f"…{name}" if len(name) < width else name[: width - 1] + "…"
    kept, folders = name, folder.split("/")
    while len(folders[-1]) + len(kept) + 3 <= width:
        kept = f"{folders.pop()}/{kept}"
    room = width - len(kept) - 4  # for "…/", the cut folder's "…" and its "/"
    if kept == name and room >= MIN_FOLDER_START:
        return f"…/{folders[-1][:room]}…/{kept}"
    return f"…/{kept}"
