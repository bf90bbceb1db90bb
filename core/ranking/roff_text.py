"""A manual page's lines as a reader sees them, for its snippets: roff's escapes and
requests are markup (`\\fB\\,--output\\/\\fR` is a bold `--output`), and a skill pays
tokens for every backslash. Line by line, so each line served is still the file's line of
the same number: a font macro's words are kept (`.BI "\\-\\-walker\\-skip=" "DIRS"` is
`--walker-skip=DIRS`), a request that only lays out text (`.PP`, `.TP`, `.nf`) is an empty
line, and any other line (`.SH OPTIONS`, `.TH`, a comment) keeps its request, its escapes
read. BSD's mdoc macros (tmux's manual) are read too: `.It Xo Ic synchronize\\-panes` is
`synchronize-panes`, `.Op Ic on | off` is `[on | off]`, `.Fl f` is `-f`, `.Xr tmux 1 ,` is
`tmux(1),`, `.Nm` alone is the manual's name, and `.Pp`, `.Bl`, `.Xc`, `.Tg` lay out
text. A table's tbl markup (`.TS`, its `tab(|);` and `l l.` lines, `T{` around a cell) is
left out; its rows are text."""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping

from .navigation import NAVIGATION_SHARE
from .spans import Heading

_ROFF_SECTION = re.compile(r"\.(SH|SS|Sh|Ss)(?:[ \t]+(.*))?$")
_ROFF_TAGGED = re.compile(r"\.TP(?:[ \t].*)?$")
# An mdoc list entry: its tag on the line (`.It Fl f Ar file`), else on the next.
_MDOC_ITEM = re.compile(r"\.It(?:[ \t]+(.*))?$")

# A table's markup (tbl: between `.TS` and `.TE`, layout requests): its options line
# (`tab(|);`, `allbox tab(:);`), its format lines (`l l.`, `lb lb lb.`, `c s s`: two
# keys or more, the last line's ending in `.`), and the `T{` ... `T}` around a cell's
# text over lines.
_TABLE_OPTIONS = re.compile(
    r"(?:(?:center|centre|expand|box|allbox|doublebox|frame|doubleframe|nokeep|nospaces"
    r"|nowarn|tab\(.\)|linesize\(\d+\)|delim\(..\)|decimalpoint\(.\))[ \t,]*)+;[ \t]*$"
)
# A key's modifiers, each one character or a width `w(5n)`: none can be read two ways, so
# a hostile run of digits is read once, not split every way.
_TABLE_KEY = r"[lcrnasLCRNAS^_=|](?:[bBiIfFzZeEuUtTdD0-9]|w\([^()\s]*\))*"
_TABLE_FORMAT = re.compile(rf"{_TABLE_KEY}(?:[ \t]+{_TABLE_KEY})+[ \t]*[.,]?[ \t]*$")
_TEXT_BLOCK = re.compile(r"^T\}|T\{$")

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
     "hy", "nh", "HP", "TQ", "EX", "EE", "ft", "ps", "vs", "ll", "ns", "rs",
     # mdoc's: paragraphs, lists, displays, the tag's wrapping, the page's header
     "Pp", "Lp", "Bl", "El", "Bd", "Ed", "Xo", "Xc", "Dd", "Dt", "Os", "Bk", "Ek", "Sm",
     # and its tag for a search (`.Tg escape`), which shows nothing
     "Tg",
     # tbl's: a table's start and end, a new format
     "TS", "TE", "T&"}
)  # fmt: skip
# mdoc macros that hold words, read as the words; those that enclose what follows on the
# line; the punctuation that closes on the word before it or opens on the word after it.
_MDOC_WORDS = frozenset(
    {"It", "Nm", "Nd", "Ic", "Ar", "Cm", "Pa", "Li", "Em", "Sy", "Va", "Ev", "Dv", "Er",
     "Fn", "Fa", "Ft", "Lk", "Mt", "No", "Tn", "Ms", "Dl", "D1", "Sx", "An", "Xo", "Xc",
     "Fl", "Xr", "Ns", "Ta", "Op", "Oo", "Oc", "Dq", "Sq", "Ql", "Pq", "Bq", "Aq", "Brq",
     "Qq"}
)  # fmt: skip
_MDOC_ENCLOSING = {
    "Op": ("[", "]"), "Bq": ("[", "]"), "Dq": ("“", "”"), "Sq": ("‘", "’"), "Ql": ("‘", "’"),
    "Pq": ("(", ")"), "Aq": ("<", ">"), "Brq": ("{", "}"), "Qq": ('"', '"'),
}  # fmt: skip
_CLOSING = frozenset({",", ".", ";", ":", ")", "]", "?", "!"})
_OPENING = frozenset({"(", "["})


# The lines read for a manual's name (`.Nm tmux`, in its NAME section, near the top).
_NAME_LINES = 200
_NAME = re.compile(r"\.Nm[ \t]+(\S+)")


def manual_name(lines: list[str]) -> str:
    """The name an mdoc manual gives itself (`.Nm tmux`), which `.Nm` alone stands for;
    "" for none."""
    for line in lines[:_NAME_LINES]:
        found = _NAME.match(line)
        if found:
            return _read_escapes(found.group(1))
    return ""


