"""The grep tier ranks whole files with BM25 and serves each file's best section, with
ripgrep or without it, treating every file of the tree as untrusted."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tierscope.config.model import (
    Config,
    FilteringSettings,
    GrepSettings,
    ScopeConfig,
    SnippetSettings,
)
from tierscope.dedup import deduplicate
from tierscope.models import ResolvedScope, TierStatus
from tierscope.ranking.analysis import query_terms
from tierscope.ranking.bm25 import Scorer
from tierscope.ranking.file_roles import BUILT_OUTPUT, TABLE_OF_CONTENTS_LABEL
from tierscope.ranking.matching import TermMatcher
from tierscope.ranking.name_lookup import NESTED_DEFINITION_LABEL
from tierscope.ranking.ranked_files import RankedFile
from tierscope.scopes import resolve_scope
from tierscope.tiers import grep_ripgrep
from tierscope.tiers.base import Deadline, TierRequest
from tierscope.tiers.file_hits import RELATIVE_FLOOR, FileHits
from tierscope.tiers.grep import GrepTier, find_ripgrep

from tier_projects import translated_page


@pytest.fixture(params=["ripgrep", "python"])
def engine(request, monkeypatch):
    if request.param == "python":
        monkeypatch.setenv("TIERSCOPE_GREP_ENGINE", "python")
    else:
        monkeypatch.delenv("TIERSCOPE_GREP_ENGINE", raising=False)
        if find_ripgrep() is None:
            pytest.skip("rg not available")
    return request.param


def search(root, query, paths=("docs",), private=(), config=None, timeout=5.0):
    scope = ResolvedScope("docs", (), (), tuple((root / p).resolve() for p in paths))
    request = TierRequest(query, root, scope, config or Config(), timeout, private_paths=private)
    return GrepTier().search(request, Deadline.after(timeout))


def sources(outcome) -> list[str]:
    return [hit.source for hit in outcome.hits]


def with_filtering(**changes) -> Config:
    return replace(Config(), filtering=replace(FilteringSettings(), **changes))


# ------------------------------------------------------------------------------ ranking


def test_file_matching_more_distinct_terms_ranks_first(make_project, engine):
    root = make_project(
        {
            "docs/one.md": "token token token token\n",
            "docs/both.md": "the token budget is enforced here\n",
        }
    )
    outcome = search(root, "token budget")
    assert outcome.status is TierStatus.SERVED
    assert sources(outcome) == ["docs/both.md", "docs/one.md"]
    assert all(0 <= h.score <= 1 for h in outcome.hits)
    assert outcome.hits[0].score > outcome.hits[1].score


def test_of_two_files_at_the_most_a_file_can_score_the_one_with_more_evidence_leads(
    make_project, engine
):
    # git's "what does git worktree do" served its config key's page before the
    # git-worktree manual: both scored the most a file can (1.0), and the tie went to the
    # path first in the alphabet.
    files = {
        "docs/config/worktree.md": "# worktree.guessRemote\n\nIf no branch is specified, "
        "`git worktree add` creates a new worktree\nbranch. The worktree config applies "
        "to each worktree.\n",
        "docs/git-worktree.md": "# git-worktree\n\nManage multiple working trees attached "
        "to the same repository. A git\nrepository can support multiple working trees, "
        "allowing you to check out\nmore than one branch at a time. With `git worktree "
        "add` a new worktree is\nassociated with the repository. `git worktree list` "
        "lists each worktree and\n`git worktree remove` removes a worktree.\n",
    }
    others = {
        f"docs/other{i}.md": f"# Page {i}\n\nSome other git text about commits number {i}.\n"
        for i in range(1, 13)
    }
    root = make_project({**files, **others})

    outcome = search(root, "what does git worktree do")

    assert [hit.score for hit in outcome.hits[:2]] == [1.0, 1.0]
    assert sources(outcome)[:2] == ["docs/git-worktree.md", "docs/config/worktree.md"]


def test_files_scoring_far_below_the_best_are_not_served(make_project, engine):
    # chi's "why is the RealIP middleware deprecated and what should I use instead" sent
    # SECURITY.md and an examples README for the word "use" alone.
    files = {f"docs/other{i}.md": f"# Other {i}\n\nUse it as you like.\n" for i in range(4)}
    # (its path names no query term: `realip.md` is the file named for RealIP, which counts)
    files["docs/proxies.md"] = "# RealIP\n\nThe RealIP middleware is deprecated: use ClientIP.\n"
    files["docs/middleware.md"] = "# Middleware\n\nEach middleware wraps a handler; use it.\n"
    quiet = {f"docs/quiet{i}.md": "nothing relevant\n" for i in range(20)}
    root = make_project({**files, **quiet})

    outcome = search(root, "why is the RealIP middleware deprecated, what should I use instead")

    assert sources(outcome) == ["docs/proxies.md", "docs/middleware.md"]
    best = outcome.hits[0].score
    assert all(hit.score >= RELATIVE_FLOOR * best for hit in outcome.hits)
    assert f"4 files left out: scored below {RELATIVE_FLOOR:.0%} of the best" in outcome.notes


def prose(words: int, seed: int) -> str:
    """Words holding no query term, the same for the same seed."""
    vocabulary = "the loader reads files from its search path and caches compiled code".split()
    return " ".join(vocabulary[(seed * 7 + i * 5) % len(vocabulary)] for i in range(words))


def test_a_page_whose_one_section_answers_outranks_one_spreading_the_terms(make_project, engine):
    # Jinja's "is it safe to let users write their own templates, how do I stop them":
    # sandbox.rst holds the words in one section of a long page; a shorter page held each
    # in a section of its own, more often, and ranked first by its whole-file counts.
    terms = ["safe", "users", "write", "templates", "stop"]
    answer = ["# Sandbox", ""]
    for part in range(5):
        answer += [f"## Part {part}", "", prose(90, part), ""]
    answer += ["## Untrusted templates", ""]
    for seed, term in enumerate(terms):
        answer += [f"{prose(8, seed)} {term} {prose(8, seed + 1)}", "", prose(10, seed), ""]
    spread = ["# Guide", ""]
    for seed, term in enumerate(terms):
        spread += ["## Notes", "", f"{prose(20, seed)} {term} {prose(20, seed)} {term}", ""]
    others = {f"docs/other{i}.md": f"# Other {i}\n\n{prose(50, i)}\n" for i in range(20)}
    root = make_project(
        {"docs/sandbox.md": "\n".join(answer), "docs/guide.md": "\n".join(spread), **others}
    )

    outcome = search(root, "is it safe to let users write their own templates, how do I stop them")

    assert sources(outcome)[:2] == ["docs/sandbox.md", "docs/guide.md"]


def test_a_word_alone_finds_its_definition_before_a_section_naming_it(make_project, engine):
    # Textual's `lighten` is Color.lighten; a section of the design guide names it too. One
    # word held by a short section says no more than the text does: the definition first.
    guide = ["# Design", ""]
    for part in range(6):
        guide += [f"## Part {part}", "", prose(80, part), ""]
    guide += ["## Lighten", "", "Colors lighten in steps: lighten them to taste.", ""]
    code = "class Color:\n" + "".join(
        f"    def method{n}(self):\n        return {n}\n\n" for n in range(12)
    )
    code += "    def lighten(self, amount):\n        return self.blend(WHITE, amount)\n"
    root = make_project({"docs/design.md": "\n".join(guide), "src/color.py": code})

    outcome = search(root, "lighten", paths=("docs", "src"))

    assert sources(outcome)[0] == "src/color.py"


def test_of_identical_editions_of_a_page_the_newest_is_served(make_project, engine):
    # expressjs.com's `docs/en/4x/guide/behind-proxies.mdx` and its 5x copy are the same
    # text: the copy kept was the 4x page, as the shallower-then-first path.
    page = "# Behind proxies\n\nSet the trust proxy setting to trust the proxy's headers.\n"
    others = {f"docs/en/5x/guide/other{i}.md": f"# Other {i}\n\n{prose(40, i)}\n" for i in range(5)}
    root = make_project(
        {"docs/en/4x/guide/proxies.md": page, "docs/en/5x/guide/proxies.md": page, **others}
    )

    outcome = search(root, "trust proxy setting")

    assert sources(outcome) == ["docs/en/5x/guide/proxies.md"]


def test_a_translations_original_is_served_from_the_newest_edition(make_project, engine):
    # expressjs.com's Korean 4x page was served as its English original, the 4x page,
    # over the identical 5x page already served.
    page = "# Behind proxies\n\nSet the trust proxy setting to trust the proxy's headers.\n"
    korean = "# 프록시 뒤에서\n\n`trust proxy` 설정으로 프록시 헤더를 신뢰합니다.\n"
    others = {f"docs/en/5x/guide/other{i}.md": f"# Other {i}\n\n{prose(40, i)}\n" for i in range(5)}
    root = make_project(
        {
            "docs/en/4x/guide/proxies.md": page,
            "docs/en/5x/guide/proxies.md": page,
            "docs/ko/4x/guide/proxies.md": korean,
            **others,
        }
    )

    outcome = search(root, "trust proxy setting")

    assert sources(outcome) == ["docs/en/5x/guide/proxies.md"]


def test_the_digits_of_a_name_are_no_term_of_their_own(make_project, engine):
    # `OSC52` is one name: its `52` alone would find every table of numbers.
    root = make_project(
        {
            "docs/clipboard.md": "# Clipboard\n\nSetClipboard writes with OSC52 escapes.\n",
            "docs/cities.md": "| city | 52 | 52 | 52 | 52 |\n| town | 52 | 52 | 52 |\n",
        }
    )
    outcome = search(root, "clipboard OSC52")
    assert sources(outcome) == ["docs/clipboard.md"]


def test_rarer_term_weighs_more(make_project, engine):
    files = {f"docs/common{i}.md": "rollback happens\n" for i in range(5)}
    files["docs/rare.md"] = "canary only\n"
    root = make_project(files)
    outcome = search(root, "rollback canary")
    assert outcome.hits[0].source == "docs/rare.md"


def test_rarity_counts_the_files_that_do_not_match(make_project, engine):
    quiet = {f"docs/other{i}.md": "nothing relevant\n" for i in range(30)}
    root = make_project({**quiet, "docs/a.md": "alpha alpha\n", "docs/b.md": "beta\n"})
    outcome = search(root, "alpha beta")
    assert any(note == "32 files searched" for note in outcome.notes)


def test_a_long_file_that_mentions_every_word_does_not_beat_a_focused_one(make_project, engine):
    padding = "\n".join(f"unrelated line {i} about something else" for i in range(400))
    root = make_project(
        {
            "docs/huge.md": f"retry once\n{padding}\njitter once\n",
            "docs/focused.md": "# Retry\n\nEach retry waits with jitter.\nJitter spreads load.\n",
        }
    )
    assert sources(search(root, "retry jitter"))[0] == "docs/focused.md"


def test_the_last_of_many_query_words_still_counts(make_project, engine):
    words = "alpha bravo charlie delta echo foxtrot golf hotel india"
    root = make_project(
        {
            "docs/a.md": f"{words}\n",
            "docs/b.md": f"{words} zanzibar\n",
        }
    )
    assert sources(search(root, f"{words} zanzibar"))[0] == "docs/b.md"


def test_an_identifier_asked_alone_ranks_the_files_holding_it_first(make_project, engine):
    # tokio: `TOKIO_WORKER_THREADS` gave two worker.rs files, holding only `worker` and
    # `thread`, before the lib.rs whose long module doc explains the variable.
    doc = "".join(f"//! {prose(60, seed)}\n" for seed in range(12))
    files = {
        "src/lib.rs": doc
        + "//! You can use the environment variable `MYRT_WORKER_THREADS` to override it.\n"
        + doc
        + "pub mod runtime;\n",
        "src/loom/sys.rs": (
            "pub(crate) fn num_cpus() -> usize {\n"
            '    std::env::var("MYRT_WORKER_THREADS").map_or(1, |s| s.parse().unwrap())\n}\n'
        ),
        "src/metrics/worker.rs": (
            "/// Metrics of one worker thread.\npub(crate) struct WorkerMetrics {\n"
            "    /// Time the worker thread spent busy.\n    busy: u64,\n"
            "    /// Number of tasks the worker thread stole from other worker threads.\n"
            "    steal_count: u64,\n}\n"
        ),
        "src/scheduler/worker.rs": (
            "/// A worker thread of the scheduler.\npub(crate) struct Worker {\n"
            "    /// The thread the worker runs on.\n    thread: Option<Thread>,\n}\n"
        ),
    }
    for n in range(12):
        files[f"src/other/m{n}.rs"] = f"//! Part of the myrt runtime.\n\npub fn helper_{n}() {{}}\n"
    root = make_project(files)
    found = sources(search(root, "MYRT_WORKER_THREADS", paths=("src",)))
    assert set(found[:2]) == {"src/lib.rs", "src/loom/sys.rs"}, found


def test_a_document_that_says_not_to_edit_it_ranks_below_its_sources(make_project, engine):
    # The Rust book's print edition (nostarch/chapter01.md: "DO NOT EDIT THIS FILE. This
    # file is periodically generated from the content in the /src/ directory") joins the
    # pages of a chapter: it held more of a question's words than any one page, and came
    # first.
    hello = (
        "# Hello, World!\n\nThis language is ahead-of-time compiled: you compile a program\n"
        "and give the executable to someone else, who can run it without the toolchain.\n"
    )
    cargo = (
        "# Building for Release\n\nWhen your project is ready for release, compile it with\n"
        "optimizations: `cargo build --release` makes your program run faster for users.\n"
    )
    chapter = (
        "<!-- DO NOT EDIT THIS FILE.\n\nThis file is periodically generated from the content"
        " in the `/src/`\ndirectory, so all fixes need to be made in `/src/`.\n-->\n\n"
        "# Getting Started\n\n" + hello.replace("# ", "## ") + "\n" + cargo.replace("# ", "## ")
    )
    root = make_project(
        {"docs/src/hello.md": hello, "docs/src/cargo.md": cargo, "docs/print/ch01.md": chapter}
    )
    query = "how do I compile my program with optimizations before giving it to users"
    assert sources(search(root, query))[-1] == "docs/print/ch01.md"


def test_a_sphinx_object_description_defines_the_name_it_describes(make_project, engine):
    # pytest's reference.rst (`.. envvar:: PYTEST_ADDOPTS`, `.. confval:: python_files`)
    # came after the guides naming the option; a markdown page's `## cache_dir` did not.
    entries = "".join(
        f".. confval:: {name}\n\n   Sets the {name.replace('_', ' ')} value used by the runner."
        " It is read from the\n   configuration file at start-up, and a flag may override it.\n\n"
        for name in ("cache_dir", *(f"option_{n}" for n in range(24)))
    )
    root = make_project(
        {
            "docs/reference.rst": "Configuration options\n=====================\n\n" + entries,
            "docs/guide.rst": "Caching between runs\n====================\n\nThe runner keeps its"
            " state in a folder. Set ``cache_dir`` in the\nconfiguration file to move it; the"
            " default ``cache_dir`` is ``.cache``.\n",
        }
    )
    assert sources(search(root, "cache_dir"))[0] == "docs/reference.rst"


def test_a_module_of_imports_alone_ranks_below_code_using_the_names(make_project, engine):
    # pytest's src/pytest/__init__.py, 80 lines of `from _pytest.x import Y`, was served
    # whole for "assertion rewriting import hook", the names' parts its only terms.
    imports = "".join(f"from pkg.mod{n} import Thing{n}\n" for n in range(40))
    root = make_project(
        {
            "src/pkg/__init__.py": '"""The package."""\n'
            + imports
            + "from pkg.rewrite import RewritingHook\nfrom pkg.rewrite import install_hook\n",
            "src/pkg/rewrite.py": "class RewritingHook:\n"
            '    """Import hook which rewrites asserts in test modules."""\n',
            "src/pkg/config.py": "def configure(config):\n"
            '    """Read the options; the assertion rewriting hook comes later."""\n'
            "    return config\n",
        }
    )
    found = sources(search(root, "assertion rewriting import hook", paths=("src",)))
    assert found.index("src/pkg/config.py") < found.index("src/pkg/__init__.py"), found


def test_a_ruby_file_of_requires_alone_ranks_below_code_using_the_names(make_project, engine):
    # Rails' frameworks open with a file of `require` and `autoload` lines naming every
    # part: it outranked the implementation, as pytest's imports once did.
    requires = "".join(f'require "shipping/part{n}"\n' for n in range(30))
    root = make_project(
        {
            "lib/shipping.rb": "# frozen_string_literal: true\n\n"
            + requires
            + 'require "shipping/retry_policy"\nrequire_relative "shipping/retry_policy/jitter"\n'
            "module Shipping\n  autoload :RetryPolicy\n"
            "  autoload :Jitter, 'shipping/jitter'\nend\n",
            "lib/shipping/retry_policy.rb": "module Shipping\n  class RetryPolicy\n"
            "    # Waits longer after each attempt, with jitter added to the delay.\n"
            "    def delay(attempt)\n      base * 2**attempt + jitter\n    end\n  end\nend\n",
            "lib/shipping/carrier.rb": "module Shipping\n  class Carrier\n"
            "    # Hands the parcel over; the retry policy decides when to try again.\n"
            "    def ship(parcel)\n      send(parcel)\n    end\n  end\nend\n",
        }
    )
    outcome = search(root, "retry policy jitter", paths=("lib",))
    assert sources(outcome)[0] == "lib/shipping/retry_policy.rb", sources(outcome)
    # A file of requires alone weighs as one of imports, though it holds every term.
    requiring = search(root, "shipping part retry policy", paths=("lib",))
    hit = next(hit for hit in requiring.hits if hit.source == "lib/shipping.rb")
    assert "(imports only)" in dict(hit.terms), hit.terms


def test_inflections_and_identifier_parts_are_found(make_project, engine):
    root = make_project(
        {
            "docs/a.md": "The build was retargeting the mirror.\n",
            "docs/b.py": "def dryrun_preview():\n    pass\n",
            "docs/c.ts": "const dryRunPreview = 1;\n",
            "docs/d.md": "An overview.\n",
        }
    )
    assert sources(search(root, "retargeted")) == ["docs/a.md"]
    assert sorted(sources(search(root, "preview"))) == ["docs/b.py", "docs/c.ts"]


def test_a_version_number_finds_its_changelog_section(make_project, engine):
    root = make_project(
        {
            "docs/CHANGELOG.md": (
                "# Changelog\n\n## 0.29.0 (28th January)\n\nWhat changed: retries.\n\n"
                + "- A fix in the transport.\n" * 40
                + "\n## 0.28.0 (28th November)\n\nJSON bodies are compact now.\n\n"
                + "- A fix in the client.\n" * 40
                + "\n## 0.27.0 (2nd May)\n\nWhat changed: proxies, on the 28th.\n"
            ),
            "docs/guide.md": "# Guide\n\nWhat changed in the app you run? See the log.\n",
        }
    )
    outcome = search(root, "what changed in version 0.28")
    assert sources(outcome)[0] == "docs/CHANGELOG.md"
    assert outcome.hits[0].content.startswith("## 0.28.0 (28th November)")


def test_passages_the_engine_would_serve_once_do_not_take_the_places_of_others(
    make_project, engine
):
    # Per-locale settings files show the same list under the same name: each such passage
    # after the first is dropped as a near copy, so the tier goes on to the next file
    # rather than filling its ten places with copies of one answer.
    formats = "".join(f'    "%Y-%m-{day:02d}",  # a date format\n' for day in range(1, 13))
    files = {
        f"src/conf/locale/{code}/formats.py": (
            f"# The {code} formats.\nDATE_FORMAT = '{code}'\n\n"
            + "# Default date input formats, tried in order.\nDATE_INPUT_FORMATS = [\n"
            + formats
            + "]\n"
        )
        for code in ("ar", "bg", "cs", "da", "de", "el", "es", "fi", "fr", "hu", "it", "nl")
    }
    files["src/conf/global_settings.py"] = (
        "".join(f"SETTING_{n} = {n}  # another setting\n" for n in range(200))
        + "# Default formats to use when parsing dates from input boxes.\n"
        + "DATE_INPUT_FORMATS = [\n"
        + "".join(f'    "%d.%m.{year}",  # another format\n' for year in range(12))
        + "]\n"
    )
    root = make_project(files)

    outcome = search(root, "DATE_INPUT_FORMATS default", paths=("src",))

    assert deduplicate(outcome.hits)[1] == 0
    assert "src/conf/global_settings.py" in sources(outcome)


def test_a_key_combination_finds_the_passage_naming_that_key(make_project, engine):
    root = make_project(
        {
            "docs/input.md": (
                "# Input\n\n## Aliases\n\nSome keys produce the same event: ++tab++ is "
                "indistinguishable from ++ctrl+i++ in the terminal.\n\n"
                + "Filler about widgets and layout.\n"
                * 40
                + "\n## Focus\n\nPress ++tab++ to move focus; the app sees the key and you "
                "see the focus move. Press ++shift+tab++ to go back, ++ctrl+c++ to copy.\n"
                + "More on focus and the app.\n"
                * 30
            ),
        }
    )
    outcome = search(root, "why does my app see ctrl+i when I press the tab key?")
    assert "indistinguishable from ++ctrl+i++" in outcome.hits[0].content


@pytest.mark.parametrize(
    ("files", "found"),
    [
        # British and American spellings, either way.
        (
            {"us.md": "Set the background color of the widget.\n",
             "uk.md": "Centre the label in its container.\n"},
            {"which colour": ["docs/us.md"], "center it": ["docs/uk.md"]},
        ),
        # An abbreviation finds the word it stands for; the word not its abbreviation.
        (
            {"queue.md": "Each message waits in the queue.\n",
             "short.md": "Read the env first.\n"},
            {"msg": ["docs/queue.md"], "environment": []},
        ),
        # An everyday word finds the technical word documentation uses; not the other way.
        (
            {"paths.md": "Hidden directories are left out.\n",
             "folder.md": "Pick a folder.\n"},
            {"hidden folders": ["docs/paths.md", "docs/folder.md"],
             "directories": ["docs/paths.md"]},
        ),
    ],
)  # fmt: skip
def test_a_word_finds_its_other_forms(make_project, engine, files, found):
    root = make_project(
        {**{f"docs/{name}": text for name, text in files.items()}, "docs/other.md": "Nothing.\n"}
    )
    assert {query: sources(search(root, query)) for query in found} == found


def test_a_table_of_contents_ranks_below_the_pages_that_say_something(make_project, engine):
    # mdBook's SUMMARY.md names every page in a line: the page a question is about, and a
    # page that says something of it, come first.
    chapters = "".join(f"- [Chapter {n}](chapter-{n}.md)\n" for n in range(20))
    prose = "".join(f"Rendering detail {n} of the book's pages.\n" for n in range(30))
    root = make_project(
        {
            "docs/SUMMARY.md": f"# Summary\n\n{chapters}- [MathJax support](mathjax.md)\n",
            "docs/mathjax.md": "# MathJax support\n\nTurn on MathJax in the book's config.\n",
            "docs/renderers.md": f"# Renderers\n\n{prose}The HTML renderer can load MathJax.\n",
        }
    )
    outcome = search(root, "MathJax")
    # The contents come last, if at all (below 30% of the best: mathjax.md's name holds
    # the name asked and its parts).
    assert sources(outcome)[:2] == ["docs/mathjax.md", "docs/renderers.md"]
    assert sources(outcome)[2:] in ([], ["docs/SUMMARY.md"])


def test_a_manual_pages_list_of_option_names_ranks_below_the_page_that_explains_one(
    make_project, engine
):
    # OpenSSH's scp.1 lists the options `-o` passes on, one bare name each
    # (`.It StrictHostKeyChecking`), pointing at ssh_config(5). Nine times shorter, it
    # ranked above ssh_config.5, whose entry says what the option does.
    names = "".join(f".It Option{n}\n" for n in range(40))
    listing = (
        ".Dd 2026\n.Dt SCP 1\n.Sh NAME\n.Nm scp\n.Sh DESCRIPTION\n"
        # Its other lines say host and key, the name's parts: the name alone is listed bare.
        + "".join(f"Copies files between hosts, the {n}th host key checked.\n" for n in range(6))
        + ".Bl -tag -width Ds\n"
        ".It Fl o Ar option\nPass options to ssh in the format used in\n.Xr ssh_config 5 .\n"
        f".Pp\n.Bl -tag -width Ds -offset indent -compact\n{names}"
        ".It StrictHostKeyChecking\n.It TCPKeepAlive\n.El\n.El\n"
    )
    prose = "".join(f"Other setting {n} changes how the client connects.\n" for n in range(120))
    reference = (
        f".Dd 2026\n.Dt SSH_CONFIG 5\n.Sh DESCRIPTION\n{prose}.Bl -tag -width Ds\n"
        ".It Cm StrictHostKeyChecking\nIf this flag is set to\n.Cm yes ,\n"
        "never add host keys automatically and refuse to connect to hosts whose host key has\n"
        "changed (StrictHostKeyChecking guards against attacks).\n.El\n"
    )
    root = make_project({"docs/scp.1": listing, "docs/ssh_config.5": reference})
    outcome = search(root, "what does StrictHostKeyChecking do")
    assert sources(outcome) == ["docs/ssh_config.5", "docs/scp.1"]


def test_a_page_that_says_it_moved_ranks_below_the_page_it_points_at(make_project, engine):
    # The Rust book keeps its first edition's pages as stubs pointing at the current one;
    # nine lines titled "Ownership", they ranked first for "what is ownership". pip's
    # reference pages and kotlinx.coroutines' docs say "This page has moved" too.
    stub = (
        "# Ownership\n\nThe first edition of the book is no longer distributed with Rust's\n"
        "documentation. You may want to check out [the current version](../ch04.html).\n"
    )
    prose = "".join(f"Rule {n}: each value has an owner, one at a time.\n" for n in range(60))
    chapter = f"# Understanding Ownership\n\nOwnership is what Rust is known for.\n{prose}"
    pip = "This page has moved\n===================\n\nYou should be reading :doc:`../cli/pip`.\n"
    install = "# pip install\n\n" + "Install packages from an index or a local path.\n" * 40
    root = make_project(
        {
            "docs/first-edition/ownership.md": stub,
            "docs/ch04-ownership.md": chapter,
            "docs/reference/pip_install.rst": pip,
            "docs/cli/pip_install.md": install,
        }
    )
    assert sources(search(root, "what is ownership"))[:2] == [
        "docs/ch04-ownership.md",
        "docs/first-edition/ownership.md",
    ]
    assert sources(search(root, "pip install"))[0] == "docs/cli/pip_install.md"
    # Longer, with the old page's gist quoted, it says so in its opening lines.
    quoted = "".join(f"> Each value has an owner: rule {n}.\n" for n in range(50))
    redirect = (
        f"% Ownership\n\nThere is a new edition of the book and this is an old link.\n{quoted}"
    )
    root = make_project(
        {"docs/redirects/ownership.md": redirect, "docs/ch04-ownership.md": chapter}
    )
    assert sources(search(root, "what is ownership"))[0] == "docs/ch04-ownership.md"
    # A page saying what moved where, in its own words, is still an answer.
    notes = (
        "# Configuration\n\nThe `color` option has been moved to the `[display]` table.\n"
        "Write `display.color = true` instead.\n"
    )
    long_page = "# Options\n\n" + "The display table holds other options.\n" * 40
    root = make_project({"docs/config.md": notes, "docs/options.md": long_page})
    assert sources(search(root, "color option moved"))[0] == "docs/config.md"
    # pytest's page of fixtures says most of it moved, and lists them.
    fixtures = "".join(
        f"tmp_path_{n}\n    A temporary directory for each test.\n" for n in range(30)
    )
    partly = (
        "Builtin fixtures\n================\n\n"
        f"Most of the information of this page has been moved over to :ref:`api`.\n\n{fixtures}"
    )
    root = make_project({"docs/builtin.rst": partly, "docs/options.md": long_page})
    outcome = search(root, "temporary directory fixture")
    assert sources(outcome) == ["docs/builtin.rst"]
    assert "(page moved)" not in dict(outcome.hits[0].terms)


def test_words_inside_an_html_tags_attributes_do_not_count(make_project, engine):
    # A sponsors page styled inline says `font-size` on every line: no answer about sizes.
    sponsors = "".join(
        f'<p align="center" style="font-size: 2em"><a href="https://x.org/{n}">Sponsor {n}</a>\n'
        for n in range(8)
    )
    root = make_project(
        {
            "docs/sponsorship.md": f"# Sponsors\n\n{sponsors}",
            "docs/threads.md": "# Threads\n\n"
            + "Work runs in a thread.\n" * 30
            + "The thread pool size is 40 by default.\n",
            "docs/other.md": "# Other\n\nNothing about it.\n",
        }
    )
    outcome = search(root, "thread pool size")
    assert sources(outcome) == ["docs/threads.md"]
    # Words between tags still count: `Sponsor` is the page's text.
    assert sources(search(root, "sponsor"))[0] == "docs/sponsorship.md"


def test_words_of_an_html_tag_written_over_lines_do_not_count(make_project, engine):
    # pydantic's index page: a newsletter form whose `<input` spreads its attributes over
    # lines (`placeholder="Email"`, `type="email"`) answered "email validation".
    form = (
        '<form method="POST" action="https://example.com/submit">\n  <input\n'
        '    type="email"\n    name="email"\n    placeholder="Email address"\n'
        '    class="md-input md-input--stretch"\n  />\n</form>\n'
    )
    root = make_project(
        {
            "docs/index.md": "# Welcome\n\nSubscribe to our news.\n\n" + form,
            "docs/validators.md": "# Validators\n\n"
            + "Fields are checked on input.\n" * 30
            + "Email validation needs the email-validator package.\n",
            "docs/other.md": "# Other\n\nNothing about it.\n",
        }
    )
    assert sources(search(root, "email validation")) == ["docs/validators.md"]
    assert sources(search(root, "subscribe"))[0] == "docs/index.md"


@pytest.mark.parametrize(
    "marked",
    [
        # Laravel's docs: `#### `binary()` {.collection-method}` on every method.
        "#### `binary()` {.collection-method .first-collection-method}\n\nA blob.\n",
        # pydantic's docs: attributes on a fence (`python {test="skip" upgrade="skip"}`).
        '```python {test="skip" lint="skip"}\nx = 1\n```\n',
        "## Binary columns { #collection-method }\n\nA blob.\n",
        # mkdocs-autorefs' anchor: an empty link with an attribute list.
        "[](){#collection-method}\n\n## Binary columns\n\nA blob.\n",
        "Some text.\n{: #collection-method .note }\n",
    ],
)
def test_the_words_of_an_attribute_list_do_not_count(make_project, engine, marked):
    root = make_project(
        {
            "docs/columns.md": "# Columns\n\n" + marked * 6,
            "docs/collections.md": "# Collections\n\n"
            + "Collections wrap arrays.\n" * 30
            + "Each collection method returns a new collection.\n",
            "docs/other.md": "# Other\n\nNothing about it.\n",
        }
    )
    assert sources(search(root, "collection method")) == ["docs/collections.md"]
    assert sources(search(root, "skip")) == []


def test_a_caption_or_an_images_alternative_text_counts(make_project, engine):
    # The Rust book captions its listings (`<Listing number="8-25" caption="Counting
    # occurrences of words ...">`): `occurrences` alone found nothing.
    root = make_project(
        {
            "docs/maps.md": "## Updating a Value\n\n"
            '<Listing number="8-25" style="x" caption="Counting occurrences of words">\n\n'
            "```rust\nlet map = HashMap::new();\n```\n\n</Listing>\n",
            "docs/tree.md": '# Trees\n\n<img src="tree.png" alt="A treemap of disk usage">\n',
            "docs/other.md": "# Other\n\nNothing about it.\n",
        }
    )
    assert sources(search(root, "occurrences")) == ["docs/maps.md"]
    assert sources(search(root, "treemap")) == ["docs/tree.md"]


def test_the_path_of_an_mdbook_include_does_not_count(make_project, engine):
    # The Rust book: `managing growing projects` gave first a page whose prose never says
    # so, only its `{{#rustdoc_include ../listings/ch07-managing-growing-projects/...}}`.
    include = "{{#rustdoc_include ../listings/ch07-managing-growing-projects/l%d/src/main.rs}}"
    root = make_project(
        {
            "docs/ch07-04.md": "# Bringing Paths into Scope\n\nThe use keyword.\n\n"
            + "".join(f"```rust\n{include % n}\n```\n\n" for n in range(3)),
            "docs/ch07-00.md": "# Managing Growing Projects with Packages\n\nAs you write "
            "large programs, organizing your code becomes important.\n",
            "docs/other.md": "# Other\n\nUnrelated.\n",
        }
    )
    assert sources(search(root, "managing growing projects")) == ["docs/ch07-00.md"]


def test_words_in_an_html_comment_do_not_count(make_project, engine):
    # Node's API docs keep each function's history in a `<!-- YAML ... -->` comment: a
    # page naming an option only there (it was removed) outranked the page explaining it.
    unrelated = {f"docs/c{n}.md": f"# C{n}\n\nUnrelated text {n}.\n" for n in range(4)}
    root = make_project(
        {
            **unrelated,
            "docs/alpha.md": "# Alpha\n\n## `alpha.open()`\n\n<!-- YAML\nchanges:\n"
            "  - version: v1.0.0\n    description: The `zebrafish` option was removed.\n"
            "  - version: v0.9.0\n    description: Added `zebrafish` option, zebrafish.\n"
            "-->\n\nOpens the alpha.\n",
            "docs/beta.md": "# Beta\n\n## `beta.open()`\n\n"
            + "Opens the beta, as other things do.\n" * 10
            + "The zebrafish option makes beta swim.\n",
        }
    )

    outcome = search(root, "zebrafish option")

    assert sources(outcome)[0] == "docs/beta.md"
    # The lines under a comment keep their numbers: the answer's line is served.
    assert "The zebrafish option makes beta swim." in outcome.hits[0].content
    assert sources(search(root, "opens the alpha"))[0] == "docs/alpha.md"


def test_words_in_a_links_target_do_not_count(make_project, engine):
    # Rust by Example's "question mark operator": two pages whose only such words were a
    # link's target (`[q_mark]: https://...#the-question-mark-operator`,
    # `[q_mark]: ../std/result/question_mark.md`) came first, served as the links.
    linking = "".join(f"See [the other page][p{n}] for more.\n" for n in range(6))
    root = make_project(
        {
            "docs/reenter.md": "# Other uses\n\n"
            + linking
            + "\n[q_mark]: https://doc.rust-lang.org/reference/operator-expr.html"
            "#the-question-mark-operator\n",
            "docs/list.md": "# Lists\n\nSee also [`?`](../std/result/question_mark.md).\n",
            "docs/question_mark.md": "# Other uses of `?`\n\n"
            + "Code runs here.\n" * 30
            + "The question mark operator returns early with the error.\n",
            "docs/other.md": "# Other\n\nNothing about it.\n",
        }
    )

    outcome = search(root, "question mark operator")

    assert sources(outcome) == ["docs/question_mark.md"]
    # Words a link shows still count.
    assert sources(search(root, "other page"))[0] == "docs/reenter.md"


def test_words_in_a_link_definition_over_two_lines_do_not_count(make_project, engine):
    # The Rails Guides write 392 of their link definitions with the target on the next
    # line (`[`decrement_counter`]:` then an indented URL): `CounterCache` in the URLs
    # put the callbacks guide among the answers to "counter cache".
    root = make_project(
        {
            "docs/callbacks.md": "# Callbacks\n\n"
            + "".join(f"Skip callback number {n} with [`skip_{n}`].\n" for n in range(6))
            + "\n[`skip_1`]:\n    https://api.example.org/classes/CounterCache/ClassMethods.html"
            "#method-i-skip\n",
            "docs/associations.md": "# Associations\n\n"
            + "Associations tie models together.\n" * 30
            + "The counter cache option keeps a count of the records.\n",
            "docs/other.md": "# Other\n\nNothing about it.\n",
        }
    )

    assert sources(search(root, "counter cache")) == ["docs/associations.md"]


def test_emoji_shortcodes_do_not_count(make_project, engine):
    # urfave/cli's contributing guide lists versions as `- :arrow_right: [v3.x](...)`:
    # its `right` put it first for "get the right spelling for a mistyped subcommand".
    root = make_project(
        {
            "docs/contributing.md": "# Contributing\n\n"
            + "".join(
                f"- :arrow_right: [v{n}.x](./v{n}/index.md) :white_check_mark:\n" for n in range(3)
            )
            + "Talk to us before large changes.\n",
            "docs/suggestions.md": "# Suggestions\n\n"
            + "Spell it right: the app suggests a command close to a mistyped one.\n"
            + "Suggestions are off by default.\n" * 8,
            "docs/other.md": "# Other\n\nNothing about it. Times like 10:30:45 stay.\n",
        }
    )
    assert sources(search(root, "right arrow")) == ["docs/suggestions.md"]
    # Words between colons that are no shortcode still count.
    assert sources(search(root, "10:30:45"))[0] == "docs/other.md"


def test_a_container_directives_name_does_not_count(make_project, engine):
    # mocha's Starlight pages open `:::note[New in v7.1.0]` asides on most pages: `note`
    # put them above the pending-tests page for "note down a test to write later".
    # Docusaurus writes `:::tip`, VitePress `::: warning`, MyST `:::{note}`; a title after
    # the name is shown, and counts.
    asides = "".join(
        f"{opener}\nTimeouts apply to hooks as well, number {n}.\n:::\n\n"
        for n, opener in enumerate(
            [":::note[New in v7.1.0]", ":::note", "::: note", ":::{note}", ":::caution"] * 2
        )
    )
    root = make_project(
        {
            "docs/timeouts.md": f"# Timeouts\n\nA test fails when it runs too long.\n\n{asides}",
            "docs/pending.md": "# Pending tests\n\nA test with no callback is pending: a "
            "note to write it later.\n",
            "docs/other.md": "# Other\n\nNothing here.\n",
        }
    )
    assert sources(search(root, "note a test to write later"))[0] == "docs/pending.md"
    assert sources(search(root, "note"))[0] == "docs/pending.md"
    # The title shown after the name still counts.
    assert sources(search(root, "new in v7.1.0"))[0] == "docs/timeouts.md"


def test_a_few_lines_linking_to_the_page_that_answers_rank_below_it(make_project, engine):
    # urfave/cli's `v2/migrating-to-v3.md`: four lines ending "Specific steps are included
    # in [Migration Guide: v2 to v3](../migrate-v2-to-v3.md)" came before that guide for
    # "migrate cli.Context v3".
    examples = {
        f"docs/v3/example-{n}.md": f"# Example {n}\n\nUse `cli.Command` with a `context.Context`"
        f" in v3, step {n}.\n"
        for n in range(12)
    }
    guide = (
        "# Migration Guide: v2 to v3\n\nv3 has breaking changes; migrating is easy.\n\n"
        + "".join(
            f"## Change {n}\n\nIn v2 you wrote `cli.App` number {n}; in v3 write `cli.Command`.\n\n"
            for n in range(12)
        )
        + "## cli.Context\n\n`cli.Context` is gone in v3: actions take a `context.Context`.\n"
    )
    root = make_project(
        {
            **examples,
            "docs/migrate-v2-to-v3.md": guide,
            "docs/v2/migrating-to-v3.md": "There are a few breaking changes in v3.\n"
            "Migrating takes less than an hour. Specific steps are included in\n"
            "[Migration Guide: v2 to v3](../migrate-v2-to-v3.md).\n",
        }
    )
    assert sources(search(root, "migrate cli.Context v3"))[0] == "docs/migrate-v2-to-v3.md"


def test_a_short_page_with_an_aside_link_or_its_own_example_is_no_referral(make_project, engine):
    # sinon's stubs/api/with-args.md, three lines with "(see [matchers](/matchers/))" and
    # an example included below them, and MiniJinja's examples/autoreload/README.md, whose
    # prose links to its templates/ folder above a console block: each is the answer, and
    # was demoted as a table of contents (52 of sinon's 240 pages).
    guide = (
        "# Overview\n\n"
        + "".join(
            f"A stub replaces a function, and the stub can answer for the arguments {n}.\n\n"
            for n in range(6)
        )
        + "Each stub can act differently once it is told to.\n"
    )
    root = make_project(
        {
            "docs/guide/overview.md": guide,
            "docs/api/with-args.md": "# `stub.withArgs()`\n\n"
            "Stubs the method only for the provided arguments, so a stub can act differently"
            " for different arguments.\n\n"
            "Uses deep comparison for objects (see [matchers](/matchers/)).\n\n"
            "<<< ../tests/with-args.test.js\n",
            "docs/examples/reload/README.md": "# reload\n\n"
            "While the example runs, edit the templates in the [templates](templates)"
            " folder to see them reload.\n\n```console\n$ cargo run\n```\n",
            "docs/examples/hello/README.md": "# hello\n\nRenders the templates once, and an edit"
            " to the templates is never seen: no reload.\n",
        }
    )
    assert sources(search(root, "stub arguments act differently"))[0] == "docs/api/with-args.md"
    assert sources(search(root, "edit templates reload"))[0] == "docs/examples/reload/README.md"


def test_the_names_a_diagram_repeats_on_each_arrow_count_once(make_project, engine):
    # Uvicorn's websockets page: its mermaid sequence diagram names `Client`, `Server` and
    # `ASGI App` on every arrow and note, and outranked the page on exceptions for "what
    # status code does the client get if my app crashes after it started the response";
    # its snippet was the middle of the diagram.
    arrows = "".join(
        f"    Client->>Server: frame {n}\n    Server->>App: event {n}\n"
        f"    Note right of Client: Upgrade {n}\n    App-->>Client: reply {n}, status 101\n"
        for n in range(6)
    )
    diagram = "```mermaid\nsequenceDiagram\n    participant Client\n    participant Server\n"
    root = make_project(
        {
            "docs/handshake.md": f"# Handshake\n\nHow a connection is upgraded:\n\n{diagram}"
            + arrows
            + '    App->>Server: {"type": "http.response.start", "status": 403}\n'
            + "```\n\nThe handshake ends with a status of 101.\n",
            "docs/errors.md": "# Server behaviour\n\n## Exceptions\n\n"
            "If an exception is raised before a response starts, a 500 error is sent. "
            "Once the response has started, the status code already sent stands.\n\n"
            + "".join(
                f"## Setting {n}\n\nThe buffer limit {n} pauses reading the body until the "
                "transport drains below the low water mark again.\n\n"
                for n in range(8)
            ),
            "docs/index.md": "# Welcome\n\nA small server for web apps.\n",
        }
    )
    query = "what status code does the client get if my app crashes after it started the response"
    outcome = search(root, query)
    assert sources(outcome)[0] == "docs/errors.md"
    # A word the diagram says in its labels still finds it.
    found = search(root, "frame reply")
    assert sources(found)[0] == "docs/handshake.md"


@pytest.mark.parametrize("suffix", [".rst", ".txt", ".md"])
def test_restructuredtext_markup_words_do_not_count(make_project, engine, suffix):
    # Django's docs: a page whose only "code" was its `.. code-block::` lines outranked
    # the page that answers; one naming `bulk_create` only in role targets
    # (:meth:`caveats <...QuerySet.bulk_create>`) outranked the one explaining it.
    rows = "".join(f"Row {n}: related topics such as forms and views.\n" for n in range(12))
    root = make_project(
        {
            f"docs/queries{suffix}": "Queries\n=======\n\nRun these after a model is saved.\n\n"
            + "".join(
                f".. code-block:: python\n\n    Entry.objects.get(pk={n})\n\n" for n in range(8)
            ),
            f"docs/signals{suffix}": "Signals\n=======\n\n"
            + rows
            + "\nTo run code after a model is saved, connect a receiver to post_save.\n",
            f"docs/links{suffix}": "Links\n=====\n\n"
            + rows
            + "\nSee the :meth:`caveats <django.db.models.query.QuerySet.bulk_create>` and\n"
            + "the :meth:`notes <django.db.models.query.QuerySet.bulk_create>` first.\n",
            f"docs/reference{suffix}": "Reference\n=========\n\n"
            + rows
            + "\nThe bulk_create method inserts many objects in one query.\n",
        }
    )

    assert sources(search(root, "run code after a model is saved"))[0] == f"docs/signals{suffix}"
    assert sources(search(root, "bulk_create"))[0] == f"docs/reference{suffix}"
    # A directive's argument and a role's text still count.
    assert sources(search(root, "caveats notes"))[0] == f"docs/links{suffix}"


def test_front_matter_settings_and_a_title_repeating_the_heading_do_not_count(make_project, engine):
    # vitest's VitePress pages: `title: In-Source Testing | Guide` over `# In-Source
    # Testing` counted the heading's words again (12% more score than the same page
    # titled otherwise); fiber's Docusaurus pages: an `id:` spelling the title.
    body = "\n# In-Source Testing\n\nVitest can run tests inside your source files.\n"
    root = make_project(
        {
            "docs/repeated.md": "---\ntitle: In-Source Testing | Guide\n"
            "id: in-source-testing\noutline: deep\n---\n" + body,
            "docs/other.md": "---\ntitle: Zz-Zzzzzz Zzzzzzz | Zzzzz\n"
            "id: zz-zzzzzz-zzzzzzz\noutline: deep\n---\n" + body.replace("can", "may"),
            "docs/unrelated.md": "# Elsewhere\n\nNothing about it.\n",
        }
    )

    outcome = search(root, "in-source testing")

    assert sorted(sources(outcome)) == ["docs/other.md", "docs/repeated.md"]
    assert outcome.hits[0].score == outcome.hits[1].score


def test_a_front_matter_title_and_summaries_a_reader_reads_count(make_project, engine):
    # Textual's FAQ pages have no heading: a title and alternative titles are their only
    # words on the question; pandoc's manuals are titled above `# Introduction`.
    filler = "".join(f"Filler line {n} about other things.\n" for n in range(10))
    root = make_project(
        {
            "docs/images.md": '---\ntitle: "Does Textual support images?"\nalt_titles:\n'
            '  - "Can Textual display PNG files?"\n---\n\nNot yet: see the roadmap.\n',
            "docs/writers.md": "---\ntitle: Creating Custom Writers in Lua\n---\n\n"
            f"# Introduction\n\n{filler}",
            "docs/other.md": f"# Other\n\n{filler}",
        }
    )

    assert sources(search(root, "display png"))[0] == "docs/images.md"
    assert sources(search(root, "custom writers"))[0] == "docs/writers.md"


def test_the_words_of_mdx_imports_do_not_count(make_project, engine):
    # fiber's Docusaurus pages import their components (`import RoutePlayground from
    # '@site/src/components/route-playground';`).
    root = make_project(
        {
            "docs/matcher.md": "import RoutePlayground from '@site/src/components/playground';\n"
            "import {\n  TabGroup,\n} from '@theme/Tabs';\n\nEdit the table and watch.\n",
            "docs/other.md": "# Other\n\nNothing about it.\n",
        }
    )

    assert sources(search(root, "route playground")) == []
    assert sources(search(root, "tab group")) == []
    assert sources(search(root, "edit the table")) == ["docs/matcher.md"]


def test_the_words_of_script_and_style_blocks_do_not_count(make_project, engine):
    # vitest's VitePress pages import their components in a `<script setup>` block;
    # Laravel's style their method lists in a `<style>` block.
    root = make_project(
        {
            "docs/features.md": "# Overview\n\n<script setup>\n"
            "import FeaturesList from './components/FeaturesList.vue'\n</script>\n\n"
            "<style>\n.method-list { columns: 3 }\n</style>\n\nVitest runs tests.\n",
            "docs/other.md": "# Other\n\nNothing about it.\n",
        }
    )

    assert sources(search(root, "features list")) == []
    assert sources(search(root, "method columns")) == []
    assert sources(search(root, "vitest runs tests")) == ["docs/features.md"]


def test_the_names_of_tags_and_components_do_not_count(make_project, engine):
    # vitest's team page is a `<script setup>` and `<VPTeamPage>`, `<VPTeamMembers
    # :members="teamMembers" />` tags: it outranked the section on team members.
    root = make_project(
        {
            "docs/team.md": "<script setup>\nimport { VPTeamMembers } from 'vitepress/theme'\n"
            "import { coreMembers } from './contributors'\n</script>\n\n<VPTeamPage>\n"
            '  <VPTeamMembers :members="coreMembers" />\n  <TeamMembers/>\n</VPTeamPage>\n',
            "docs/governance.md": "# Governance\n\n## Who reviews\n\n"
            + "Pull requests are reviewed before a release.\n" * 10
            + "The core team members cut releases.\n",
            "docs/other.md": "# Other\n\nNothing about it.\n",
        }
    )

    assert sources(search(root, "team members")) == ["docs/governance.md"]


def test_imports_and_tags_written_as_code_still_count(make_project, engine):
    root = make_project(
        {
            "docs/tabs.md": "# Tabs\n\nWrap the panes in `<TabPanes>`:\n\n```js\n"
            "import TabGroup from '@theme/TabGroup';\n```\n",
            "docs/other.md": "# Other\n\nNothing about it.\n",
        }
    )

    assert sources(search(root, "tab panes")) == ["docs/tabs.md"]
    assert sources(search(root, "tab group")) == ["docs/tabs.md"]


def test_a_definition_spelt_in_another_case_is_not_the_name_asked_for(make_project, engine):
    # `mergePath` asked: the type `MergePath` is another name (TypeScript and Go tell case).
    helpers = "".join(f"export const helper{n} = (x: string) => x + '{n}'\n" for n in range(8))
    types = "".join(f"export type Schema{n}<T> = {{ value: T; index: {n} }}\n" for n in range(5))
    root = make_project(
        {
            "docs/types.ts": types + "export type MergePath<A extends string, B> = `${A}${B}`\n",
            "docs/url.ts": helpers
            + "export const mergePath = (base: string, sub: string): string => {\n"
            + "  return base.replace(/\\/$/, '') + '/' + sub.replace(/^\\//, '')\n}\n",
            **{f"docs/use{n}.ts": "import { mergePath } from './url'\n" for n in range(6)},
        }
    )
    assert sources(search(root, "mergePath"))[0] == "docs/url.ts"
    # A query in one case only names any spelling.
    assert "docs/types.ts" in sources(search(root, "mergepath"))[:2]


CODE_AND_ITS_TESTS = {
    "src/budget.py": (
        "def pack(hits, budget):\n"
        '    """Pack hits into the token budget: a hit that does not fit is skipped."""\n'
        "    return [hit for hit in hits if hit.tokens <= budget]\n"
    ),
    "tests/test_budget.py": "".join(
        f"def test_pack_{n}():\n    assert pack(hits, budget={n}) == []  # token budget\n"
        for n in range(6)
    ),
}


def test_a_question_about_tests_ranks_test_files_by_their_text(make_project, engine):
    root = make_project(CODE_AND_ITS_TESTS)
    outcome = search(root, "tests of the token budget", paths=("src", "tests"))
    assert sources(outcome) == ["tests/test_budget.py", "src/budget.py"]
    assert "(test file)" not in dict(outcome.hits[0].terms)


GUIDE_AND_A_POST = {
    "docs/guide/workers.md": (
        "# Workers\n\nRun slow work in a worker so the app keeps responding: call\n"
        "run_worker with the function that fetches data.\n" + "More about the app.\n" * 30
    ),
    "docs/blog/posts/responsive-app.md": (
        "# Keeping the app responding\n\nOur slow app fetched data and froze. A worker\n"
        "fetches the data now, and the app keeps responding: slow data, fast app.\n"
    ),
}


CODE_AND_AN_EXAMPLE = {
    "src/router.py": "class Router:\n    def match(self, path):\n"
    "        # Find the handler for a path.\n        return self.routes.get(path)\n"
    + "".join(f"    def helper_{i}(self):\n        return {i}\n" for i in range(20)),
    "src/examples/router_demo.py": "router = Router()\nrouter.add('/', handler)\n"
    "# The router matches the path to its handler.\nprint(router.match('/'))\n",
}


@pytest.mark.parametrize(
    ("files", "query", "paths", "order", "label"),
    [
        pytest.param(
            CODE_AND_ITS_TESTS, "how is the token budget applied to hits", ("src", "tests"),
            ["src/budget.py", "tests/test_budget.py"], "(test file)", id="test-file",
        ),
        pytest.param(
            CODE_AND_AN_EXAMPLE, "how does the router match a path to its handler", ("src",),
            ["src/router.py", "src/examples/router_demo.py"], "(example)", id="example",
        ),
        pytest.param(
            GUIDE_AND_A_POST, "keep the app responding while a slow worker fetches data",
            ("docs",), ["docs/guide/workers.md", "docs/blog/posts/responsive-app.md"],
            "(dated post)", id="dated-post",
        ),
    ],
)  # fmt: skip
def test_a_demoted_file_ranks_below_the_one_it_repeats(
    make_project, engine, files, query, paths, order, label
):
    """A test file below the code it tests; an example below the code it uses; a blog
    post below the guide on its words."""
    outcome = search(make_project(files), query, paths=paths)
    assert sources(outcome) == order
    demoted = dict(outcome.hits[1].terms)
    assert demoted[label] < 0
    assert sum(demoted.values()) == pytest.approx(outcome.hits[1].score, abs=1e-3)


def test_of_two_editions_showing_one_passage_the_newest_is_served(make_project, engine):
    """urfave/cli's v3 docs renamed v2's `combining-short-options.md`: the same paragraph
    in both, the v2 page (its path shallower) was served and the current one left out."""
    paragraph = (
        "# Combining short options\n\nSuppose you want users to be able to combine options\n"
        "with their short names: set `UseShortOptionHandling` on the command.\n"
    )
    root = make_project(
        {
            "docs/v1/examples/combining-short-options.md": paragraph,
            "docs/v2/examples/combining-short-options.md": paragraph,
            "docs/v3/examples/flags/short-options.md": paragraph,
        }
    )
    outcome = search(root, "combine short options")
    assert sources(outcome) == ["docs/v3/examples/flags/short-options.md"]


def test_a_question_about_the_blog_ranks_posts_by_their_text(make_project, engine):
    root = make_project(GUIDE_AND_A_POST)
    outcome = search(root, "blog post about a slow app that fetches data")
    assert sources(outcome)[0] == "docs/blog/posts/responsive-app.md"
    assert "(dated post)" not in dict(outcome.hits[0].terms)


GUIDE_AND_A_POST_NAMED_FOR_IT = {
    "docs/guide/devtools.md": (
        "# Devtools\n\nServe your app in the browser and watch it live.\n\n"
        "## Memory\n\nTo find where memory goes, use a memory profiler such as memray,\n"
        "profiling the app while it runs live.\n" + "More about the devtools.\n" * 10
    ),
    "docs/blog/posts/remote-memray.md": (
        "---\ndate: 2024-01-05\n---\n\n# Remote memory profiling with Memray\n\n"
        "Memray has a live view; serve it over the web and open it in a browser.\n"
    ),
}


def test_a_post_titled_for_the_question_is_not_demoted(make_project, engine):
    """A post whose title is most of the question is the page about it."""
    root = make_project(GUIDE_AND_A_POST_NAMED_FOR_IT)
    outcome = search(root, "memray live memory profiling in the browser")
    assert sources(outcome) == ["docs/blog/posts/remote-memray.md", "docs/guide/devtools.md"]
    assert "(dated post)" not in dict(outcome.hits[0].terms)


def test_a_post_whose_title_holds_one_word_of_the_question_is_demoted(make_project, engine):
    files = dict(GUIDE_AND_A_POST_NAMED_FOR_IT)
    files["docs/blog/posts/remote-memray.md"] = files["docs/blog/posts/remote-memray.md"].replace(
        "# Remote memory profiling with Memray", "# Memray and us"
    )
    outcome = search(make_project(files), "memray live memory profiling in the browser")
    assert sources(outcome) == ["docs/guide/devtools.md", "docs/blog/posts/remote-memray.md"]
    assert dict(outcome.hits[1].terms)["(dated post)"] < 0


def test_explain_terms_say_what_each_matched_term_added(make_project, engine):
    root = make_project({"docs/a.md": "token budget token\n", "docs/b.md": "other text\n"})
    [hit] = search(root, "token budget").hits
    contributions = dict(hit.terms)
    assert set(contributions) == {"token", "budget"}
    assert sum(contributions.values()) == pytest.approx(hit.score, abs=1e-3)


def test_ripgrep_and_python_scan_rank_alike(make_project, monkeypatch):
    if find_ripgrep() is None:
        pytest.skip("rg not available")
    root = make_project(
        {
            "docs/a.md": "# Token budget\n\ntoken budget\nmore token text\n",
            "docs/b.md": "budget only, no token\n",
            "docs/sub/c.py": "def token():\n    return budget_far\n",
            "docs/.hidden.md": "token budget\n",
            "docs/node_modules/x.md": "token budget\n",
        }
    )
    with_rg = search(root, "token budget")
    monkeypatch.setenv("TIERSCOPE_GREP_ENGINE", "python")
    without = search(root, "token budget")
    assert [(h.source, h.score, h.content) for h in with_rg.hits] == [
        (h.source, h.score, h.content) for h in without.hits
    ]
    assert len(with_rg.hits) == 3


# ----------------------------------------------------------------------------- snippets


def test_snippet_is_the_section_holding_the_matches(make_project, engine):
    filler = [f"Filler line {i} that says nothing about the question." for i in range(40)]
    lines = ["# Title", "", "A budget is mentioned early.", "", "## Filler", "", *filler,
             "", "## Token budget", "", "The token budget is cut here.",
             "Tokens are estimated from words.", "", "## More", "", *filler]  # fmt: skip
    root = make_project({"docs/a.md": "\n".join(lines) + "\n"})
    config = replace(Config(), snippets=SnippetSettings(max_chars=300))
    hit = search(root, "token budget", config=config).hits[0]
    assert "## Token budget\n\nThe token budget is cut here.\nTokens are estimated" in hit.content
    assert "mentioned early" not in hit.content
    text_lines = (root / "docs/a.md").read_text().split("\n")
    assert hit.content == "\n".join(text_lines[hit.line_start - 1 : hit.line_end])


def test_snippets_stay_under_the_character_cap(make_project, engine):
    body = "\n".join(f"needle line {i} " + "word " * 30 for i in range(200))
    root = make_project({"docs/a.md": body + "\n"})
    config = replace(Config(), snippets=SnippetSettings(max_chars=600, max_line_chars=300))
    hit = search(root, "needle", config=config).hits[0]
    assert 0 < len(hit.content) <= 600


def test_a_giant_line_is_clipped_around_the_match(make_project, engine):
    prose = "".join(f"Line {i} of ordinary prose.\n" for i in range(300))
    row = "| " + "cell | " * 600 + "needle |\n"
    root = make_project({"docs/table.md": f"{prose}\n{row}\n{prose}"})
    [hit] = search(root, "needle").hits
    [clipped] = [line for line in hit.content.split("\n") if "needle" in line]
    assert clipped.startswith("[…]")
    assert len(clipped) <= Config().snippets.max_line_chars + 10


def test_a_paragraph_written_on_one_line_is_served_whole(make_project, engine):
    # Prose is often one line per paragraph: a few hundred characters are a sentence or
    # three, not a blob, and clipping them cuts the answer in half.
    paragraph = (
        "Some keys or combinations of keys can produce the same event. For instance, the "
        "tab key is indistinguishable from ctrl+i in the terminal. For such keys, events "
        "will contain a list of the possible keys that may have produced this event, so a "
        "handler can tell which binding to run. In the case of tab, the aliases attribute "
        "will contain both names, and the first is the one shown in the footer of the app."
    )
    assert 400 < len(paragraph) < 500
    root = make_project({"docs/input.md": f"# Input\n\n{paragraph}\n"})
    [hit] = search(root, "aliases footer").hits
    assert paragraph in hit.content


# ------------------------------------------------------------------ what is searched at all


def test_gitignored_and_vendored_files_are_not_searched(make_project, engine):
    root = make_project(
        {
            "docs/.gitignore": "generated/\n*.bak\n",
            "docs/a.md": "needle a\n",
            "docs/generated/b.md": "needle b\n",
            "docs/c.md.bak": "needle c\n",
            "docs/node_modules/pkg/readme.md": "needle d\n",
            "docs/dist/app.js": "needle e\n",
            "docs/app.min.js": "needle f\n",
            # pip's and setuptools' `_vendor/`, Chromium's `third_party/`, nlohmann/json's
            # `tests/thirdparty/` (doctest.h, 7,000 lines), others' `3rdparty/`.
            "docs/_vendor/packaging/version.py": "needle g\n",
            "docs/third_party/zlib/zlib.h": "needle h\n",
            "docs/tests/thirdparty/doctest/doctest.h": "needle i\n",
            "docs/3rdparty/fmt/format.h": "needle j\n",
            # typeshed's stubs, copied into type checkers (mypy's `mypy/typeshed/`, 761
            # stubs defining the names its code implements; pyright's `typeshed-fallback/`).
            "docs/typeshed/stdlib/typing.pyi": "needle k\n",
            "docs/typeshed-fallback/stdlib/os.pyi": "needle l\n",
        }
    )
    assert sources(search(root, "needle")) == ["docs/a.md"]
    config = with_filtering(include_ignored=True)
    everything = search(root, "needle", config=replace(config, grep=GrepSettings(limit=20)))
    assert len(everything.hits) == 12


def test_a_build_folder_the_ignore_rules_keep_is_searched(make_project, engine):
    # fastify and bat keep hand-written build scripts in build/; where a project's build/
    # is output, its .gitignore says so.
    root = make_project(
        {
            "docs/build/build-validation.js": "function buildValidation() { needle }\n",
            "docs/other/.gitignore": "build/\n",
            "docs/other/build/out.js": "needle\n",
        }
    )
    assert sources(search(root, "needle")) == ["docs/build/build-validation.js"]


def test_a_scope_that_names_a_hidden_folder_is_searched(make_project, engine):
    root = make_project({".claude/skills/x/SKILL.md": "needle\n", ".other/y.md": "needle\n"})
    assert sources(search(root, "needle", paths=(".claude/skills",))) == [
        ".claude/skills/x/SKILL.md"
    ]
    assert sources(search(root, "needle", paths=(".",))) == []


def test_a_hidden_entry_an_ignore_file_whitelists_is_searched(make_project, engine):
    # ripgrep's own repository has `!/.github/` in its .ignore, pandoc lists `!.github/**`
    # and `!.editorconfig` in its .gitignore: a rule that matches decides before the
    # hidden test does (ripgrep), and the pure-Python walk skipped them all.
    root = make_project(
        {
            ".ignore": "!/.github/\n",
            ".gitignore": "!.editorconfig\n!.circleci\n.circleci/skip.yml\n",
            ".github/workflows/ci.yml": "needle in the workflow\n",
            ".editorconfig": "needle in the editor config\n",
            ".circleci/config.yml": "needle in circleci\n",
            ".circleci/skip.yml": "needle ignored again\n",
            ".other/y.md": "needle hidden, no rule\n",
            "docs/a.md": "needle in the docs\n",
        }
    )
    assert sorted(sources(search(root, "needle", paths=(".",)))) == [
        ".circleci/config.yml",
        ".editorconfig",
        ".github/workflows/ci.yml",
        "docs/a.md",
    ]


def test_an_ignore_file_with_lines_that_are_no_patterns_still_applies(make_project, engine):
    # Black's tests/data/invalid_gitignore_tests/.gitignore is a lone `!`: pathspec
    # refused the whole file and the pure-Python walk (init's survey, the scan, the index
    # build) crashed. ripgrep skips a line it cannot read (a dangling `\`, a range
    # `[z-a]`) and reads a lone `!` as whitelisting everything below, hidden entries
    # too. Python's warnings about a pattern (`[[`) are nobody's business on stderr.
    root = make_project(
        {
            "sub/.gitignore": "!\n*.bak\n\\\n",
            "sub/a.md": "needle a\n",
            "sub/b.bak": "needle b\n",
            "sub/.hidden/c.md": "needle c\n",
            "other/.gitignore": "\\\nx[z-a]\na[[b]\n*.log\n",
            "other/d.md": "needle d\n",
            "other/e.log": "needle e\n",
            "other/.f.md": "needle f\n",
        }
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        found = sorted(sources(search(root, "needle", paths=(".",))))
    assert found == ["other/d.md", "sub/.hidden/c.md", "sub/a.md"]


def hostile_ignore_files(make_project) -> Path:
    """A project whose .gitignore, docs/.ignore and .git/info/exclude are FIFOs and whose
    docs/sub/.gitignore is a symbolic link to rules that would leave its markdown out."""
    root = make_project(
        {
            "rules": "*.md\n",
            "docs/a.md": "needle a\n",
            "docs/b.txt": "needle b\n",
            "docs/sub/c.md": "needle c\n",
        }
    )
    os.mkfifo(root / ".gitignore")
    os.mkfifo(root / "docs" / ".ignore")
    (root / ".git" / "info").mkdir(parents=True)
    os.mkfifo(root / ".git" / "info" / "exclude")
    (root / "docs" / "sub" / ".gitignore").symlink_to(root / "rules")
    return root


def run_cli(*argv: str, engine: str = "ripgrep") -> subprocess.CompletedProcess:
    env = {**os.environ, "TIERSCOPE_GREP_ENGINE": engine}
    if engine != "python":
        env.pop("TIERSCOPE_GREP_ENGINE")
    command = [sys.executable, "-m", "tierscope", *argv]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, env=env)


def test_an_ignore_file_that_is_a_fifo_or_a_link_is_not_read(make_project):
    # A FIFO named .gitignore blocked the pure-Python walk's open() for good: the
    # ripgrep-less query, `tierscope init` and `tierscope index` hung. ripgrep reads no
    # symbolic link as an ignore file, and neither does the walk now.
    root = hostile_ignore_files(make_project)
    query = ("query", "needle", "--root", str(root), "--timeout", "5", "--explain")
    result = run_cli(*query, "--no-trajectory", engine="python")
    assert result.returncode == 0, result.stderr[-2000:]
    sources = sorted(hit["source"] for hit in json.loads(result.stdout)["results"])
    assert sources == ["docs/a.md", "docs/b.txt", "docs/sub/c.md"]
    assert run_cli("init", "--root", str(root), engine="python").returncode == 0
    assert "docs:" in (root / ".tierscope.yaml").read_text()
    # ripgrep itself blocks opening the FIFO: the grep tier stops at its timeout and says
    # so; the query still answers.
    if find_ripgrep() is not None:
        result = run_cli(*query, "--no-trajectory")
        assert result.returncode == 0, result.stderr[-2000:]
        [grep] = [t for t in json.loads(result.stdout)["trace"]["tiers"] if t["tier"] == "grep"]
        assert grep["status"] == "timeout"


def test_a_folder_ignored_stays_ignored_when_only_its_contents_are_whitelisted(
    make_project, engine
):
    # pandoc's .gitignore: `/*.*` ignores .github/ itself, and `!.github/**` names only
    # what is inside it; git and ripgrep do not look into an ignored folder. The Python
    # walk asked its matcher about `.github/`, which `.github/**` matched.
    root = make_project(
        {
            ".gitignore": "/*.*\n!.github/**\n!keep.md\nlogs/\n!logs/**\n",
            ".github/workflows/ci.yml": "needle in the workflow\n",
            "keep.md": "needle kept\n",
            "drop.md": "needle dropped\n",
            "logs/today.md": "needle in the logs\n",
            "docs/sub/a.md": "needle in the docs\n",
        }
    )
    assert sorted(sources(search(root, "needle", paths=(".",)))) == ["docs/sub/a.md", "keep.md"]


def test_a_folder_named_like_excluded_files_is_searched(make_project, engine):
    # Phoenix keeps its generator's templates in priv/templates/phx.gen.json/: ripgrep's
    # `--glob !*.json`, meant for JSON files, left the whole folder out.
    root = make_project(
        {
            "docs/templates/phx.gen.json/controller.ex.eex": "needle in a template\n",
            "docs/templates/phx.gen.json/data.json": '{"needle": 1}\n',
            "docs/assets/app.min.js/readme.md": "needle in an oddly named folder\n",
            "docs/data.json": '{"needle": 2}\n',
        }
    )
    assert sorted(sources(search(root, "needle"))) == [
        "docs/assets/app.min.js/readme.md",
        "docs/templates/phx.gen.json/controller.ex.eex",
    ]
    scope = ResolvedScope("code", (), (), ((root / "docs").resolve(),), include=("*.EEX",))
    outcome = GrepTier().search(
        TierRequest("needle", root, scope, Config(), 5.0), Deadline.after(5)
    )
    assert sources(outcome) == ["docs/templates/phx.gen.json/controller.ex.eex"]


def test_a_hidden_folder_named_beside_the_root_is_searched_once(make_project, engine):
    # Loa keeps its scripts in .claude/: a scope of [./, .claude/] searched the root only
    # (the root's walk skips hidden folders, and .claude/ was dropped as inside it).
    root = make_project(
        {
            ".claude/scripts/guard.sh": "guard needle\n",
            ".claude/.cache/x.sh": "cached needle\n",
            "docs/a.md": "a needle\n",
            ".other/y.md": "other needle\n",
        }
    )
    config = Config(scopes={"whole": ScopeConfig("", "", ("./", ".claude/"))})
    scope = resolve_scope("whole", config, root)
    request = TierRequest("needle", root, scope, config, 5.0)
    outcome = GrepTier().search(request, Deadline.after(5.0))
    assert sorted(sources(outcome)) == [".claude/scripts/guard.sh", "docs/a.md"]
    # With ignored and hidden files included, the root reaches .claude/ itself.
    everything = replace(config, filtering=replace(FilteringSettings(), include_ignored=True))
    scope = resolve_scope("whole", everything, root)
    assert scope.grep_paths == (root,)


def test_the_file_defining_a_name_outranks_those_importing_or_calling_it(make_project, engine):
    callers = {
        f"docs/app_{n}.py": "from typer import add_typer\n\napp = App()\nadd_typer(app, sub)\n"
        for n in range(4)
    }
    body = "".join(f"def helper_{n}(value):\n    return value + {n}\n\n" for n in range(20))
    root = make_project(
        {
            **callers,
            "docs/main.py": f"{body}def add_typer(app, sub):\n    app.groups.append(sub)\n",
        }
    )
    assert sources(search(root, "add_typer"))[0] == "docs/main.py"


def test_the_member_of_the_holder_named_outranks_one_of_another_class(make_project, engine):
    # `ModuleGraph.invalidate`: the file whose class ModuleGraph defines `invalidate`, not a
    # wrapper whose own class defines one too and that names ModuleGraph in every signature.
    wrapper = "".join(
        f"  get{n}(graph: ModuleGraph): ModuleGraph {{\n    return graph\n  }}\n\n"
        for n in range(6)
    )
    helpers = "".join(f"  helper{n}(value) {{\n    return value + {n}\n  }}\n\n" for n in range(30))
    root = make_project(
        {
            "docs/mixed.ts": "export class MixedGraph {\n"
            + wrapper
            + "  invalidate(module: ModuleGraph): void {\n"
            + "    this.graph.invalidate(module)\n  }\n}\n",
            "docs/graph.ts": "export class ModuleGraph {\n"
            + helpers
            + "  invalidate(\n    module: Module,\n    seen: Set<Module>,\n  ): void {\n"
            + "    module.transformResult = null\n  }\n}\n",
        }
    )
    assert sources(search(root, "ModuleGraph.invalidate"))[0] == "docs/graph.ts"


def test_a_member_named_in_parts_is_looked_up_in_the_holder_named(make_project, engine):
    # httpie's `ColorFormatter.format_body`: the file whose ColorFormatter defines it was
    # weighed as one defining it "in another class", as for an undotted name.
    root = make_project(
        {
            "docs/colors.py": "class ColorFormatter:\n    def format_body(self, body):\n"
            "        return body\n",
            "docs/json.py": "class JSONFormatter:\n    def format_body(self, body):\n"
            "        return body.strip()\n",
        }
    )
    outcome = search(root, "ColorFormatter.format_body")
    assert sources(outcome)[0] == "docs/colors.py"
    assert "(defines it in another class)" not in dict(outcome.hits[0].terms)


def test_the_c_file_defining_a_function_outranks_its_header_and_callers(make_project, engine):
    body = "".join(f"static int helper{n}(int x) {{\n  return x + {n};\n}}\n\n" for n in range(30))
    root = make_project(
        {
            "docs/jq.h": "jv jq_next(jq_state *);\nvoid jq_start(jq_state *, jv, int);\n",
            "docs/main.c": "int main(void) {\n  jv value = jq_next(jq);\n  return 0;\n}\n",
            "docs/execute.c": body + "jv jq_next(jq_state *jq) {\n  return jq_step(jq);\n}\n",
        }
    )
    assert sources(search(root, "jq_next"))[0] == "docs/execute.c"


def test_a_long_module_defining_the_name_looked_up_outranks_short_files_using_it(
    make_project, engine
):
    # pydantic's `Strict`: defined as a class in a module of 3,000 lines; dozens of short
    # files use it, and one spells `STRICT` (another name: the query wrote `Strict`).
    users = {
        f"docs/use_{n}.py": f"from types import Strict\n\nfield_{n} = Strict()\n" for n in range(40)
    }
    body = "".join(f"def helper_{n}(value):\n    return value + {n}\n\n" for n in range(600))
    root = make_project(
        {
            **users,
            "docs/metadata.py": "STRICT = {'strict'}\nFAIL_FAST = {'fail_fast'}\n",
            "docs/types.py": body
            + "class Strict:\n    strict: bool = True\n\n"
            + "class FailFast:\n    fail_fast: bool = True\n",
        }
    )
    assert sources(search(root, "Strict"))[0] == "docs/types.py"
    assert sources(search(root, "FailFast"))[0] == "docs/types.py"


def test_a_name_in_a_three_word_keyword_query_is_looked_up(make_project, engine):
    # zod's "toJSONSchema target draft": a deprecated generator whose comments use the
    # name and its words outranked the module defining it (a long one), as in a question.
    users = {
        f"docs/generator_{n}.ts": "/** @deprecated use toJSONSchema(schema, { target }) */\n"
        "export class Generator {\n  target = 'draft-7';\n  // draft target for toJSONSchema\n}\n"
        for n in range(3)
    }
    body = "".join(
        f"export function helper{n}(value: number) {{\n  return value;\n}}\n" for n in range(300)
    )
    definition = (
        "export function toJSONSchema(input: Schema, params?: Params) {\n"
        "  const target = params?.target ?? 'draft-2020-12';\n  return build(input, target);\n}\n"
    )
    root = make_project({**users, "docs/processors.ts": body + definition})
    assert sources(search(root, "toJSONSchema target draft"))[0] == "docs/processors.ts"
    assert sources(search(root, "toJSONSchema target"))[0] == "docs/processors.ts"


def test_a_page_that_only_pulls_in_the_api_reference_weighs_less(make_project, engine):
    # mkdocstrings' stub pages (`::: pydantic.root_model`): one line, short enough to beat
    # the page that explains the thing.
    root = make_project(
        {
            **{
                f"docs/page{n}.md": f"# Page {n}\n\n" + "Use a model here, or anything else.\n" * 60
                for n in range(30)
            },
            "docs/api/root_model.md": "::: pydantic.root_model\n",
            "docs/concepts/models.md": "# Models\n\n"
            + "Models hold fields and validate them, and much else besides.\n" * 100
            + "## RootModel and custom root types\n\nUse a RootModel to validate a list.\n",
        }
    )
    assert sources(search(root, "how do I use RootModel"))[0] == "docs/concepts/models.md"


def test_a_sphinx_page_that_only_pulls_in_the_api_reference_weighs_less(make_project, engine):
    # werkzeug's docs/middleware/proxy_fix.rst is `.. automodule::` alone; its
    # docs/changes.rst a title and `.. include:: ../CHANGES.rst`. Short enough to beat the
    # pages that explain the thing, they show nothing of it.
    root = make_project(
        {
            **{
                f"docs/page{n}.rst": f"Page {n}\n=======\n\n" + "Use a proxy, or not.\n" * 60
                for n in range(30)
            },
            "docs/middleware/proxy_fix.rst": ".. automodule:: werkzeug.middleware.proxy_fix\n",
            "docs/changes.rst": "Changes\n=======\n\n.. include:: ../proxy_fix_changes.rst\n",
            # Celery's 135 pages of docs/reference/ open on a local table of contents.
            "docs/reference/werkzeug.proxy_fix.rst": "=========================\n"
            " ``werkzeug.proxy_fix``\n=========================\n\n"
            ".. contents::\n    :local:\n.. currentmodule:: werkzeug.proxy_fix\n\n"
            ".. automodule:: werkzeug.proxy_fix\n    :members:\n    :undoc-members:\n",
            "docs/deploying/proxy_fix.rst": "Tell Werkzeug it is behind a proxy\n"
            "==================================\n\n"
            + "A reverse proxy forwards the request and sets headers.\n" * 80
            + "Wrap the app in the proxy fix middleware: ``ProxyFix(app, x_for=1)``.\n" * 3,
        }
    )
    outcome = search(root, "proxy fix middleware")
    found = sources(outcome)
    assert found[0] == "docs/deploying/proxy_fix.rst"
    assert found.index("docs/middleware/proxy_fix.rst") > 0
    labels = {hit.source: dict(hit.terms) for hit in outcome.hits}
    assert TABLE_OF_CONTENTS_LABEL in labels["docs/reference/werkzeug.proxy_fix.rst"]


def test_a_sphinx_table_of_contents_weighs_less(make_project, engine):
    # Django's docs/howto/index.txt is `.. toctree::` lists of page names, its
    # docs/index.txt lists of `:doc:` links: short, they named "custom management command"
    # and came before the page that tells how to write one.
    root = make_project(
        {
            **{
                f"docs/page{n}.txt": f"Page {n}\n=======\n\n" + "Commands run, or not.\n" * 60
                for n in range(30)
            },
            "docs/howto/index.txt": "Guides\n======\n\n.. toctree::\n   :maxdepth: 1\n\n"
            "   custom-model-fields\n   custom-management-commands\n   custom-template-tags\n"
            "   deployment/index\n",
            "docs/index.txt": "Django\n======\n\nHow-to guides\n-------------\n\n"
            "* :doc:`Writing a custom management command <howto/custom-management-commands>`\n"
            "* :doc:`Writing custom model fields <howto/custom-model-fields>`\n",
            "docs/howto/custom-management-commands.txt": "Writing custom commands\n"
            "=======================\n\n"
            + "Applications can register their own actions with manage.py.\n" * 40
            + "To add a custom management command, add a management/commands directory.\n",
        }
    )
    outcome = search(root, "custom management command")
    assert sources(outcome)[0] == "docs/howto/custom-management-commands.txt"
    labels = {hit.source: dict(hit.terms) for hit in outcome.hits}
    assert TABLE_OF_CONTENTS_LABEL in labels["docs/howto/index.txt"]
    assert TABLE_OF_CONTENTS_LABEL in labels["docs/index.txt"]


def test_a_docc_topics_page_weighs_less(make_project, engine):
    # Swift Argument Parser's Documentation.docc/Extensions/CommandConfiguration.md is a
    # title and a `## Topics` list of symbol links (``- ``aliases`` ``): it named
    # "subcommand aliases" and came before the article that tells how to declare them.
    root = make_project(
        {
            **{
                f"docs/Docs.docc/Articles/Page{n}.md": f"# Page {n}\n\n"
                + "Commands run, or not.\n" * 60
                for n in range(30)
            },
            "docs/Docs.docc/Extensions/Configuration.md": "# ``Tool/Configuration``\n\n"
            "## Topics\n\n### Declaring Subcommands\n\n- ``subcommands``\n"
            "- ``defaultSubcommand``\n- ``aliases``\n\n### Related\n\n- <doc:Subcommands>\n",
            "docs/Docs.docc/Articles/Subcommands.md": "# Defining Subcommands\n\n"
            + "A command can hold other commands, each a subcommand of it.\n" * 40
            + "Give a subcommand aliases: other names it is called by, in its configuration.\n",
        }
    )
    outcome = search(root, "subcommand aliases")
    assert sources(outcome)[0] == "docs/Docs.docc/Articles/Subcommands.md"
    labels = {hit.source: dict(hit.terms) for hit in outcome.hits}
    assert TABLE_OF_CONTENTS_LABEL in labels["docs/Docs.docc/Extensions/Configuration.md"]


def test_machine_data_is_left_out_unless_asked_for(make_project, engine):
    root = make_project(
        {
            "docs/a.md": "needle in prose\n",
            "docs/data.json": '{"needle": 1}\n',
            "docs/log.jsonl": '{"needle": 2}\n',
            "docs/package-lock.json": '{"needle": 3}\n',
            "docs/bundle.md": ("var a=1;" * 400 + "needle;") * 3 + "\n",
            # Minified with a line break every few hundred characters (Closure's
            # prettify-min.js in Django REST framework's static files).
            "docs/prettify-min.js": "".join(
                "(function(){var q=null;"
                + "if(f!==92)return f;a=b.charAt(1);" * 12
                + f"needle{n}()}})();\n"
                for n in range(8)
            ),
            # Go's module checksums: a lock file by another name.
            "docs/go.sum": "golang.org/x/needle v0.1.0 h1:abc=\n",
            "docs/go.work.sum": "golang.org/x/needle v0.2.0 h1:def=\n",
            # Android's baseline profile: every method's signature, listed for the compiler.
            "docs/src/androidMain/baseline-prof.txt": "HSPLokhttp3/needle;->call()V\n",
            # gettext's catalogs: each language's copy of every message of the code.
            "docs/locale/it/LC_MESSAGES/django.po": 'msgid "needle"\nmsgstr "ago"\n',
            "docs/locale/django.pot": 'msgid "needle"\nmsgstr ""\n',
            # Terminal output: a highlighter's expected output, colour codes around words.
            "docs/highlighted.txt": "".join(
                f"\x1b[38;2;249;38;114mPOST\x1b[0m needle/{n} \x1b[38;2;230;219;116mHTTP\x1b[0m\n"
                for n in range(3)
            ),
        }
    )
    outcome = search(root, "needle")
    assert sources(outcome) == ["docs/a.md"]
    assert any("machine data" in f.reason for f in outcome.filtered)
    assert any("terminal output" in f.reason for f in outcome.filtered)
    wanted = search(root, "needle", config=with_filtering(include_machine_data=True))
    assert len(wanted.hits) == 10  # of 12: the limit
    assert "docs/src/androidMain/baseline-prof.txt" in sources(wanted)


def test_a_page_written_one_paragraph_per_line_is_prose_not_one_line_data(make_project, engine):
    # Laravel's docs write a paragraph per line: two paragraphs of over 1,000 characters
    # made a page of 2,120 "minified or one-line data", and it was dropped. Chinese prose
    # has hardly a space; a keyword list (Vim's syntax files) and a one-line record do not
    # read as prose, and stay machine data.
    english = (
        "Since queue workers are long-lived processes, they will not notice changes to "
        "your code without being restarted, so the simplest way to deploy is to restart "
        "the workers during your deployment process. "
    ) * 6
    chinese = "队列工作进程是长期运行的进程，不重启就不会注意到代码的变化。部署时重启它们。" * 30
    keywords = "syn keyword jamKeyword " + " ".join(f"Restart{n}Workers" for n in range(120))
    record = "{" + ", ".join(f'"worker{n}": {{"restart": {n}, "queue": "q{n}"}}' for n in range(60))
    root = make_project(
        {
            "docs/queues.md": f"# Queues\n\n## Restarting\n\n{english}\n\n{english}\n",
            "docs/zh/queues.md": f"# 队列\n\n{chinese}\n\n{chinese} (Horizon)\n",
            "docs/jam.vim": f"{keywords}\n{keywords}\n",
            "docs/workers.js": f"var workers = {record}}};\n" * 2,
        }
    )
    assert len(english) > 1000 and len(chinese) > 1000 and "\n" not in chinese
    outcome = search(root, "restart workers")
    assert sources(outcome) == ["docs/queues.md"]
    assert sorted(f.source for f in outcome.filtered) == ["docs/jam.vim", "docs/workers.js"]
    assert sources(search(root, "horizon")) == ["docs/zh/queues.md"]


# Viper's TROUBLESHOOTING.md, as a new user's reproduction cut it down.
VIPER_TROUBLESHOOTING = (
    "# Troubleshooting\n"
    "\n"
    "## Decoding leaves the struct empty\n"
    "\n"
    "The most common reason is a struct tag the decoder does not read: it reads "
    "`mapstructure` tags, not `yaml` or `json` ones, unless the decoder is told to "
    "use another tag name. Rename the tags or pass a decoder option naming the tag "
    "your struct uses.\n"
    "\n"
    "## Cannot find package\n"
    "\n"
    "Installation seems to fail with the following (or a similar) error:\n"
    "\n"
    "```\n"
    'cannot find package "example.com/hcl/tree/hcl1" in any of:\n'
    "/usr/local/go/src/example.com/hcl/tree/hcl1 (from $GOROOT)\n"
    "/home/user/go/src/example.com/hcl/tree/hcl1 (from $GOPATH)\n"
    "```\n"
    "\n"
    "As the error message suggests, Go looks up dependencies in GOPATH mode. The "
    "project uses Go modules to manage its dependencies. While in many cases the two "
    "methods are interchangeable, once a dependency releases a new major version, "
    "GOPATH mode can no longer decide which version to use, so it picks whatever is "
    "present. It may use a version that is already in the GOPATH, or it may fetch "
    "the default branch of the dependency, which is rarely the release the project "
    "was tested with, and the build then fails in ways that are hard to trace back "
    "to the cause.\n"
    "\n"
    "The solution is easy: switch to Go modules.\n"
    "\n"
    "**tl;dr** `export GO111MODULE=on`\n"
    "\n"
    "## Unquoted y and n become true and false when reading a YAML file\n"
    "\n"
    "This is a YAML 1.1 feature. Quote the values, or build with the yaml3 tag to "
    "use YAML 1.2 rules, where only true and false are booleans. Values such as on, "
    "off, yes and no are affected in the same way, so a country code like NO in a "
    "list of countries is read as false unless it is quoted. Upgrading the parser is "
    "the lasting fix.\n"
)


def test_a_window_is_not_ranked_on_a_heading_it_leaves_off(make_project, engine):
    # A window from the first section on into the next ones was ranked on `file` in the
    # third one's heading, which was then trimmed off its end: the snippet served the
    # second section whole, which holds no query word.
    root = make_project({"docs/TROUBLESHOOTING.md": VIPER_TROUBLESHOOTING})
    [hit] = search(root, "struct values empty file").hits
    assert hit.content.startswith("## Decoding leaves the struct empty"), hit.content
    assert "Cannot find package" not in hit.content, hit.content


def test_a_data_uri_is_served_and_ranked_without_its_payload(make_project, engine):
    # Laravel's mcp.md shows a 35 KB screenshot inline, `![...](data:image/png;base64,...)`:
    # as the most of a page it made the page machine data, as less it was served as 450
    # characters of base64. Its payload is no text: shown as `…`, counted as nothing.
    payload = "iVBORw0KGgoAAAANSUhEUgAABOAAAAROCAMAAABKc73cAAAA81BMVEX" * 40
    guide = (
        "# OAuth\n\n## Authorization View\n\n"
        "Publish the authorization view, then tell Passport to use it.\n\n"
        "This view is shown to the user to approve the agent's authorization request.\n\n"
        "![Authorization screen example](data:image/png;base64,{}==)\n\n"
        "## Scopes\n\nScopes limit what a token may do.\n"
    )
    root = make_project(
        {
            "docs/oauth.md": guide.format(payload * 20),  # most of the page
            "docs/mcp.md": guide.format(payload).replace("Publish", "First publish")
            + "A long guide.\n" * 300,
        }
    )
    outcome = search(root, "authorization view screen")
    assert sorted(sources(outcome)) == ["docs/mcp.md", "docs/oauth.md"]
    for hit in outcome.hits:
        assert "![Authorization screen example](data:image/png;base64,…)" in hit.content
        assert "iVBORw0K" not in hit.content


def test_identical_copies_are_served_once_under_the_original_name(make_project, engine):
    text = "# Skill\n\nDeploy with the rollout wave.\n"
    root = make_project(
        {
            "docs/skills/deploy/SKILL.md.constraint-2": text,
            "docs/skills/deploy/SKILL.md": text,
            "docs/skills/deploy/SKILL.md.bak": text,
            "docs/other.md": "A rollout happened.\n",
        }
    )
    outcome = search(root, "rollout wave")
    assert sources(outcome) == ["docs/skills/deploy/SKILL.md", "docs/other.md"]
    assert any("identical copies" in note for note in outcome.notes)


def skill_and_its_copy(make_project, copy_ending: str) -> Path:
    """A skill and a copy of it with its last line rewritten (Loa's `SKILL.md.constraint-*`),
    beside another page."""
    steps = "".join(
        f"{n}. Step {n} of the rollout checks wave {n} of the fleet.\n" for n in range(30)
    )
    original = f"# Deploy\n\nThe rollout wave depth is at most 5.\n\n## Steps\n\n{steps}\nDONE\n"
    return make_project(
        {
            "docs/skills/deploy/SKILL.md": original,
            "docs/skills/deploy/SKILL.md.constraint-x": original.replace("DONE", copy_ending),
            "docs/other.md": "A rollout wave happened.\n",
        }
    )


def test_a_near_copy_of_a_served_file_is_left_out_whichever_part_it_would_show(
    make_project, engine
):
    # The copy's best section can be another part of the file than the original's, and
    # was served too.
    outcome = search(skill_and_its_copy(make_project, "<!-- hash:0000 -->"), "rollout wave depth")
    assert sources(outcome) == ["docs/skills/deploy/SKILL.md", "docs/other.md"]
    assert "1 near copy of a served file left out" in outcome.notes


def test_a_near_copy_ranked_above_its_original_gives_way_to_it(make_project, engine):
    root = skill_and_its_copy(make_project, "Wave depth: rollout wave depth, again.")
    outcome = search(root, "rollout wave depth")
    assert sources(outcome) == ["docs/skills/deploy/SKILL.md", "docs/other.md"]
    [served, _] = outcome.hits
    assert "The rollout wave depth is at most 5." in served.content
    assert "again" not in served.content
    assert "1 near copy of a served file left out" in outcome.notes


def test_a_changelog_quoting_a_docs_section_gives_way_to_the_docs_page(make_project, engine):
    # Rake's History.rdoc quotes doc/rakefile.rdoc's "Tasks with Arguments" in its 0.8.2
    # notes. Shallower, it was taken for the original and the docs page was left out as
    # its copy: asked how to pass arguments to a task, the answer was a release note.
    section = "".join(
        f"Task arguments are passed in brackets, rule {n} of passing an argument.\n"
        for n in range(12)
    )
    releases = "".join(
        f"=== 0.{n}.0\n\n* Fixed a release bug number {n} in the loader.\n\n" for n in range(40)
    )
    rakefile = (
        "= Rakefile Format\n\n" + "Tasks are defined in Ruby.\n" * 30 + "\n"
        f"== Tasks with Arguments\n\n{section}\n== Multiple Tasks\n\n"
        + "A task may be defined twice.\n"
        * 30
    )
    history = f"= History\n\n=== 0.8.2\n\n==== Task Argument Examples\n\n{section}\n{releases}"
    root = make_project(
        {
            "History.rdoc": history,
            "doc/rakefile.rdoc": rakefile,
            "doc/other.rdoc": "= Other\n\nA task runs.\n",
        }
    )
    outcome = search(root, "pass arguments to a task", paths=("History.rdoc", "doc"))
    assert sources(outcome)[0] == "doc/rakefile.rdoc"
    assert "History.rdoc" not in sources(outcome)
    assert "Task arguments are passed in brackets" in outcome.hits[0].content


def test_of_sibling_near_copies_the_one_the_query_names_is_served(make_project, engine):
    # golang-migrate's sqlite3 and sqlcipher drivers differ in three lines: "mattn
    # go-sqlite3 driver" and "sqlite3 driver" served sqlcipher.go (first by its path) in
    # sqlite3.go's place.
    body = "".join(
        f"func (m *Driver) step{n}(query string) error {{ return m.exec(query, {n}) }}\n"
        for n in range(30)
    )

    def driver(package: str, module: str) -> str:
        return (
            f"// Package {package} is a database driver for sqlite3.\npackage {package}\n\n"
            f'import (\n\t_ "{module}"\n)\n\n{body}'
        )

    root = make_project(
        {
            "database/sqlite3/sqlite3.go": driver("sqlite3", "github.com/mattn/go-sqlite3"),
            "database/sqlcipher/sqlcipher.go": driver("sqlcipher", "github.com/mutecomm/cipher"),
            "database/other.go": "package database\n\n// The driver runs a query.\n",
        }
    )
    outcome = search(root, "sqlite3 driver", paths=("database",))
    assert sources(outcome)[0] == "database/sqlite3/sqlite3.go"
    assert "database/sqlcipher/sqlcipher.go" not in sources(outcome)
    assert "1 near copy of a served file left out" in outcome.notes


def test_a_generated_wrapper_repeating_a_served_doc_comment_is_left_out(make_project, engine):
    # testify's generated forwarders copy each assertion's doc comment over a one-line
    # wrapper: four of them followed assertions.go's InDelta, 64% of the answer's tokens.
    doc = (
        "// InDelta asserts that the two numerals are within delta of each other.\n"
        "// Use it for float values, whose rounding makes exact equality fragile.\n"
    )
    others = "".join(
        f"// Check{n} asserts that condition number {n} holds for the value given.\n"
        f"func Check{n}(t TestingT, value interface{{}}) bool {{\n"
        f"\treturn check(t, value, {n})\n}}\n\n"
        for n in range(8)
    )
    original = (
        f"package check\n\n{others}{doc}"
        "func InDelta(t TestingT, expected, actual, delta float64) bool {\n"
        "\tdt := expected - actual\n\tif dt < -delta || dt > delta {\n"
        '\t\treturn Fail(t, "Max difference exceeded")\n\t}\n\treturn true\n}\n'
    )
    wrapper = (
        "// Code generated with github.com/example/check/_codegen; DO NOT EDIT.\n\n"
        f"package check\n\n{doc}"
        "func (c *Checks) InDelta(expected, actual, delta float64) bool {\n"
        "\treturn InDelta(c.t, expected, actual, delta)\n}\n"
    )
    root = make_project(
        {
            "check/check.go": original,
            "check/check_forward.go": wrapper,
            "check/check_format.go": wrapper.replace("InDelta(", "InDeltaf("),
        }
    )
    outcome = search(root, "float delta tolerance", paths=("check",))
    assert sources(outcome)[0] == "check/check.go"
    assert "check/check_forward.go" not in sources(outcome)
    assert "check/check_format.go" not in sources(outcome)
    assert "2 files left out: a served passage shown again" in outcome.notes
    # A wrapper whose comment is its own is served.
    own = wrapper.replace("Use it for float values", "Checks keep float values")
    root = make_project({"check/check.go": original, "check/check_forward.go": own})
    assert "check/check_forward.go" in sources(
        search(root, "float delta tolerance", paths=("check",))
    )


def test_two_small_variants_of_an_example_are_both_served(make_project, engine):
    # tutorial001.py and tutorial001_an.py: a few lines, one of them different, are two
    # examples, not a copy.
    first = "from app import Query\n\ndef read(q: str = Query(max_length=50)):\n    return q\n"
    second = first.replace(
        "q: str = Query(max_length=50)", "q: Annotated[str, Query(max_length=50)]"
    )
    root = make_project({"docs/tutorial001.py": first, "docs/tutorial001_an.py": second})
    assert sorted(sources(search(root, "query max length"))) == [
        "docs/tutorial001.py",
        "docs/tutorial001_an.py",
    ]


def test_a_hyphenated_word_finds_the_word_written_solid_in_any_form(make_project, engine):
    root = make_project(
        {
            "docs/guides/prevent-rerenders.md": "# Prevent rerenders\n\nUse a shallow compare.\n",
            **{
                f"docs/guides/page{n}.md": f"# Page {n}\n\nThe rendering of component {n}.\n"
                for n in range(6)
            },
        }
    )
    assert sources(search(root, "re-rendering"))[0] == "docs/guides/prevent-rerenders.md"


def test_a_camel_case_word_finds_the_word_written_in_one_case(make_project, engine):
    # The NestJS docs site: "TypeScript and JavaScript snippets" did not count the
    # `language: 'typescript' | 'javascript'` of the code that splits samples in two; the
    # parts `type` and `script` found a copied syntax highlighter first.
    root = make_project(
        {
            "src/snippets.ts": "// Splits a sample in two snippets.\n"
            "export type Language = 'typescript' | 'javascript';\n",
            "src/loader.ts": "// Loads a script of some type.\nconst script = load(type);\n"
            "const other = script.type;\n",
            **{f"src/page{n}.ts": f"export const page{n} = {n};\n" for n in range(6)},
        }
    )
    outcome = search(root, "TypeScript and JavaScript snippets", paths=("src",))
    assert sources(outcome)[0] == "src/snippets.ts"
    assert {"typescript", "javascript"} <= set(dict(outcome.hits[0].terms))


def test_a_word_whose_stem_is_a_stopword_does_not_count_the_stopword(make_project, engine):
    # The NestJS docs: "canned data" is keyed `can`, and every "you can" counted for it.
    root = make_project(
        {
            "docs/intro.md": "# Intro\n\nYou can read data. You can write it. You can\n"
            "do it again, and you can stop. Data can be big.\n",
            "docs/stubs.md": "# Stubs\n\nA stub returns canned data to the code under test,\n"
            "" + "which keeps the test fast and its results the same every run.\n" * 3,
            **{f"docs/other{n}.md": f"# Other {n}\n\nNothing here.\n" for n in range(6)},
        }
    )
    outcome = search(root, "canned data")
    assert sources(outcome)[0] == "docs/stubs.md"
    assert all(
        "can" not in dict(hit.terms) for hit in outcome.hits if hit.source == "docs/intro.md"
    )


def test_two_query_words_find_a_file_writing_them_solid(make_project, engine):
    # Magit's test of `magit-toplevel` inside a submodule was not among the first ten
    # for "repository top level in a submodule": its `toplevel` counted for nothing.
    root = make_project(
        {
            "docs/magit-tests.el": "(ert-deftest magit-toplevel:submodule ()\n"
            "  (should (equal (magit-toplevel) repository)))\n",
            **{
                f"docs/page{n}.el": f'(defun page-{n} ()\n  "The top of repository {n}.")\n'
                for n in range(6)
            },
        }
    )
    assert sources(search(root, "repository top level"))[0] == "docs/magit-tests.el"


def test_a_scope_include_glob_matches_a_suffix_in_any_case(make_project, engine):
    # An R package's code is `R/arrange.R`: init writes `*.r`, and ripgrep's globs are
    # case-sensitive, so dplyr's code scope searched its C++ alone.
    root = make_project(
        {
            "docs/arrange.R": "arrange <- function(.data, ...) {\n  # order rows by group\n}\n",
            "docs/group.cpp": "// rows by group\nint group() { return 0; }\n",
            "docs/notes.md": "Order rows by group with arrange.\n",
        }
    )
    scope = ResolvedScope("code", (), (), ((root / "docs").resolve(),), include=("*.r", "*.cpp"))
    request = TierRequest("order rows by group", root, scope, Config(), 5.0)
    outcome = GrepTier().search(request, Deadline.after(5.0))
    assert sorted(sources(outcome)) == ["docs/arrange.R", "docs/group.cpp"]


def test_an_include_glob_with_a_folder_matches_the_path_end_at_a_folder(make_project, engine):
    # README: a glob with `/` is matched against the path's end. ripgrep anchors such a
    # glob at the root, so `review/*.md` found nothing under docs/ with ripgrep and
    # docs/review/notes.md without it; and the path's end was taken at any character, so
    # docs/myreview/ matched too.
    root = make_project(
        {
            "docs/review/notes.md": "needle in the review notes\n",
            "docs/myreview/other.md": "needle in another folder\n",
            "docs/notes.md": "needle outside\n",
            "docs/a/b/deep.rst": "needle deep down\n",
        }
    )
    for include, expected in [
        (("review/*.md",), ["docs/review/notes.md"]),
        (("/docs/a/**/*.rst",), ["docs/a/b/deep.rst"]),
        (("docs/**/*.RST", "Review/Notes.md"), ["docs/a/b/deep.rst", "docs/review/notes.md"]),
    ]:
        scope = ResolvedScope("code", (), (), ((root / "docs").resolve(),), include=include)
        request = TierRequest("needle", root, scope, Config(), 5.0)
        outcome = GrepTier().search(request, Deadline.after(5.0))
        assert sorted(sources(outcome)) == expected, include


def test_an_include_glob_after_an_exclamation_mark_leaves_files_out(make_project, engine):
    # Django's docs/ holds its pages as `*.txt` and a `requirements.txt`: init writes
    # `!requirements.txt` after `*.txt`, and no tier searches it.
    root = make_project(
        {
            "docs/index.txt": "needle in a page\n",
            "docs/requirements.txt": "needle==1.0\n",
            "docs/Requirements/notes.txt": "needle in a folder named so\n",
            "docs/old/page.txt": "needle in an old page\n",
            "docs/guide.md": "needle in markdown\n",
        }
    )
    for include, expected in [
        (("*.txt", "!requirements.txt"), ["docs/Requirements/notes.txt", "docs/index.txt",
                                          "docs/old/page.txt"]),
        (("!REQUIREMENTS.TXT",), ["docs/Requirements/notes.txt", "docs/guide.md",
                                  "docs/index.txt", "docs/old/page.txt"]),
        (("*.txt", "!old/*", "!requirements.txt"), ["docs/Requirements/notes.txt",
                                                    "docs/index.txt"]),
    ]:  # fmt: skip
        scope = ResolvedScope("docs", (), (), ((root / "docs").resolve(),), include=include)
        request = TierRequest("needle", root, scope, Config(), 5.0)
        outcome = GrepTier().search(request, Deadline.after(5.0))
        assert sorted(sources(outcome)) == expected, include


def test_an_include_glob_in_any_case_still_gives_way_to_the_excludes(make_project, engine):
    # ripgrep applies every --iglob after every --glob: an include given as --iglob won over
    # the built-in excludes (a minified bundle) and tierscope's own private folder.
    root = make_project(
        {
            "docs/app.js": "// needle in the source\n",
            "docs/App.JS": "// needle in capitals\n",
            "docs/app.min.js": "var needle=1;\n",
            "docs/state/log.js": "// needle in the private folder\n",
        }
    )
    scope = ResolvedScope("code", (), (), ((root / "docs").resolve(),), include=("*.js",))
    private = ((root / "docs" / "state").resolve(),)
    request = TierRequest("needle", root, scope, Config(), 5.0, private_paths=private)
    outcome = GrepTier().search(request, Deadline.after(5.0))
    assert sorted(sources(outcome)) == ["docs/App.JS", "docs/app.js"]


def test_a_manual_pages_escaped_hyphens_join_a_names_parts(make_project, engine):
    # roff writes every hyphen of a name as `\\-`: tmux.1's `escape\\-time` never counted for
    # the query's `escape-time` (only its parts did), and tmux's CHANGES came first.
    root = make_project(
        {
            "docs/tmux.1": ".Sh OPTIONS\n.Bl -tag -width Ds\n.It Ic escape\\-time Ar time\n"
            "Set the time in milliseconds for which tmux waits after an escape is input.\n"
            ".It Ic history\\-limit Ar lines\nSet the most lines held in the history.\n"
            ".It Fl \\-no\\-pager\nNever page.\n.El\n",
            "docs/changes.md": "# Changes\n\nThe time to wait after an escape is shorter.\n",
        }
    )
    outcome = search(root, "escape-time")
    assert sources(outcome)[0] == "docs/tmux.1"
    assert "escapetime" in dict(outcome.hits[0].terms)
    assert sources(search(root, "--no-pager")) == ["docs/tmux.1"]


def test_a_manual_with_a_heading_for_everything_does_not_outrank_the_page(make_project, engine):
    # Magit's manual is one Org file with 900 headlines and entries: some heading holds
    # nearly any word, and it outranked magit-section.org, the page on the question.
    manual = "".join(
        f"## Option {n}: the {word} setting\n\nSets the {word} of the buffer.\n\n"
        for n, word in enumerate(["section", "collapse", "package", "fill", "buffer"] * 40)
    )
    page = (
        "# Sections in your own package\n\n## Creating sections\n\n"
        "To fill a buffer with collapsible sections in your own package, call "
        "insert-section for each section.\n"
    )
    root = make_project({"docs/manual.md": manual, "docs/sections.md": page})
    query = "collapsible sections in my own package, what fills the buffer"
    assert sources(search(root, query))[0] == "docs/sections.md"


def test_a_name_holding_test_asks_about_no_tests(make_project, engine):
    # vitest's `runTestFiles`: its tests call it more often than its code names it.
    root = make_project(
        {
            "docs/src/runner.ts": "export const runTestFiles = async (files) => {\n"
            + "".join(f"  const step{n} = await prepare(files, {n})\n" for n in range(40))
            + "  return runTestFiles(files.rest)\n}\n",
            "docs/test/runner.test.ts": "".join(
                f"test('runs {n}', () => runTestFiles([{n}]))\n" for n in range(4)
            ),
        }
    )
    assert sources(search(root, "runTestFiles"))[0] == "docs/src/runner.ts"


def test_generated_code_weighs_less_unless_the_query_asks_about_it(make_project, engine):
    # gin's testdata/protoexample/test.pb.go: "Code generated ... DO NOT EDIT." — written by
    # a tool from another file, never the code a question is about.
    generated = (
        "// Code generated by protoc-gen-go. DO NOT EDIT.\n// source: test.proto\n\n"
        + "".join(f"// Method not allowed response {n}\nvar x{n} = {n}\n" for n in range(4))
    )
    root = make_project(
        {
            "docs/proto/reply.pb.go": generated,
            "docs/gin.go": "// handle405 writes the method not allowed response.\n"
            'func handle405(c *Context) {\n\tc.String(405, "method not allowed")\n}\n',
        }
    )
    assert sources(search(root, "method not allowed response"))[0] == "docs/gin.go"
    asked = sources(search(root, "generated method not allowed response"))
    assert asked[0] == "docs/proto/reply.pb.go"


def test_in_a_project_about_tests_the_word_test_asks_about_no_test_files(make_project, engine):
    # vitest's own code says `test` throughout: "what happens when a test runs longer than
    # its timeout" asks about its runner, not its test files.
    runner = (
        "export function runTest(test) {\n  const timeout = test.timeout\n  return timeout\n}\n"
    )
    tests = "".join(
        f"test('a test over its timeout {n}', () => runTest({{ timeout: {n} }}))\n"
        for n in range(6)
    )
    files = {f"docs/src/part{n}.ts": f"// runs the test {n}\nexport const part{n} = {n}\n"
             for n in range(24)}  # fmt: skip
    root = make_project({**files, "docs/src/runner.ts": runner, "docs/test/runner.test.ts": tests})
    assert sources(search(root, "a test runs longer than its timeout"))[0] == "docs/src/runner.ts"


def test_translations_of_a_served_page_are_left_out(make_project, engine):
    # Translated documentation keeps the original's code and names: on those words a copy
    # in each language would fill the answer with the same page.
    page = "# CORS\n\n{text}\n\n```python\napp.add_middleware(CORSMiddleware)\n```\n"
    root = make_project(
        {
            "docs/en/docs/cors.md": page.format(text="Allow origins with CORSMiddleware."),
            "docs/de/docs/cors.md": page.format(text="Erlauben Sie Origins mit CORSMiddleware."),
            "docs/pt-BR/docs/cors.md": page.format(text="Permita origens com CORSMiddleware."),
            "docs/en/docs/other.md": "Allow other origins: add middleware to the app.\n",
        }
    )
    outcome = search(root, "allow origins with cors middleware")
    assert sources(outcome) == ["docs/en/docs/cors.md", "docs/en/docs/other.md"]
    assert any("2 translations of a served page left out" in note for note in outcome.notes)


def test_binary_and_oversized_files_are_skipped(make_project, engine):
    config = Config()
    big = "needle " * (config.grep.max_filesize // 7 + 10)
    root = make_project(
        {"docs/bin.dat": b"needle\x00\x01\x02", "docs/big.md": big, "docs/ok.md": "needle\n"}
    )
    assert sources(search(root, "needle")) == ["docs/ok.md"]


def test_non_utf8_files_are_decoded_with_replacement(make_project, engine):
    root = make_project({"docs/latin.md": "caf\xe9 needle\n".encode("latin-1")})
    assert search(root, "needle").hits[0].content == "caf\ufffd needle"


def test_a_utf16_file_is_decoded_not_served_as_garbage(make_project, engine):
    root = make_project({"docs/wide.md": "# Wide\n\nthe needle is here\n".encode("utf-16")})
    [hit] = search(root, "needle").hits
    assert hit.content == "# Wide\n\nthe needle is here"


def test_private_state_inside_a_scope_is_never_searched(make_project, engine):
    root = make_project(
        {
            "docs/a.md": "needle\n",
            "docs/trajectory/implement-2026-11-23.md": "needle\n",
        }
    )
    outcome = search(root, "needle", private=((root / "docs/trajectory").resolve(),))
    assert sources(outcome) == ["docs/a.md"]


def test_regex_and_glob_characters_are_searched_literally(make_project, engine):
    root = make_project({"docs/a.md": "call foo( here\n", "docs/b.md": "fooo\n"})
    outcome = search(root, "foo(")
    assert outcome.status is TierStatus.SERVED
    assert search(root, "-e foo(").status is TierStatus.SERVED


def test_no_match_is_empty_with_a_reason(make_project, engine):
    root = make_project({"docs/a.md": "nothing here\n"})
    outcome = search(root, "zebra")
    assert outcome.status is TierStatus.EMPTY
    expected = "ripgrep" if engine == "ripgrep" else "python scan"
    assert outcome.reason == f"no file matches 'zebra' ({expected})"
    assert outcome.notes[0] == f"engine: {expected}"


def test_empty_folders_are_not_handed_to_ripgrep(tmp_path, monkeypatch):
    root = tmp_path / "repo"
    (root / "docs").mkdir(parents=True)
    started: list[tuple[str, ...]] = []
    real = grep_ripgrep.run_ripgrep

    def counted(argv, *args, **kwargs):
        started.append(argv)
        return real(argv, *args, **kwargs)

    monkeypatch.setattr(grep_ripgrep, "run_ripgrep", counted)
    outcome = search(root, "zebra")
    assert outcome.status is TierStatus.EMPTY
    engine = "ripgrep" if find_ripgrep() else "python scan"
    assert outcome.reason == f"no file matches 'zebra' ({engine})"
    assert "0 files searched" in outcome.notes
    assert started == []
    # A folder holding anything at all (a hidden file too) is ripgrep's to search.
    (root / "docs" / ".notes.md").write_text("zebra\n")
    search(root, "zebra")
    assert len(started) == (1 if find_ripgrep() else 0)


def test_a_file_name_that_is_not_utf8_is_left_out_and_the_rest_answers(make_project):
    if find_ripgrep() is None:
        pytest.skip("rg not available")
    root = make_project({"docs/a.md": "needle and thread\n"})
    odd = os.path.join(os.fsencode(root / "docs"), b"needle-\xff.md")
    with open(odd, "wb") as handle:
        handle.write(b"needle\n")
    outcome = search(root, "needle")
    assert sources(outcome) == ["docs/a.md"]
    assert "1 files with names that are not UTF-8 left out" in outcome.notes
    assert "2 files searched" in outcome.notes


RIPGREP_FILES = (
    b"docs/a.md\0needles\nneedle\nthreads\nneedle\n\n"
    b"./docs/b.md\0thread\nneedle\n\n"
    b"docs/c.md\0preview\n\n"  # a match that counts for no term
    b"docs/d.md\0needle\nneedles\nthreads\nneedle\n\n"
)
WHOLE = RIPGREP_FILES + b"5 files searched\n123 bytes printed\n4567 bytes searched\n"
CUT = RIPGREP_FILES + b"docs/cut.md\0needle\nneed"  # cut by the output cap: left out


@pytest.mark.parametrize("output", [WHOLE, CUT], ids=["whole", "cut"])
def test_ripgrep_output_reads_the_same_whether_or_not_every_name_is_utf8(output):
    from tierscope.ranking.analysis import query_terms
    from tierscope.ranking.matching import TermMatcher

    matcher = TermMatcher(query_terms("needle thread review"))
    found, odd = grep_ripgrep.parse_output(output, matcher)
    # One name that is not UTF-8 sends the whole output down the path decoding each name.
    found_odd, odd_names = grep_ripgrep.parse_output(
        output.replace(b"docs/c.md", b"docs/\xff.md"), matcher
    )
    assert (odd, odd_names) == (0, 0)  # docs/c.md holds no term: it is not counted
    frequencies = {path: list(tf.items()) for path, tf in found.frequencies.items()}
    assert frequencies == {
        "docs/a.md": [("needl", 3), ("thread", 1)],
        "docs/b.md": [("thread", 1), ("needl", 1)],
        "docs/d.md": [("needl", 3), ("thread", 1)],
    }
    assert {path: list(tf.items()) for path, tf in found_odd.frequencies.items()} == frequencies
    expected_size = (5, 4567) if output is WHOLE else (0, 0)
    assert (found.documents, found.total_bytes) == expected_size
    assert (found_odd.documents, found_odd.total_bytes) == expected_size


@given(st.lists(st.integers(0, len(WHOLE)), max_size=12), st.sampled_from(["whole", "cut", "odd"]))
def test_ripgrep_output_read_as_it_comes_counts_as_read_at_once(cuts, kind):
    from tierscope.ranking.analysis import query_terms
    from tierscope.ranking.matching import TermMatcher

    output = {
        "whole": WHOLE.replace(b"docs/b.md", b"docs/\n\nb.md"),  # a name with an empty line
        "cut": CUT,
        "odd": WHOLE.replace(b"docs/c.md", b"docs/\xff.md"),
    }[kind]
    matcher = TermMatcher(query_terms("needle thread review"))
    at_once, odd_at_once = grep_ripgrep.parse_output(output, matcher)
    counts = grep_ripgrep.OutputCounts(matcher)
    start = 0
    for cut in [*sorted(cuts), len(output)]:
        counts.feed(output[start:cut])
        start = max(start, cut)
    piecewise, odd_piecewise = counts.finish()
    assert odd_piecewise == odd_at_once
    assert list(piecewise.frequencies.items()) == list(at_once.frequencies.items())
    assert (piecewise.documents, piecewise.total_bytes) == (at_once.documents, at_once.total_bytes)


# ------------------------------------------------------------------- hostile file trees


def test_a_folder_name_with_a_newline_never_reads_outside_the_root(tmp_path, engine):
    outside = tmp_path / "abs" / "outside"
    outside.mkdir(parents=True)
    (outside / "secret.md").write_text("zebracorn outside the root\n")
    root = tmp_path / "repo"
    planted = root / "docs" / f"x\n{outside}"
    planted.mkdir(parents=True)
    (planted / "secret.md").write_text("zebracorn inside the root\n")
    (root / "docs" / "new\nline.md").write_text("zebracorn in a file with a newline\n")
    outcome = search(root.resolve(), "zebracorn")
    assert sorted(sources(outcome)) == sorted([f"docs/x\n{outside}/secret.md", "docs/new\nline.md"])
    assert all("outside the root" not in hit.content for hit in outcome.hits)


def test_a_symlink_out_of_the_root_is_not_followed(tmp_path, engine):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("zebracorn secret\n")
    root = tmp_path / "repo"
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "a.md").write_text("zebracorn here\n")
    (root / "docs" / "link.md").symlink_to(outside / "secret.md")
    (root / "docs" / "dir").symlink_to(outside)
    outcome = search(root.resolve(), "zebracorn")
    assert sources(outcome) == ["docs/a.md"]


def test_a_fifo_in_scope_does_not_hang_the_search(make_project, engine):
    root = make_project({"docs/a.md": "needle\n"})
    os.mkfifo(root / "docs" / "pipe.md")
    outcome = search(root, "needle", timeout=3.0)
    assert outcome.status is TierStatus.SERVED
    assert sources(outcome) == ["docs/a.md"]


def test_deeply_nested_folders_are_searched(make_project, engine):
    root = make_project({})
    deep = root / "docs"
    deep.mkdir()
    for _ in range(1200):  # one level at a time: mkdir(parents=True) itself recurses
        deep = deep / "d"
        deep.mkdir()
    (deep / "a.md").write_text("needle\n")
    try:
        outcome = search(root, "needle", timeout=30.0)
    finally:
        # shutil.rmtree (pytest's clean-up of old runs) recurses per level: undo by hand.
        (deep / "a.md").unlink()
        while deep != root / "docs":
            deep.rmdir()
            deep = deep.parent
    assert outcome.status is TierStatus.SERVED


def answered_in_a_child(root: Path, query: str) -> dict:
    """The answer of `tierscope query QUERY --explain` on `root`, run in a child process
    with a time limit (test_config_limits.py): a query that hangs fails the test instead
    of holding the suite. Its own timeout leaves the tier's deadline out of it. Both are
    generous: on a loaded machine (two cores, another job running) the documents below take
    three times the 4 s they take alone, and the regressions they guard against took 40 s a
    file."""
    result = subprocess.run(
        [sys.executable, "-m", "tierscope", "query", query, "--root", str(root),
         "--timeout", "60", "--explain"],
        capture_output=True, text=True, timeout=75,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    return json.loads(result.stdout)


def test_a_document_of_nothing_but_headings_is_cut_in_time(tmp_path):
    # 190,000 headings (1.7 MB, under the size cap), each holding the query: finding each
    # section's end must not compare every heading with every later one (that took 40 s a
    # file). A child process with a time limit (test_config_limits.py): a regression fails
    # the test instead of holding the suite. Its own timeout leaves the deadline out of it.
    root = tmp_path / "repo"
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "a.md").write_text("### needle\n" + "# needle\n## needle\n" * 95_000)
    (root / "docs" / "b.rst").write_text("needle\n======\n\nneedle\n------\n\n" * 60_000)
    answer = answered_in_a_child(root, "needle")
    assert answer["trace"]["served_by"] == "grep"
    assert sorted(hit["source"] for hit in answer["results"]) == ["docs/a.md", "docs/b.rst"]


def test_a_page_of_hostile_markup_is_read_in_time(tmp_path):
    # A line opening an HTML tag with 60,000 attributes and no `>`: reading it for the
    # markup words that count for nothing tried every `=` against the rest of the line
    # (24 s a file). A child process with a time limit, as above.
    root = tmp_path / "repo"
    (root / "docs").mkdir(parents=True)
    tag = "<a " + 'needle="c" ' * 60_000
    (root / "docs" / "a.md").write_text(f"# Page\n\n{tag}\n\nA needle in the text.\n")
    (root / "docs" / "b.md").write_text("# Other\n\nA needle here too.\n")
    # And a front matter line of a long run of spaces before its last word: its value was
    # sought ending at each of the spaces.
    spaces = " " * 100_000
    (root / "docs" / "c.md").write_text(f"---\ntitle: needle{spaces}x\n---\n\n# C\n\nA needle.\n")
    # And, on a line holding a tag, backquotes that open no code span (each run was tried
    # as a span's start and split every way: forty runs took hours), or a tag never closed
    # over a long run of spaces (20,000 took minutes).
    ticks = "Text `" + "``x" * 40 + " <b>"
    (root / "docs" / "d.md").write_text(f"# D\n\n{ticks}\n\n<a{' ' * 20_000}\n\nA needle.\n")
    answer = answered_in_a_child(root, "needle")
    assert answer["trace"]["served_by"] == "grep"
    assert "docs/b.md" in {hit["source"] for hit in answer["results"]}


def test_a_code_file_of_hostile_signatures_is_read_in_time(tmp_path):
    # What follows a signature's parenthesis was read as any split of its `throws`
    # clauses: a prototype of forty of them took hours. A child process with a time limit,
    # as above.
    root = tmp_path / "repo"
    (root / "src").mkdir(parents=True)
    clauses = " throws a" * 40
    (root / "src" / "Needle.java").write_text(
        f"class Needle {{\n    public void needle(){clauses};\n    void other() {{}}\n}}\n"
    )
    answer = answered_in_a_child(root, "needle")
    assert answer["trace"]["served_by"] == "grep"
    assert [hit["source"] for hit in answer["results"]] == ["src/Needle.java"]


def test_aligned_code_and_long_diagram_lines_are_read_in_time(tmp_path):
    # A code line of words two spaces apart was read as a C signature's types split every
    # way (twenty words took half a second, each more doubling it); spaces before a
    # prototype's `;` were tried three ways; a diagram line of dashes with no `:` was tried
    # at every arrow against the rest of the line. A child process with a time limit.
    root = tmp_path / "repo"
    (root / "src").mkdir(parents=True)
    (root / "docs").mkdir()
    aligned = "  needle" + "  a" * 40 + "  x"
    spaced = "int needle()" + " " * 1_000 + ";"
    code = "".join(f"int other_{n}(void) {{ return {n}; }}\n" for n in range(80))
    (root / "src" / "needle.c").write_text(f"{aligned}\n{spaced}\n{code}")
    diagram = "```mermaid\nsequenceDiagram\n    needle" + "--" * 500 + "\n```\n"
    prose = "".join(f"Step {n} of the flow sends a message on.\n" for n in range(80))
    (root / "docs" / "flow.md").write_text(f"# Flow\n\n{diagram}\nA needle.\n\n{prose}")
    answer = answered_in_a_child(root, "needle")
    assert answer["trace"]["served_by"] == "grep"
    assert sorted(hit["source"] for hit in answer["results"]) == ["docs/flow.md", "src/needle.c"]


def test_a_manual_page_of_hostile_lines_is_read_in_time(tmp_path):
    # A line read for a table's format keys (`l l.`): a key followed by a long run of
    # digits was tried split every way (24 digits took a second, each more doubling it).
    # A child process with a time limit, as above.
    root = tmp_path / "repo"
    (root / "man" / "man1").mkdir(parents=True)
    hostile = "l" + "1" * 60 + " !\nl w(" + "1" * 400 + " !\n"
    page = (
        ".TH TOOL 1\n.SH NAME\ntool - a tool\n.SH TABLE\nThe needle finder table:\n"
        f"{hostile}A needle finder.\n"
    )
    (root / "man" / "man1" / "tool.1").write_text(page)
    answer = answered_in_a_child(root, "needle finder")
    assert answer["trace"]["served_by"] == "grep"
    assert [hit["source"] for hit in answer["results"]] == ["man/man1/tool.1"]


def test_dense_matches_beyond_the_output_cap_still_answer(make_project, engine):
    needles = "needle " * 280_000
    files = {f"docs/dense{i}.md": needles for i in range(6)}
    root = make_project({**files, "docs/z.md": "needle and haystack\n"})
    outcome = search(root, "needle haystack", timeout=30.0)
    assert outcome.status is TierStatus.SERVED


def test_files_cut_off_by_the_output_cap_are_still_counted(make_project, monkeypatch, engine):
    # A cap smaller than any file's output cuts every file, whatever order ripgrep's
    # threads print in: each answer must come from the files ripgrep listed past the cap.
    monkeypatch.setattr(grep_ripgrep, "OUTPUT_CAP", 16)
    root = make_project(
        {
            "docs/dense.md": "needle\n" * 2_000,
            "docs/z.md": "needle and haystack\n",
            "docs/other.md": "nothing to see\n",
        }
    )
    outcome = search(root, "needle haystack", timeout=30.0)
    assert outcome.status is TierStatus.SERVED
    assert sources(outcome)[0] == "docs/z.md"
    assert {hit.source for hit in outcome.hits} == {"docs/z.md", "docs/dense.md"}
    if engine == "ripgrep":
        assert any("output capped" in note for note in outcome.notes)
    assert "3 files searched" in outcome.notes


UNREADABLE_PROBE = """
import json, sys
from pathlib import Path
from tierscope.config.model import Config
from tierscope.models import ResolvedScope
from tierscope.tiers.base import Deadline, TierRequest
from tierscope.tiers.grep import GrepTier
root = Path(sys.argv[1])
scope = ResolvedScope("docs", (), (), (root / "docs",))
outcome = GrepTier().search(TierRequest("needle", root, scope, Config(), 5.0), Deadline.after(5))
print(json.dumps({"status": outcome.status.value, "sources": [h.source for h in outcome.hits]}))
"""


def test_one_unreadable_file_costs_that_file_not_the_answer(make_project, engine):
    root = make_project({"docs/a.md": "needle\n", "docs/locked.md": "needle\n"})
    (root / "docs" / "locked.md").chmod(0)
    # Root reads anything; without these capabilities it obeys file modes like a user.
    caps = "-dac_override,-dac_read_search"
    result = subprocess.run(
        ["setpriv", f"--bounding-set={caps}", f"--inh-caps={caps}", sys.executable, "-c",
         UNREADABLE_PROBE, str(root)],
        capture_output=True, text=True, check=True, env=os.environ,
    )  # fmt: skip
    answer = json.loads(result.stdout)
    assert answer == {"status": "served", "sources": ["docs/a.md"]}


def test_a_matched_file_replaced_by_a_fifo_is_skipped_not_waited_on(make_project, monkeypatch):
    from tierscope.tiers import file_hits

    root = make_project({"docs/a.md": "needle here\n", "docs/b.md": "needle\n"})
    real_read = file_hits.read_text_file

    def swap_then_read(path: Path, *args, **kwargs):
        if path.name == "a.md" and path.is_file():
            path.unlink()
            os.mkfifo(path)
        return real_read(path, *args, **kwargs)

    monkeypatch.setattr(file_hits, "read_text_file", swap_then_read)
    outcome = search(root, "needle", timeout=3.0)
    assert sources(outcome) == ["docs/b.md"]
    assert any("not a regular file" in note for note in outcome.notes)


def test_a_question_gets_the_page_in_its_own_language(make_project, engine):
    root = make_project(translated_page("docs"))
    outcome = search(root, "dependency_overrides get_db")
    assert sources(outcome) == ["docs/en/docs/testing.md"]
    assert "dependency_overrides" in outcome.hits[0].content
    assert not any("cop" in note for note in outcome.notes)  # not served twice either
    # A question in the translation's words is answered by the translation.
    outcome = search(root, "sobrescribe dependency_overrides")
    assert sources(outcome) == ["docs/es/docs/testing.md"]


def collector(root, query, frequencies) -> FileHits:
    matcher = TermMatcher(query_terms(query))
    scope = ResolvedScope("docs", (), (), ((root / "docs").resolve(),))
    request = TierRequest(query, root, scope, Config(), 5.0)
    scorer = Scorer.for_scope(tuple(t.key for t in matcher.terms), 2, {}, 100.0)
    return FileHits(
        request=request, terms=matcher.terms, matcher=matcher, scorer=scorer, tier="grep",
        context_filter=request.context(), limit=10, frequencies=frequencies,
    )  # fmt: skip


def test_a_translation_about_to_be_served_is_served_as_its_original(make_project):
    code = "```python\napp.dependency_overrides[get_db] = override_get_db\n```\n"
    root = make_project(
        {
            "docs/en/docs/testing.md": f"# Testing\n\nReplace a dependency in tests.\n\n{code}",
            "docs/es/docs/testing.md": f"# Pruebas\n\nSobrescribe una dependencia.\n\n{code}",
        }
    )
    counts = {"dependencyoverrides": 1, "getdb": 1}
    frequencies = {"docs/en/docs/testing.md": counts, "docs/es/docs/testing.md": counts}
    es = RankedFile("docs/es/docs/testing.md", 0.9, {"getdb": 0.9})
    en = RankedFile("docs/en/docs/testing.md", 0.5, {"getdb": 0.5})

    english = collector(root, "dependency_overrides get_db in tests", frequencies)
    english.add(es)
    english.add(en)  # served already: not again, not as a copy
    assert [hit.source for hit in english.hits] == ["docs/en/docs/testing.md"]
    assert "Replace a dependency" in english.hits[0].content
    assert english.notes() == ["1 translation served as the original"]

    spanish = collector(root, "sobrescribe dependency_overrides", frequencies)
    spanish.add(es)
    spanish.add(en)
    assert [hit.source for hit in spanish.hits] == ["docs/es/docs/testing.md"]
    assert spanish.notes() == ["1 translation of a served page left out"]


def test_a_rust_files_own_tests_count_as_tests_do(make_project, engine):
    # One file defines the trait; the other uses it in a few lines and tests it at length.
    uses = "".join(
        f"    #[test]\n    fn checks_{i}() {{\n        let _ = FromRequestParts::run();\n    }}\n"
        for i in range(8)
    )
    root = make_project(
        {
            "docs/extract.rs": "/// Extracts parts.\npub trait FromRequestParts {\n"
            "    fn run();\n}\n\n" + "".join(f"fn other_{i}() {{}}\n" for i in range(12)),
            "docs/request_parts.rs": "use crate::Parts;\n\nfn ext() {}\n\n"
            f"#[cfg(test)]\nmod tests {{\n    use super::*;\n{uses}}}\n",
        }
    )
    outcome = search(root, "FromRequestParts run")
    assert sources(outcome)[0] == "docs/extract.rs"
    outcome = search(root, "FromRequestParts run tests")
    assert sources(outcome)[0] == "docs/request_parts.rs"


def test_a_bundle_that_nearly_copies_a_served_source_never_takes_its_place(make_project):
    # A build's copy of one module, shallower than its source (Phoenix's priv/static/),
    # ranked below it as build output: the source stays served, the bundle is left out.
    body = "".join(f"  step{n}() {{ return this.socket.rejoin({n}); }}\n" for n in range(30))
    source = f"export class Channel {{\n  rejoin() {{ this.socket.reconnect(); }}\n{body}}}\n"
    bundle = source.replace("export class", "var Channel = class")
    bundle += "//# sourceMappingURL=c.js.map\n"
    root = make_project({"docs/assets/js/lib/channel.js": source, "docs/c.js": bundle})
    counts = {"channel": 2, "rejoin": 31}
    frequencies = {"docs/assets/js/lib/channel.js": counts, "docs/c.js": counts}
    hits = collector(root, "channel rejoin", frequencies)
    hits.add(RankedFile("docs/assets/js/lib/channel.js", 0.8, {"rejoin": 0.8}))
    hits.add(RankedFile("docs/c.js", 0.5, {"rejoin": 0.5}, BUILT_OUTPUT))
    assert [hit.source for hit in hits.hits] == ["docs/assets/js/lib/channel.js"]
    assert hits.notes() == ["1 near copy of a served file left out"]


def test_an_option_written_as_on_a_command_line_is_looked_up_as_an_option(make_project):
    # httpie's `--check-status`: the manual and the option's definition, not a private
    # helper `_check_status` a daemon runs, nor every `args.check_status`.
    root = make_project(
        {
            "docs/README.md": "# Options\n\n"
            + "Filler text about requests.\n" * 40
            + "## Exit status\n\nWith `--check-status` a 4xx or 5xx status exits with an error.\n",
            "src/runner.py": "def _check_status(env):\n    return env.check_status()\n\n"
            "TASKS = {'check_status': _check_status}\n",
            "src/core.py": "def main(args):\n    if args.check_status:\n        return status\n",
            "src/definition.py": "options.add_argument(\n    '--check-status',\n"
            "    help='Exit with an error on a 4xx or 5xx status.',\n)\n",
        }
    )
    for query in ("what does --check-status do", "--check-status"):
        outcome = search(root, query, paths=("docs", "src"))
        assert sources(outcome)[0] == "src/definition.py", query


def test_a_method_is_weighed_as_nested_only_against_a_top_level_definition_of_itself(
    make_project,
):
    # Textual's "query_exactly_one TooManyMatches": dom.py defines the method, inside
    # DOMNode, and raises the error; css/query.py defines the error at the top level. The
    # method scored as a member's definition that another file defines at the top level,
    # though no file does: the other file defines another name.
    method = (
        "from .query import TooManyMatches\n\n\nclass DOMNode:\n"
        + "".join(f"    def helper{n}(self):\n        return {n}\n\n" for n in range(30))
        + "    def query_exactly_one(self, selector):\n"
        '        """Raise TooManyMatches if more than one widget matches."""\n'
        "        found = self.query(selector)\n"
        "        if len(found) > 1:\n            raise TooManyMatches(selector)\n"
        "        return found[0]\n"
    )
    errors = (
        "class QueryError(Exception):\n    pass\n\n\n"
        'class TooManyMatches(QueryError):\n    """Too many nodes matched."""\n'
    )
    root = make_project({"src/dom.py": method, "src/query.py": errors})

    outcome = search(root, "query_exactly_one TooManyMatches", paths=("src",))

    assert sources(outcome)[0] == "src/dom.py"
    assert NESTED_DEFINITION_LABEL not in dict(outcome.hits[0].terms)


def test_a_question_about_where_a_name_is_raised_or_called_finds_the_uses(make_project):
    # The file that defines the exception is not where it is raised.
    root = make_project(
        {
            "src/errors.py": "class ValidationError(Exception):\n"
            '    """A value failed validation."""\n',
            "src/validators.py": "from .errors import ValidationError\n\n\n"
            + "".join(f"def helper{n}():\n    return {n}\n\n\n" for n in range(10))
            + "def check(value):\n    if value < 0:\n"
            "        raise ValidationError(f'{value} is negative')\n    return value\n",
            "src/api.py": "from .errors import ValidationError\n\n__all__ = ['ValidationError']\n",
            "src/app.py": "from .validators import check\n\n\ndef run(v):\n    return check(v)\n",
        }
    )
    outcome = search(root, "where is ValidationError raised", paths=("src",))
    assert sources(outcome)[0] == "src/validators.py"
    assert sources(search(root, "who calls check", paths=("src",)))[0] == "src/app.py"
    outcome = search(root, "where is ValidationError raised", paths=("src",))
    assert "raise ValidationError" in outcome.hits[0].content
    # Asked for itself, the name is shown where it is defined.
    assert sources(search(root, "ValidationError", paths=("src",)))[0] == "src/errors.py"


def test_the_file_assigning_a_member_its_function_outranks_those_calling_it(make_project, engine):
    # Express's `res.redirect = function redirect(url) {`: CommonJS defines the members of
    # an object by assignment. Its tests and an example call it more often, and the
    # example has a `redirect` variable of its own.
    members = "".join(
        f"/**\n * Member {n}.\n */\n\nres.member{n} = function member{n}(value) {{\n"
        f"  return this.send(value + {n});\n}};\n\n"
        for n in range(30)
    )
    calls = "".join(
        f"  it('should redirect {n}', function(done){{\n    var app = express();\n"
        f"    app.use(function(req, res){{\n      res.redirect('/{n}');\n    }});\n  }})\n\n"
        for n in range(8)
    )
    root = make_project(
        {
            "lib/response.js": "var res = Object.create(http.ServerResponse.prototype)\n\n"
            + members
            + "res.redirect = function redirect(url) {\n  this.location(url);\n  this.end();\n};\n",
            "test/res.redirect.js": f"describe('res', function(){{\n{calls}}})\n",
            "examples/vhost/index.js": "var redirect = express();\n\n"
            "redirect.use(function(req, res){\n  res.redirect('http://example.com/');\n});\n",
        }
    )
    outcome = search(root, "res.redirect", paths=("lib", "test", "examples"))
    assert sources(outcome)[0] == "lib/response.js"


def test_a_deprecated_definition_ranks_below_the_current_one(make_project, engine):
    # kotlinx.coroutines: `CoroutineScope.launch` served Guidance.kt first, whose two
    # overloads are marked @Deprecated, before Builders.common.kt defining the one in use.
    helpers = "".join(f"public fun helper{n}(value: Int): Int = value + {n}\n\n" for n in range(30))
    root = make_project(
        {
            "docs/Guidance.kt": "/** Do not pass a Job to launch. */\n@Deprecated(\n"
            '    "Passing a Job breaks structured concurrency.",\n'
            "    level = DeprecationLevel.WARNING)\n"
            "public fun CoroutineScope.launch(context: Job, block: () -> Unit): Job =\n"
            "    launch(context as CoroutineContext, block)\n",
            "docs/Builders.kt": helpers
            + "/** Launches a new coroutine without blocking the current thread. */\n"
            "public fun CoroutineScope.launch(\n    context: CoroutineContext,\n"
            "    block: suspend CoroutineScope.() -> Unit\n): Job {\n"
            "    return StandaloneCoroutine(context).start(block)\n}\n",
        }
    )
    outcome = search(root, "CoroutineScope.launch")
    assert sources(outcome) == ["docs/Builders.kt", "docs/Guidance.kt"]
    assert "(deprecated)" in dict(outcome.hits[1].terms)


def test_the_only_definition_of_a_name_as_a_method_is_not_weighed_as_another_class(
    make_project, engine
):
    # cobra's `SetHelpFunc`, defined only on Command: command.go was told it "defines it in
    # another class" (0.8), as if a module's own definition were elsewhere.
    callers = {
        f"docs/use_{n}.go": f"package main\n\nfunc setup{n}(c *Command) {{\n"
        "\tc.SetHelpFunc(printHelp)\n}\n"
        for n in range(3)
    }
    root = make_project(
        {
            **callers,
            "docs/command.go": "package cobra\n\n"
            "func (c *Command) SetHelpFunc(f func(*Command, []string)) {\n"
            "\tc.helpFunc = f\n}\n",
        }
    )
    outcome = search(root, "SetHelpFunc")
    assert sources(outcome)[0] == "docs/command.go"
    assert "(defines it in another class)" not in dict(outcome.hits[0].terms)


def test_a_long_file_defining_a_name_of_common_words_is_read_for_its_definition(
    make_project, engine
):
    # vite's `isCSSRequest`: `css` and `request` are everywhere, and utils.ts (2,012 lines)
    # defining it ranked below the 60 files read for definitions.
    users = {
        f"docs/plugin_{n:02}.ts": f"import {{ isCSSRequest }} from './utils'\n"
        f"export const css{n} = (request: Request) => isCSSRequest(request.url) && css(request)\n"
        for n in range(70)
    }
    padding = "".join(
        f"export const helper{n} = (value: number) => value + {n}\n" for n in range(600)
    )
    root = make_project(
        {
            **users,
            "docs/utils.ts": padding + "export const isCSSRequest = (request: string): boolean =>\n"
            "  CSS_LANGS_RE.test(request)\n",
        }
    )
    assert sources(search(root, "isCSSRequest"))[0] == "docs/utils.ts"


def test_a_name_its_tests_use_everywhere_is_still_read_for_its_definition(make_project, engine):
    # Svelte's `flushSync`: 831 test files use it, so it counted as a name used throughout
    # and no file holding it was read beyond the best 60; batch.js (1,000 lines) defining
    # it was not among them, and `flushSync` served task.js and test samples. Tests use
    # the names they test everywhere: they do not make a name common.
    tests = {
        f"docs/tests/samples/case_{n:03}/_config.js": "import { flushSync } from 'svelte';\n"
        f"export default {{ test() {{ flushSync(); flush(); sync{n}(); }} }}\n"
        for n in range(150)
    }
    users = {
        f"docs/src/dom/task_{n}.js": "import { flushSync } from '../batch.js';\n"
        f"export function run_{n}() {{ flushSync(); }}\n"
        for n in range(3)
    }
    padding = "".join(
        f"export function helper_{n}(value) {{ return value + {n}; }}\n" for n in range(2000)
    )
    root = make_project(
        {
            **tests,
            **users,
            "docs/src/batch.js": padding + "export function flushSync(fn) {\n  return fn();\n}\n",
        }
    )
    assert sources(search(root, "flushSync"))[0] == "docs/src/batch.js"


def test_a_cpp_template_struct_is_defined_where_its_body_is_not_where_it_is_declared(
    make_project, engine
):
    # nlohmann/json's `ordered_map`: json_fwd.hpp's `struct ordered_map;` counted as its
    # definition, and ordered_map.hpp's struct as one "in another class": its template's
    # parameters (`class Allocator = ...`) read as a class.
    users = "".join(
        f"inline ordered_map<int, int> make{n}() {{ return {{}}; }}\n" for n in range(30)
    )
    root = make_project(
        {
            "docs/json_fwd.hpp": "template<class Key, class T>\nstruct ordered_map;\n"
            "using ordered_json = basic_json<ordered_map>;\n",
            "docs/ordered_map.hpp": users
            + "template <class Key, class T, class IgnoredLess = std::less<Key>,\n"
            "          class Allocator = std::allocator<std::pair<const Key, T>>>\n"
            "                  struct ordered_map : std::vector<std::pair<const Key, T>>\n"
            "{\n    using key_type = Key;\n};\n",
        }
    )
    outcome = search(root, "ordered_map")
    assert sources(outcome)[0] == "docs/ordered_map.hpp"
    assert "(defines it in another class)" not in dict(outcome.hits[0].terms)


def test_tests_for_a_name_are_asked_about_where_the_code_says_test_throughout(make_project, engine):
    # vite's code calls `RegExp.prototype.test` everywhere, so "test" read as the project's
    # subject, and "tests for loadEnv" served env.ts before env.spec.ts.
    files = {
        f"docs/src/plugin{n}.ts": f"export const match{n} = (id: string) => /\\.css$/.test(id)\n"
        for n in range(24)
    }
    root = make_project(
        {
            **files,
            "docs/src/env.ts": "export function loadEnv(mode: string, dir: string) {\n"
            "  return /^VITE_/.test(mode) ? read(dir) : {}\n}\n",
            "docs/src/__tests__/env.spec.ts": "describe('loadEnv', () => {\n"
            "  test('reads the mode file', () => {\n    expect(loadEnv('dev', dir)).toEqual({})\n"
            "  })\n})\n",
        }
    )
    assert sources(search(root, "tests for loadEnv"))[0] == "docs/src/__tests__/env.spec.ts"
    # A question about testing, naming no name, is still about the project's own subject.
    assert sources(search(root, "test the mode"))[0] != "docs/src/__tests__/env.spec.ts"


def test_a_question_naming_a_name_and_a_test_in_passing_asks_for_the_code(make_project, engine):
    # Flask's "why does session_transaction in my test raise a TypeError saying cookies are
    # disabled": the answer is testing.py's code, not the tests of session_transaction.
    root = make_project(
        {
            "docs/src/testing.py": "class FlaskClient:\n"
            "    def session_transaction(self):\n"
            "        if self._cookies is None:\n"
            "            raise TypeError('Cookies are disabled.')\n",
            "docs/tests/test_testing.py": "".join(
                f"def test_session_{n}(client):\n"
                f"    with client.session_transaction() as sess:\n        sess['x'] = {n}\n"
                for n in range(3)
            ),
        }
    )
    question = (
        "why does session_transaction in my test raise a TypeError saying cookies are disabled"
    )
    outcome = search(root, question)
    assert sources(outcome)[0] == "docs/src/testing.py"
    assert "(not a test)" not in dict(outcome.hits[0].terms)


def test_where_a_name_is_called_ranks_its_callers_before_its_definition(make_project, engine):
    # cobra's "where is findSuggestions called": command.go, which only defines it, came
    # before args.go, which calls it.
    root = make_project(
        {
            "docs/command.go": "package cobra\n\n"
            + "".join(
                f"func (c *Command) Helper{n}() int {{\n\treturn {n}\n}}\n\n" for n in range(12)
            )
            + "// findSuggestions finds suggestions for a mistyped command name.\n"
            "func (c *Command) findSuggestions(arg string) string {\n"
            "\tsuggestions := c.SuggestionsFor(arg)\n"
            '\treturn strings.Join(suggestions, "\\n")\n}\n',
            "docs/args.go": "package cobra\n\n"
            + "".join(f"// legacy validation rule {n} for arguments\n" for n in range(8))
            + "func legacyArgs(cmd *Command, args []string) error {\n"
            '\treturn fmt.Errorf("unknown command %q%s", args[0], cmd.findSuggestions(args[0]))\n'
            "}\n",
        }
    )
    outcome = search(root, "where is findSuggestions called")
    assert sources(outcome)[0] == "docs/args.go"
    assert "(only defines it)" in dict(outcome.hits[1].terms)


def error_classes_and_their_factory(make_project):
    # Guzzle's exceptions: empty classes, short and named for the question's words, and
    # the function that makes them.
    return make_project(
        {
            "shop/errors/http_error.py": "class HttpError(RuntimeError):\n"
            "    def __init__(self, message: str, status: int) -> None:\n"
            "        super().__init__(message)\n        self.status = status\n",
            "shop/errors/server_error.py": "from .http_error import HttpError\n\n\n"
            'class ServerError(HttpError):\n    """Error for 5xx responses."""\n',
            "shop/errors/client_error.py": "from .http_error import HttpError\n\n\n"
            'class ClientError(HttpError):\n    """Error for 4xx responses."""\n',
            "shop/factory.py": "from .errors.client_error import ClientError\n"
            "from .errors.http_error import HttpError\n"
            "from .errors.server_error import ServerError\n\n\n"
            "def error_from_status(status: int, body: str) -> HttpError:\n"
            '    """Build the error object for a failed response, by its status code."""\n'
            '    message = f"Request failed with status {status}"\n'
            "    if status >= 500:\n        return ServerError(message, status)\n"
            "    if status >= 400:\n        return ClientError(message, status)\n"
            "    return HttpError(message, status)\n",
            "shop/cart.py": "class Cart:\n    def __init__(self) -> None:\n"
            "        self.items: dict[str, int] = {}\n",
        }
    )


@pytest.mark.parametrize(
    "question", ["where is a ServerError instantiated", "which function creates a ServerError"]
)
def test_asking_where_a_class_is_made_asks_for_its_uses(make_project, engine, question):
    # Guzzle: "which function creates a ServerException" weighed the factory "(does not
    # define it)", and "where is it instantiated" left it out; the empty class alone was
    # served. Made, as called or raised, asks where the name is used.
    outcome = search(error_classes_and_their_factory(make_project), question, paths=("shop",))
    terms = {hit.source: dict(hit.terms) for hit in outcome.hits}
    assert "(only defines it)" in terms["shop/errors/server_error.py"]
    assert "(does not define it)" not in terms["shop/factory.py"]


def test_the_code_where_the_classes_a_question_names_meet_comes_before_each_class(
    make_project, engine
):
    # Guzzle's "which code decides whether an error response becomes a ClientException or
    # a ServerException": the two empty classes came before RequestException::create.
    outcome = search(
        error_classes_and_their_factory(make_project),
        "which code decides whether a failed response becomes a ClientError or a ServerError",
        paths=("shop",),
    )
    assert sources(outcome)[0] == "shop/factory.py"
    assert "(holds only some of the names)" in dict(outcome.hits[1].terms)


def test_a_reference_page_whose_heading_names_the_option_outranks_a_guide_using_it(
    make_project, engine
):
    # vite's `envPrefix`: env-and-mode.md, a guide saying "env" throughout and linking to the
    # option, came before shared-options.md, whose section `## envPrefix` defines it.
    options = "".join(
        f"## option{n}\n\n- **Type:** `string`\n\nSets option {n}.\n\n" for n in range(12)
    )
    root = make_project(
        {
            "docs/guide/env-and-mode.md": "# Env Variables and Modes\n\n"
            + "Vite exposes env variables on `import.meta.env`; env files load by mode.\n" * 6
            + "Only variables with the prefix are exposed, see [envPrefix](/config#envprefix).\n",
            "docs/config/shared-options.md": "# Shared Options\n\n"
            + options
            + "## envPrefix\n\n- **Type:** `string | string[]`\n\n"
            "Env variables starting with `envPrefix` will be exposed to your client code.\n",
        }
    )
    outcome = search(root, "envPrefix")
    assert sources(outcome)[0] == "docs/config/shared-options.md"
    assert "## envPrefix" in outcome.hits[0].content


def test_a_test_fixture_of_the_name_is_no_definition_that_marks_the_code_down(make_project, engine):
    # requests' "no_proxy hostname matching": the pytest fixture `def no_proxy(...)` in
    # tests/test_utils.py was taken for the name's definition, so utils.py, which reads
    # no_proxy and matches hostnames against it, weighed 0.6 "(does not define it)" and the
    # test file came first.
    root = make_project(
        {
            "docs/utils.py": "def should_bypass_proxies(url, no_proxy):\n"
            '    """Returns whether we should bypass proxies or not."""\n'
            "    no_proxy_arg = no_proxy\n"
            "    if no_proxy is None:\n"
            "        no_proxy = get_proxy('no_proxy')\n"
            "    for host in no_proxy.split(','):\n"
            "        if hostname.endswith(host):  # hostname matching\n"
            "            return True\n",
            "docs/tests/test_utils.py": "import pytest\n\n\n"
            "@pytest.fixture\ndef no_proxy(monkeypatch):\n"
            "    monkeypatch.setenv('no_proxy', 'example.com')\n\n\n"
            "def test_no_proxy_hostname(no_proxy):\n"
            "    assert should_bypass_proxies('http://example.com', no_proxy=no_proxy)\n",
        }
    )
    outcome = search(root, "no_proxy hostname matching")
    assert sources(outcome)[0] == "docs/utils.py"
    assert "(does not define it)" not in dict(outcome.hits[0].terms)


def test_the_file_where_two_names_asked_for_meet_is_not_marked_down(make_project, engine):
    # httpx's "TooManyRedirects max_redirects": _exceptions.py defines the error (a stub),
    # _client.py takes max_redirects and raises TooManyRedirects past it, and was weighed
    # 0.6 "(does not define it)" below the stub.
    root = make_project(
        {
            "docs/errors.py": "class RouterError(Exception):\n"
            '    """Base class for routing errors."""\n\n\n'
            'class TooManyHops(RouterError):\n    """\n    Too many hops.\n    """\n\n\n'
            "class LoopDetected(RouterError):\n"
            '    """A route came back to a host it had already visited."""\n',
            "docs/router.py": "from .errors import LoopDetected, TooManyHops\n\n"
            "DEFAULT_HOPS = 20\n\n\nclass Router:\n"
            '    """Follows forwarded messages from host to host."""\n\n'
            "    def __init__(self, table: dict, max_hops: int = DEFAULT_HOPS) -> None:\n"
            "        self.table = table\n        self.max_hops = max_hops\n\n"
            "    def follow(self, start: str) -> list[str]:\n"
            "        path = [start]\n        host = start\n"
            "        while host in self.table:\n"
            "            if len(path) > self.max_hops:\n"
            '                raise TooManyHops("Exceeded maximum allowed hops.")\n'
            "            host = self.table[host]\n            path.append(host)\n"
            "        return path\n",
            "docs/table.py": "def load_table(lines: list[str]) -> dict:\n"
            '    """Read `source target` pairs into a routing table."""\n'
            "    return dict(line.split() for line in lines)\n",
            # A test using both names is still marked down (commander's useColor tests).
            "docs/tests/test_router.py": "from router import Router, TooManyHops\n\n\n"
            "def test_too_many_hops():\n"
            "    router = Router({'a': 'b', 'b': 'c'}, max_hops=1)\n"
            "    with raises(TooManyHops):\n        router.follow('a')\n",
        }
    )
    outcome = search(root, "TooManyHops max_hops")
    assert sources(outcome)[0] == "docs/router.py"
    test_hit = next(hit for hit in outcome.hits if hit.source == "docs/tests/test_router.py")
    assert "(does not define it)" in dict(test_hit.terms)
    assert "(does not define it)" not in dict(outcome.hits[0].terms)
    # One name alone is looked up at its definition.
    assert sources(search(root, "TooManyHops"))[0] == "docs/errors.py"


def test_a_definition_quoting_an_example_is_not_replaced_by_the_example(make_project, engine):
    # typer's models.py: `FileTextWrite`'s docstring quotes the tutorial's program. The
    # tutorial (a fourth of models.py's size, so "the source of an aggregate") took the
    # definition's place at its rank: no definition was served.
    example = (
        "import typer\n\napp = typer.Typer()\n\n\n@app.command()\n"
        "def main(config: typer.FileTextWrite = typer.Option(...)):\n"
        '    config.write("Some config written by the app")\n'
        '    print("Config written")\n\n\n'
        'if __name__ == "__main__":\n    app()\n'
    )
    quoted = "".join(f"    {line}\n" if line else "\n" for line in example.splitlines())
    others = "".join(
        f'class Other{n}:\n    """Another file type, number {n}."""\n\n'
        f"    def open_{n}(self, path):\n        return open(path, 'rb')\n\n\n"
        for n in range(12)
    )
    models = (
        f"import io\n\n\n{others}class FileTextWrite(io.TextIOWrapper):\n"
        '    """\n    You can use this class for writing text.\n'
        '    The default mode of this class is `mode="w"`.\n\n'
        f"    **Example**\n\n    ```python\n{quoted}    ```\n"
        '    """\n\n    pass\n\n\n'
    )
    root = make_project({"docs/models.py": models, "docs/examples/write_file.py": example})
    outcome = search(root, "FileTextWrite mode")
    assert sources(outcome)[0] == "docs/models.py"
    assert "The default mode of this class" in outcome.hits[0].content


