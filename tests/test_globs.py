"""One glob syntax for every glob tierscope reads: exclude globs, scope include globs and
qmd collection masks (fast-glob's, which qmd indexes with)."""

from __future__ import annotations

import pytest

from tierscope.globs import any_case_glob, glob_to_regex, split_top_level


@pytest.mark.parametrize(
    ("pattern", "path", "matches"),
    [
        ("**/brainstorm-*.md", "brainstorm-a.md", True),
        ("**/brainstorm-*.md", "x/y/brainstorm-a.md", True),
        ("**/brainstorm-*.md", "x/brainstorm-a.txt", False),
        ("docs/*.md", "docs/sub/a.md", False),
        ("docs/**", "docs/sub/a.md", True),
        ("a?.md", "ab.md", True),
    ],
)
def test_exclude_globs(pattern, path, matches):
    assert bool(glob_to_regex(pattern).match(path)) is matches


@pytest.mark.parametrize(
    ("pattern", "path", "matches"),
    [
        ("*.md", "a.md", True),
        ("*.md", "sub/a.md", False),
        ("a?.md", "a/.md", False),
        ("**/*.md", "a.md", True),
        ("**/*.md", "a/b/c.md", True),
        ("**", "a/b/c", True),
        ("docs/**/*.{md,rst}", "docs/a/b.rst", True),
        ("docs/**/*.{md,rst}", "docs/b.md", True),
        ("docs/**/*.{md,rst}", "docs/b.txt", False),
        ("{a,{b,c}}/x", "c/x", True),
        ("{a, b}/x", "b/x", True),
        ("{a}/x", "{a}/x", True),
        ("{a/x", "{a/x", True),
        ("[abc].md", "b.md", True),
        ("[abc].md", "d.md", False),
        ("[!abc].md", "d.md", True),
        ("[^abc].md", "a.md", False),
        ("[a.md", "[a.md", True),
        ("a+b(1).md", "a+b(1).md", True),
        ("a+b(1).md", "aab1.md", False),
    ],
)
def test_glob_syntax(pattern, path, matches):
    assert bool(glob_to_regex(pattern).match(path)) is matches


def test_search_matches_the_end_of_a_path():
    assert glob_to_regex("docs/*.rst").search("project/docs/a.rst")
    assert not glob_to_regex("docs/*.rst").search("project/docs/a.rst.bak")


def test_commas_split_only_outside_braces_and_brackets():
    assert split_top_level("**/*.md, *.{txt,rst},[a,b].x,") == ["**/*.md", "*.{txt,rst}", "[a,b].x"]


@pytest.mark.parametrize(
    ("glob", "matching", "not_matching"),
    [
        ("*.r", ["arrange.R", "a.r"], ["a.rs"]),
        ("*.{md,Rmd}", ["README.MD", "x.rmd"], ["a.txt"]),
        ("[!x]y", ["aY", "AY"], ["xy", "XY"]),  # a negated class, in any case
        ("docs/**/*.rst", ["DOCS/a/B.RST"], ["src/a.rst"]),
    ],
)
def test_a_glob_rewritten_for_any_case_matches_as_the_glob_in_any_case(
    glob, matching, not_matching
):
    # For ripgrep, whose --iglob would apply after every --glob, excludes included.
    written = glob_to_regex(any_case_glob(glob))
    assert all(written.match(path) for path in matching)
    assert not any(written.match(path) for path in not_matching)


def test_an_escape_stays_one_in_a_glob_for_any_case():
    # ripgrep's syntax escapes with a backslash (tierscope's own globs have no escapes).
    assert any_case_glob(r"\*.md") == r"\*.[mM][dD]"
