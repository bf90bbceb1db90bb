"""Where a line of code stands in its statement: whether it starts inside a construct that
spans lines (an open bracket, a string over several lines, a block comment), and if so on
which line that construct opened. A passage of code that starts or ends there shows a
signature, a call or a docstring cut in two (sections.py moves its ends).

The scan is lexical and per language family, by the file's suffix: Python (brackets,
strings, `#` comments, triple-quoted strings), the C family (parentheses and square
brackets, not braces: a function's body is no construct to avoid; `//` and `/* */`
comments, strings, template literals and raw strings), and none for other files. It is
a reader's guess, not a parser: an unusual token costs at worst one misplaced passage.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from itertools import accumulate
from pathlib import PurePosixPath

from .code_blocks import indentation, lead_in_start

_PYTHON = frozenset({".py", ".pyi", ".pyw"})
_C_FAMILY = frozenset(
    ".js .jsx .mjs .cjs .ts .tsx .mts .cts .go .rs .java .kt .kts .scala .swift .c .h .cc "
    ".cpp .cxx .hpp .hh .cs .php .dart .groovy .gradle".split()
)
# Template literals (JavaScript) and raw strings (Go) are backquoted and may span lines.
_BACKQUOTED = frozenset({".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts", ".go"})
# Triple-quoted strings span lines in these as in Python.
_TRIPLE_QUOTED = frozenset({".kt", ".kts", ".scala", ".swift", ".groovy", ".gradle", ".dart"})

_PYTHON_EVENTS = re.compile(r"[\"'#()\[\]{}]")
_C_EVENTS = re.compile(r"[\"'`/()\[\]]")
_OPENERS = frozenset("([{")
# Lines that start a statement, where nothing is open: the file is scanned from the one
# above a line asked about to the next (most questions touch one definition). In Python a
# definition or decorator at any indentation outside a triple-quoted string (an even count
# of triple quotes above it: a docstring's example code is not one), or an import; in the
# C family a declaration at the margin.
_PYTHON_ANCHOR_WORDS = ("def ", "class ", "@", "import ")
_FROM = re.compile(r"from[ \t]+\S+[ \t]+$")
_TRIPLE_QUOTES = ('"""', "'''")
_C_ANCHOR = re.compile(
    r"\n(?=(?:export|function|async|const|let|var|class|interface|type|enum|import|fn|pub"
    r"|impl|struct|trait|mod|use|func|package|public|private|protected|static|namespace)[ \t])"
)
_HEADER_END = re.compile(r":[ \t]*(?:#.*)?$")
_DEFINITION = re.compile(r"[ \t]*(?:async[ \t]+)?(?:def|class)[ \t]")


@dataclass(frozen=True, slots=True)
class Construct:
    """A construct over several lines: its first and last line (0-based), and whether it
    is a string (a docstring when it opens a Python definition's body)."""

    first: int
    last: int
    is_string: bool