def test_a_page_extending_another_is_kept_for_the_words_only_it_holds(make_project, engine):
    # Chart.js's samples: `polar-area-center-labels.md` is `polar-area.md` and the option
    # that centers its point labels. It ranked first for "Polar area centered point
    # labels", its title, and the shorter page, named by fewer of its name's words, took
    # its place as the original of a copy: the option was never served.
    setup = "".join(
        f"  const dataset{n} = Utils.numbers({{count: {n}, min: 0}});\n" for n in range(30)
    )
    base = "```js\nconst config = {\n  type: 'polarArea',\n" + setup
    root = make_project(
        {
            "docs/samples/polar-area.md": "# Polar area\n\n" + base + "};\n```\n",
            "docs/samples/polar-area-center-labels.md": "# Polar area centered point labels\n\n"
            + base
            + "  scales: {r: {pointLabels: {display: true, centerPointLabels: true}}},\n"
            + "".join(
                f"  plugin{n}: {{title: {{display: true, text: 'Step {n}'}}}},\n" for n in range(6)
            )
            + "};\n```\n",
            "docs/charts/radar.md": "# Radar\n\nA radar chart shows labels around a point.\n",
        }
    )
    outcome = search(root, "Polar area centered point labels")
    assert sources(outcome)[0] == "docs/samples/polar-area-center-labels.md"
    # Asked what both say, the page both extend is served in the other's place.
    assert sources(search(root, "polar area dataset numbers"))[0] == "docs/samples/polar-area.md"


