"""Control characters on the workbench's screen are drawn as symbols: the tables Textual's
Content and Rich's Text clean new text with are widened (tui/control_pictures.py)."""

from __future__ import annotations

import re

from rich.text import Text
from textual.content import Content

from tierscope.terminal import printable
from tierscope.tui.control_pictures import PICTURES, draw_control_characters_visibly

HOSTILE = "a\x1b[2Jb\x1b]0;title\x07c\x9b2Jd\u202eevil\x7f\ttab\nnext"


def test_both_libraries_tables_are_found_and_widened():
    assert draw_control_characters_visibly() == []
    assert draw_control_characters_visibly() == []  # a second call changes nothing


def test_content_and_text_draw_each_control_as_one_symbol():
    draw_control_characters_visibly()
    for shown in (Content(HOSTILE).plain, Text(HOSTILE).plain):
        assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]", shown)
        assert shown == "a␛[2Jb␛]0;titlec\ufffd2Jd\ufffdevil␡\ttab\nnext"  # BEL removed


def test_every_control_the_headless_commands_escape_is_drawn_or_removed():
    escaped = {code for code in range(0x2070) if printable(chr(code)) != chr(code)}
    assert escaped - {ord("\t"), ord("\n")} == set(PICTURES)
    assert all(len(symbol) == 1 for symbol in PICTURES.values())  # no offset moves
    draw_control_characters_visibly()
    shown = Content("".join(map(chr, sorted(escaped)))).plain
    assert len(shown) == len(escaped) - 5  # bell, backspace, VT, FF and CR removed
