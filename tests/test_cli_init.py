"""`tierscope init`: a starter `.tierscope.yaml` whose scopes fit the project, written
atomically and never over an existing config or through a symbolic link."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tierscope.cli import main
from tierscope.config.loader import load_config, parse_config
from tierscope.config.model import ConfigSource
from tierscope.project_survey import survey_project
from tierscope.qmd_setup import LOCAL_DIR
from tierscope.ranking.spans import document_kind
from tierscope.starter_collections import collections_to_create
from tierscope.tiers.qmd_collections import read_registry

REAL_QMD = Path(__file__).resolve().parents[1] / ".cache" / "tools" / "bin" / "qmd"

# A small project in the shape of many: guides and an FAQ, a library, its tests, examples
# in the docs, ignored build output, a vendored tree and machine data.
PROJECT = {
    ".gitignore": "generated/\n",
    "README.md": "# Gauge\n\nA budget meter for the terminal.\n",
    "CHANGELOG.md": "# Changes\n\n## 1.0\n\nFirst release.\n",
    "docs/guide/meter.md": "# The budget meter\n\nThe meter shows the budget used so far.\n",
    "docs/guide/themes.md": "# Themes\n\nColours of the meter.\n",
    "docs/examples/meter_app.py": "from gauge import Meter\n\nMeter().run()\n",
    "faq/why-is-the-meter-red.md": "# Why is the meter red?\n\nThe budget is spent.\n",
    "faq/how-to-reset.md": "# How to reset\n\nPress r to reset the meter.\n",
    "faq/colours.md": "# Colours\n\nThe meter uses the theme's colours.\n",
    "src/gauge/__init__.py": "from .meter import Meter\n",
    "src/gauge/meter.py": "class Meter:\n    def draw_budget(self, used, limit):\n        pass\n",
    "src/gauge/theme.py": "COLOURS = {'meter': 'green'}\n",
    "tests/test_meter.py": "def test_meter_draws_the_budget():\n    assert True\n",
    "tests/test_theme.py": "def test_theme():\n    assert True\n",
    "tests/conftest.py": "import pytest\n",
    "generated/meter.md": "# Generated\n\nbudget meter budget meter\n",
    "node_modules/lib/readme.md": "# Vendored\n\nbudget meter\n",
    "data/meters.json": '{"meter": "budget"}\n',
    "data/more.json": '{"meter": "budget"}\n',
    "data/even-more.json": '{"meter": "budget"}\n',
}


@pytest.fixture
def project(make_project, path_without_tools) -> Path:
    return make_project(PROJECT)


def init(capsys, root: Path, *args: str) -> tuple[int, str, str]:
    code = main(["init", "--root", str(root), *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def query(capsys, root: Path, *args: str) -> tuple[list[dict], str]:
    code = main(["query", *args, "--root", str(root), "--no-trajectory", "--json"])
    captured = capsys.readouterr()
    assert code == 0
    return json.loads(captured.out), captured.err


def scopes_of(text: str) -> dict:
    config = parse_config(text, ConfigSource(None, "test"))
    assert config.problems == ()
    return config.scopes


def test_dry_run_prints_the_starter_and_writes_nothing(capsys, project):
    code, out, err = init(capsys, project, "--dry-run")

    assert code == 0
    assert not (project / ".tierscope.yaml").exists()
    assert "--dry-run: .tierscope.yaml not written" in err
    scopes = scopes_of(out)
    docs, code_scope, everything = scopes["docs"], scopes["code"], scopes["all"]
    assert docs.grep_paths == ("docs/", "faq/", "CHANGELOG.md", "README.md")
    assert docs.include == ("*.md",)
    assert code_scope.grep_paths == ("src/", "tests/")
    assert code_scope.include == ()
    assert everything.grep_paths == ("./",)
    assert (everything.qmd_collection, everything.ck_path) == ("", "")


def test_the_starter_is_commented_with_what_was_found(capsys, project):
    _, out, _ = init(capsys, project, "--dry-run")

    assert out.startswith("# tierscope settings for this project")
    assert "# Documentation: 7 files (*.md) in docs/, faq/, CHANGELOG.md and README.md." in out
    assert "# Source code: Python (6 files) in src/ and tests/." in out
    assert "documentation files only (docs/ also holds code)" in out


def test_a_language_with_one_file_is_counted_in_the_singular(capsys, make_project):
    root = make_project({"src/app.py": "x = 1\n", "src/lib.py": "y = 2\n", "src/ui.js": "z\n"})
    _, out, _ = init(capsys, root, "--dry-run")

    assert "# Source code: Python (2 files) and JavaScript (1 file) in src/." in out


def test_ignored_vendored_and_machine_data_folders_get_no_scope(capsys, project):
    _, out, _ = init(capsys, project, "--dry-run")
    paths = {path for scope in scopes_of(out).values() for path in scope.grep_paths}

    for folder in ("generated/", "node_modules/", "data/"):
        assert folder not in paths


def test_init_writes_the_file_and_scoped_queries_answer_from_the_right_kind_of_file(
    capsys, project
):
    code, out, _ = init(capsys, project)

    assert code == 0
    assert f"wrote {project / '.tierscope.yaml'} with the scopes docs, code, all" in out
    assert set(load_config(project).scopes) >= {"docs", "code", "all"}
    docs, _ = query(capsys, project, "why is the meter red", "--scope", "docs")
    code_hits, _ = query(capsys, project, "class Meter draw budget used limit", "--scope", "code")
    everything, err = query(capsys, project, "budget meter")

    assert docs and all(hit["source"].endswith(".md") for hit in docs)
    assert docs[0]["source"] == "faq/why-is-the-meter-red.md"
    assert "docs/examples/meter_app.py" not in {hit["source"] for hit in docs}
    assert code_hits and all(hit["source"].endswith(".py") for hit in code_hits)
    assert code_hits[0]["source"] == "src/gauge/meter.py"
    assert everything and err == ""


def test_the_doctor_finds_no_problem_in_the_written_config(capsys, project):
    init(capsys, project)
    code = main(["doctor", "--root", str(project), "--json"])
    report = json.loads(capsys.readouterr().out)

    assert code == 0
    assert report["scope_problems"] == []
    assert report["unused_scopes"] == ["grimoires", "skills", "notes", "reality"]
    assert report["config"]["problems"] == []


def test_the_doctor_lists_the_unused_builtin_scopes_without_warnings(capsys, project):
    init(capsys, project)
    main(["doctor", "--root", str(project)])
    out = capsys.readouterr().out

    assert "no problems" in out
    assert "!" not in out, out  # nothing to act on: the built-in Loa scopes are not used
    scopes = out[out.index("\nscopes\n") :]
    assert "  docs\n" in scopes and "  code\n" in scopes
    assert "grimoires/loa/" not in scopes and ".ck/" not in scopes


def test_after_init_a_builtin_loa_scope_is_empty_without_the_init_hint(capsys, project):
    init(capsys, project)
    hits, err = query(capsys, project, "budget meter", "--scope", "grimoires")

    assert hits == []
    assert err == "tierscope: scope grimoires: none of its paths exist here (grimoires/loa/)\n"


def test_an_existing_config_is_never_overwritten_the_missing_scopes_are_a_diff(capsys, project):
    mine = (
        "# my settings\nqmd_context:\n  default_budget: 900\n"
        "  scopes:\n    docs:\n      grep_paths: [docs/]\n"
    )
    (project / ".tierscope.yaml").write_text(mine)

    code, out, err = init(capsys, project)
    dry_code, dry_out, _ = init(capsys, project, "--dry-run")

    assert (code, dry_code) == (1, 0)
    assert (project / ".tierscope.yaml").read_text() == mine
    assert "exists and is not overwritten" in err
    added = [line for line in out.splitlines() if line.startswith("+") and "+++" not in line]
    assert "+    code:" in added and "+    all:" in added
    assert not any("docs:" in line for line in added)
    assert not any(line.startswith("-") and "---" not in line for line in out.splitlines())
    assert dry_out == out


def test_a_config_with_every_scope_already_has_nothing_to_add(capsys, project):
    init(capsys, project)
    code, out, err = init(capsys, project)

    assert code == 0
    assert out == ""
    assert "already defines the scopes init would write (docs, code, all)" in err


def test_a_loa_config_with_tierscope_settings_is_left_alone(capsys, project):
    loa = "# Loa\nqmd_context:\n  default_budget: 900\nother_tool:\n  key: value\n"
    (project / ".loa.config.yaml").write_text(loa)

    code, out, err = init(capsys, project)

    assert code == 1
    assert not (project / ".tierscope.yaml").exists()
    assert (project / ".loa.config.yaml").read_text() == loa
    assert "a new .tierscope.yaml would hide them" in err
    assert "+    docs:" in out


def test_a_loa_config_without_tierscope_settings_does_not_stop_init(capsys, project):
    (project / ".loa.config.yaml").write_text("other_tool:\n  key: value\n")

    code, _, _ = init(capsys, project)

    assert code == 0
    assert (project / ".tierscope.yaml").is_file()


@pytest.mark.parametrize("dangling", [True, False])
def test_a_symlinked_config_is_neither_followed_nor_replaced(capsys, project, tmp_path, dangling):
    outside = tmp_path / "outside.yaml"
    if not dangling:
        outside.write_text("qmd_context:\n  default_budget: 1\n")
    (project / ".tierscope.yaml").symlink_to(outside)

    code, out, err = init(capsys, project)

    assert code == 1
    assert out == ""
    assert "is a symbolic link: init neither follows nor replaces it" in err
    assert (project / ".tierscope.yaml").is_symlink()
    assert outside.exists() is not dangling
    if not dangling:
        assert outside.read_text() == "qmd_context:\n  default_budget: 1\n"


def test_a_folder_linked_from_outside_the_root_is_not_surveyed(capsys, project, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    for index in range(5):
        (outside / f"page{index}.md").write_text("# A page\n")
    (project / "manual").symlink_to(outside)

    _, out, _ = init(capsys, project, "--dry-run")

    assert "manual" not in out


def test_names_with_control_characters_are_escaped_and_cannot_add_lines(
    capsys, make_project, path_without_tools
):
    evil = "notes\n      qmd_collection: stolen\x1b[2J"
    root = make_project({**PROJECT, f"{evil}/a.md": "# A\n", f"{evil}/b.md": "# B\n"})

    code, out, _ = init(capsys, root, "--dry-run")
    init(capsys, root)
    written = (root / ".tierscope.yaml").read_text()

    assert code == 0
    assert "\x1b" not in out
    assert "\\x1b" in out or "\\e" in out
    docs = scopes_of(written)["docs"]
    assert f"{evil}/" in docs.grep_paths
    assert docs.qmd_collection == ""


def test_a_loa_project_keeps_its_builtin_default_scope(capsys, make_project, path_without_tools):
    root = make_project(
        {**PROJECT, "grimoires/loa/NOTES.md": "# Notes\n", ".claude/skills/x/SKILL.md": "# X\n"}
    )

    _, out, _ = init(capsys, root, "--dry-run")
    scopes = scopes_of(out)

    assert scopes["all"].grep_paths[0] == "grimoires/loa/"  # the built-in one
    assert "grimoires/" not in scopes["docs"].grep_paths
    assert "Loa's layout is here" in out


LOA_FRAMEWORK = {
    "grimoires/loa/NOTES.md": "# Notes\n",
    ".claude/skills/review/SKILL.md": "# Review\n\nReview the sprint.\n",
    ".claude/scripts/bridge-state.sh": "#!/bin/bash\n# stale lock age detection\nLOCK_AGE=60\n",
    ".claude/scripts/pii-filter.sh": "#!/bin/bash\nMAX_INPUT=1000\n",
    ".claude/adapters/retry.py": "MAX_RETRIES = 3\n",
    ".claude/protocols/git-safety.md": "# Git safety\n\nNever push to upstream.\n",
    ".claude/settings.json": '{"lock": "stale lock age"}\n',
}


def test_a_loa_project_gets_a_framework_scope_for_its_code_and_protocols_in_claude(
    capsys, make_project, path_without_tools
):
    # Loa keeps its scripts, adapters and protocols in .claude/: no other scope reaches
    # them (the walk skips hidden folders; the built-in skills scope is .claude/skills/).
    root = make_project({**PROJECT, **LOA_FRAMEWORK})

    code, out, _ = init(capsys, root)
    assert code == 0
    framework = load_config(root).scopes["framework"]
    assert framework.grep_paths == (".claude/",)
    assert {"*.sh", "*.py", "*.md"} <= set(framework.include)
    assert not {"*.json", "*.txt"} & set(framework.include)
    assert "scripts" in out or "scripts" in (root / ".tierscope.yaml").read_text()

    hits, _ = query(capsys, root, "stale lock age detection", "--scope", "framework")
    assert [hit["source"] for hit in hits][:1] == [".claude/scripts/bridge-state.sh"]
    hits, _ = query(capsys, root, "never push to upstream", "--scope", "framework")
    assert hits[0]["source"] == ".claude/protocols/git-safety.md"


def test_a_loa_project_with_skills_alone_in_claude_gets_no_framework_scope(
    capsys, make_project, path_without_tools
):
    root = make_project(
        {**PROJECT, **{k: v for k, v in LOA_FRAMEWORK.items() if "skills" in k or "grimoires" in k}}
    )
    _, out, _ = init(capsys, root, "--dry-run")
    assert "framework" not in scopes_of(out)


def test_plain_text_docs_in_a_docs_folder_are_documentation(capsys, make_project):
    # Django's docs are reStructuredText in .txt files; a requirements file beside them
    # (Sphinx's, for Read the Docs) and text files elsewhere are not documentation.
    root = make_project(
        {
            "docs/topics/models.txt": "Models\n======\n\nA model is the source of truth.\n",
            "docs/topics/forms.txt": "Forms\n=====\n\nForms handle input.\n",
            "docs/requirements.txt": "sphinx\n",
            "docs/conf.py": "project = 'x'\n",
            "requirements.txt": "django\n",
            "src/app/models.py": "class Model:\n    pass\n",
            "src/app/notes.txt": "not documentation\n",
        }
    )
    init(capsys, root)
    written = (root / ".tierscope.yaml").read_text()
    docs = scopes_of(written)["docs"]

    assert (docs.grep_paths, docs.include) == (("docs/",), ("*.txt", "!requirements.txt"))
    assert "# Documentation: 2 files (*.txt) in docs/." in written
    hits, _ = query(capsys, root, "where is the source of truth", "--scope", "docs")
    assert [hit["source"] for hit in hits] == ["docs/topics/models.txt"]
    # The requirements file the survey left out is left out of the scope too.
    hits, _ = query(capsys, root, "sphinx", "--scope", "docs")
    assert [hit["source"] for hit in hits] == []


def test_a_spelling_word_list_beside_the_docs_is_no_documentation(capsys, make_project):
    # jsonschema's docs/spelling-wordlist.txt (sphinxcontrib-spelling's, as Celery's and
    # Django's) put `*.txt` in the docs scope, and its bare list of words was served
    # second for "custom type checker".
    root = make_project(
        {
            "docs/validate.rst": "Validate\n========\n\nA type checker checks types.\n",
            "docs/faq.rst": "FAQ\n===\n\nAnswers.\n",
            "docs/spelling-wordlist.txt": "checker\nkwargs\nvalidator\n",
            "docs/spelling_wordlist": "checker\n",
            "src/pkg/validate.py": "def validate():\n    pass\n",
        }
    )
    init(capsys, root)
    docs = scopes_of((root / ".tierscope.yaml").read_text())["docs"]
    assert docs.include == ("*.rst",)
    hits, _ = query(capsys, root, "kwargs checker", "--scope", "docs")
    assert [hit["source"] for hit in hits] == ["docs/validate.rst"]


def test_instructions_for_coding_agents_are_no_documentation(capsys, make_project):
    # go-playground/validator's CLAUDE.md (78 lines on the code's layout) came first for 11
    # of its new user's 15 docs questions. An agent's harness reads CLAUDE.md and AGENTS.md
    # into its context itself: served again, they repeat what the agent holds.
    root = make_project(
        {
            "README.md": "# Validator\n\nValidates structs.\n",
            "CLAUDE.md": "# Notes for agents\n\nTags are parsed in cache.go.\n",
            "AGENTS.md": "# Agents\n\nRun the tests before a tag change.\n",
            "docs/tags.md": "# Tags\n\nEach tag is parsed once and cached.\n",
            "pkg/AGENTS.md": "# Agents\n\nThe tags of pkg.\n",
            "pkg/guide.md": "# Guide\n\nUse pkg.\n",
            "pkg/pkg.go": "package pkg\n",
            "pkg/tags.go": "package pkg\n",
            "pkg/cache.go": "package pkg\n",
        }
    )
    init(capsys, root)
    docs = scopes_of((root / ".tierscope.yaml").read_text())["docs"]
    assert docs.grep_paths == ("docs/", "README.md", "pkg/guide.md")
    hits, _ = query(capsys, root, "tags parsed cache", "--scope", "docs")
    assert [hit["source"] for hit in hits] == ["docs/tags.md"]
    hits, _ = query(capsys, root, "tags parsed cache")  # `all` still has them
    assert "CLAUDE.md" in [hit["source"] for hit in hits]


def test_instructions_for_coding_agents_in_a_docs_folder_are_no_documentation(capsys, make_project):
    # Hugo's docs/ is a module of its own, with its AGENTS.md ("You are an expert front-end
    # and Tailwind CSS developer") and a CLAUDE.md naming it: served second for "tailwind
    # css classes styling".
    root = make_project(
        {
            "docs/content/styling.md": "# Styling\n\nStyle the site with Tailwind CSS classes.\n",
            "docs/content/themes.md": "# Themes\n\nA theme holds layouts.\n",
            "docs/AGENTS.md": "# Agents\n\nYou are a Tailwind CSS developer: use classes.\n",
            "docs/CLAUDE.md": "@AGENTS.md\n",
            "src/site.go": "package site\n",
        }
    )
    init(capsys, root)
    docs = scopes_of((root / ".tierscope.yaml").read_text())["docs"]
    assert docs.include == ("*.md", "!AGENTS.md", "!CLAUDE.md")
    hits, _ = query(capsys, root, "tailwind css classes", "--scope", "docs")
    assert [hit["source"] for hit in hits] == ["docs/content/styling.md"]


def test_a_test_file_of_the_root_is_no_documentation(capsys, make_project):
    # tqdm's `tests_notebook.ipynb` (nbval runs it as a test) was put in the docs scope:
    # its test cells took result slots, and, the one notebook there, it turned qmd off.
    root = make_project(
        {
            "README.md": "# Meter\n\nA progress meter.\n",
            "tests_notebook.ipynb": '{"cells": [], "metadata": {}}\n',
            "test_readme.md": "# Checks\n",
            "notebook_test.rst": "Checks\n======\n",
            "testing.md": "# Testing\n\nHow to run the tests.\n",
            "meter/core.py": "class Meter:\n    pass\n",
        }
    )
    init(capsys, root)
    docs = scopes_of((root / ".tierscope.yaml").read_text())["docs"]
    assert docs.grep_paths == ("README.md", "testing.md")


def test_scdoc_manual_pages_are_documentation_cut_by_their_sections(capsys, make_project):
    # alacritty's configuration reference is extra/man/alacritty.5.scd (scdoc, as sway's and
    # foot's): in no scope but `all`, and served as code, running past its `# ` headings.
    root = make_project(
        {
            "README.md": "# Tool\n",
            "docs/features.md": "# Features\n\nVi mode.\n",
            "extra/man/tool.5.scd": "tool(5)\n\n# CURSOR\n\n*blink_interval* = _<integer>_\n\n"
            "\tCursor blinking interval in milliseconds.\n\n# COLORS\n\n"
            + "".join(
                f"*color{n}* = _<string>_\n\n\tA colour of the palette.\n\n" for n in range(9)
            ),
            "src/main.rs": "fn main() {}\n",
            "src/cursor.rs": "pub struct Cursor;\n",
            "src/colors.rs": "pub struct Colors;\n",
        }
    )
    init(capsys, root)
    docs = scopes_of((root / ".tierscope.yaml").read_text())["docs"]
    assert "*.scd" in docs.include and "extra/" in docs.grep_paths
    hits, _ = query(capsys, root, "cursor blink interval", "--scope", "docs")
    assert hits[0]["source"] == "extra/man/tool.5.scd"
    assert "Cursor blinking interval" in hits[0]["content"]
    assert "COLORS" not in hits[0]["content"]


def test_manual_pages_are_documentation(capsys, make_project):
    # fzf keeps its 2,400-line option reference in `man/man1/fzf.1`.
    page = ".TH TOOL 1\n.SH OPTIONS\n.TP\n.B \\-\\-walker\\-skip\nDirectory names to skip.\n"
    root = make_project(
        {
            "README.md": "# tool\n\nA finder.\n",
            "man/man1/tool.1": page,
            "src/walker.go": "package walker\n\nfunc Walk() {}\n",
        }
    )
    init(capsys, root)
    docs = scopes_of((root / ".tierscope.yaml").read_text())["docs"]
    assert "man/" in docs.grep_paths and "*.1" in docs.include
    hits, _ = query(capsys, root, "which directory names are skipped", "--scope", "docs")
    assert hits[0]["source"] == "man/man1/tool.1"


def test_a_manual_page_at_the_root_is_documentation(capsys, make_project):
    # tmux keeps its whole manual in `tmux.1` beside its C sources: outside a man folder a
    # `.1` was taken for a rotated log, and the docs scope was CHANGES and a README. A file
    # of the root whose name ends in a section number and whose first line is roff is a
    # manual page; a licence named with its version (git's `LGPL-2.1`) is not.
    page = (
        '.\\" $OpenBSD: tmux.1 $\n.Dd August 2026\n.Dt TMUX 1\n.Sh NAME\n.Nm tmux\n'
        ".Sh WINDOWS AND PANES\n.It Ic split-window\nCreate a new pane by splitting the\n"
        "target pane vertically or horizontally.\n"
    )
    root = make_project(
        {
            "README": "Welcome to tmux.\n",
            "tmux.1": page,
            "LGPL-2.1": "GNU LESSER GENERAL PUBLIC LICENSE\nVersion 2.1, February 1999\n",
            "window.c": "void window_split(void) {}\n",
            "cmd.c": "void cmd_parse(void) {}\n",
        }
    )
    init(capsys, root)
    docs = scopes_of((root / ".tierscope.yaml").read_text())["docs"]
    assert "tmux.1" in docs.grep_paths and "LGPL-2.1" not in docs.grep_paths
    hits, _ = query(capsys, root, "split a window into panes", "--scope", "docs")
    assert hits[0]["source"] == "tmux.1"


MANUAL_YAML = """headline: Tool Manual

