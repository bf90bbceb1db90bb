"""Path globs as regular expressions: the one translation every glob in tierscope uses
(exclude globs, scope include globs, qmd collection masks).

The syntax is fast-glob's, which qmd indexes with: `**` spans directories (`**/` also
matches no directory at all), `*` and `?` stay within one path segment, `[abc]` and
`[!abc]` are character classes, `{a,b}` alternates (and nests). A `[` or `{` that is never
closed is an ordinary character.
"""

from __future__ import annotations

import re
from functools import lru_cache


@lru_cache(maxsize=1024)
def glob_to_regex(glob: str, ignore_case: bool = False) -> re.Pattern[str]:
    """The regex for `glob`, anchored at the end: `.match` tests a whole root-relative
    POSIX path, `.search` a path's last segments; in any case with `ignore_case`."""
    return re.compile(_translate(glob) + r"\Z", re.IGNORECASE if ignore_case else 0)


def _translate(glob: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(glob):
        ch = glob[i]
        if glob.startswith("**/", i):
            out.append("(?:[^/]*/)*")
            i += 3
            continue
        if glob.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if ch == "*":
            out.append("[^/]*")
        elif ch == "?":
            out.append("[^/]")
        elif ch == "[":
            end = glob.find("]", i + 2)
            if end == -1:
                out.append(re.escape(ch))
            else:
                body = glob[i + 1 : end].replace("\\", "\\\\")
                out.append("[^" + body[1:] + "]" if body[:1] in "!^" else "[" + body + "]")
                i = end
        elif ch == "{":
            end = _closing_brace(glob, i)
            if end == -1:
                out.append(re.escape(ch))
            else:
                inner = glob[i + 1 : end]
                options = split_top_level(inner) if "," in inner else []
                if options:
                    out.append("(?:" + "|".join(_translate(o) for o in options) + ")")
                else:
                    out.append(re.escape(glob[i : end + 1]))
                i = end
        else:
            out.append(re.escape(ch))
        i += 1
    return "".join(out)


def any_case_glob(glob: str) -> str:
    """`glob` matching in any case, written as a glob: each letter a class of its two cases
    (`*.r` -> `*.[rR]`), a class's letters given both cases, escapes kept. For ripgrep,
    whose `--iglob`s all apply after its `--glob`s and so would override the excludes."""
    out: list[str] = []
    i = 0
    in_class = False
    while i < len(glob):
        ch = glob[i]
        if ch == "\\" and i + 1 < len(glob):
            out.append(glob[i : i + 2])
            i += 2
            continue
        if in_class:
            out.append(ch + ch.swapcase() if ch.isalpha() and ch.swapcase() != ch else ch)
            in_class = ch != "]" or glob[i - 1] in "[!^"
        elif ch == "[" and glob.find("]", i + 2) != -1:
            out.append(ch)
            in_class = True
        elif ch.isalpha() and ch.swapcase() != ch and len(ch.swapcase()) == 1:
            out.append(f"[{ch.lower()}{ch.upper()}]")
        else:
            out.append(ch)
        i += 1
    return "".join(out)


def split_top_level(text: str) -> list[str]:
    """`text` split at the commas outside `{}` and `[]` (`a,{b,c}` -> `a`, `{b,c}`),
    each part stripped; empty parts are dropped."""
    parts, current, depth = [], "", 0
    for ch in text:
        if ch in "{[":
            depth += 1
        elif ch in "}]" and depth:
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    parts.append(current)
    return [p.strip() for p in parts if p.strip()]


def _closing_brace(glob: str, start: int) -> int:
    depth = 0
    for index in range(start, len(glob)):
        if glob[index] == "{":
            depth += 1
        elif glob[index] == "}":
            depth -= 1
            if depth == 0:
                return index
    return -1