def readable(line: str, name: str = "") -> str:
    """The line without roff markup (see the module); `name`: the manual's own, which
    `.Nm` alone (or before punctuation: `.Nm ,`) stands for (manual_name)."""
    if line.startswith(('.\\"', "'\\\"")):
        return line  # a comment, as written
    if not line.startswith((".", "'")):
        if _TABLE_OPTIONS.match(line) or _TABLE_FORMAT.match(line):
            return ""
        return _read_escapes(_TEXT_BLOCK.sub("", line))
    request, _, rest = line[1:].strip().partition(" ")
    if request in _LAYOUT:
        return ""
    if request == "IP":
        return _read_escapes(_arguments(rest)[0]) if rest.strip() else ""
    if request in _JOINED:
        return _read_escapes("".join(_arguments(rest)))
    if request in _SPACED:
        return _read_escapes(" ".join(_arguments(rest)))
    if request in _MDOC_WORDS:
        arguments = _arguments(rest) if rest.strip() else []
        if request == "Nm" and name and all(word in _CLOSING for word in arguments):
            return name + "".join(arguments)
        return _read_escapes(_mdoc_words([request, *arguments]))
    return _read_escapes(line)


def _mdoc_words(tokens: list[str]) -> str:
    """The words of an mdoc line's arguments: macro names dropped (`Ic`, `Ar`), a flag
    with its dash (`Fl f`: `-f`), a cross-reference with its section (`Xr tmux 1`:
    `tmux(1)`), an enclosing macro's words enclosed (`Op Ic on`: `[on]`), and punctuation
    on the word it belongs to."""
    words: list[str] = []
    glued = False  # the next word goes on the last one (after `Ns`, or an opening mark)
    closers: list[str] = []
    index = 0
    # Punctuation ending the line goes after what an enclosing macro closes (`Op Fl d ,`
    # is `[-d],`).
    trailing = len(tokens)
    while trailing > 1 and tokens[trailing - 1] in _CLOSING:
        trailing -= 1
    tokens, after = tokens[:trailing], tokens[trailing:]

    def add(word: str, *, closing: bool = False) -> None:
        nonlocal glued
        if words and (glued or closing):
            words[-1] += word
        else:
            words.append(word)
        glued = word in _OPENING

    while index < len(tokens):
        token = tokens[index]
        index += 1
        if token in _MDOC_ENCLOSING:
            opening, closing = _MDOC_ENCLOSING[token]
            add(opening)
            glued = True
            closers.append(closing)
        elif token == "Fl":
            flag = tokens[index] if index < len(tokens) else ""
            if flag and flag not in _MDOC_WORDS and flag not in _CLOSING:
                index += 1
                add(f"-{flag}")
            else:
                add("-")
        elif token == "Xr" and index + 1 < len(tokens):
            add(f"{tokens[index]}({tokens[index + 1]})")
            index += 2
        elif token == "Ns":
            glued = True
        elif token == "Oo":  # an optional part over lines, closed by `Oc`
            add("[")
            glued = True
        elif token == "Oc":
            add("]", closing=True)
        elif token in _MDOC_WORDS or not token:
            continue
        elif token in _CLOSING:
            add(token, closing=True)
        else:
            add(token)
    for closing in reversed(closers):
        add(closing, closing=True)
    for mark in after:
        add(mark, closing=True)
    return " ".join(words)


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
    and what it does), levels 1 to 3; in mdoc, `.Sh`, `.Ss` and a list's entries (`.It`,
    its tag on the line or the next)."""
    headings: list[Heading] = []
    for index, line in enumerate(lines):
        if line[:1] != ".":
            continue
        section = _ROFF_SECTION.match(line)
        item = _MDOC_ITEM.match(line) if section is None else None
        if section:
            title = index if (section.group(2) or "").strip() else index + 1
            level = 1 if section.group(1) in {"SH", "Sh"} else 2
        elif _ROFF_TAGGED.match(line):
            title, level = index + 1, 3
        elif item:
            title = index if (item.group(1) or "").strip() else index + 1
            level = 3
        else:
            continue
        if title < len(lines):
            headings.append(Heading(index, title, level))
    return headings


def lists_names(
    lines: list[str], line_terms: Mapping[int, Mapping[str, int]], names: frozenset[str]
) -> bool:
    """Whether a manual page's lines holding the query's terms (1-based) are mostly entries
    of a list of bare names: an mdoc `.It` with nothing under it but the next entry
    (OpenSSH's scp.1 lists the options `-o` passes on, `.It StrictHostKeyChecking`, and
    points at ssh_config(5)). Such a page names the answer, as a table of contents does.
    When the query names something (`names`: its compound terms' keys), only the lines
    holding the name count: its parts (`host`, `key`) are common words of the page."""
    holding = [n for n, on_line in line_terms.items() if not names.isdisjoint(on_line)]
    numbers = holding if names else list(line_terms)
    if not numbers:
        return False
    bare = 0
    for number in numbers:
        if number < len(lines) and lines[number - 1].startswith(".It"):
            following = lines[number].lstrip()
            bare += following.startswith((".It", ".El"))
    return bare > NAVIGATION_SHARE * len(numbers)
