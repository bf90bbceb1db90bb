"""The first-paint bench's reading of the terminal: when the first frame's last row is drawn."""

from __future__ import annotations

import sys
from pathlib import Path

# bench/ is a folder of the checkout, not an installed package.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.tui_bench import FrameWatch


def test_the_frame_is_drawn_once_its_last_row_is_reached():
    watch = FrameWatch(40)
    assert not watch.feed(b"\x1b[?1049h\x1b[?1000h")  # the terminal set up, nothing drawn
    assert not watch.feed(b"\x1b[1;1Htitle\x1b[4;1Hrow four\x1b[39;1Hrow 39")
    assert watch.feed(b"\x1b[40;1Hf1 Help")
    assert watch.feed(b"")  # and stays drawn


def test_the_last_rows_cursor_move_split_between_two_reads_is_seen():
    watch = FrameWatch(40)
    assert not watch.feed(b"\x1b[39;1Hrow 39\x1b[4")
    assert watch.feed(b"0;1Hf1 Help")


def test_a_longer_row_number_is_not_the_last_row():
    watch = FrameWatch(40)
    assert not watch.feed(b"\x1b[400;1H\x1b[140;1H")