def test_a_folder_holding_most_files_found_names_no_subject(make_project, engine):
    # Helix keeps 1,193 tree-sitter queries under `runtime/queries/`, 78% of its code
    # scope: for "runtime directory priority" the queries setting a highlight's priority
    # ranked above the Rust code that orders the runtime directories, each lifted by the
    # `runtime` of its path.
    queries = {
        f"docs/runtime/queries/lang{n}/highlights.scm": f"((identifier) @constant\n"
        f" (#set! priority {100 + n}))\n"
        for n in range(30)
    }
    loader = (
        "/// The runtime directories, searched in order of priority: the user's own\n"
        "/// configuration directory first, then the one beside the executable.\n"
        "pub fn runtime_dirs() -> Vec<PathBuf> {\n    let mut dirs = Vec::new();\n"
        + "".join(f'    dirs.push(config_dir().join("part{n}"));\n' for n in range(40))
        + "    dirs\n}\n"
    )
    root = make_project({**queries, "docs/loader/src/lib.rs": loader})
    assert sources(search(root, "runtime directory priority"))[0] == "docs/loader/src/lib.rs"


def test_a_file_name_asked_about_ranks_the_code_writing_it_first(make_project, engine):
    # astral-sh/uv's "pyvenv.cfg": taken for the member `cfg` of `pyvenv`, it ranked a file
    # defining an unrelated `fn cfg` first, and weighed the writer of pyvenv.cfg 0.6 "(does
    # not define it)".
    root = make_project(
        {
            "docs/status.rs": "/// A summary of the environment (its pyvenv.cfg seen or not).\n"
            "pub struct Status {\n    seen: bool,\n    level: u8,\n}\n\nimpl Status {\n"
            "    /// The status level.\n"
            "    pub fn cfg(&self) -> u8 {\n        self.level\n    }\n}\n",
            "docs/venv.rs": "use std::fs;\nuse std::path::Path;\n\n"
            "/// Write the `pyvenv.cfg` file at the root of a new virtual environment.\n///\n"
            "/// The `pyvenv.cfg` file records the `home` of the base interpreter.\n"
            "pub fn write_pyvenv_cfg(root: &Path, home: &str) -> std::io::Result<()> {\n"
            '    let contents = format!("home = {home}\\n");\n'
            '    fs::write(root.join("pyvenv.cfg"), contents)\n}\n\n'
            "/// Read the `pyvenv.cfg` file of a virtual environment, if it has one.\n"
            "pub fn read_pyvenv_cfg(root: &Path) -> Option<String> {\n"
            '    fs::read_to_string(root.join("pyvenv.cfg")).ok()\n}\n',
        }
    )
    outcome = search(root, "pyvenv.cfg")
    assert sources(outcome)[0] == "docs/venv.rs"
    assert all("(does not define it)" not in dict(hit.terms) for hit in outcome.hits)


