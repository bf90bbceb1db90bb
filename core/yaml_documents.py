"""Documentation written as YAML: jq's manual is `title:` and `body: |` blocks of prose
(`docs/content/manual/v1.7/manual.yml`), and so are some sites' tutorials. A YAML file
inside a documentation folder is documentation when most of its text is sentences; a
site's settings, navigation or schema (keys and short values) is not.

`tierscope init` reads the start of each YAML file of a documentation folder to tell.
"""

from __future__ import annotations

import re
from pathlib import Path

from .files import decode, read_head

# How much of a file is read to tell (its start: a manual's prose begins at once).
SAMPLE_BYTES = 16_384
# At least this share of the sample's non-blank lines are prose, and at least this many.
PROSE_SHARE = 0.45
PROSE_LINES = 5
# A line of prose: at least this many words, apart, once its key (`body:`, `- title:`) is
# cut; a path (`features/element_access/unchecked_access.md`, a site's navigation) is one.
WORDS_IN_A_SENTENCE = 6
_KEY = re.compile(r"^\s*(?:-\s+)?(?:[\w.-]+:(?:\s+|$))?")
_WORD = re.compile(r"[^\W\d_]{2,}")


def reads_as_prose(path: Path, *, in_docs: bool = False) -> bool:
    """Whether the YAML file at `path` (a regular file; links are not followed) is mostly
    sentences: documentation, not settings. In a documentation folder, most of its
    characters will do: a site's reference table is records of a `description:` sentence
    under a few short keys (Jekyll's `docs/_data/config_options/build.yml`, read by the
    page that lists the options)."""
    text = decode(read_head(path, SAMPLE_BYTES))
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    prose = [line for line in lines if _is_sentence(line)]
    if len(prose) < PROSE_LINES:
        return False
    if len(prose) >= PROSE_SHARE * len(lines):
        return True
    return in_docs and sum(map(len, prose)) >= PROSE_SHARE * sum(map(len, lines))


def _is_sentence(line: str) -> bool:
    words = _KEY.sub("", line, count=1).split()
    return sum(1 for word in words if _WORD.search(word)) >= WORDS_IN_A_SENTENCE
