"""The pure-Python walk's rules, looked at along one path (`why_not_walked`), agree with
the walk: a file is left out exactly when the walk never yields it, with the reason."""

from __future__ import annotations

import pytest

from tierscope.project_walk import walk_files, why_not_walked

TREE = {
    "docs/guide.md": "",
    "docs/data.json": "",
    "docs/app.min.js": "",
    "docs/.hidden.md": "",
    "docs/.drafts/plan.md": "",
    "docs/node_modules/pkg/readme.md": "",
    "docs/scratch/notes.md": "",
    "docs/scratch/keep.md": "",
    "docs/build/out.md": "",
    "docs/deep/er/page.md": "",
    "docs/deep/er/skip.txt": "",
    "docs/.git/HEAD": "",
}
IGNORES = {
    "docs/.gitignore": "scratch/*\n!scratch/keep.md\nbuild/\n",
    "docs/deep/.ignore": "*.txt\n",
}


@pytest.mark.parametrize("machine_data", [False, True])
@pytest.mark.parametrize("include_ignored", [False, True])
def test_a_file_is_left_out_exactly_when_the_walk_never_yields_it(
    make_project, include_ignored, machine_data
):
    root = make_project({**TREE, **IGNORES})
    start = root / "docs"
    options = {"include_ignored": include_ignored, "machine_data": machine_data}
    walked = {f.path for f in walk_files(start, root, **options)}
    files = [root / name for name in TREE]
    left_out = {path for path in files if why_not_walked(path, start, root, **options)}
    assert walked & set(files) == set(files) - left_out
    assert left_out  # the tree leaves something out whichever way it is walked


def test_each_reason_names_what_leaves_the_file_out(make_project):
    root = make_project({**TREE, **IGNORES})
    start = root / "docs"
    reasons = {name: why_not_walked(root / name, start, root) for name in TREE}
    ignored = "ignored (.gitignore, .ignore or .rgignore rules)"
    assert reasons == {
        "docs/guide.md": None,
        "docs/data.json": "machine data (*.json)",
        "docs/app.min.js": "built output (*.min.js)",
        "docs/.hidden.md": "hidden (.hidden.md)",
        "docs/.drafts/plan.md": "hidden (.drafts/)",
        "docs/node_modules/pkg/readme.md": "in node_modules/",
        "docs/scratch/notes.md": ignored,
        "docs/scratch/keep.md": None,
        "docs/build/out.md": ignored,
        "docs/deep/er/page.md": None,
        "docs/deep/er/skip.txt": ignored,
        "docs/.git/HEAD": "in .git/",
    }


def test_a_file_named_as_the_start_is_searched_whatever_its_name(make_project):
    root = make_project({"data.json": "{}"})
    assert why_not_walked(root / "data.json", root / "data.json", root) is None
