"""qmd's index read two ways, for the tests that compare them (against the fake and the
real qmd alike): tierscope's fast path, which runs its own FTS5 query on the index
file, and `qmd search`, which runs qmd's."""

from __future__ import annotations

import json
import math
import subprocess
from pathlib import Path

from tierscope.ranking.analysis import query_terms
from tierscope.tiers.base import Deadline
from tierscope.tiers.qmd_fts import fts_expression, index_candidates, open_index

RANKING_COLLECTION = "ranking"
RANKING_WORDS = ("harbour", "lighthouse", "rollback", "manifest")


def ranking_files() -> dict[str, str]:
    """A collection where every match of a word scores apart from the others: each
    document holds the words a different number of times, in a text of its own length,
    and not every document holds every word (so each word is rare enough to score)."""
    files = {}
    for number in range(1, 31):
        words: list[str] = []
        for offset, word in enumerate(RANKING_WORDS):
            if (number + offset) % 3 == 0:
                words += [word] * ((number * (offset + 2)) % 7 + 1)
        filler = " ".join(f"filler{n % 11}" for n in range(number * 5))
        body = f"# Document {number}\n\n{' '.join(words)}\n\n{filler}\n"
        files[f"doc{number:02d}.md"] = body
    return files


def qmd_rounded(score: float) -> float:
    """JavaScript's Math.round(score * 100) / 100, as `qmd search` prints a score."""
    return math.floor(score * 100 + 0.5) / 100


def ranked_by_fast_path(index_file: Path, collection: str, word: str, limit: int) -> list:
    """(qmd:// URI, printed score) of each match, best first, from tierscope's index read."""
    expression = fts_expression(query_terms(word))
    assert expression is not None
    conn = open_index(index_file)
    assert conn is not None, f"the fast path refuses {index_file}"
    try:
        rows = index_candidates(conn, [collection], expression, limit, Deadline.after(30))
    finally:
        conn.close()
    assert rows is not None
    return [(f"qmd://{r.collection}/{r.path}", qmd_rounded(r.score)) for r in rows]


def ranked_by_qmd_search(
    root: Path, collection: str, word: str, limit: int, env: dict[str, str] | None = None
) -> list:
    """(qmd:// URI, printed score) of each match, best first, from `qmd search`."""
    completed = subprocess.run(
        ["qmd", "search", word, "--json", "-n", str(limit), "-c", collection],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return [(entry["file"], entry["score"]) for entry in json.loads(completed.stdout)]
