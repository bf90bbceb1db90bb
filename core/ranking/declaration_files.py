"""Source files that only declare, told by their text: a PHP interface (method signatures
without bodies) or a class of constants alone (Composer's `ScriptEvents.php`). Like a
`.d.ts` or a `.pyi` file (file_roles.py), they name everything the code does, by name and
in doc comments, and do none of it: Composer's `OperationInterface.php` came first for how
a problem is explained, above `Problem.php`, which explains it. Not a Java interface: its
Javadoc is the API's documentation (Retrofit's `Call.java` explains what a call's timeout
covers, and its implementations only repeat `@Override timeout()`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

# The languages read so; a file's first lines this many at most.
SUFFIXES = (".php",)
MAX_LINES = 600
_COMMENT = re.compile(r"\s*(?://|#|/\*|\*|\*/)")
_PREAMBLE = re.compile(r"\s*(?:<\?php\b|namespace\s|use\s|declare\s*\(|@\w)")
_BRACES = re.compile(r"\s*[{}]\s*;?\s*$")
_TYPE_HEADER = re.compile(
    r"\s*(?:(?:public|final|abstract)\s+)*(interface|class)\s+\w+[^({;=]*\{?\s*$"
)
# A signature without a body (on one line, or ending one over several), a constant.
_SIGNATURE_END = re.compile(r".*\)\s*(?::\s*[?\w\\|<>\[\], ]+)?\s*;\s*$")
_SIGNATURE_PART = re.compile(r"\s*(?:[\w\\?$&.<>\[\], =']+,?|\S.*\(\s*)$")
_CONSTANT = re.compile(r"\s*(?:(?:public|protected|private|final)\s+)*const\s+\w+\s*=[^;]*;\s*$")


def declares_only(path: str, lines: Sequence[str]) -> bool:
    """Whether a PHP file is an interface or a class of constants alone."""
    if not path.endswith(SUFFIXES) or len(lines) > MAX_LINES:
        return False
    kinds: set[str] = set()
    members = 0
    in_signature = after_header = False
    for line in lines:
        if not line.strip() or _COMMENT.match(line) or _PREAMBLE.match(line):
            continue
        header = _TYPE_HEADER.match(line)
        opens = "{" in line and not after_header
        after_header = bool(header)
        if header:
            kinds.add(header.group(1))
        elif _BRACES.match(line):
            if opens:
                return False  # a body opens (PHP's brace under the signature)
            continue
        elif _CONSTANT.match(line):
            members += 1
        elif (_SIGNATURE_END.match(line) and "(" in line) or (in_signature and line.endswith(";")):
            members += 1
            in_signature = False
        elif "(" in line and "{" not in line and not line.rstrip().endswith(";"):
            in_signature = True  # a signature over several lines
        elif in_signature and _SIGNATURE_PART.match(line) and "{" not in line:
            continue
        else:
            return False
    return bool(kinds) and members > 0