class OpenConstructs:
    """The constructs of one file that span lines, outermost only, found as asked: the
    file is read from the top-level statement above the line asked about to the next."""

    def __init__(self, lines: list[str], scanner: _Scanner, anchors: list[int], python: bool):
        self.lines = lines
        self.scanner = scanner
        self.anchors = anchors  # 0-based lines, ascending, the first 0
        self.segments: dict[int, tuple[list[Construct], list[int]]] = {}
        self.python = python

    def around(self, index: int) -> Construct | None:
        """The construct line `index` starts inside (opened on a line above, closed on it or
        below), if any."""
        segment = bisect_right(self.anchors, index) - 1
        found = self.segments.get(segment)
        if found is None:
            end = self.anchors[segment + 1] if segment + 1 < len(self.anchors) else len(self.lines)
            constructs = self.scanner.scan(self.anchors[segment], end)
            found = self.segments[segment] = (constructs, [c.first for c in constructs])
        constructs, firsts = found
        before = bisect_right(firsts, index - 1) - 1
        if before < 0:
            return None
        construct = constructs[before]
        return construct if construct.first < index <= construct.last else None

    def past_closing_comment(self, index: int, end: int) -> int:
        """Line `index`, or the line after it (before `end`) when it closes a block comment:
        a passage starting on a docblock's ` */` (the line before a match, tried as a
        lead-in) shows the definition under the marker for what the docblock says of it
        (Laravel's UrlGenerator)."""
        construct = self.around(index)
        if (
            construct is None
            or construct.is_string
            or index != construct.last
            or index + 1 >= end
            or not self.lines[construct.first].lstrip().startswith("/*")
        ):
            return index
        return index + 1

    def readable_start(self, index: int) -> int:
        """Where a passage that would start on line `index` starts to be read whole: the
        line its construct opened on, and for a Python docstring the definition it
        documents (signature, decorators and comments above it)."""
        construct = self.around(index)
        if construct is None:
            return index
        start = construct.first
        if self.python and construct.is_string:
            return self._definition_of(start)
        return start

    def _definition_of(self, docstring: int) -> int:
        """The first line of the definition whose body a string on line `docstring` opens;
        `docstring` itself when it opens none."""
        header = docstring - 1
        while header >= 0 and not self.lines[header].strip():
            header -= 1
        if header < 0 or not _HEADER_END.search(self.lines[header]):
            return docstring
        signature = self.around(header)
        first = signature.first if signature is not None and not signature.is_string else header
        if not _DEFINITION.match(self.lines[first]):
            return docstring
        return lead_in_start(self.lines, first, indentation(self.lines[first]))


def open_constructs(lines: list[str], path: str) -> OpenConstructs | None:
    """The file's constructs over several lines; None for a language not read."""
    suffix = PurePosixPath(path).suffix.lower()
    if suffix in _PYTHON:
        scanner = _Scanner(lines, _PYTHON_EVENTS, python=True)
    elif suffix in _C_FAMILY:
        scanner = _Scanner(
            lines,
            _C_EVENTS,
            backquoted=suffix in _BACKQUOTED,
            triple_quoted=suffix in _TRIPLE_QUOTED,
            rust=suffix == ".rs",
        )
    else:
        return None
    if suffix in _PYTHON:
        found = _python_anchors(scanner.text)
    else:
        found = [match.end() for match in _C_ANCHOR.finditer(scanner.text)]
    anchors = [0, *map(scanner.line_of, found)]
    return OpenConstructs(lines, scanner, anchors, python=suffix in _PYTHON)


def _python_anchors(text: str) -> list[int]:
    """The offsets of the lines that start a definition, a decorator or an import, outside
    triple-quoted strings (found with `str.find`: a regular expression tried at every line
    costs more)."""
    found: set[int] = set()
    for word in _PYTHON_ANCHOR_WORDS:
        at = text.find(word)
        while at >= 0:
            line_start = text.rfind("\n", 0, at) + 1
            head = text[line_start:at]
            if (
                not head or head.isspace() or head.strip() == "async"
                or (word == "import " and _FROM.match(head))
            ):  # fmt: skip
                found.add(line_start)
            at = text.find(word, at + 1)
    bounds = _triple_quoted_bounds(text)
    return [offset for offset in sorted(found) if offset and bisect_right(bounds, offset) % 2 == 0]


def _triple_quoted_bounds(text: str) -> list[int]:
    """Where each triple-quoted string opens and closes, in order: a string is closed by
    its own kind of quotes only (pydantic's networks.py holds a `\'\'\'` docstring with
    one `\"\"\"` inside, which counting both kinds together took for an open string to
    the end of the file)."""
    quotes: list[tuple[int, str]] = []
    for quote in _TRIPLE_QUOTES:
        at = text.find(quote)
        while at >= 0:
            quotes.append((at, quote))
            at = text.find(quote, at + 3)
    quotes.sort()
    bounds: list[int] = []
    opened: tuple[int, str] | None = None
    for at, quote in quotes:
        if opened is None:
            opened = (at, quote)
            bounds.append(at)
        elif quote == opened[1] and at >= opened[0] + 3:
            bounds.append(at)
            opened = None
    return bounds


