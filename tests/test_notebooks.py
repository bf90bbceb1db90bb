"""Jupyter notebooks are read as what a person reads in them: their cells' text, markdown
as markdown and code in fences, each line pointing back at the line of the notebook file
that holds it. Outputs (images, tables, logs) and metadata are left out."""

from __future__ import annotations

import base64
import json
from dataclasses import replace

from tierscope.ranking.candidates import RERANK_DEPTH
from tierscope.ranking.notebooks import notebook_view

IMAGE = base64.b64encode(bytes(range(256)) * 40).decode()


def notebook(*cells: dict, indent: int | None = 1) -> str:
    document = {
        "cells": list(cells),
        "metadata": {"kernelspec": {"language": "python", "name": "python3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return json.dumps(document, indent=indent, sort_keys=True, ensure_ascii=False) + "\n"


def markdown(*lines: str) -> dict:
    return {"cell_type": "markdown", "metadata": {}, "source": list(lines)}


def code(*lines: str, outputs: list | None = None) -> dict:
    return {
        "cell_type": "code",
        "execution_count": 1,
        "metadata": {},
        "outputs": outputs or [],
        "source": list(lines),
    }


TRAINING = notebook(
    markdown("# Training the model\n", "\n", "We fine-tune the classifier with a schedule.\n"),
    code(
        "model.fit(data, learning_rate=0.01)\n",
        "model.save('out')",
        outputs=[{"data": {"image/png": IMAGE}, "metadata": {}, "output_type": "display_data"}],
    ),
    markdown("## Evaluation\n", "Accuracy is measured on the held-out split."),
)


def test_a_notebook_reads_as_its_cells_markdown_and_fenced_code():
    view = notebook_view(TRAINING)
    assert view is not None
    assert view.text == (
        "# Training the model\n\nWe fine-tune the classifier with a schedule.\n\n"
        "```python\nmodel.fit(data, learning_rate=0.01)\nmodel.save('out')\n```\n\n"
        "## Evaluation\nAccuracy is measured on the held-out split.\n"
    )
    assert IMAGE[:50] not in view.text


def test_each_line_of_a_notebook_view_points_at_the_file_line_holding_it():
    view = notebook_view(TRAINING)
    file_lines = TRAINING.split("\n")
    for shown, number in zip(view.text.split("\n"), view.file_lines, strict=False):
        if shown and not shown.startswith("```"):
            assert json.dumps(shown)[1:-1] in file_lines[number - 1]


def test_a_source_written_as_one_string_is_read_too():
    cell = {"cell_type": "markdown", "metadata": {}, "source": "# Title\nSome text."}
    view = notebook_view(notebook(cell))
    assert view is not None
    assert view.text == "# Title\nSome text.\n"


def test_what_is_not_a_notebook_laid_out_by_line_has_no_view():
    assert notebook_view("not json") is None
    assert notebook_view(json.dumps({"cells": "no"})) is None
    # All on one line: no line of the file to point at for each line of text.
    assert notebook_view(notebook(markdown("# Title\n", "Text."), indent=None)) is None


def test_the_grep_tier_serves_a_notebooks_cells_with_the_files_line_numbers(make_project):
    from tierscope.config.model import Config
    from tierscope.models import ResolvedScope
    from tierscope.tiers.base import Deadline, TierRequest
    from tierscope.tiers.grep import GrepTier

    outputs_only = notebook(
        code("plot(x)", outputs=[{"name": "stdout", "output_type": "stream",
                                  "text": ["learning rate schedule printed\n"]}])
    )  # fmt: skip
    root = make_project({"notebooks/train.ipynb": TRAINING, "notebooks/plots.ipynb": outputs_only})
    scope = ResolvedScope("all", (), (), (root.resolve(),))
    request = TierRequest("learning rate schedule", root, scope, Config(), 5.0)
    outcome = GrepTier().search(request, Deadline.after(5.0))

    [hit] = outcome.hits
    assert hit.source == "notebooks/train.ipynb"
    assert "We fine-tune the classifier with a schedule." in hit.content
    assert "model.fit(data, learning_rate=0.01)" in hit.content
    assert '"cell_type"' not in hit.content and IMAGE[:50] not in hit.content
    file_lines = TRAINING.split("\n")
    assert "# Training the model" in file_lines[hit.line_start - 1]
    last = hit.content.split("\n")[-1]
    assert json.dumps(last)[1:-1] in file_lines[hit.line_end - 1]
    printed = GrepTier().search(replace(request, query="printed"), Deadline.after(5.0))
    assert printed.hits == ()
    assert any("only in a notebook's outputs" in note for note in printed.notes)


def test_a_notebooks_outputs_do_not_count_in_its_length(make_project, monkeypatch):
    # An image is most of a notebook's bytes: counted, it would sink the notebook below
    # any page that mentions the query once.
    from tierscope.config.model import Config
    from tierscope.models import ResolvedScope
    from tierscope.tiers.base import Deadline, TierRequest
    from tierscope.tiers.grep import GrepTier

    big_image = base64.b64encode(bytes(range(256)) * 800).decode()
    plot = {"data": {"image/png": big_image}, "metadata": {}, "output_type": "display_data"}
    tuned = notebook(
        markdown("# Warmup\n", "The warmup schedule ramps the learning rate.\n"),
        code("schedule = warmup(steps=100)", outputs=[plot]),
    )
    # More pages than the ranking reads again (RERANK_DEPTH), each naming the words once.
    page = "# Notes\n\nA warmup schedule exists.\n\n" + "Other notes about nothing.\n" * 40
    pages = {f"work/notes-{i:02}.md": page for i in range(RERANK_DEPTH + 5)}
    root = make_project({"work/tuning.ipynb": tuned, **pages})
    scope = ResolvedScope("all", (), (), (root.resolve(),))
    for engine in ("ripgrep", "python"):
        monkeypatch.setenv("TIERSCOPE_GREP_ENGINE", engine)
        request = TierRequest("warmup schedule", root, scope, Config(), 5.0)
        outcome = GrepTier().search(request, Deadline.after(5.0))
        assert outcome.hits[0].source == "work/tuning.ipynb"


def test_a_notebooks_outputs_do_not_count_for_its_rank(make_project, monkeypatch):
    # An executed notebook's outputs hold `image/png` keys, HTML tables and log lines: the
    # words a query counts are those of its cells, as its snippet shows them.
    from tierscope.config.model import Config
    from tierscope.models import ResolvedScope
    from tierscope.tiers.base import Deadline, TierRequest
    from tierscope.tiers.grep import GrepTier

    logged = {"name": "stdout", "output_type": "stream", "text": ["export figure dpi\n"] * 60}
    plotted = notebook(
        markdown("# Plotting\n", "A figure of the data, drawn once.\n"),
        code("plt.plot(x, y)", outputs=[logged]),
    )
    saving = notebook(
        markdown("# Saving\n", "Export a figure with `savefig`; `dpi` sets its resolution.\n"),
        code("fig.savefig('figure.png', dpi=300)"),
    )
    others = {f"book/notes-{i:02}.md": "# Notes\n\nNothing about it.\n" for i in range(20)}
    root = make_project(
        {"book/01-plotting.ipynb": plotted, "book/02-saving.ipynb": saving, **others}
    )
    scope = ResolvedScope("all", (), (), (root.resolve(),))
    for engine in ("ripgrep", "python"):
        monkeypatch.setenv("TIERSCOPE_GREP_ENGINE", engine)
        request = TierRequest("export figure dpi", root, scope, Config(), 5.0)
        outcome = GrepTier().search(request, Deadline.after(5.0))
        assert outcome.hits[0].source == "book/02-saving.ipynb", engine
