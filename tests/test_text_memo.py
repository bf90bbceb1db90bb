"""A process answering many questions works each file's text out once (text_memo.py): never
from what a file used to say, never past its bound."""

from __future__ import annotations

from tierscope.ranking import markup_words, navigation
from tierscope.ranking.code_definitions import defines_a_name
from tierscope.ranking.read_file import file_lines
from tierscope.ranking.spans import Span, document_headings
from tierscope.text_memo import memo_by_lines, memo_by_text, memo_of_text


def counting(max_chars: int):
    made: list[tuple[str, str]] = []

    @memo_by_text(max_chars)
    def upper(text: str, kind: str) -> str:
        made.append((text, kind))
        return text.upper()

    return upper, made


def test_a_text_seen_before_is_not_worked_out_again():
    upper, made = counting(1_000)
    assert upper("abc", "markdown") == "ABC"
    assert upper("abc", "markdown") == "ABC"
    assert made == [("abc", "markdown")]


def test_a_changed_text_or_another_kind_is_worked_out_anew():
    upper, made = counting(1_000)
    upper("abc", "markdown")
    assert upper("abd", "markdown") == "ABD"
    assert upper("abc", "plain") == "ABC"
    assert made == [("abc", "markdown"), ("abd", "markdown"), ("abc", "plain")]


def test_the_least_recently_used_go_first_when_the_bound_is_reached():
    upper, made = counting(12)  # each entry costs its text and its result: 6 characters
    upper("aaa", "k")
    upper("bbb", "k")
    upper("aaa", "k")  # used again: bbb is now the oldest
    upper("ccc", "k")  # over the bound: bbb goes
    made.clear()
    upper("aaa", "k")
    upper("ccc", "k")
    assert made == []
    upper("bbb", "k")
    assert made == [("bbb", "k")]


def test_a_text_larger_than_the_bound_is_not_kept_and_keeps_nothing_out():
    upper, made = counting(10)
    upper("ab", "k")
    assert upper("x" * 50, "k") == "X" * 50
    upper("x" * 50, "k")
    upper("ab", "k")
    assert made == [("ab", "k"), ("x" * 50, "k"), ("x" * 50, "k")]


def test_a_result_that_is_the_text_itself_costs_only_the_text():
    kept: list[str] = []

    @memo_by_text(10)
    def same(text: str, kind: str) -> str:
        kept.append(text)
        return text

    same("12345", "k")
    same("67890", "k")  # 5 + 5 characters: both fit
    same("12345", "k")
    same("67890", "k")
    assert kept == ["12345", "67890"]


def test_a_documents_markup_is_found_once_however_often_it_is_read(monkeypatch):
    markup_words.without_markup_words.forget()
    calls = []
    real = markup_words._without_page_markup

    def counted(text: str, has_blocks: bool) -> str:
        calls.append(text)
        return real(text, has_blocks)

    monkeypatch.setattr(markup_words, "_without_page_markup", counted)
    page = '---\ntitle: Guide\n---\n\n# Guide\n\n<span style="color: red">Read</span> me.\n'
    first = markup_words.without_markup_words(page, "markdown")
    again = markup_words.without_markup_words(page, "markdown")
    assert first == again
    assert "style" not in first and "Read" in first
    assert len(calls) == 1
    changed = page.replace("Read", "Skim")
    assert "Skim" in markup_words.without_markup_words(changed, "markdown")
    assert len(calls) == 2


def test_marks_per_line_are_worked_out_once_per_text_and_options():
    made: list[tuple[tuple[str, ...], bool]] = []

    @memo_by_lines(100)
    def blank(lines: list[str], *, strict: bool = True) -> tuple[bool, ...]:
        made.append((tuple(lines), strict))
        return tuple(not line.strip() for line in lines)

    page = ["a", "", "b"]
    assert blank(page) == (False, True, False)
    assert blank(list(page)) == (False, True, False)  # the same text, another list
    assert blank(page, strict=False) == (False, True, False)
    assert blank(["a", " ", "b"]) == (False, True, False)
    assert made == [(("a", "", "b"), True), (("a", "", "b"), False), (("a", " ", "b"), True)]