class _Scanner:
    def __init__(
        self,
        lines: list[str],
        events: re.Pattern[str],
        *,
        python: bool = False,
        backquoted: bool = False,
        triple_quoted: bool = False,
        rust: bool = False,
    ) -> None:
        self.text = "\n".join(lines)
        self.line_starts = list(accumulate(map((1).__add__, map(len, lines)), initial=0))
        self.events = events
        self.python = python
        self.backquoted = backquoted
        self.triple_quoted = python or triple_quoted
        self.rust = rust

    def line_of(self, offset: int) -> int:
        return bisect_right(self.line_starts, offset) - 1

    def scan(self, first: int, end: int) -> list[Construct]:
        """The constructs of lines `first` to `end` (0-based, end excluded), read as if
        nothing were open at `first`."""
        text = self.text
        constructs: list[Construct] = []
        depth = 0
        opened = 0  # where the outermost open bracket opened
        position = self.line_starts[first]
        stop = min(self.line_starts[end], len(text))
        search = self.events.search
        while True:
            found = search(text, position, stop)
            if found is None:
                break
            offset = found.start()
            char = text[offset]
            if char in _OPENERS:
                if depth == 0:
                    opened = offset
                depth += 1
                position = offset + 1
                continue
            if char in ")]}":
                if depth:
                    depth -= 1
                    if depth == 0:
                        self._add(constructs, opened, offset, is_string=False)
                position = offset + 1
                continue
            end, spans_lines = self._skip(char, offset)
            if spans_lines and depth == 0:
                self._add(constructs, offset, end - 1, is_string=char != "/")
            position = end
        return constructs

    def _add(self, constructs: list[Construct], start: int, end: int, *, is_string: bool) -> None:
        if self.text.find("\n", start, end) < 0:
            return  # on one line: most brackets
        first, last = self.line_of(start), self.line_of(end)
        if last > first:
            constructs.append(Construct(first, last, is_string))

    def _skip(self, char: str, offset: int) -> tuple[int, bool]:
        """Past the comment or string starting at `offset`: (the offset after it, whether
        it may span lines)."""
        text = self.text
        if char == "#" or (char == "/" and text.startswith("//", offset)):
            end = text.find("\n", offset)
            return (len(text) if end < 0 else end), False
        if char == "/":
            if text.startswith("/*", offset):
                end = text.find("*/", offset + 2)
                return (len(text) if end < 0 else end + 2), True
            return offset + 1, False  # division, or a regular expression: left alone
        if self.triple_quoted and text.startswith(char * 3, offset) and char != "`":
            return self._closing(offset + 3, char * 3), True
        if char == "`":
            if self.backquoted:
                return self._closing(offset + 1, "`"), True
            return offset + 1, False
        if char == "'" and self.rust:
            literal = re.compile(r"'(?:[^'\\\n]|\\[^\n]{1,10}?)'").match(text, offset)
            return (literal.end() if literal else offset + 1), False
        if char == '"' and self.rust:
            return self._closing(offset + 1, '"'), True
        return self._closing_on_line(offset + 1, char), False

    def _closing(self, start: int, quote: str) -> int:
        """The offset after the first unescaped `quote` from `start` (the end of the text
        when there is none)."""
        text = self.text
        while True:
            end = text.find(quote, start)
            if end < 0:
                return len(text)
            backslashes = 0
            while end - backslashes - 1 >= start and text[end - backslashes - 1] == "\\":
                backslashes += 1
            if backslashes % 2 == 0:
                return end + len(quote)
            start = end + 1

    def _closing_on_line(self, start: int, quote: str) -> int:
        """Past a one-line string: its closing quote, or the end of its line."""
        text = self.text
        line_end = text.find("\n", start)
        if line_end < 0:
            line_end = len(text)
        end = self._closing(start, quote)
        return min(end, line_end)
