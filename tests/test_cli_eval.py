"""`tierscope eval`: known-item query sets, their figures and their misses."""

from __future__ import annotations

import json

import pytest

from tierscope.cli import main
from tierscope.evaluation.metrics import RankedAnswer, RankedHit, summarise
from tierscope.evaluation.queryset import KnownItemQuery, QuerySetError, read_query_set
from tierscope.models import shown_line_ranges

FILES = {
    "docs/retry.md": "# Retries\n\nEach retry waits with exponential backoff and jitter.\n",
    "docs/deploy.md": "# Deploys\n\nA deploy rolls out in waves; a failed wave rolls back.\n",
    "docs/notes.md": "# Notes\n\nWe talked about retries and deploys today.\n",
}
QUERIES = (
    "# a comment line\n"
    "\n"
    "retry backoff\tdocs/retry.md\t\texponential backoff\n"
    "how does a failed rollout get undone\tdocs/deploy.md\tdocs\ta failed wave rolls back\n"
    "something nobody wrote about\tdocs/notes.md\n"
)


@pytest.fixture
def project(make_project):
    root = make_project(FILES)
    (root / ".tierscope.yaml").write_text(
        "qmd_context:\n  scopes:\n    docs: {grep_paths: [docs/]}\n"
    )
    (root / "queries.tsv").write_text(QUERIES)
    return root