body: |

  A program is a filter: it takes an input, and produces an output.
  Filters can be combined in various ways, piped one into another.
  Some filters produce several results, for instance one that produces
  all the elements of its input array, one after the other.

sections:
  - title: Options
    entries:
      - title: "`--slurp`"
        body: |

          Instead of running the filter for each object in the input,
          read the entire input stream into a large array and run the
          filter just once.

      - title: "`--arg name value`"
        body: |

          This option passes a value to the program as a predefined
          variable, available in the program under the name given.
          The value is always a string, whatever the text looks like.
"""


def test_a_manual_written_as_yaml_in_a_docs_folder_is_documentation(capsys, make_project):
    # jq's manual is YAML (`title:` and `body: |` blocks of prose), one per version; the
    # website's settings beside it are YAML too, and no documentation.
    root = make_project(
        {
            "README.md": "# tool\n\nA processor.\n",
            "docs/content/manual/dev/manual.yml": MANUAL_YAML,
            # The older version says it twice: by its text alone, it would come first.
            "docs/content/manual/v1.5/manual.yml": MANUAL_YAML.replace(
                "filter just once.", "filter just once: the whole input is one array."
            ),
            "docs/site.yml": "theme: dark\nnav:\n  - manual: /manual\n  - tutorial: /tutorial\n",
            "docs/build_site.py": "import yaml\n",
            "src/main.c": "int main(void) { return 0; }\n",
        }
    )
    init(capsys, root)
    written = (root / ".tierscope.yaml").read_text()
    docs = scopes_of(written)["docs"]
    assert "docs/" in docs.grep_paths and "*.yml" in docs.include
    hits, _ = query(capsys, root, "read the whole input into one array", "--scope", "docs")
    assert hits[0]["source"] == "docs/content/manual/dev/manual.yml"


def test_settings_in_yaml_do_not_make_a_docs_folder_of_yaml(capsys, make_project):
    root = make_project(
        {
            "docs/index.md": "# Tool\n\nWelcome.\n",
            "docs/_config.yml": "title: Tool\ntheme: minima\nplugins:\n  - jekyll-feed\n",
            "docs/_data/nav.yml": "- title: Home\n  url: /\n- title: Guide\n  url: /guide\n",
            "src/tool.py": "def run():\n    pass\n",
        }
    )
    init(capsys, root)
    docs = scopes_of((root / ".tierscope.yaml").read_text())["docs"]
    assert docs.grep_paths == ("docs/",) and "*.yml" not in docs.include


def test_a_docs_site_reference_table_in_yaml_is_documentation(capsys, make_project):
    # Jekyll's docs/_data/config_options/build.yml: one `description:` sentence under a few
    # short keys per record, fewer than half its lines prose; the options page is a loop
    # over it, so the docs scope had left every option's description out.
    records = "".join(
        f"- name: Option {n}\n"
        f"  description: Specify how the site build treats the setting number {n} today.\n"
        f'  option: "setting_{n}: BOOL"\n'
        f"  flag: --setting-{n}\n\n"
        for n in range(6)
    )
    records += (
        "- name: Log level\n"
        "  description: Specify a log level among debug, info, warn, or error.\n"
        '  flag: "--verbose, --quiet"\n'
    )
    root = make_project(
        {
            "docs/_docs/options.md": "# Options\n\n{% for o in site.data.config_options.build %}\n",
            "docs/_data/config_options/build.yml": records,
            "docs/_data/nav.yml": "- title: Home\n  url: /\n- title: Guide\n  url: /guide\n",
            "lib/tool.rb": "module Tool\nend\n",
        }
    )
    init(capsys, root)
    docs = scopes_of((root / ".tierscope.yaml").read_text())["docs"]
    assert "*.yml" in docs.include, docs
    hits, _ = query(capsys, root, "print debug log messages", "--scope", "docs")
    assert hits[0]["source"] == "docs/_data/config_options/build.yml"


def test_a_site_navigation_of_long_paths_is_no_manual_written_as_yaml(capsys, make_project):
    # nlohmann/json's mkdocs.yml: its `nav:` lines of paths
    # (`features/element_access/unchecked_access.md`) counted six words each, as prose;
    # its Conanfile.txt, build settings, brought every `*.txt` into the docs scope.
    nav = "".join(f"    - features/element_access/unchecked_access_{n}.md\n" for n in range(40))
    root = make_project(
        {
            "docs/mkdocs/docs/index.md": "# JSON\n\nWelcome.\n",
            "docs/mkdocs/docs/integration/conan/Conanfile.txt": "[requires]\njson/3.11\n",
            "docs/mkdocs/mkdocs.yml": f"site_name: JSON\nnav:\n  - Features:\n{nav}",
            "include/json.hpp": "#pragma once\n",
        }
    )
    init(capsys, root)
    docs = scopes_of((root / ".tierscope.yaml").read_text())["docs"]
    assert docs.include == ("*.md",)


def test_manual_pages_in_a_man_folder_inside_another_folder_are_documentation(capsys, make_project):
    # httpie keeps its manual pages in `extras/man/`, beside packaging and scripts.
    page = ".TH HTTP 1\n.SH OPTIONS\n.TP\n.B \\-\\-check\\-status\nExit with an error status.\n"
    root = make_project(
        {
            "README.md": "# tool\n\nA client.\n",
            "extras/man/http.1": page,
            "extras/man/https.1": page.replace("HTTP", "HTTPS"),
            "extras/man/httpie.1": ".TH HTTPIE 1\n.SH DESCRIPTION\nThe httpie command.\n",
            "extras/scripts/release.sh": "echo release\n",
            "extras/packaging/notes.txt": "not documentation\n",
            "src/cli.py": "def main():\n    pass\n",
        }
    )
    init(capsys, root)
    docs = scopes_of((root / ".tierscope.yaml").read_text())["docs"]
    assert "*.1" in docs.include and "*.txt" not in docs.include
    hits, _ = query(capsys, root, "exit with an error status", "--scope", "docs")
    assert hits[0]["source"] in {"extras/man/http.1", "extras/man/https.1"}


def test_a_licence_beside_the_readme_is_not_documentation(capsys, make_project):
    root = make_project(
        {
            "README.md": "# Tool\n\nA tool.\n",
            "CHANGELOG.md": "# Changes\n\n## 1.0\n",
            "LICENSE.md": "Permission is hereby granted, free of charge, to any person...\n",
            "COPYING.md": "GNU GENERAL PUBLIC LICENSE\n",
            "docs/guide.md": "# Guide\n",
            "src/tool.py": "def run():\n    pass\n",
        }
    )
    _, out, _ = init(capsys, root, "--dry-run")

    assert scopes_of(out)["docs"].grep_paths == ("docs/", "CHANGELOG.md", "README.md")


def test_a_docs_folder_inside_a_folder_of_code_is_documentation(capsys, make_project):
    # A monorepo (pinia, vite...): the docs are one package among the code's.
    root = make_project(
        {
            "README.md": "# Store\n",
            "packages/docs/index.md": "# Store\n\nA store for state.\n",
            "packages/docs/core-concepts/actions.md": "# Actions\n\nActions change state.\n",
            "packages/docs/core-concepts/getters.md": "# Getters\n\nGetters derive state.\n",
            "packages/store/src/store.ts": "export function defineStore() {}\n",
            "packages/store/src/actions.ts": "export function action() {}\n",
            "packages/store/src/getters.ts": "export function getter() {}\n",
            "packages/store/src/notes/docs/one.md": "# Deeper docs are the package's own\n",
            **{f"packages/store/src/part{n}.ts": "export const part = 1\n" for n in range(4)},
        }
    )
    init(capsys, root)
    written = (root / ".tierscope.yaml").read_text()
    scopes = scopes_of(written)

    assert scopes["docs"].grep_paths == ("packages/docs/", "README.md")
    assert scopes["code"].grep_paths == ("packages/",)
    hits, _ = query(capsys, root, "how do actions change state", "--scope", "docs")
    assert hits[0]["source"] == "packages/docs/core-concepts/actions.md"
    # The code scope takes the packages' source files, not the docs package beside them.
    include = scopes["code"].include
    assert "*.ts" in include and not any(glob.endswith(".md") for glob in include)
    hits, _ = query(capsys, root, "actions change state", "--scope", "code")
    assert {hit["source"] for hit in hits} == {"packages/store/src/actions.ts"}


def test_a_monorepo_documented_by_its_packages_readmes_gets_them_in_the_docs_scope(
    capsys, make_project
):
    # pnpm: 184 package READMEs under pnpm11/<group>/<package>/, too many to list one by
    # one, were in no scope but `all`; the docs scope was the root's few documents.
    files = {
        "README.md": "# Tool\n\nA package manager.\n",
        "CONTRIBUTING.md": "# Contributing\n\nOpen a pull request.\n",
        "pkgs/core/AGENTS.md": "# Agents\n\nRun the store tests first.\n",
    }
    for n in range(45):
        files[f"pkgs/group{n % 5}/pkg{n}/README.md"] = f"# pkg{n}\n\nPackage number {n}.\n"
        for part in ("index", "read", "write", "link"):  # code, more than documents
            files[f"pkgs/group{n % 5}/pkg{n}/src/{part}.ts"] = f"export const n{n} = {n}\n"
    files["pkgs/group1/store-path/README.md"] = (
        "# store-path\n\nResolves where the content-addressable store lives.\n"
    )
    files["pkgs/group1/store-path/src/index.ts"] = "export function storePath() {}\n"
    root = make_project(files)
    init(capsys, root)
    written = (root / ".tierscope.yaml").read_text()
    docs = scopes_of(written)["docs"]

    assert "pkgs/" in docs.grep_paths
    assert "*.md" in docs.include and "!AGENTS.md" in docs.include
    hits, _ = query(capsys, root, "content-addressable store lives", "--scope", "docs")
    assert [hit["source"] for hit in hits][:1] == ["pkgs/group1/store-path/README.md"]
    hits, _ = query(capsys, root, "store tests", "--scope", "docs")
    assert "pkgs/core/AGENTS.md" not in [hit["source"] for hit in hits]
    # `init --qmd` indexes them too: qmd answering from the root's documents alone would
    # never let grep reach the READMEs.
    folders = {wanted.folder for wanted in collections_to_create(survey_project(root)).values()}
    assert "pkgs" in folders


def test_many_module_readmes_beside_documentation_of_its_own_stay_out_of_the_docs_scope(
    capsys, make_project
):
    # uv: 75 crate READMEs ("an internal component of uv") beside 100+ pages in docs/.
    files = {f"docs/page{n}.md": f"# Page {n}\n\nHow to use part {n}.\n" for n in range(60)}
    for n in range(45):
        files[f"crates/crate{n}/README.md"] = "# crate\n\nAn internal component.\n"
        for part in ("lib", "read", "write", "link"):
            files[f"crates/crate{n}/src/{part}.rs"] = "pub fn f() {}\n"
    files["README.md"] = "# Tool\n"
    root = make_project(files)
    init(capsys, root)
    docs = scopes_of((root / ".tierscope.yaml").read_text())["docs"]

    assert docs.grep_paths == ("docs/", "README.md")


def test_the_readme_of_each_module_is_documentation_not_code(capsys, make_project):
    # okhttp's modules, sinatra's rack-protection, vite's packages: each keeps its own
    # README (often its whole reference) beside its code.
    root = make_project(
        {
            "README.md": "# Web\n",
            "docs/guide.md": "# Guide\n\nStart here.\n",
            "docs/routes.md": "# Routes\n\nRoutes map paths.\n",
            "docs/hooks.md": "# Hooks\n\nHooks run around routes.\n",
            "protection/README.md": "# Protection\n\nSkip one protection with except.\n",
            "protection/lib/protection.rb": "module Protection\nend\n",
            "protection/lib/path_traversal.rb": "class PathTraversal\nend\n",
            "protection/lib/xss.rb": "class Xss\nend\n",
            "packages/legacy/README.md": "# Legacy\n\nThe modernPolyfills option.\n",
            "packages/legacy/src/index.ts": "export function legacy() {}\n",
            "packages/legacy/src/polyfills.ts": "export const modern = 1\n",
            "packages/legacy/src/detect.ts": "export const detect = 1\n",
            "packages/legacy/template-x/README.md": "# A template's readme\n",
        }
    )
    init(capsys, root)
    scopes = scopes_of((root / ".tierscope.yaml").read_text())
    assert scopes["docs"].grep_paths == (
        "docs/", "README.md", "packages/legacy/README.md", "protection/README.md",
    )  # fmt: skip
    hits, _ = query(capsys, root, "modernPolyfills option", "--scope", "docs")
    assert hits[0]["source"] == "packages/legacy/README.md"
    # The code scope takes the modules' source files, not their READMEs.
    include = scopes["code"].include
    assert "*.rb" in include and "*.ts" in include
    assert not any(glob.endswith(".md") for glob in include)
    hits, _ = query(capsys, root, "skip protection except", "--scope", "code")
    assert all(not hit["source"].endswith(".md") for hit in hits)


def test_a_modules_other_documents_beside_its_code_are_documentation(capsys, make_project):
    # HCL keeps its syntax's specification beside the code implementing it
    # (`hclsyntax/spec.md`, `json/spec.md`, `cmd/hcldec/spec-format.md`): only `all`
    # searched them, and six docs questions of its new user were answered from no page.
    root = make_project(
        {
            "README.md": "# HCL\n",
            "guide/intro.rst": "Intro\n=====\n\nStart here.\n",
            "hclsyntax/spec.md": "# Native syntax\n\nA heredoc template starts with <<.\n",
            "hclsyntax/parser.go": "package hclsyntax\n",
            "hclsyntax/scanner.go": "package hclsyntax\n",
            "cmd/hcldec/README.md": "# hcldec\n",
            "cmd/hcldec/spec-format.md": "# Spec format\n\nA block spec.\n",
            "cmd/hcldec/CHANGELOG.md": "# v1.0.0\n",
            "cmd/hcldec/RELEASE-NOTES.md": "# 1.0\n",
            "cmd/hcldec/main.go": "package main\n",
            "cmd/hcldec/spec.go": "package main\n",
            "cmd/hcldec/vars.go": "package main\n",
            "cmd/hcldec/diags.go": "package main\n",
            "json/spec.md": "# JSON syntax\n",
            "json/parser.go": "package json\n",
            "json/fixtures/case.md": "# a fixture\n",
        }
    )
    init(capsys, root)
    docs = scopes_of((root / ".tierscope.yaml").read_text())["docs"]
    assert docs.grep_paths == (
        "guide/", "README.md", "cmd/hcldec/README.md", "cmd/hcldec/spec-format.md",
        "hclsyntax/spec.md", "json/spec.md",
    )  # fmt: skip
    hits, _ = query(capsys, root, "heredoc template", "--scope", "docs")
    assert hits[0]["source"] == "hclsyntax/spec.md"


def test_a_go_packages_doc_go_is_documentation_as_well_as_code(capsys, make_project):
    # go-playground/validator's reference is the package comment of its doc.go (1,650
    # lines: every tag, the panics, the non-standard validators); init's docs scope held
    # its README and none of that, and 11 of 15 docs questions of its new user found no
    # page that answers.
    doc = (
        "// Package validator implements value validations for structs.\n"
        "//\n"
        "// # Comma in a tag parameter\n"
        "//\n"
        "// Use the UTF-8 hex representation 0x2C instead of a comma.\n"
        "package validator\n"
    )
    root = make_project(
        {
            "README.md": "# Validator\n\nValidates structs and fields.\n",
            "doc.go": doc,
            "validator.go": "package validator\n\nfunc Validate() {}\n",
            "errors.go": "package validator\n",
            "non_standard/doc.go": "// Package non_standard: validators.\npackage non_standard\n",
            "non_standard/notblank.go": "package non_standard\n",
            "testdata/doc.go": "// Package testdata holds fixtures.\npackage testdata\n",
        }
    )
    init(capsys, root)
    scopes = scopes_of((root / ".tierscope.yaml").read_text())
    docs = scopes["docs"]
    assert "doc.go" in docs.grep_paths and "non_standard/doc.go" in docs.grep_paths
    assert "testdata/doc.go" not in docs.grep_paths
    assert "doc.go" in docs.include and "*.go" not in docs.include
    hits, _ = query(capsys, root, "comma inside tag parameter", "--scope", "docs")
    assert hits[0]["source"] == "doc.go"
    # Still code too: the code scope searches it with the rest.
    hits, _ = query(capsys, root, "comma inside tag parameter", "--scope", "code")
    assert hits[0]["source"] == "doc.go"


def test_a_docc_catalog_is_a_documentation_folder(capsys, make_project):
    # swift-composable-architecture keeps its 74 articles in a DocC catalog,
    # Sources/ComposableArchitecture/Documentation.docc/: init's docs scope held the
    # READMEs alone, and all 15 docs questions of its new user were outside it.
    root = make_project(
        {
            "README.md": "# The Composable Architecture\n",
            "Package.swift": "// swift-tools-version:5.9\n",
            "Sources/Arch/Store.swift": "public final class Store {}\n",
            "Sources/Arch/Effect.swift": "public struct Effect {}\n",
            "Sources/Arch/Reducer.swift": "public protocol Reducer {}\n",
            "Sources/Arch/Documentation.docc/Arch.md": "# ``Arch``\n\nThe library.\n",
            "Sources/Arch/Documentation.docc/Articles/Testing.md": "# Testing\n\n"
            "## Non-exhaustive testing\n\nAssert only on the state you care about.\n",
            "Sources/Arch/Documentation.docc/Articles/Performance.md": "# Performance\n",
            "Sources/Arch/Documentation.docc/Tutorials/Step1.swift": "let step = 1\n",
        }
    )
    init(capsys, root)
    scopes = scopes_of((root / ".tierscope.yaml").read_text())
    docs = scopes["docs"]
    assert "Sources/Arch/Documentation.docc/" in docs.grep_paths
    assert docs.include == ("*.md",)
    hits, _ = query(capsys, root, "non-exhaustive testing", "--scope", "docs")
    assert hits[0]["source"] == "Sources/Arch/Documentation.docc/Articles/Testing.md"


def test_rdoc_readmes_are_documentation_not_code(capsys, make_project):
    # Rails keeps a README.rdoc in each framework's folder (activerecord/README.rdoc): init
    # knew no `.rdoc`, so seven of them were in no docs scope, and where the modules'
    # READMEs were all RDoc the code scope took them, with no `include` to keep them out.
    root = make_project(
        {
            "README.md": "# Framework\n",
            "guides/source/intro.md": "# Introduction\n\nStart here.\n",
            "guides/source/widgets.md": "# Widgets\n\nBuild a widget.\n",
            "widgets/README.rdoc": "= Widgets -- Reusable widgets\n\n"
            "== Download and installation\n\nThe latest version is installed with gem.\n",
            "widgets/lib/widgets/w1.rb": "module Widgets\n  def self.download; end\nend\n",
            "widgets/lib/widgets/w2.rb": "module Widgets\nend\n",
            "widgets/lib/widgets/w3.rb": "module Widgets\nend\n",
            "gadgets/README.rdoc": "= Gadgets\n\n== Installation\n\nInstall with gem.\n",
            "gadgets/lib/g1.rb": "module Gadgets\n  def self.installation; end\nend\n",
            "gadgets/lib/g2.rb": "module Gadgets\nend\n",
            "gadgets/lib/g3.rb": "module Gadgets\nend\n",
        }
    )
    init(capsys, root)
    scopes = scopes_of((root / ".tierscope.yaml").read_text())

    assert {"gadgets/README.rdoc", "widgets/README.rdoc"} <= set(scopes["docs"].grep_paths)
    assert "*.rdoc" in scopes["docs"].include
    assert "*.rb" in scopes["code"].include
    assert not any(glob.endswith(".rdoc") for glob in scopes["code"].include)
    hits, _ = query(capsys, root, "widgets download installation", "--scope", "code")
    assert all(not hit["source"].endswith(".rdoc") for hit in hits)
    hits, _ = query(capsys, root, "widgets download installation", "--scope", "docs")
    assert hits[0]["source"] == "widgets/README.rdoc"
    assert "== Download and installation" in hits[0]["content"]
    assert document_kind("activerecord/README.rdoc") != "code"


def test_a_root_readme_in_rdoc_is_documentation(capsys, make_project):
    root = make_project(
        {
            "README.rdoc": "= Rack\n\n== Installation\n\nInstall it with gem.\n",
            "lib/rack.rb": "module Rack\nend\n",
            "lib/rack/builder.rb": "module Rack\n  class Builder; end\nend\n",
        }
    )
    _, out, _ = init(capsys, root, "--dry-run")
    scopes = scopes_of(out)

    assert scopes["docs"].grep_paths == ("README.rdoc",)
    assert scopes["code"].grep_paths == ("lib/",)


def test_module_readmes_three_folders_deep_are_documentation(capsys, make_project):
    # Laravel's components are src/Illuminate/<Component>/, and two of them keep a README
    # (src/Illuminate/Database/README.md: Capsule outside Laravel): init took READMEs two
    # folders deep at most. Three deep, a README is a module's only where it is the first
    # README on its path (not Vite's packages/create-vite/template-react/README.md, below
    # packages/create-vite/README.md) and its folder holds code (not ripgrep's
    # benchsuite/runs/<date>/, a run's results).
    files = {
        f"src/Illuminate/{component}/{name}.php": "<?php\nclass C {}\n"
        for component in ("Database", "Queue", "Support")
        for name in ("C1", "C2", "C3")
    }
    files.update(
        {
            "README.md": "# Framework\n",
            "docs/guide.md": "# Guide\n\nStart here.\n",
            "src/Illuminate/Database/README.md": "# Database\n\nUse Capsule outside.\n",
            "src/Illuminate/Queue/README.md": "# Queue\n\nUse the queue outside.\n",
            "src/Illuminate/Support/Facades/README.md": "# Four folders deep\n",
            "src/Illuminate/Support/Facades/F.php": "<?php\nclass F {}\n",
            "packages/create/README.md": "# Create\n\nScaffold a project.\n",
            "packages/create/index.js": "export function create() {}\n",
            "packages/create/template-react/README.md": "# A template's readme\n",
            "packages/create/template-react/main.js": "export const app = 1\n",
            "bench/runs/2020-10-14/README.md": "# The machine of this run\n",
            "bench/runs/2020-10-14/raw.csv": "name,time\n",
            "bench/run.py": "def run():\n    pass\n",
            # bat's src/syntax_mapping/builtins/README.md, on writing the mappings its
            # folders of TOML files hold: a module's data, beside the module's code.
            "src/Illuminate/Mapping.php": "<?php\nclass Mapping {}\n",
            "src/Illuminate/builtins/README.md": "# Builtin mappings\n\nAdd one.\n",
            "src/Illuminate/builtins/common/50-foo.toml": "[mappings]\n",
        }
    )
    root = make_project(files)
    _, out, _ = init(capsys, root, "--dry-run")
    docs = scopes_of(out)["docs"]

    assert docs.grep_paths == (
        "docs/", "README.md", "packages/create/README.md",
        "src/Illuminate/Database/README.md", "src/Illuminate/Queue/README.md",
        "src/Illuminate/builtins/README.md",
    )  # fmt: skip


def test_readmes_among_tests_are_no_documentation(capsys, make_project):
    # pydantic's tests/mypy/README.md and tests/typechecking/README.md (notes on running
    # those tests) were in the docs scope as modules' READMEs, though the documents inside
    # a folder of tests are left out of it.
    root = make_project(
        {
            "README.md": "# Models\n",
            "docs/config.md": "# Configuration\n\nThe mypy plugin settings.\n",
            "docs/models.md": "# Models\n",
            "pydantic/main.py": "class BaseModel:\n    pass\n",
            "pydantic/mypy.py": "def plugin(version):\n    pass\n",
            "pydantic/fields.py": "def Field():\n    pass\n",
            "tests/mypy/README.md": "# Mypy tests\n\nThe mypy plugin settings tested.\n",
            "tests/mypy/test_mypy.py": "def test_mypy():\n    pass\n",
            "tests/typechecking/README.md": "# Type checking tests\n",
            "tests/test_main.py": "def test_main():\n    pass\n",
        }
    )
    _, out, _ = init(capsys, root, "--dry-run")
    scopes = scopes_of(out)

    assert scopes["docs"].grep_paths == ("docs/", "README.md")
    assert "tests/" in scopes["code"].grep_paths


def test_a_folder_of_code_documented_page_by_page_is_documentation_too(capsys, make_project):
    # clap's examples/: a tutorial page beside each example program. Markdown fixtures of
    # a folder's tests (FastAPI's scripts/tests/) are no documentation.
    pages = {f"examples/tutorial/ch{n}.md": f"# Chapter {n}\n\nStep {n}.\n" for n in range(10)}
    programs = {f"examples/tutorial/ch{n}.rs": "fn main() {}\n" for n in range(12)}
    fixtures = {f"scripts/tests/data/doc{n}.md": "# Fixture\n" for n in range(12)}
    root = make_project(
        {
            "README.md": "# Args\n",
            **pages,
            "examples/tutorial/ch3.md": "# Subcommands\n\nNest a subcommand with `Command`.\n",
            **programs,
            **fixtures,
            **{f"scripts/tool{n}.py": "print()\n" for n in range(4)},
            **{f"src/part{n}.rs": "pub fn part() {}\n" for n in range(4)},
        }
    )
    init(capsys, root)
    scopes = scopes_of((root / ".tierscope.yaml").read_text())
    assert scopes["docs"].grep_paths == ("examples/", "README.md")
    assert scopes["docs"].include == ("*.md",)
    assert "examples/" in scopes["code"].grep_paths and "scripts/" in scopes["code"].grep_paths
    hits, _ = query(capsys, root, "how do I nest a subcommand", "--scope", "docs")
    assert hits[0]["source"] == "examples/tutorial/ch3.md"


def test_the_contributing_guide_in_github_s_folder_is_documentation(capsys, make_project):
    root = make_project(
        {
            "README.md": "# Tool\n",
            ".github/CONTRIBUTING.md": "# Contributing\n\nRun the tests with `make check`.\n",
            ".github/PULL_REQUEST_TEMPLATE.md": "Describe the change.\n",
            "src/a.py": "x = 1\n",
        }
    )
    init(capsys, root)
    scopes = scopes_of((root / ".tierscope.yaml").read_text())
    assert scopes["docs"].grep_paths == ("README.md", ".github/CONTRIBUTING.md")
    hits, _ = query(capsys, root, "how do I run the tests", "--scope", "docs")
    assert hits[0]["source"] == ".github/CONTRIBUTING.md"


def test_a_linked_github_folder_lends_no_contributing_guide(capsys, make_project, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "CONTRIBUTING.md").write_text("# Someone else's guide\n")
    root = make_project({"README.md": "# Tool\n", "src/a.py": "x = 1\n"})
    (root / ".github").symlink_to(elsewhere, target_is_directory=True)
    init(capsys, root)
    scopes = scopes_of((root / ".tierscope.yaml").read_text())
    assert scopes["docs"].grep_paths == ("README.md",)


def test_a_docs_folder_inside_a_crates_source_is_documentation(capsys, make_project):
    # A Cargo workspace (axum): rustdoc pulls its guide pages from `<crate>/src/docs/`.
    root = make_project(
        {
            "CONTRIBUTING.md": "# Contributing\n\nOpen a pull request.\n",
            "axum/src/docs/middleware.md": "# Ordering\n\nLayers run from bottom to top.\n",
            "axum/src/docs/extract.md": "# Extractors\n\nExtractors take requests apart.\n",
            "axum/src/docs/routing/route.md": "# Routes\n\nAdd a route.\n",
            "axum/src/lib.rs": "pub mod routing;\n",
            "axum/src/routing.rs": "pub fn route() {}\n",
            "axum/src/middleware.rs": "pub fn from_fn() {}\n",
            "axum-core/src/lib.rs": "pub trait FromRequest {}\n",
            "axum-core/src/body.rs": "pub struct Body;\n",
            "axum-core/src/ext.rs": "pub trait Ext {}\n",
        }
    )
    init(capsys, root)
    scopes = scopes_of((root / ".tierscope.yaml").read_text())

    assert scopes["docs"].grep_paths == ("axum/src/docs/", "CONTRIBUTING.md")
    hits, _ = query(capsys, root, "in what order do middleware layers run", "--scope", "docs")
    assert hits[0]["source"] == "axum/src/docs/middleware.md"
    # The code scope takes the crates' source files, not the guide pages among them.
    assert "*.rs" in scopes["code"].include
    hits, _ = query(capsys, root, "middleware layers", "--scope", "code")
    assert all(hit["source"].endswith(".rs") for hit in hits)


def test_a_pages_folder_inside_a_folder_of_code_is_documentation(capsys, make_project):
    # Elixir keeps its guides in `lib/elixir/pages/` (getting started, anti-patterns),
    # beside the code of each application under `lib/`.
    root = make_project(
        {
            "README.md": "# Elixir\n",
            "lib/elixir/pages/getting-started/introduction.md": "# Introduction\n\nRun iex.\n",
            "lib/elixir/pages/getting-started/basic-types.md": "# Basic types\n\nAtoms.\n",
            "lib/elixir/pages/anti-patterns/code-anti-patterns.md": "# Anti-patterns\n\n"
            "Complex else clauses in with flatten every error.\n",
            "lib/elixir/lib/enum.ex": "defmodule Enum do\nend\n",
            "lib/elixir/lib/map.ex": "defmodule Map do\nend\n",
            "lib/mix/lib/mix.ex": "defmodule Mix do\nend\n",
        }
    )
    init(capsys, root)
    scopes = scopes_of((root / ".tierscope.yaml").read_text())

    assert scopes["docs"].grep_paths == ("lib/elixir/pages/", "README.md")
    hits, _ = query(capsys, root, "complex else clauses in with", "--scope", "docs")
    assert hits[0]["source"] == "lib/elixir/pages/anti-patterns/code-anti-patterns.md"


def test_a_folder_of_generated_copies_or_moved_stubs_is_left_out_of_the_docs(capsys, make_project):
    # The Rust book: nostarch/ is its print edition, generated from src/ (each page says
    # "DO NOT EDIT THIS FILE"), and first-edition/ holds stubs saying the page moved.
    generated = (
        "<!-- DO NOT EDIT THIS FILE.\n\nThis file is periodically generated from src/.\n-->\n\n"
    )
    moved = "# Ownership\n\nThe first edition is no longer distributed. This page has moved.\n"
    root = make_project(
        {
            "README.md": "# The book\n",
            **{
                f"src/ch0{n}.md": f"# Chapter {n}\n\nOwnership rules, part {n}.\n" for n in range(6)
            },
            **{
                f"nostarch/chapter0{n}.md": f"{generated}# Chapter {n}\n\nText.\n" for n in range(6)
            },
            **{f"first-edition/src/ch0{n}.md": moved for n in range(6)},
        }
    )
    init(capsys, root)
    scopes = scopes_of((root / ".tierscope.yaml").read_text())

    assert scopes["docs"].grep_paths == ("src/", "README.md")
    comments = " ".join(
        line.strip(" #") for line in (root / ".tierscope.yaml").read_text().splitlines()
    )
    assert "Left out: first-edition/ and nostarch/, whose pages say a tool wrote them" in comments


def test_a_docs_folder_holding_stubs_beside_its_pages_stays_documentation(capsys, make_project):
    # kotlinx.coroutines: docs/ keeps a stub per page ("The documentation has been moved
    # to ... To edit the documentation, open topics/basics.md") beside docs/topics/, the
    # pages themselves: 12 of its 28 documents.
    moved = "The documentation has been moved to the https://example.org/{0}.html page.\n"
    root = make_project(
        {
            "README.md": "# Coroutines\n",
            **{f"docs/{n}.md": moved.format(n) for n in ("basics", "channels", "flow", "select")},
            **{
                f"docs/topics/{n}.md": f"# {n}\n\nHow {n} work, at length.\n"
                for n in ("basics", "channels", "flow", "select", "scopes")
            },
        }
    )
    init(capsys, root)
    scopes = scopes_of((root / ".tierscope.yaml").read_text())

    assert scopes["docs"].grep_paths == ("docs/", "README.md")


def test_a_tutorials_folder_is_documentation_whatever_code_it_keeps(capsys, make_project):
    # bubbletea: each tutorial is a README beside the program it builds.
    root = make_project(
        {
            "README.md": "# Bubble Tea\n",
            "tutorials/basics/README.md": "# Basics\n\nA model, an update, a view.\n",
            "tutorials/basics/main.go": "package main\n",
            "tutorials/commands/README.md": "# Commands\n\nCommands do I/O.\n",
            "tutorials/commands/main.go": "package main\n",
            "tutorials/go.mod": "module tutorials\n",
            "tea.go": "package tea\n",
            "commands.go": "package tea\n",
        }
    )
    _, out, _ = init(capsys, root, "--dry-run")
    assert scopes_of(out)["docs"].grep_paths == ("tutorials/", "README.md")


def test_claude_skills_alone_do_not_make_a_loa_project(capsys, make_project):
    # vitest: a test framework keeping Claude Code skills in .claude/skills/.
    root = make_project(
        {
            ".claude/skills/typos/SKILL.md": "# Typos\n",
            "docs/guide/mocking.md": "# Mocking\n\nMock a module with vi.mock.\n",
            "docs/guide/index.md": "# Guide\n",
            "docs/config.md": "# Config\n",
            "packages/vitest/src/mock.ts": "export function mock() {}\n",
            "packages/vitest/src/spy.ts": "export function fn() {}\n",
            "packages/vitest/src/run.ts": "export function run() {}\n",
        }
    )
    _, out, _ = init(capsys, root, "--dry-run")
    scopes = scopes_of(out)
    assert scopes["docs"].grep_paths == ("docs/",)
    assert scopes["all"].grep_paths == ("./",)
    assert "skills searches .claude/skills/" in out


def test_code_at_the_root_is_searched_by_its_extensions(capsys, make_project):
    # A Go module keeps its code in the root: more files than a scope lists one by one.
    files = {f"cmd{n}.go": "package cli\n\n// Mark a flag as required.\n" for n in range(9)}
    files.update({f"run{n}.go": "package cli\n\nfunc run() {}\n" for n in range(5)})
    files["site/content/guide.md"] = "# Guide\n\nMark a flag as required with a call.\n"
    files["site/content/flags.md"] = "# Flags\n\nA required flag must be given.\n"
    files["site/content/completions.md"] = "# Completions\n\nFor shells.\n"
    root = make_project(files)
    init(capsys, root)
    written = (root / ".tierscope.yaml").read_text()
    code = scopes_of(written)["code"]

    assert (code.grep_paths, code.include) == (("./",), ("*.go",))
    hits, _ = query(capsys, root, "mark a flag as required", "--scope", "code")
    assert hits and all(hit["source"].endswith(".go") for hit in hits)


def test_fish_and_nushell_scripts_are_code(capsys, make_project):
    # fzf's key bindings ship for bash, zsh, fish and Nushell: init listed the first two
    # and its code scope's globs left the others out.
    names = ("key-bindings", "completion")
    root = make_project(
        {
            "main.go": "package main\n\nfunc main() {}\n",
            "src/NOTES.md": "# Notes\n\nHow the matcher works.\n",
            "src/algo.go": "package algo\n\nfunc Match() {}\n",
            **{f"shell/{name}.bash": "bind -x '\"\\C-t\": fzf-file-widget'\n" for name in names},
            **{f"shell/{name}.zsh": "zle -N fzf-file-widget\n" for name in names},
            **{f"shell/{name}.fish": "function fzf-file-widget\nend\n" for name in names},
            **{f"shell/{name}.nu": "def fzf-file-widget [] { fzf }\n" for name in names},
            "README.md": "# Tool\n\nA fuzzy finder.\n",
        }
    )
    _, out, _ = init(capsys, root, "--dry-run")
    include = scopes_of(out)["code"].include
    assert include and {"*.fish", "*.nu"} <= set(include)


def test_every_shells_init_script_is_code(capsys, make_project):
    # starship's src/init/ holds a prompt script per shell: the code scope's globs left
    # out tcsh's, Elvish's, xonsh's and Ion's.
    shells = ("bash", "zsh", "fish", "tcsh", "elv", "xsh", "ion", "csh")
    root = make_project(
        {
            "src/main.rs": "fn main() {}\n",
            "src/NOTES.md": "# Notes\n\nHow the prompt is drawn.\n",
            **{f"src/init/starship.{shell}": "# the prompt\n" for shell in shells},
            "README.md": "# Tool\n\nA prompt.\n",
        }
    )
    _, out, _ = init(capsys, root, "--dry-run")
    include = set(scopes_of(out)["code"].include)
    assert {f"*.{shell}" for shell in shells} <= include, include


def test_zsh_themes_are_code(capsys, make_project):
    # Oh My Zsh keeps 143 prompt themes as `themes/*.zsh-theme`, zsh scripts by their
    # extension: the code scope left out themes/, and its globs (plugins/ holds READMEs
    # too) every theme.
    root = make_project(
        {
            "oh-my-zsh.sh": "source $ZSH/lib/git.zsh\n",
            "lib/git.zsh": "function git_prompt_info() {\n  echo main\n}\n",
            "themes/robbyrussell.zsh-theme": "PROMPT='%{$fg_bold[red]%}➜ '\n",
            "themes/agnoster.zsh-theme": "# Draw the segment of the current git branch\n"
            "prompt_git() {\n  local ref\n}\n",
            "plugins/git/README.md": "# git plugin\n\nAliases for git.\n",
            "plugins/git/git.plugin.zsh": "alias gp='git push'\n",
            "README.md": "# Oh My Zsh\n",
        }
    )
    init(capsys, root)
    written = (root / ".tierscope.yaml").read_text()
    code = scopes_of(written)["code"]
    assert "themes/" in code.grep_paths
    assert "*.zsh-theme" in code.include
    hits, _ = query(capsys, root, "segment of the git branch", "--scope", "code")
    assert [hit["source"] for hit in hits][:1] == ["themes/agnoster.zsh-theme"]


def test_asciidoc_docs_are_documentation_by_either_extension(capsys, make_project):
    # Cowboy's guide and manual are 148 `.asciidoc` files: init knew only `.adoc`, so the
    # docs scope was AGENTS.md alone.
    root = make_project(
        {
            "doc/src/guide/listeners.asciidoc": "[[listeners]]\n== Listeners\n\n"
            "A listener is a set of processes that accept connections.\n",
            "doc/src/guide/routing.asciidoc": "[[routing]]\n== Routing\n\nMatch the host.\n",
            "doc/src/manual/cowboy_http.asciidoc": "= cowboy_http(3)\n\n"
            "max_keepalive (1000)::\n\nMaximum number of requests allowed per connection.\n",
            "src/cowboy_http.erl": "-module(cowboy_http).\n\ninit() -> ok.\n",
            "src/cowboy.hrl": "-define(MAX, 1).\n",
            "AGENTS.md": "# Agents\n\nRun the tests.\n",
        }
    )
    init(capsys, root)
    written = (root / ".tierscope.yaml").read_text()
    scopes = scopes_of(written)

    assert "doc/" in scopes["docs"].grep_paths
    assert "*.asciidoc" in scopes["docs"].include
    hits, _ = query(capsys, root, "requests allowed per connection", "--scope", "docs")
    assert [hit["source"] for hit in hits] == ["doc/src/manual/cowboy_http.asciidoc"]
    assert "Erlang (2 files)" in written  # a header file is Erlang too


def test_perl_scripts_named_dot_perl_are_code(capsys, make_project):
    # git writes its Perl programs as `git-send-email.perl`, `git-svn.perl`: init knew
    # `.pl` and `.pm` only, so the code scope left them out.
    root = make_project(
        {
            "git-send-email.perl": "#!/usr/bin/perl\n# Authenticate to the SMTP server.\n",
            "perl/Git.pm": "package Git;\n1;\n",
            "strbuf.c": "void strbuf_addf(void) {}\n",
            "README.md": "# Project\n",
        }
    )
    init(capsys, root)
    written = (root / ".tierscope.yaml").read_text()
    assert "git-send-email.perl" in scopes_of(written)["code"].grep_paths
    assert "Perl (2 files)" in written
    hits, _ = query(capsys, root, "SMTP server authenticate", "--scope", "code")
    assert [hit["source"] for hit in hits] == ["git-send-email.perl"]


def test_scheme_and_tree_sitter_queries_are_code(capsys, make_project):
    # Helix keeps its languages' tree-sitter queries as 1,190 `*.scm` files in runtime/:
    # init knew no Scheme, so the code scope left them out and runtime/ was documentation
    # for its three READMEs.
    files = {
        f"runtime/queries/{lang}/highlights.scm": f"; {lang}\n(comment) @comment\n"
        for lang in ("python", "go", "toml", "bash")
    }
    files["runtime/queries/rust/highlights.scm"] = (
        "; Highlight a lifetime as a label\n(lifetime (identifier) @label)\n"
    )
    files["runtime/queries/README.md"] = "# Queries\n\nOne folder a language.\n"
    files["src/main.rs"] = "fn main() {}\n"
    files["README.md"] = "# Editor\n"
    root = make_project(files)
    init(capsys, root)
    written = (root / ".tierscope.yaml").read_text()
    assert "runtime/" in scopes_of(written)["code"].grep_paths
    assert "Scheme (5 files)" in written
    hits, _ = query(capsys, root, "highlight a lifetime", "--scope", "code")
    assert [hit["source"] for hit in hits][:1] == ["runtime/queries/rust/highlights.scm"]


def test_code_folders_holding_documents_get_source_files_only(capsys, make_project):
    # Cowboy's examples/ holds a README (AsciiDoc), a Makefile and an Erlang program in
    # each of 16 folders: it is both a docs and a code folder, and with no filter the code
    # scope served examples/*/README.asciidoc first on a question about compression.
    files = {
        "src/cowboy_compress_h.erl": "-module(cowboy_compress_h).\n\n"
        "%% Compress the response when it is larger than the threshold.\n"
        "init() -> ok.\n",
        "examples/README.asciidoc": "= Examples\n\nThe examples, one per folder.\n",
        "doc/src/guide/compression.asciidoc": "== Compression\n\nCompress responses.\n",
    }
    for n in range(16):
        files[f"examples/example_{n}/README.asciidoc"] = (
            "= Compressed response example\n\nCompress the response when it is large.\n"
        )
        files[f"examples/example_{n}/Makefile"] = f"PROJECT = example_{n}\n"
        for module in ("app", "sup", "handler"):
            files[f"examples/example_{n}/src/example_{module}.erl"] = (
                f"-module(example_{module}).\n\ninit() -> ok.\n"
            )
    root = make_project(files)
    init(capsys, root)
    written = (root / ".tierscope.yaml").read_text()
    code = scopes_of(written)["code"]

    assert code.include == ("*.erl", "*.hrl")
    assert "source files only: the documentation is in examples/ too" in written
    hits, _ = query(capsys, root, "compress the response", "--scope", "code")
    assert hits and all(hit["source"].endswith(".erl") for hit in hits)


def test_code_folders_holding_agent_instructions_get_source_files_only(capsys, make_project):
    # Koin's projects/ holds its Kotlin modules, a CLAUDE.md, an llms.txt summarising the
    # whole library and the API dumps of its binary-compatibility checks (`api/*.api`).
    # With no filter, llms.txt came first for code questions: asked where startKoin
    # starts the global context, GlobalContext.kt was not among the first ten.
    summary = "startKoin starts the global context and its modules. " * 40
    files = {
        "projects/llms.txt": f"# Koin\n\n{summary}\n",
        "projects/CLAUDE.md": "# Working here\n\nstartKoin starts the global context.\n",
        "projects/core/api/koin-core.api": "public final fun startKoin (Lkotlin/Function1;)\n",
        "projects/core/src/GlobalContext.kt": "package org.koin.core.context\n\n"
        "// The global context that startKoin starts.\n"
        "object GlobalContext {\n    fun startKoin(modules: List<Module>) = start(modules)\n}\n",
        "docs/setup.md": "# Setup\n\nCall startKoin.\n",
    }
    files.update(
        {f"projects/core/src/Module{n}.kt": f"class Module{n}(val id: Int)\n" for n in range(6)}
    )
    root = make_project(files)
    init(capsys, root)
    written = (root / ".tierscope.yaml").read_text()
    code = scopes_of(written)["code"]

    assert code.include == ("*.kt", "*.kts")
    assert "source files only: projects/ also holds instructions for coding agents" in written
    hits, _ = query(capsys, root, "startKoin global context", "--scope", "code")
    assert [hit["source"] for hit in hits] == ["projects/core/src/GlobalContext.kt"]


def test_a_tests_folder_of_markdown_fixtures_is_not_documentation(capsys, make_project):
    # mdBook's tests/ holds books (markdown) its tests build: fixtures, not its docs.
    files = {f"tests/books/book{n}/src/chapter.md": f"# Chapter {n}\n" for n in range(8)}
    files.update({f"tests/build{n}.rs": "#[test]\nfn builds() {}\n" for n in range(3)})
    files.update({f"guide/src/page{n}.md": f"# Page {n}\n" for n in range(4)})
    files["src/main.rs"] = "fn main() {}\n"
    root = make_project(files)

    _, out, _ = init(capsys, root, "--dry-run")
    scopes = scopes_of(out)

    assert scopes["docs"].grep_paths == ("guide/",)
    assert "tests/" in scopes["code"].grep_paths


def test_a_tests_folder_of_many_fixtures_is_no_documented_code(capsys, make_project):
    # pandoc's test/ holds 1,160 documents (its readers' and writers' inputs) beside 69
    # Haskell and Lua tests: read as code documented page by page, it joined the docs
    # scope, and its notebooks kept qmd from the docs.
    files = {f"test/command/{n}.md": f"# Case {n}\n\n```\n% pandoc\n```\n" for n in range(12)}
    files.update({f"test/Tests/Reader{n}.hs": "module Tests where\n" for n in range(3)})
    files["test/notebook.ipynb"] = '{"cells": [], "metadata": {}}\n'
    files.update({f"doc/page{n}.md": f"# Page {n}\n" for n in range(4)})
    files["src/Main.hs"] = "main = pure ()\n"
    root = make_project(files)

    _, out, _ = init(capsys, root, "--dry-run")
    scopes = scopes_of(out)

    assert scopes["docs"].grep_paths == ("doc/",)
    assert "test/" in scopes["code"].grep_paths


def test_a_project_of_code_alone_gets_code_and_all(capsys, make_project, path_without_tools):
    root = make_project({"main.go": "package main\n", "cmd/serve/main.go": "package main\n"})

    _, out, _ = init(capsys, root, "--dry-run")
    scopes = scopes_of(out)

    assert "docs" not in out.split("qmd_context:")[1]
    assert scopes["code"].grep_paths == ("cmd/", "main.go")


def test_a_root_that_is_not_a_folder_is_a_usage_error(capsys, tmp_path):
    with pytest.raises(SystemExit) as raised:
        main(["init", "--root", str(tmp_path / "nowhere")])
    assert raised.value.code == 2


# -- --qmd ----------------------------------------------------------------------------------


def test_qmd_makes_project_local_collections_for_the_docs_scope(capsys, project, qmd_on_path):
    code, _, err = init(capsys, project, "--qmd")
    registry = read_registry(project / LOCAL_DIR / "index.yml")
    scopes = load_config(project).scopes

    assert code == 0
    assert {name: c.root for name, c in registry.collections.items()} == {
        "docs": project / "docs",
        "faq": project / "faq",
        "top-level": project,
    }
    assert registry.collections["top-level"].mask == "CHANGELOG.md,README.md"
    assert scopes["docs"].qmd_collection == "docs,faq,top-level"
    assert scopes["all"].qmd_collection == ""  # else qmd would answer from the docs alone
    assert "qmd: created collections docs, faq, top-level" in err
    hits, _ = query(capsys, project, "why is the meter red", "--scope", "docs")
    assert hits[0]["tier"] == "qmd"
    assert hits[0]["source"] == "faq/why-is-the-meter-red.md"


def test_qmd_indexes_docs_that_are_not_markdown_by_their_kind(capsys, make_project, qmd_on_path):
    # qmd's default mask is markdown: a folder of reStructuredText (Flask's, Django's)
    # would be an empty collection, and the qmd tier would find nothing there.
    root = make_project(
        {
            "README.md": "# Tool\n\nA tool.\n",
            "docs/index.rst": "Tool\n====\n\nA tool.\n",
            "docs/usage.rst": "Usage\n=====\n\nRun it with the zebra flag.\n",
            "docs/api.rst": "API\n===\n\nCalls.\n",
            "src/tool.py": "def run():\n    pass\n",
        }
    )
    code, _, _ = init(capsys, root, "--qmd")
    registry = read_registry(root / LOCAL_DIR / "index.yml")

    assert code == 0
    assert registry.collections["docs"].mask == "**/*.rst"
    assert load_config(root).scopes["docs"].qmd_collection == "docs,top-level"
    hits, _ = query(capsys, root, "run it with the zebra flag", "--scope", "docs")
    assert (hits[0]["tier"], hits[0]["source"]) == ("qmd", "docs/usage.rst")
    # Made again from scratch, the config names the same collections: none is added.
    (root / ".tierscope.yaml").unlink()
    init(capsys, root, "--qmd")
    assert set(read_registry(root / LOCAL_DIR / "index.yml").collections) == {"docs", "top-level"}
    assert load_config(root).scopes["docs"].qmd_collection == "docs,top-level"


def test_a_markdown_collection_above_rst_docs_does_not_cover_them(
    capsys, make_project, qmd_on_path
):
    root = make_project(
        {
            "README.md": "# Tool\n",
            "docs/index.rst": "Tool\n====\n\nA tool.\n",
            "docs/usage.rst": "Usage\n=====\n\nRun it with the zebra flag.\n",
            "docs/api.rst": "API\n===\n\nCalls.\n",
        }
    )
    (root / LOCAL_DIR).mkdir()
    (root / LOCAL_DIR / "index.yml").write_text("collections: {}\n")
    add = ["qmd", "collection", "add", str(root), "--name", "everything"]
    subprocess.run(add, cwd=root, capture_output=True, check=True)

    init(capsys, root, "--qmd")
    collections = read_registry(root / LOCAL_DIR / "index.yml").collections

    assert set(collections) == {"everything", "docs"}
    assert collections["docs"].mask == "**/*.rst"


def test_qmd_with_a_dry_run_creates_nothing(capsys, project, qmd_on_path):
    code, out, err = init(capsys, project, "--qmd", "--dry-run")

    assert code == 0
    assert not (project / LOCAL_DIR).exists()
    assert "would create the qmd collections docs (docs), faq (faq), top-level (.)" in err
    assert scopes_of(out)["docs"].qmd_collection == "docs,faq,top-level"


def test_qmd_not_installed_says_so_and_the_config_names_no_collection(capsys, project):
    code, _, err = init(capsys, project, "--qmd")

    assert code == 0
    assert "qmd: not installed" in err and "tierscope init --qmd again" in err
    assert load_config(project).scopes["docs"].qmd_collection == ""
    assert not (project / LOCAL_DIR).exists()


def test_collections_already_in_the_users_qmd_index_are_named_not_made_again(
    capsys, project, qmd_on_path
):
    subprocess.run(
        ["qmd", "collection", "add", str(project / "docs"), "--name", "gauge-docs"],
        cwd=project.parent,
        capture_output=True,
        check=True,
    )

    code, _, err = init(capsys, project, "--qmd")

    assert code == 0
    assert not (project / LOCAL_DIR).exists()
    assert "qmd's own index" in err and "gauge-docs" in err
    assert load_config(project).scopes["docs"].qmd_collection == "gauge-docs"


@pytest.mark.skipif(not REAL_QMD.is_file(), reason="real qmd not installed: run scripts/setup-qmd")
def test_with_the_real_qmd_the_docs_scope_is_served_by_qmd(capsys, project, monkeypatch):
    monkeypatch.setenv("PATH", f"{REAL_QMD.parent}{os.pathsep}{os.environ['PATH']}")

    code, _, err = init(capsys, project, "--qmd")
    hits, _ = query(capsys, project, "why is the meter red", "--scope", "docs")

    assert code == 0, err
    assert (project / LOCAL_DIR / "index.sqlite").is_file()
    assert hits and hits[0]["tier"] == "qmd"
    assert hits[0]["source"] == "faq/why-is-the-meter-red.md"


def test_init_never_imports_textual(project):
    script = (
        "import sys\n"
        "from tierscope.cli import main\n"
        f"main(['init', '--root', {str(project)!r}, '--dry-run'])\n"
        "assert 'textual' not in sys.modules, 'textual imported'\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_qmd_makes_nothing_when_the_config_is_not_written(capsys, project, qmd_on_path):
    (project / ".tierscope.yaml").write_text("qmd_context:\n  default_budget: 900\n")

    code, _, err = init(capsys, project, "--qmd")

    assert code == 1
    assert "--qmd: no collection made, since no config is written" in err
    assert not (project / LOCAL_DIR).exists()


def _notebook(title: str, text: str) -> str:
    cell = {"cell_type": "markdown", "metadata": {}, "source": [f"# {title}\n", "\n", text]}
    return json.dumps({"cells": [cell], "metadata": {}, "nbformat": 4}, indent=1) + "\n"


def test_a_folder_of_notebooks_is_documentation_searched_without_qmd(
    capsys, make_project, qmd_on_path
):
    root = make_project(
        {
            "README.md": "# Models\n\nTraining recipes.\n",
            "notebooks/01-train.ipynb": _notebook("Train", "Fine-tune with a warmup schedule."),
            "notebooks/02-eval.ipynb": _notebook("Evaluate", "Accuracy on the test split."),
            "notebooks/03-export.ipynb": _notebook("Export", "Save the weights as ONNX."),
            "src/models/train.py": "def train():\n    pass\n",
        }
    )
    code, _, _ = init(capsys, root, "--qmd")
    docs = load_config(root).scopes["docs"]

    assert code == 0
    assert "notebooks/" in docs.grep_paths and "*.ipynb" in docs.include
    # qmd cannot index a notebook (JSON to it): serving the scope from the readme alone,
    # it would never let the grep tier reach the notebooks.
    assert docs.qmd_collection == ""
    assert "qmd cannot index notebooks" in (root / ".tierscope.yaml").read_text()
    assert not (root / LOCAL_DIR / "index.yml").exists()
    hits, _ = query(capsys, root, "training recipes with a warmup schedule", "--scope", "docs")
    assert [hit["source"] for hit in hits][:1] == ["notebooks/01-train.ipynb"]
    assert hits[0]["content"].startswith("# Train")


def test_astro_components_are_source_code(capsys, make_project):
    # Starlight's UI components (ThemeSelect, Tabs, Sidebar...) are .astro files beside
    # its TypeScript: the code scope left them out, and nothing said so.
    files = {
        "packages/starlight/components/ThemeSelect.astro": "---\n"
        "import Select from './Select.astro';\n---\n\n"
        '<starlight-theme-select>\n  <Select label="Theme" />\n</starlight-theme-select>\n'
        "<script>\n  // Remember the chosen color scheme in localStorage.\n"
        "  localStorage.setItem('starlight-theme', theme);\n</script>\n",
        **{
            f"packages/starlight/utils/{name}.ts": f"export function {name}() {{}}\n"
            for name in ("slugs", "git", "navigation", "head")
        },
        "packages/starlight/README.md": "# Starlight\n\nThe theme.\n",
        "docs/src/content/docs/index.mdx": "---\ntitle: Starlight\n---\n\nBuild docs.\n",
    }
    root = make_project(files)
    init(capsys, root)
    written = (root / ".tierscope.yaml").read_text()
    code = scopes_of(written)["code"]

    assert "*.astro" in code.include
    assert "Astro (1 file)" in written
    hits, _ = query(capsys, root, "remember the chosen color scheme", "--scope", "code")
    assert [hit["source"] for hit in hits][:1] == [
        "packages/starlight/components/ThemeSelect.astro"
    ]


def test_a_folder_of_skills_with_their_scripts_is_documentation_and_code(capsys, make_project):
    # anthropics/skills: skills/ holds 111 SKILL.md and reference pages beside 72 Python
    # scripts. The documents outnumber the scripts, so skills/ was documentation alone:
    # init wrote no code scope, and the scripts were reachable only through `all`.
    files = {}
    for skill in ("pdf", "docx", "pptx", "xlsx"):
        files[f"skills/{skill}/SKILL.md"] = f"# {skill}\n\nHow to work with {skill} files.\n"
        for page in ("reference", "forms", "examples"):
            files[f"skills/{skill}/{page}.md"] = f"# {page}\n\nMore about {skill}.\n"
        for script in ("pack", "unpack", "validate"):
            files[f"skills/{skill}/scripts/{script}.py"] = f"def {script}(path):\n    pass\n"
    files["skills/xlsx/scripts/recalc.py"] = (
        "def recalc(path):\n    # Recalculate every formula with LibreOffice, then list\n"
        "    # the cells holding an error such as #REF! or #DIV/0!.\n    pass\n"
    )
    files["README.md"] = "# Skills\n\nA collection of skills.\n"
    root = make_project(files)
    init(capsys, root)
    written = (root / ".tierscope.yaml").read_text()
    scopes = scopes_of(written)

    assert "skills/" in scopes["docs"].grep_paths
    assert scopes["docs"].include == ("*.md",)
    assert "skills/" in scopes["code"].grep_paths
    assert scopes["code"].include == ("*.py", "*.pyi")
    hits, _ = query(capsys, root, "recalculate formulas and list error cells", "--scope", "code")
    assert [hit["source"] for hit in hits][:1] == ["skills/xlsx/scripts/recalc.py"]


def test_a_folder_of_many_pages_keeps_its_many_programs_as_code(capsys, make_project):
    # withastro/docs: src/ holds 2,569 pages beside 115 components and scripts (4%). The
    # pages outnumber the programs so far that src/ was documentation alone: the code
    # scope was config/ and scripts/, and no code question reached a component.
    files = {f"src/content/docs/en/page{n}.mdx": f"# Page {n}\n\nWords.\n" for n in range(900)}
    files.update(
        {f"src/components/Part{n}.astro": f"<div class='part{n}'></div>\n" for n in range(60)}
    )
    files["src/components/LeftSidebar.astro"] = (
        "---\n// Group the sidebar's links by section, the current page's opened.\n---\n<nav />\n"
    )
    files.update({f"scripts/task{n}.ts": "export const task = 1\n" for n in range(4)})
    files["README.md"] = "# Docs\n\nThe site.\n"
    root = make_project(files)
    init(capsys, root)
    scopes = scopes_of((root / ".tierscope.yaml").read_text())

    assert "src/" in scopes["docs"].grep_paths
    assert "src/" in scopes["code"].grep_paths
    assert "*.astro" in scopes["code"].include and "*.mdx" not in scopes["code"].include
    hits, _ = query(capsys, root, "group the sidebar links by section", "--scope", "code")
    assert [hit["source"] for hit in hits][:1] == ["src/components/LeftSidebar.astro"]


def test_a_documentation_folder_named_so_keeps_its_example_programs_as_documentation(
    capsys, make_project
):
    # Textual's docs/ holds its guide beside hundreds of example programs: they are the
    # guide's, and a code question wants the library's source.
    files = {f"docs/guide/page{n}.md": f"# Page {n}\n\nWords.\n" for n in range(12)}
    files.update({f"docs/examples/app{n}.py": "from textual.app import App\n" for n in range(10)})
    files.update({f"src/lib/module{n}.py": f"def function_{n}():\n    pass\n" for n in range(4)})
    root = make_project(files)

    _, out, _ = init(capsys, root, "--dry-run")
    scopes = scopes_of(out)

    assert "docs/" in scopes["docs"].grep_paths
    assert scopes["code"].grep_paths == ("src/",)


def test_org_manuals_are_documentation_and_numbered_changelogs_no_manual_pages(
    capsys, make_project
):
    # Magit's manual is docs/magit.org: init left it out, and took the Org changelogs
    # docs/CHANGELOG.1 ... .4 for manual pages (`*.1` ... `*.4`).
    root = make_project(
        {
            "docs/magit.org": "#+title: Magit User Manual\n\n* Status Buffer\n\n"
            "- Key: C-x g (magit-status) ::\n\n"
            "  Show the status of the current repository in a buffer.\n",
            "docs/CHANGELOG.1": "# -*- mode: org -*-\n* v1.4.2\n\n- Reverts work again.\n",
            "docs/CHANGELOG.2": "# -*- mode: org -*-\n* v2.1.0\n\n- Faster status.\n",
            "docs/AUTHORS.md": "# Authors\n\nMany people.\n",
            "lisp/magit-status.el": '(defun magit-status ()\n  "Show the status.")\n',
            "man/man1/magit.1": ".TH MAGIT 1\n.SH NAME\nmagit - a git porcelain\n",
        }
    )
    init(capsys, root)
    scopes = scopes_of((root / ".tierscope.yaml").read_text())

    assert "*.org" in scopes["docs"].include
    assert "*.2" not in scopes["docs"].include
    assert "*.1" in scopes["docs"].include  # man/man1/magit.1 is still a manual page
    hits, _ = query(capsys, root, "status of the current repository", "--scope", "docs")
    assert [hit["source"] for hit in hits][:1] == ["docs/magit.org"]


def test_plain_text_documents_at_the_root_are_documentation(capsys, make_project):
    # A README.txt or a GNU-style README, NEWS or MANUAL.txt at the root made no docs
    # scope: plain text counted as documentation only inside a documentation folder.
    root = make_project(
        {
            "README": "Tool\n====\n\nA tool that retries failed requests.\n",
            "MANUAL.txt": "Manual\n======\n\n"
            "The retry budget caps how often a request is retried.\n",
            "NEWS": "2.0: a retry budget.\n",
            # A script named so is no document: GNU's documents are written in capitals.
            "install": "#!/bin/sh\ncp tool /usr/local/bin\n",
            "requirements.txt": "requests==2.32\n",
            "CMakeLists.txt": "project(tool)\n",
            "LICENSE.txt": "MIT License\n",
            "src/tool.py": "def retry(request):\n    return request\n",
        }
    )
    init(capsys, root)
    docs = scopes_of((root / ".tierscope.yaml").read_text())["docs"]

    assert sorted(docs.grep_paths) == ["MANUAL.txt", "NEWS", "README"]
    hits, _ = query(capsys, root, "how often is a request retried", "--scope", "docs")
    assert [hit["source"] for hit in hits][:1] == ["MANUAL.txt"]
    hits, _ = query(capsys, root, "tool that retries failed requests", "--scope", "docs")
    assert "README" in [hit["source"] for hit in hits]


def test_r_markdown_and_quarto_pages_are_documentation(capsys, make_project):
    # dplyr's guides are vignettes/*.Rmd: init left them out, and R's own code (`R/*.R`)
    # was left out of its code scope by a `*.r` glob.
    root = make_project(
        {
            "vignettes/grouping.Rmd": "---\ntitle: Grouped data\n---\n\n## group_by()\n\n"
            "```{r}\nby_species <- starwars %>% group_by(species)\n```\n",
            "vignettes/window-functions.Rmd": "## Ranking\n\nWindow functions rank rows.\n",
            "site/intro.qmd": "# Introduction\n\nA Quarto page.\n",
            "site/setup.qmd": "# Setup\n\nInstall it.\n",
            "site/usage.qmd": "# Usage\n\nRun it.\n",
            "R/group-by.R": "group_by <- function(.data, ...) {\n  UseMethod('group_by')\n}\n",
            "R/arrange.R": "arrange <- function(.data, ...) {\n  UseMethod('arrange')\n}\n",
            "README.md": "# dplyr\n\nA grammar of data manipulation.\n",
        }
    )
    init(capsys, root)
    scopes = scopes_of((root / ".tierscope.yaml").read_text())

    assert {"vignettes/", "site/"} <= set(scopes["docs"].grep_paths)
    assert {"*.rmd", "*.qmd"} <= {glob.lower() for glob in scopes["docs"].include}
    hits, _ = query(capsys, root, "group rows by species", "--scope", "docs")
    assert [hit["source"] for hit in hits][:1] == ["vignettes/grouping.Rmd"]
    hits, _ = query(capsys, root, "group_by UseMethod", "--scope", "code")
    assert [hit["source"] for hit in hits][:1] == ["R/group-by.R"]


def test_a_small_package_beside_its_readme_and_changelog_is_code(capsys, make_project):
    # tracing's `tracing-serde/`: Cargo.toml, README.md, CHANGELOG.md and one `.rs` file;
    # its documents outvoted its source, and `as_serde` was in no scope but `all`.
    root = make_project(
        {
            "tracing-core/Cargo.toml": "[package]\nname = 'core'\n",
            **{f"tracing-core/src/part{n}.rs": f"pub fn part{n}() {{}}\n" for n in range(4)},
            "tracing-serde/Cargo.toml": "[package]\nname = 'serde'\n",
            "tracing-serde/README.md": "# tracing-serde\n\nSerialize spans.\n",
            "tracing-serde/CHANGELOG.md": "# Changes\n\n## 0.2\n\nFirst.\n",
            "tracing-serde/src/lib.rs": "pub trait AsSerde { fn as_serde(&self); }\n",
            # A docs site's package.json makes no package of its pages.
            "docs/package.json": "{}\n",
            "docs/site.config.js": "export default {}\n",
            **{f"docs/page{n}.md": f"# Page {n}\n\nText.\n" for n in range(3)},
        }
    )
    init(capsys, root)
    code = scopes_of((root / ".tierscope.yaml").read_text())["code"]
    assert "tracing-serde/" in code.grep_paths, code
    assert "docs/" not in code.grep_paths
    hits, _ = query(capsys, root, "as_serde", "--scope", "code")
    assert hits[0]["source"] == "tracing-serde/src/lib.rs"


def test_livebook_notebooks_cursor_rules_and_cheatsheets_are_markdown(capsys, make_project):
    # Elixir's Livebook notebooks (`.livemd`), ExDoc's cheatsheets (`.cheatmd`) and Cursor's
    # rules (`.mdc`) are markdown with code cells or front matter: they were in no docs
    # scope, and read as code.
    root = make_project(
        {
            "notebooks/intro.livemd": "# Tensors\n\n## Broadcasting\n\nShapes are aligned.\n",
            "notebooks/training.livemd": "# Training\n\n## Loops\n\nRun the loop.\n",
            "notebooks/serving.livemd": "# Serving\n\n## Batches\n\nBatch requests.\n",
            "rules/style.mdc": "---\ndescription: style\n---\n# Style\n\nUse two spaces.\n",
            "rules/tests.mdc": "---\ndescription: tests\n---\n# Tests\n\nWrite one per bug.\n",
            "rules/docs.mdc": "---\ndescription: docs\n---\n# Docs\n\nKeep the README.\n",
            # ExDoc's cheatsheets (Ecto's guides/cheatsheets/*.cheatmd)
            "guides/cheatsheets/query.cheatmd": "# Query\n\n## Joins\n\nJoin two schemas.\n",
            "guides/cheatsheets/crud.cheatmd": "# CRUD\n\n## Insert\n\nInsert a row.\n",
            "guides/cheatsheets/assocs.cheatmd": "# Assocs\n\n## Preload\n\nPreload one.\n",
            "lib/nx.ex": "defmodule Nx do\n  def add(a, b), do: a + b\nend\n",
        }
    )
    init(capsys, root)
    docs = scopes_of((root / ".tierscope.yaml").read_text())["docs"]

    assert {"notebooks/", "rules/", "guides/"} <= set(docs.grep_paths)
    assert "*.cheatmd" in docs.include
    assert document_kind("guides/cheatsheets/query.cheatmd") == "markdown"
    hits, _ = query(capsys, root, "how are shapes aligned when broadcasting", "--scope", "docs")
    assert [hit["source"] for hit in hits][:1] == ["notebooks/intro.livemd"]
    # Read as markdown: sections at their headings, front matter apart.
    assert {document_kind("a.livemd"), document_kind(".cursor/rules/a.mdc")} == {"markdown"}


def test_init_suggests_the_term_index_for_a_large_project(capsys, project, monkeypatch):
    from tierscope.cli import init as init_command

    code, out, _ = init(capsys, project, "--dry-run")
    assert code == 0 and "tierscope index" not in out
    code, out, _ = init(capsys, project)
    assert code == 0 and "tierscope index" not in out
    (project / ".tierscope.yaml").unlink()
    monkeypatch.setattr(init_command, "LARGE_PROJECT_FILES", 10)
    code, out, _ = init(capsys, project)
    assert code == 0
    assert "files: `tierscope index` lets each query read only the files changed" in out


def test_gherkin_features_are_documentation(capsys, make_project):
    # rspec-core's user documentation is 76 Cucumber `.feature` files in features/, beside
    # their step definitions in Ruby: init put features/ in the code scope for its `.rb`
    # files and left the features in no scope but `all`.
    feature = (
        "Feature: `{name}` hooks\n\n  `{name}` hooks run {when} each example.\n\n"
        '  Scenario: use a `{name}` hook\n    Given a file named "spec.rb" with:\n'
        '      """ruby\n      {name}(:example) {{ puts 1 }}\n      """\n'
        '    When I run `rspec spec.rb`\n    Then the output should contain "1"\n'
    )
    root = make_project(
        {
            "features/hooks/before.feature": feature.format(name="before", when="before"),
            "features/hooks/after.feature": feature.format(name="after", when="after"),
            "features/hooks/around.feature": feature.format(name="around", when="around"),
            "features/step_definitions/steps.rb": 'Given "a file" do\nend\n',
            "lib/hooks.rb": "module Hooks\n  def before(*args)\n  end\nend\n",
        }
    )
    init(capsys, root)
    docs = scopes_of((root / ".tierscope.yaml").read_text())["docs"]

    assert "features/" in docs.grep_paths
    assert "*.feature" in docs.include
    hits, _ = query(capsys, root, "hooks that run around each example", "--scope", "docs")
    assert [hit["source"] for hit in hits][:1] == ["features/hooks/around.feature"]
