"""Untrusted text on a terminal: every control character becomes a visible escape."""

from __future__ import annotations

import json

from tierscope.terminal import json_for_terminal, printable


def test_printable_escapes_c0_c1_del_and_bidi_controls():
    text = "a\x1b[2Jb\x07c\x9b31md\x7fe\u202ef\u2066g\x00h"
    assert printable(text) == "a\\x1b[2Jb\\x07c\\x9b31md\\x7fe\\u202ef\\u2066g\\x00h"


def test_printable_makes_one_line_unless_newlines_are_kept():
    assert printable("one\ntwo\r\tthree") == "one\\ntwo\\r\\tthree"
    assert printable("one\ntwo\r\tthree", keep_newlines=True) == "one\ntwo\\r\tthree"


def test_printable_leaves_ordinary_text_alone():
    text = "Budget — 2000 tokens, naïve café, 日本語, emoji 🚀"
    assert printable(text) == text


def test_json_for_terminal_keeps_the_value_and_escapes_raw_controls():
    value = {"query": "x\x9by\u202ez\x1b"}
    text = json_for_terminal(json.dumps(value, ensure_ascii=False))
    assert "\x9b" not in text and "\u202e" not in text and "\x1b" not in text
    assert json.loads(text) == value