def run_eval(capsys, root, *args) -> tuple[int, str, str]:
    code = main(["eval", str(root / "queries.tsv"), "--root", str(root), *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_the_query_file_keeps_each_column_and_skips_comments(project):
    queries = read_query_set(project / "queries.tsv")
    assert [(q.text, q.expected, q.scope, q.passage, q.line) for q in queries] == [
        ("retry backoff", ("docs/retry.md",), None, "exponential backoff", 3),
        ("how does a failed rollout get undone", ("docs/deploy.md",), "docs",
         "a failed wave rolls back", 4),
        ("something nobody wrote about", ("docs/notes.md",), None, "", 5),
    ]  # fmt: skip


def test_alternatives_are_joined_with_a_bar(tmp_path):
    path = tmp_path / "q.tsv"
    path.write_text("q\ta.md|./b.md\n")
    assert read_query_set(path)[0].expected == ("a.md", "b.md")


@pytest.mark.parametrize("line", ["just a query", "\tmissing.md", "a\tb\tc\td\te"])
def test_a_malformed_line_is_an_error_naming_file_and_line(tmp_path, line):
    path = tmp_path / "q.tsv"
    path.write_text(f"# header\n{line}\n")
    with pytest.raises(QuerySetError, match=r"q\.tsv:2: "):
        read_query_set(path)


def test_the_report_gives_the_figures_and_lists_the_misses(capsys, project):
    code, out, _ = run_eval(capsys, project, "--scope", "docs", "--tiers", "grep")

    assert code == 0
    header, ladder = out.splitlines()[:2]
    assert header.split() == [
        "queries", "MRR@10", "hit@1", "hit@5", "tok/hit", "passage", "long", "dups", "ms",
    ]  # fmt: skip
    assert ladder.split()[:5] == ["ladder", "3", "0.667", "0.67", "0.67"]
    # Rows of queries by their length say so, apart from the column of long lines.
    assert "\n  queries of ≤4 words " in out or "\n  queries of 5+ words " in out
    assert "\n  short " not in out and "\n  long " not in out
    assert "misses (1: the expected file was not first):" in out
    assert "line 5 [docs] 'something nobody wrote about'" in out
    assert "expected docs/notes.md: not in top 10" in out


def test_the_report_lists_the_hits_on_the_right_file_without_the_passage(capsys, project):
    # The right file comes first, but the passage asked for is not in what was served.
    (project / "queries.tsv").write_text(
        "retry backoff\tdocs/retry.md\tdocs\texponential backoff\n"
        "retry waits\tdocs/retry.md\tdocs\tFiller about nothing\n"
    )
    (project / "docs" / "retry.md").write_text(
        "# Retries\n\n"
        + "Filler about nothing in particular.\n" * 80
        + "\nEach retry waits with exponential backoff and jitter.\n"
    )
    code, out, _ = run_eval(capsys, project, "--tiers", "grep", "--budget", "60")
    assert code == 0
    assert "\nmisses (" not in out
    assert "passage misses (1: the right file was served without the passage;" in out
    assert "line 2 [docs] 'retry waits'" in out
    # Led by its heading (line 1), the lines between left out: the lines shown, not the
    # span from the first to the last.
    assert "docs/retry.md lines 1, 84 served; passage 'Filler about nothing'" in out
    # Which of the query's words each holds: a passage holding fewer than the lines served
    # is a gap in words, which no choice among the file's sections mends.
    assert "query terms in the passage: none; in the lines served: retry, waits" in out
    assert "in 1 of them the passage holds fewer query terms than the lines served" in out
    # --json gives the same lines, for a script to tell how far the passage was.
    _, out, _ = run_eval(capsys, project, "--tiers", "grep", "--budget", "60", "--json")
    first, second = json.loads(out)["queries"]
    assert first["passage_served"] is True and first["served_lines"] is None
    assert second["passage_served"] is False
    assert second["served_lines"] == [[1, 1], [84, 84]]
    assert second["passage_terms"] == [] and second["served_terms"] == ["retry", "waits"]
    assert first["passage_terms"] is None and first["served_terms"] is None


def test_the_legend_says_what_every_column_counts(capsys, project):
    _, out, _ = run_eval(capsys, project, "--tiers", "grep")
    legend = next(line for line in out.splitlines() if line.startswith("ladder = "))
    for column in ("passage =", "long =", "dups =", "ms ="):
        assert column in legend


def test_a_right_file_the_budget_left_out_is_told_apart(capsys, project):
    # The best file is too long for what the budget leaves, even cut to fit it (words
    # of a letter or two count more tokens than their characters); the next ones fit.
    (project / "queries.tsv").write_text("retries deploys\tdocs/deploy.md\tdocs\n")
    (project / "docs" / "deploy.md").write_text(
        "# Deploys\n\n" + "a retry, a deploy, a b c d e f g h i j.\n" * 12
    )
    code, out, _ = run_eval(capsys, project, "--tiers", "grep", "--budget", "60")
    assert code == 0
    assert (
        "expected docs/deploy.md: not served (the grep tier ranked it 1; the budget or "
        "dedup left it out)" in out
    )


def test_json_has_the_ladder_each_tier_and_each_query(capsys, project):
    code, out, _ = run_eval(capsys, project, "--scope", "docs", "--json")

    report = json.loads(out)
    assert code == 0
    assert report["ladder"]["queries"] == 3
    assert report["ladder"]["passage_share"] == 1.0
    assert report["tiers"]["grep"]["ran"] == 3
    assert report["tiers"]["qmd"]["did_not_run"] == {"unavailable": 3}
    assert [q["rank"] for q in report["queries"]] == [1, 1, None]


def test_scope_keeps_the_rows_of_that_scope_and_the_rows_without_one(capsys, project):
    (project / ".tierscope.yaml").write_text(
        "qmd_context:\n  scopes:\n    docs: {grep_paths: [docs/]}\n"
        "    other: {grep_paths: [docs/]}\n"
    )
    _, out, _ = run_eval(capsys, project, "--scope", "other", "--json")
    assert [q["line"] for q in json.loads(out)["queries"]] == [3, 5]


def test_an_unknown_scope_in_the_set_is_a_usage_error(capsys, project):
    (project / "queries.tsv").write_text("q\tdocs/retry.md\tnowhere\n")
    code, _, err = run_eval(capsys, project)
    assert code == 2
    assert "unknown scopes in the query set: nowhere" in err


def test_an_unreadable_query_file_is_a_usage_error(capsys, project):
    code = main(["eval", str(project / "absent.tsv"), "--root", str(project)])
    assert code == 2
    assert "absent.tsv: cannot read" in capsys.readouterr().err


def answer(*hits: tuple[str, str]) -> RankedAnswer:
    return RankedAnswer(tuple(RankedHit(s, c, len(c)) for s, c in hits), 1.0)


def query(expected: str, passage: str = "") -> KnownItemQuery:
    return KnownItemQuery("q", (expected,), None, passage, 1, (expected,) if passage else ())


def test_mrr_counts_the_first_right_hit_within_ten():
    pairs = [
        (query("a.md"), answer(("a.md", "x"))),
        (query("a.md"), answer(("b.md", "y"), ("a.md", "x"))),
        (query("a.md"), answer(*((f"{i}.md", str(i)) for i in range(10)), ("a.md", "x"))),
    ]
    summary = summarise(pairs)
    assert summary.mrr == pytest.approx((1 + 1 / 2 + 0) / 3)
    assert (summary.hit_at_1, summary.hit_at_5) == pytest.approx((1 / 3, 2 / 3))


def test_passages_duplicates_and_long_lines_are_measured():
    long_line = "z" * 1500
    pairs = [
        (query("a.md", "The Answer"), answer(("a.md", "here is\nthe   answer"), ("a.md", "no"))),
        (query("b.md"), answer(("b.md", "same"), ("c.md", "same"), ("d.md", long_line))),
    ]
    summary = summarise(pairs)
    assert (summary.passage_share, summary.passage_checked) == (0.5, 2)
    assert summary.duplicate_hits == 1
    total = len("here is\nthe   answer") + len("no") + 4 + 4 + 1500
    assert summary.long_line_share == pytest.approx(1500 / total)


def test_a_row_whose_expected_file_or_passage_is_not_there_is_reported(capsys, project):
    # A typo in a path or a passage would otherwise read as a ranking miss.
    (project.parent / "outside.md").write_text("# Outside\n\nretry backoff\n")
    (project / "queries.tsv").write_text(
        "retry backoff\tdocs/retyr.md\n"
        "retry backoff\tdocs/retry.md\t\tlinear backoff\n"
        "retry backoff\tdocs/retry.md | ../outside.md\n"
        "retry backoff\tdocs/retry.md\t\texponential backoff\n"
    )
    code, out, err = run_eval(capsys, project)
    assert code == 0
    assert "line 1: expected file docs/retyr.md: not in the project" in err
    assert "line 2: the passage is in none of the expected files" in err
    assert "line 3: expected file ../outside.md: outside the project root" in err
    assert "line 4" not in err
    code, out, _ = run_eval(capsys, project, "--json")
    problems = json.loads(out)["problems"]
    assert [p.split(":")[0] for p in problems] == ["line 1", "line 2", "line 3"]


def test_an_expected_file_that_is_a_symbolic_link_names_its_target(capsys, project):
    # starship's docs/guide/README.md links to the root README.md: the row was reported
    # with the errno's words ("Too many levels of symbolic links") and read as a miss.
    (project / "docs/guide.md").symlink_to("retry.md")
    (project / "docs/away.md").symlink_to("../../outside.md")
    (project / "queries.tsv").write_text(
        "retry backoff\tdocs/guide.md\nretry backoff\tdocs/away.md | docs/retry.md\n"
    )
    _, _, err = run_eval(capsys, project)
    assert (
        "line 1: expected file docs/guide.md: a symbolic link to docs/retry.md, not followed:"
        " name docs/retry.md" in err
    )
    assert "line 2: expected file docs/away.md: a symbolic link, not followed" in err
    assert "levels of symbolic links" not in err


def test_a_notebooks_passage_is_looked_for_in_its_cells_as_a_snippet_shows_them(capsys, project):
    # The file is JSON: `on="name"` is written `on=\"name\"` there, as the snippet is not.
    cells = [{"cell_type": "code", "execution_count": 1, "metadata": {}, "outputs": [],
              "source": ["# retry backoff, merged\n", 'pd.merge(a, b, on="name")']}]  # fmt: skip
    document = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (project / "docs/merge.ipynb").write_text(json.dumps(document, indent=1) + "\n")
    (project / "queries.tsv").write_text(
        'retry backoff merged\tdocs/merge.ipynb\t\tpd.merge(a, b, on="name")\n'
        'retry backoff merged\tdocs/merge.ipynb\t\tpd.merge(a, b, on=\\"name\\")\n'
    )
    _, out, err = run_eval(capsys, project, "--json")
    assert "line 1" not in err
    assert "line 2: the passage is in none of the expected files" in err
    assert json.loads(out)["queries"][0]["passage_served"] is True


def test_a_manual_pages_passage_is_looked_for_as_a_snippet_shows_it(capsys, project):
    # A manual page is served as read, without its roff markup: a passage copied from
    # `man` is found, and one copied from the file's markup is looked for as it is served.
    status = r'.BR 130 "  Interrupted with \fBCTRL\-C\fR or \fBESC\fR"'
    (project / "docs/tool.1").write_text(f".TH TOOL 1\n.SH EXIT STATUS\n{status}\n")
    (project / "queries.tsv").write_text(
        "exit status interrupted\tdocs/tool.1\t\tInterrupted with CTRL-C or ESC\n"
        "exit status interrupted\tdocs/tool.1\t\tInterrupted with \\fBCTRL\\-C\\fR or\n"
    )
    _, out, err = run_eval(capsys, project, "--json")
    assert "the passage is in none" not in err
    assert [q["passage_served"] for q in json.loads(out)["queries"]] == [True, True]


def test_a_row_whose_expected_file_its_scope_does_not_search_is_reported(capsys, project):
    # A config gap (the man pages outside `docs`) would otherwise read as a ranking miss.
    (project / "man").mkdir()
    (project / "man/tool.1").write_text(".SH RETRY\nRetry backoff doubles.\n")
    (project / "docs/plan.txt").write_text("Retry backoff plan.\n")
    (project / ".tierscope.yaml").write_text(
        "qmd_context:\n  scopes:\n    docs: {grep_paths: [docs/], include: ['*.md']}\n"
    )
    (project / "queries.tsv").write_text(
        "retry backoff\tman/tool.1\tdocs\n"
        "retry backoff\tdocs/plan.txt\tdocs\n"
        "retry backoff\tdocs/retry.md | man/tool.1\tdocs\n"
    )
    _, out, err = run_eval(capsys, project, "--json")
    assert "line 1: expected file man/tool.1 is outside scope docs" in err
    assert "line 2: expected file docs/plan.txt is outside scope docs" in err
    assert "line 3" not in err  # one of its files is in the scope
    assert len(json.loads(out)["problems"]) == 2


def test_the_passage_is_never_looked_for_outside_the_root(capsys, project, tmp_path):
    secret = project.parent / "secret.md"
    secret.write_text("the secret passage\n")
    (project / "queries.tsv").write_text(
        f"retry backoff\tdocs/retry.md | ../{secret.name}\t\tthe secret passage\n"
    )
    _, out, err = run_eval(capsys, project, "--json")
    assert json.loads(out)["queries"][0]["passage_served"] is None
    assert "the passage is in none of the expected files" in err


@pytest.mark.parametrize(
    ("content", "span", "shown"),
    [
        ("a\nb", (5, 6), [(5, 6)]),
        ("# T\n[lines 2-82 not shown]\nx", (1, 83), [(1, 1), (83, 83)]),
        ("a\n[line 11 not shown]\nb\nc\n[lines 14-90 not shown]\nd", (10, 91),
         [(10, 10), (12, 13), (91, 91)]),
        # A line of the file that reads like a marker but lies outside the span is text.
        ("[lines 1-3 not shown]\nx", (10, 11), [(10, 11)]),
    ],
)  # fmt: skip
def test_the_lines_a_hit_shows_leave_out_what_its_markers_stand_for(content, span, shown):
    assert shown_line_ranges(content, *span) == shown


def test_a_row_whose_expected_file_the_scope_leaves_out_is_reported(capsys, project):
    # In a folder the scope searches, but never searched: machine data (by name or by
    # content), ignored, in a vendored folder, or excluded by the config. Each would
    # otherwise read as a ranking miss (serde's minified gitbook.js).
    bundle = "var a=" + ",".join(f"b{i}=function(){{return {i}}}" for i in range(400)) + ";"
    (project / "docs/bundle.js").write_text(f"// retry backoff\n{bundle}\n")
    (project / "docs/retry.json").write_text('{"retry": "backoff"}\n')
    (project / "docs/node_modules/pkg").mkdir(parents=True)
    (project / "docs/node_modules/pkg/retry.md").write_text("Retry backoff.\n")
    (project / "docs/scratch").mkdir()
    (project / "docs/scratch/retry.md").write_text("Retry backoff.\n")
    (project / "docs/.gitignore").write_text("scratch/\n")
    (project / "docs/old.md").write_text("Retry backoff, once.\n")
    (project / ".tierscope.yaml").write_text(
        "qmd_context:\n  scopes:\n    docs: {grep_paths: [docs/]}\n"
        "  filtering:\n    exclude: ['docs/old.md']\n"
    )
    (project / "queries.tsv").write_text(
        "retry backoff\tdocs/bundle.js\tdocs\n"
        "retry backoff\tdocs/retry.json\tdocs\n"
        "retry backoff\tdocs/node_modules/pkg/retry.md\tdocs\n"
        "retry backoff\tdocs/scratch/retry.md\tdocs\n"
        "retry backoff\tdocs/old.md\tdocs\n"
        "retry backoff\tdocs/retry.md | docs/old.md\tdocs\n"
    )
    _, out, err = run_eval(capsys, project, "--json")
    left_out = "line {}: expected file {} is left out of scope docs: {}"
    assert left_out.format(1, "docs/bundle.js", "machine data (minified or one-line data)") in err
    assert left_out.format(2, "docs/retry.json", "machine data (*.json)") in err
    assert left_out.format(3, "docs/node_modules/pkg/retry.md", "in node_modules/") in err
    assert (
        left_out.format(
            4, "docs/scratch/retry.md", "ignored (.gitignore, .ignore or .rgignore rules)"
        )
        in err
    )
    assert left_out.format(5, "docs/old.md", "exclude glob docs/old.md") in err
    assert "line 6" not in err  # one of its files is searched
    assert len(json.loads(out)["problems"]) == 5


def test_machine_data_wanted_is_not_reported_as_left_out(capsys, project):
    (project / "docs/retry.json").write_text('{"retry": "backoff"}\n')
    (project / ".tierscope.yaml").write_text(
        "qmd_context:\n  scopes:\n    docs: {grep_paths: [docs/]}\n"
        "  filtering:\n    include_machine_data: true\n"
    )
    (project / "queries.tsv").write_text("retry backoff\tdocs/retry.json\tdocs\n")
    _, out, _ = run_eval(capsys, project, "--json")
    assert json.loads(out)["problems"] == []


def test_file_names_in_the_misses_are_printed_with_their_control_characters_escaped(
    capsys, make_project
):
    # The misses list printed the project's file names as they were: one named with
    # `ESC [2J` cleared the terminal, and one holding a newline broke the list's line.
    root = make_project(
        {
            "docs/x\x1b[2Jy.md": "# Budget\n\nThe token budget is cut here.\n",
            "docs/new\nline.md": "# Budget\n\nAnother token budget note.\n",
            "docs/other.md": "# Other\n\nNothing.\n",
        }
    )
    (root / "queries.tsv").write_text("token budget\tdocs/other.md\n")
    _code, out, _err = run_eval(capsys, root, "--tiers", "grep")
    assert "\x1b" not in out
    assert "docs/x\\x1b[2Jy.md" in out and "docs/new\\nline.md" in out
    _code, out, _err = run_eval(capsys, root, "--tiers", "grep", "--json")
    assert "\x1b" not in out
    assert json.loads(out)["queries"][0]["sources"][0].startswith("docs/")