def test_the_python_scan_counts_the_files_and_bytes_ripgrep_searches(make_project, monkeypatch):
    # The scope's size sets BM25's rarity and average length. ripgrep reads a file with a
    # BOM as its text in UTF-8 (UTF-16 transcoded, the BOM left out), and counts a binary
    # file as searched (0 bytes); the scan counted raw bytes, and no binary file.
    if find_ripgrep() is None:
        pytest.skip("rg not available")
    root = make_project(
        {
            "docs/wide.md": "needle in UTF-16, naïve\n".encode("utf-16"),
            "docs/marked.md": b"\xef\xbb\xbfneedle after a UTF-8 BOM\n",
            "docs/plain.md": b"needle in bytes that are not UTF-8: \xff\xfe\n",
            "docs/image.png": b"\x89PNG\r\n\x1a\n\x00\x00 needle",  # searched, for nothing
        }
    )
    from tierscope.tiers.grep import _GrepSearch

    def scope_size():
        scope = ResolvedScope("docs", (), (), ((root / "docs").resolve(),))
        request = TierRequest("needle", root, scope, Config(), 5.0)
        search = _GrepSearch("grep", request, Deadline.after(5.0))
        found = search.candidates(TermMatcher(query_terms("needle")))
        return search.engine, found.documents, found.total_bytes

    engine, *by_ripgrep = scope_size()
    assert engine == "ripgrep"
    monkeypatch.setenv("TIERSCOPE_GREP_ENGINE", "python")
    engine, *by_scan = scope_size()
    assert engine == "python scan"
    assert by_scan == by_ripgrep


