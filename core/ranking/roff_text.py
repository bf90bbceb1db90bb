"""A manual page's lines as a reader sees them, for its snippets: roff's escapes and
requests are markup (`\\fB\\,--output\\/\\fR` is a bold `--output`), and a skill pays
tokens for every backslash. Line by line, so each line served is still the file's line of
the same number: a font macro's words are kept (`.BI "\\-\\-walker\\-skip=" "DIRS"` is
`--walker-skip=DIRS`), a request that only lays out text (`.PP`, `.TP`, `.nf`) is an empty
line, and any other line (`.SH OPTIONS`, `.TH`, a comment) keeps its request, its escapes
read."""

from __future__ import annotations

import re
import shlex

from .spans import Heading

_ROFF_SECTION = re.compile(r"\.(SH|SS)(?:[ \t]+(.*))?$")
_ROFF_TAGGED = re.compile(r"\.TP(?:[ \t].*)?$")

# Escapes standing for a character.
_CHARACTERS = {
    "-": "-", "e": "\\", "\\": "\\", ".": ".", "'": "'", "`": "`", " ": " ", "~": " ",
    "0": " ", "(em": "—", "(en": "–", "(aq": "'", "(dq": '"', "(bu": "•", "(co": "©",
    "(lq": "“", "(rq": "”", "(oq": "‘", "(cq": "’", "(hy": "-", "(mi": "-", "(ti": "~",
    "(ha": "^", "(rs": "\\", "(bv": "|", "(ga": "`", "(Tm": "™", "(rg": "®",
}  # fmt: skip
# An escape: a font change (`\fB`, `\f(CW`, `\f[R]`), a named character (`\(em`,
# `\[em]`), a width or break marker drawing nothing (`\,`, `\/`, `\&`, `\:`, `\^`, `\|`,
# `\c`), or one character.
_ESCAPE = re.compile(r"\\(?:f(?:\(..|\[[^\]]*\]|.)|\(..|\[[^\]]*\]|[,/&:^|c%]|.)")
# Macros whose arguments are text in alternating or one font: the text is their words.
_JOINED = frozenset({"BI", "BR", "IB", "IR", "RB", "RI"})
_SPACED = frozenset({"B", "I", "SM", "SB"})
# Requests that lay out text and hold none (a `.IP` or `.TP` tag comes on its own line or
# as `.IP`'s first argument).
_LAYOUT = frozenset(
    {"PP", "P", "LP", "TP", "RS", "RE", "nf", "fi", "sp", "br", "ad", "na", "ne", "in", "ti",
     "hy", "nh", "HP", "TQ", "EX", "EE", "ft", "ps", "vs", "ll", "ns", "rs"}
)  # fmt: skip


def readable(line: str) -> str:
    """The line without roff markup (see the module)."""
    if line.startswith(('.\\"', "'\\\"")):
        return line  # a comment, as written
    if not line.startswith((".", "'")):
        return _read_escapes(line)
    request, _, rest = line[1:].strip().partition(" ")
    if request in _LAYOUT:
        return ""
    if request == "IP":
        return _read_escapes(_arguments(rest)[0]) if rest.strip() else ""
    if request in _JOINED:
        return _read_escapes("".join(_arguments(rest)))
    if request in _SPACED:
        return _read_escapes(" ".join(_arguments(rest)))
    return _read_escapes(line)


def _arguments(text: str) -> list[str]:
    try:
        return shlex.split(text.replace("\\", "\\\\"), posix=True) or [""]
    except ValueError:  # an unclosed quote
        return [text]


def _read_escapes(text: str) -> str:
    return _ESCAPE.sub(_character, text)


def _character(escape: re.Match[str]) -> str:
    code = escape.group()[1:]
    if code.startswith("f") or code in {",", "/", "&", ":", "^", "|", "c", "%"}:
        return ""
    if code.startswith("["):
        code = f"({code[1:-1]}" if len(code) == 4 else code
    return _CHARACTERS.get(code, "")


def roff_headings(lines: list[str]) -> list[Heading]:
    """A manual page's sections (`.SH NAME`; a bare `.SH` takes the next line as its
    title), subsections (`.SS`), and tagged paragraphs (`.TP`, then the tag: an option
    and what it does), levels 1 to 3."""
    headings: list[Heading] = []
    for index, line in enumerate(lines):
        if line[:1] != ".":
            continue
        section = _ROFF_SECTION.match(line)
        if section:
            title = index if (section.group(2) or "").strip() else index + 1
            level = 1 if section.group(1) == "SH" else 2
        elif _ROFF_TAGGED.match(line):
            title, level = index + 1, 3
        else:
            continue
        if title < len(lines):
            headings.append(Heading(index, title, level))
    return headings
