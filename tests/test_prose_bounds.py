"""Where the sentences of wrapped prose run on from line to line (prose_bounds.py), and a
passage of a document served in whole sentences where that costs no term."""

from __future__ import annotations

from tierscope.api import Project, QueryOptions
from tierscope.ranking.prose_bounds import ProseBounds

MARKDOWN = [
    "# Pools",  # 0
    "",
    "A pool hands out buffers and takes",  # 2
    "them back when released. The limit",  # 3: runs on from 2
    "is set when the pool is made.",  # 4: runs on from 3
    "Another sentence starts here.",  # 5: 4 ended one
    "- a list item starts a block",  # 6
    "  wrapped under its item",  # 7: runs on, under the item's text
    "```python",  # 8
    "pool = Pool(",  # 9: code
    "    size=3)",  # 10
    "```",  # 11
    "Title",  # 12
    "=====",  # 13: an underline
]
RST = [
    "Use it like this::",  # 0
    "",
    "    pool = make_pool()",  # 2: literal code under `::`
    "    pool.release(buffer)",  # 3
    "",
    "Back to prose that wraps at the",  # 5
    "column as prose does.",  # 6
]


def test_a_line_runs_on_from_the_line_above_only_in_wrapped_prose():
    bounds = ProseBounds(MARKDOWN, {0: 0, 12: 12})
    assert [index for index in range(len(MARKDOWN)) if bounds.runs_on(index)] == [3, 4, 7]
    rst = ProseBounds(RST, {})
    assert [index for index in range(len(RST)) if rst.runs_on(index)] == [6]


def test_a_list_items_sentence_runs_on_under_its_text_not_elsewhere():
    # libuv's fs.rst: "copy-on-write file copy" was served from the item's second line,
    # "create a copy-on-write reflink.", its first left out ("`UV_FS_COPYFILE_FICLONE`: If
    # present, `uv_fs_copyfile()` will attempt to").
    lines = [
        "    Copies a file. Supported `flags` are described below.",  # 0
        "",
        "    - `UV_FS_COPYFILE_FICLONE`: If present, `uv_fs_copyfile()` will attempt to",  # 2
        "      create a copy-on-write reflink. If the platform does not",  # 3: runs on
        "      support it, a fallback copy is used.",  # 4: runs on
        "    1. A numbered item that wraps",  # 5
        "       under its text",  # 6: runs on
        "         deeper than its text",  # 7: no
        "    * another item",  # 8: a block of its own
        "  outdented under it",  # 9: no
    ]
    bounds = ProseBounds(lines, {})
    assert [index for index in range(len(lines)) if bounds.runs_on(index)] == [3, 4, 6]
    assert bounds.sentence_start(3, 0) == 2


def test_a_line_opening_with_an_inline_role_runs_on_a_field_list_item_does_not():
    # Sphinx wraps a sentence before a role (":mod:`multiprocessing` process"); a field
    # list item (":param size:") starts a block of its own.
    lines = [
        "One method to do this could be to start a server in a",  # 0
        ":mod:`multiprocessing` process, then terminate the process after a value",  # 1
        "is returned, or use :py:func:`os.kill` on it.",  # 2
        ":py:class:`~pool.Pool` objects are made once.",  # 3: 2 ended a sentence
        "Make a pool of the given",  # 4
        ":param size: the number of buffers",  # 5: a field
        ":returns: the pool",  # 6: a field
    ]
    bounds = ProseBounds(lines, {})
    assert [index for index in range(len(lines)) if bounds.runs_on(index)] == [1, 2]


def test_a_titles_tilde_underline_opens_no_fenced_block():
    # Git's git-bisect.adoc: "Bisect run" underlined with `~~~~~~~~~~` was read as a
    # markdown fence opening, so every line below it stood apart from the prose and a
    # passage started on "cannot be tested.", its sentence's first line left out. An
    # rst or AsciiDoc title's underline is no fence (a markdown fence is never one).
    lines = [
        "Bisect run",  # 0
        "~~~~~~~~~~",  # 1: the title's underline
        "",
        "The special exit code 125 should be used when the current source code",  # 3
        "cannot be tested. If the script exits with this code, the current",  # 4: runs on
        "revision will be skipped.",  # 5: runs on
        "",
        "Another title",  # 7
        "~~~~~~~~~~~~~",  # 8
    ]
    bounds = ProseBounds(lines, {0: 0, 7: 7})
    assert [index for index in range(len(lines)) if bounds.runs_on(index)] == [4, 5]
    assert bounds.sentence_start(4, 0) == 3
    # A markdown fence of tildes right under a `#` heading is still one.
    fenced = ["## Example", "~~~", "pool = make_pool(3)", "pool.release(buffer)", "~~~"]
    assert not ProseBounds(fenced, {0: 0}).runs_on(3)


def test_sentences_are_found_within_their_bounds():
    bounds = ProseBounds(MARKDOWN, {0: 0})
    assert bounds.sentence_start(4, 0) == 2
    assert bounds.sentence_start(4, 3) == 3  # not above the floor
    assert bounds.sentence_end(4, 0) == 2  # a passage ending on line 3 cut back
    assert bounds.sentence_finish(3, len(MARKDOWN)) == 5
    assert bounds.next_sentence_start(3, len(MARKDOWN)) == 5


ASYNC_PAGE = (
    "Using async and await\n=====================\n\n"
    "Routes, error handlers, before request, after request, and teardown\n"
    "functions can all be coroutine functions if the extra is installed. This\n"
    "allows views to be defined with ``async def`` and use ``await``.\n\n"
    "Performance\n-----------\n\n"
    "Async functions require an event loop to run. The framework, as a WSGI\n"
    "application, uses one worker to handle one request/response cycle. When a\n"
    "request comes in to an async view, the framework will start an event loop\n"
    "in a thread, run the view function there, then return the result.\n\n"
    "Background tasks\n----------------\n\n"
    "Async functions will run in an event loop until they complete, at\n"
    "which stage the event loop will stop. This means any additional\n"
    "spawned tasks that haven't completed when the async function completes\n"
    "will be cancelled. Therefore you cannot spawn background tasks, for\n"
    "example via ``asyncio.create_task``.\n\n"
    "If you wish to use background tasks it is best to use a task queue to\n"
    "trigger background work, rather than spawn tasks in a view\n"
    "function. With that in mind you can spawn asyncio tasks by serving\n"
    "the application with an ASGI server and an adapter that\n"
    "keeps an event loop running continually.\n\n"
    "When to use another framework\n-----------------------------\n\n"
    + "Async support here is less performant than in async-first frameworks due\n"
    "to the way it is implemented, which is fine for most uses.\n" * 6
)


def test_a_passage_cut_by_the_cap_ends_where_a_sentence_ends(make_project):
    # Flask's async page: "tasks I start with asyncio.create_task ... never finish" was
    # served up to "...you can spawn asyncio tasks by serving", mid-sentence; the lines
    # after the last whole sentence held no term the passage lacked.
    root = make_project({"docs/async.rst": ASYNC_PAGE})
    query = "tasks I start with asyncio.create_task inside an async view never finish, why"
    result = Project(str(root)).run(
        QueryOptions(text=query, scope="all", tiers=("grep",)), trajectory=False
    )
    (hit,) = result.hits
    assert "will be cancelled. Therefore you cannot spawn background tasks" in hit.content
    assert hit.content.rstrip().endswith("."), hit.content
