"""A query's everyday word counts for the technical word documentation uses for the same
thing: users keep files in a `folder`, documentation in a "directory" (Cargo's "home
folder" question, Textual's "hidden folders" for its DirectoryTree); a `popup` is a
"modal" screen or a "dialog"; a `dropdown` is HTML's and Textual's "select".

As with abbreviations (abbreviations.py), only the word a query spells is widened, under
its own term key; a query's "directory" counts no "folder". Only the words listed count,
each measured on every eval set: `delete` for "remove" and `quit` for "exit" cost more
questions than they gained (Vim's "delete without clobbering registers" found its
removals), and so did `directory` for "folder" (Dune's "default cache directory");
`spinner` for "loading" moved none. A `shortcut` or `hotkey` is a key "binding": on the
124 project sets one question gained a rank and one lost one (lazygit's; MRR@10 0.8572 ->
0.8573), the Textual and demo sets moved none, and "add a keyboard shortcut that runs a
function" finds Textual's actions and input guides first, not its packaging how-to.
"""

from __future__ import annotations

# Everyday word (lower case, as a word part) -> the technical words it stands for, each
# counted by its stem.
_TECHNICAL_WORDS = {
    "folder": ("directory",),
    "folders": ("directory",),
    "dialog": ("modal",),
    "modal": ("dialog",),
    "popup": ("modal", "dialog"),
    "dropdown": ("select",),
    "dropdowns": ("select",),
    "shortcut": ("binding",),
    "shortcuts": ("binding",),
    "hotkey": ("binding",),
    "hotkeys": ("binding",),
}


def technical_words_for(part: str) -> tuple[str, ...]:
    """The technical words documentation uses for an everyday lower-case word part (none
    for a word not listed)."""
    return _TECHNICAL_WORDS.get(part, ())
