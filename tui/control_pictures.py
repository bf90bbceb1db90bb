"""Control characters in what the workbench shows are drawn as symbols, never sent to the
terminal.

Every byte of the project tree, the config and the logs is untrusted (DESIGN §7): a file's
name or text, a logged record or a config value may hold an escape sequence that clears
the screen (`ESC [2J`), retitles the window or hides lines when written raw. Textual's
Content and Rich's Text, which all text on the workbench's screen passes through, each
remove five controls (bell, backspace, vertical tab, form feed, carriage return) as they
are made and let every other one through, ESC among them.

Their tables of what to remove are widened here to draw each other control as a symbol
of one cell, so that no offset in the text moves: a C0 control as its Unicode control
picture (ESC as `␛`), DEL as `␡`, and a C1 control (a terminal may read U+009B as ESC [)
or a bidirectional override, which reorders what the reader sees, as `�`. A tab and a
newline are text. The five removed stay removed. The headless commands escape the same
characters (terminal.py)."""

from __future__ import annotations

import importlib

REPLACEMENT = "\ufffd"
# Each control -> the symbol drawn for it.
PICTURES: dict[int, str] = {
    **{code: chr(0x2400 + code) for code in range(0x20) if chr(code) not in "\t\n"},
    0x7F: "\u2421",
    **dict.fromkeys(range(0x80, 0xA0), REPLACEMENT),
    **dict.fromkeys((*range(0x202A, 0x202F), *range(0x2066, 0x206A)), REPLACEMENT),
}
# The tables Content (textual.content) and Text (rich.control) translate new text with.
TABLES = (
    ("textual.content", "_CONTROL_STRIP_TRANSLATE"),
    ("rich.control", "_CONTROL_STRIP_TRANSLATE"),
)


def draw_control_characters_visibly() -> list[str]:
    """Widen each library's table (once: the characters it removes stay removed); the
    names of the tables not found, for a test to fail on."""
    missing = []
    for module_name, table_name in TABLES:
        table = getattr(importlib.import_module(module_name), table_name, None)
        if not isinstance(table, dict):
            missing.append(f"{module_name}.{table_name}")
            continue
        for code, picture in PICTURES.items():
            table.setdefault(code, picture)
    return missing