def test_a_page_whose_wide_lines_hold_encoded_links_is_no_minified_code(make_project, engine):
    # Svelte's docs link to playground demos whose URLs hold the demo, base64-encoded: most
    # of a page's characters are in wide lines with hardly a space, but not every wide
    # line is such a link.
    encoded = "H4sIAAAAAAAAE3VT0XLaMBD8lavbDiaNCUlbHhTItG" * 20
    link = "An attachment runs when an element mounts ([demo](/playground#{}{}))."
    wide = "Attachments run in an effect, and are destroyed when the element unmounts. " * 4
    short = "The state they read changes and the function runs again from the start.\n" * 10
    page = "# Attachments\n\n" + "".join(
        link.format(encoded, n) + f"\n\n{short}\n{wide}needle {n}.\n\n" for n in range(3)
    )
    root = make_project({"docs/attach.md": page})
    assert sources(search(root, "needle")) == ["docs/attach.md"]


def test_a_name_written_solid_in_one_case_counts_as_the_parts_the_query_spells(
    make_project, engine
):
    # Hatch: "like Linux or macOS" counted mac, os and macos in a page writing "macOS" in
    # passing, and macos alone in the page about the option, which writes `macos`.
    root = make_project(
        {
            "docs/platforms.md": "# Environment configuration\n\n## Supported platforms\n\n"
            "The `platforms` option lists the operating systems an environment is compatible"
            ' with:\n\n```toml\nplatforms = ["linux", "macos"]\n```\n\n'
            "The supported values are `linux`, `windows` and `macos`.\n",
            "docs/virtual.md": "# Virtual environments\n\n## Linker variables on macOS\n\n"
            "If you set linker environment variables, a protected program will not see them,"
            " as macOS strips those. This does not happen on Linux.\n",
            "docs/other.md": "# Other\n\nNothing about it.\n",
        }
    )

    query = "Which platforms can an environment be limited to, like Linux or macOS?"
    assert sources(search(root, query))[0] == "docs/platforms.md"