def test_marks_per_line_are_kept_within_their_bound_of_lines():
    made: list[tuple[str, ...]] = []

    @memo_by_lines(4)
    def blank(lines: list[str]) -> tuple[bool, ...]:
        made.append(tuple(lines))
        return tuple(not line for line in lines)

    blank(["a", "b"])
    blank(["c", "d", "e"])  # 2 + 3 lines: the first goes
    blank(["c", "d", "e"])
    blank(["a", "b"])
    blank(["x"] * 5)  # more than the bound: not kept
    blank(["x"] * 5)
    assert made == [("a", "b"), ("c", "d", "e"), ("a", "b"), ("x",) * 5, ("x",) * 5]


def test_a_files_imports_and_links_are_marked_once_however_often_it_is_read(monkeypatch):
    calls: list[str] = []
    for name in ("_marked_imports", "_marked_links"):
        real = getattr(navigation, name)

        def counted(lines, real=real, name=name, **options):
            calls.append(name)
            return real(lines, **options)

        monkeypatch.setattr(navigation, name, counted)
    navigation._import_lines.forget()
    navigation._link_lines.forget()
    code = ["import os", "from pathlib import Path", "", "def main():", "    return os.sep"]
    terms = {1: {"os": 1}, 2: {"path": 1}, 5: {"os": 1}}
    assert navigation.imports_only(code, terms) is navigation.imports_only(list(code), terms)
    is_navigation = navigation.navigation_test(code, code=True)
    assert is_navigation(Span(0, 3)) and not is_navigation(Span(3, 5))
    navigation.navigation_test(list(code), code=True)
    contents = ["# Guide", "", "- [Install](install.md)", "- [Use](use.md)"]
    assert navigation.points_elsewhere(contents, {3: {"install": 1}})
    assert navigation.points_elsewhere(list(contents), {4: {"use": 1}})
    # One for imports_only (no guards), one for the spans (guards), one for the links.
    assert sorted(calls) == ["_marked_imports", "_marked_imports", "_marked_links"]


def test_a_value_made_of_a_text_alone_is_made_once_per_text_within_its_bound():
    made: list[str] = []

    @memo_of_text(8)
    def words(text: str) -> tuple[str, ...]:
        made.append(text)
        return tuple(text.split())

    assert words("a b") == ("a", "b")
    assert words("a" + " b") == ("a", "b")  # an equal text, another string
    assert words("a c") == ("a", "c")
    words("a b c d e")  # 9 characters, over the bound: made each time, kept out
    words("a b c d e")
    words("a b")  # 3 + 3 characters were kept: still there
    assert made == ["a b", "a c", "a b c d e", "a b c d e"]


def test_a_files_lines_and_what_is_read_of_them_serve_the_next_question_about_it():
    file_lines.forget()
    text = "class Budget:\n    limit = 10\n"
    lines = file_lines(text)
    assert lines == ["class Budget:", "    limit = 10"]
    assert defines_a_name(lines, 0)
    assert file_lines("class Budget:\n" + "    limit = 10\n") is lines  # the same text
    assert lines.defined == {0: "Budget"}  # read once, remembered for the next question
    assert file_lines(text.replace("10", "20")) is not lines  # a changed file: read anew


def test_files_with_the_same_text_share_lines_but_each_kind_has_its_own_headings():
    # The same text in notes.md and notes.py: a heading in one, a comment in the other.
    file_lines.forget()
    lines = file_lines("# Budget\n\nThe limit.\n")
    assert [heading.title for heading in document_headings(lines, "notes.md")] == [0]
    assert document_headings(lines, "notes.py") == []
    assert [heading.title for heading in document_headings(lines, "docs/notes.md")] == [0]
