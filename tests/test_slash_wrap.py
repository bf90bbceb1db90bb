"""Lines holding paths wrap after a slash, not in the middle of a name."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st
from textual.app import App
from textual.content import Content
from textual.selection import Selection

from tierscope.tui.widgets.slash_wrap import PathText, break_offsets, wrapped_at_slashes

STORE = "~/.local/share/tierscope/projects/pkgjl-22949366/context.sqlite"


def parts(line: str, width: int) -> list[str]:
    offsets = [0, *break_offsets(line, width), len(line)]
    return [line[start:end] for start, end in pairwise(offsets)]


def test_a_path_longer_than_the_width_breaks_after_its_slashes():
    assert parts(STORE, 40) == [
        "~/.local/share/tierscope/projects/",
        "pkgjl-22949366/context.sqlite",
    ]


def test_a_path_that_fits_a_line_of_its_own_moves_there_whole():
    line = "! scope notes: none of its paths exist here (grimoires/loa/NOTES.md)"
    assert parts(line, 60) == [
        "! scope notes: none of its paths exist here ",
        "(grimoires/loa/NOTES.md)",
    ]


def test_a_long_path_after_words_starts_on_their_line():
    assert parts(f"store: {STORE}", 40) == [
        "store: ~/.local/share/tierscope/",
        "projects/pkgjl-22949366/context.sqlite",
    ]


def test_wrapping_keeps_the_styles_and_adds_only_line_breaks():
    content = Content.assemble(("store ", "bold"), (STORE, "italic"))
    wrapped = wrapped_at_slashes(content, 40)
    assert wrapped.plain.replace("\n", "") == content.plain
    assert [len(line) <= 40 for line in wrapped.plain.split("\n")] == [True, True]
    assert {span.style for span in wrapped.spans} == {"bold", "italic"}


names = st.text(alphabet="abcdefgh-.", min_size=1, max_size=12)
paths = st.lists(names, min_size=1, max_size=8).map("/".join)
lines = st.lists(st.one_of(names, paths), min_size=1, max_size=6).map(" ".join)


@given(lines, st.integers(min_value=4, max_value=60))
def test_every_part_fits_unless_one_name_is_wider_than_the_line(line, width):
    cut = parts(line, width)
    assert "".join(cut) == line
    for part in cut:
        shown = part.rstrip()
        if len(shown) > width:  # only a single name, folded later, is wider
            assert " " not in shown and "/" not in shown.rstrip("/")
    for before in cut[:-1]:
        assert before.endswith((" ", "/"))


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_text_selected_in_a_path_text_is_copied_as_it_is_shown():
    # Textual copies a selection only from a widget whose visual is a Content: without its
    # own get_selection, the Doctor view's wrapped paths could not be copied at all.
    class Shown(App[None]):
        def compose(self):
            yield PathText(f"store: {STORE}")

    app = Shown()
    async with app.run_test(size=(40, 5)):
        text = app.query_one(PathText)
        copied = text.get_selection(Selection(None, None))
    assert copied == (f"store: {STORE}".replace("tierscope/", "tierscope/\n", 1), "\n")