def test_a_licence_header_neither_ranks_a_file_nor_is_served(make_project, engine):
    # yargs' levenshtein.ts: its MIT header matched "right" and "kind" and was served;
    # OkHttp's and Gson's Apache headers in every file say "use", "file" and "software".
    header = (
        "/*\n * Copyright (c) 2011 The Authors\n"
        " * Permission is hereby granted, free of charge, to any person obtaining a copy of\n"
        " * this software, to deal in the Software without restriction, including the rights\n"
        " * to use, copy, modify, and sell it, WITHOUT WARRANTY OF ANY KIND.\n */\n"
    )
    root = make_project(
        {
            "docs/distance.ts": header
            + "".join(f"export const step{n} = {n}\n" for n in range(200))
            + "// Distance between an option and what was typed.\n",
            "docs/options.ts": "// Suggest the closest option to an unknown option.\n"
            + "export const suggestOption = (option: string) => option\n",
        }
    )

    outcome = search(root, "the right kind of option")
    assert sources(outcome)[0] == "docs/options.ts"
    assert "Permission" not in outcome.hits[-1].content


def test_an_interface_ranks_below_the_code_doing_what_it_declares(make_project, engine):
    # Composer: OperationInterface.php, its doc comments naming what each operation does,
    # came first for how a problem is explained, above Problem.php, which explains it.
    root = make_project(
        {
            "docs/OperationInterface.php": "<?php\ninterface OperationInterface\n{\n"
            "    /** Shows a human readable explanation of the problem. */\n"
            "    public function show(): string;\n"
            "    /** The readable reason. */\n    public function reason(): string;\n}\n",
            "docs/Problem.php": "<?php\nclass Problem\n{\n"
            "    public function getPrettyString(): string\n    {\n"
            "        // the human readable explanation of the problem: why its rules conflict\n"
            + "".join(f"        $text{n} = $this->rules[{n}]->describe();\n" for n in range(40))
            + "        return $text0;\n    }\n}\n",
        }
    )

    outcome = search(root, "where is the human readable explanation of a problem built")
    assert sources(outcome)[0] == "docs/Problem.php"


def test_a_hostile_except_line_is_read_in_time(tmp_path):
    # A Python line opening `except` with 60,000 `ImportError` and no colon: reading it as
    # an import's guard tried each `ImportError` against the rest of the line (quadratic:
    # 8,000 took 0.6 s). Among as much code again, the file is no machine data. A child
    # process with a time limit, as above.
    root = tmp_path / "repo"
    (root / "src").mkdir(parents=True)
    hostile = "try:\n    import needle\n    except " + "ImportError " * 60_000 + "\n"
    code = "".join(f"def helper_{n}(value):\n    return value + {n}\n\n" for n in range(22_000))
    (root / "src" / "guard.py").write_text(hostile + code + "def needle():\n    return 1\n")
    answer = answered_in_a_child(root, "needle")
    assert [hit["source"] for hit in answer["results"]] == ["src/guard.py"]
