"""Paths fitted to a narrow column: the file name stays, and so do the folders nearest it,
which tell apart files of one name (README.md, SKILL.md, index.md)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tierscope.tui.widgets.short_path import fit_path


def test_a_path_that_fits_is_shown_whole():
    assert fit_path("docs/guide/layout.md:3-9", 24) == "docs/guide/layout.md:3-9"


def test_files_of_one_name_keep_the_folder_that_tells_them_apart():
    # Oh My Zsh at 80 columns: both top hits read "…/README.md".
    themes = fit_path("plugins/themes/README.md:1-17", 27)
    prompt = fit_path("plugins/git-prompt/README.md:1-72", 27)

    assert themes == "…/themes/README.md:1-17"
    assert prompt == "…/git-prompt/README.md:1-72"


def test_near_folders_are_kept_whole_or_the_nearest_by_its_start():
    path = ".claude/skills/implementing-tasks/SKILL.md"
    assert fit_path(path, 38) == "…/skills/implementing-tasks/SKILL.md"
    assert fit_path(path, 35) == "…/implementing-tasks/SKILL.md"
    assert fit_path(path, 28) == "…/implementing-tas…/SKILL.md"  # the nearest one's start
    assert fit_path(path, 18) == "…/implem…/SKILL.md"
    assert fit_path(path, 17) == "…/imple…/SKILL.md"
    assert fit_path(path, 16) == "…/SKILL.md"  # "…/impl…/" would say little


def test_a_name_too_long_alone_keeps_its_start():
    assert fit_path("src/a_very_long_module_name.py", 12) == "a_very_long…"
    assert fit_path("src/module.py", 10) == "…module.py"


def test_a_file_name_that_fits_only_without_its_lines_drops_them_first():
    # git at 80 columns: "Documentation/technical/sparse-checkout.adoc:19-48" read
    # "sparse-checkout.adoc:1…", cut inside its line numbers with no sign of its folders.
    path = "Documentation/technical/sparse-checkout.adoc:19-48"
    assert fit_path(path, 24) == "…/sparse-checkout.adoc"
    assert fit_path(path, 28) == "…/sparse-checkout.adoc:19-48"  # they fit: they stay
    assert fit_path("src/module.py:1200-1296", 12) == "…/module.py"


def test_a_name_holding_a_newline_stays_on_one_line_with_the_newline_drawn():
    # A file named "new\nline.md" was listed as "docs/new", the rest of its name hidden
    # on a second line the row has no room for.
    assert fit_path("docs/new\nline.md:1-3", 40) == "docs/new\u240aline.md:1-3"
    assert fit_path("docs/tab\tname.md", 40) == "docs/tab\u2409name.md"


@given(
    st.lists(st.text("abc-_.", min_size=1, max_size=8), min_size=1, max_size=5),
    st.integers(0, 40),
)
def test_a_fitted_path_fits_and_ends_as_the_path_does(parts, width):
    path = "/".join(parts) + ":3"
    fitted = fit_path(path, width)

    assert len(fitted) <= width
    if len(parts) > 1 and len(path) > width and len(parts[-1]) + 4 <= width:
        assert fitted.endswith("/" + parts[-1] + ":3")
