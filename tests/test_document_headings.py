"""Headings beyond markdown's `#`: reStructuredText and plain-text titles (a line with an
underline, perhaps an overline), AsciiDoc's `==` and markdown's setext headings. They
start the sections a snippet is cut from, and their words say what a file is about."""

from __future__ import annotations

import pytest

from tierscope.ranking.analysis import query_terms
from tierscope.ranking.matching import TermMatcher
from tierscope.ranking.roff_text import readable
from tierscope.ranking.sections import cut_snippet
from tierscope.ranking.spans import document_headings, split_lines
from tierscope.ranking.structure import structure_terms


def snippet(text: str, path: str, query: str, max_chars: int = 200, max_line_chars: int = 120):
    matcher = TermMatcher(query_terms(query))
    weights = {term.key: 1.0 for term in matcher.terms}
    return cut_snippet(
        text, path, matcher.lines(text), weights,
        max_chars=max_chars, max_line_chars=max_line_chars, matcher=matcher,
    )  # fmt: skip


def titles(text: str, path: str) -> list[tuple[str, int]]:
    lines = split_lines(text)
    return [(lines[h.title], h.level) for h in document_headings(lines, path)]


RST = """\
=====
Guide
=====

Intro about budgets and other things.

Setup
=====

Install it with pip.

Token budget
------------

The token budget caps context.
Tokens are counted.

Other
=====

Unrelated text here.
"""


def test_an_rst_snippet_is_the_section_holding_the_matches():
    cut = snippet(RST, "docs/guide.rst", "token budget", max_chars=90)
    assert cut.text == (
        "Token budget\n------------\n\nThe token budget caps context.\nTokens are counted."
    )
    assert (cut.line_start, cut.line_end) == (12, 16)


def test_rst_levels_follow_the_order_adornment_styles_first_appear_in():
    assert titles(RST, "guide.rst") == [
        ("Guide", 1), ("Setup", 2), ("Token budget", 3), ("Other", 2)
    ]  # fmt: skip


def test_a_section_that_fits_is_widened_to_its_parent_in_rst():
    cut = snippet(RST, "docs/guide.rst", "setup install pip", max_chars=180)
    assert cut.text.startswith("Setup\n=====\n")
    assert "Tokens are counted." in cut.text  # its subsection comes with it


def test_plain_text_with_underlined_titles_has_sections():
    text = (
        "Changes\n=======\n\nVersion 2.0\n-----------\n\nDropped the old flag.\n\n"
        "Version 1.0\n-----------\n\nAdded the retry flag.\nRetry waits longer.\n"
    )
    cut = snippet(text, "CHANGES.txt", "retry flag", max_chars=80)
    assert cut.text.startswith("Version 1.0\n-----------")


def test_rst_transitions_tables_and_short_lines_are_not_titles():
    text = (
        "Some text.\n\n----------\n\nMore text.\n\n"  # a transition: a blank line above it
        "=====  =====\nName   Value\n=====  =====\n\n"  # a simple table
        "x\n--\n\n"  # an underline of two characters
        "    Indented title\n    --------------\n\n"  # a block quote, not a title
        "Real title\n----------\n"
    )
    assert titles(text, "a.rst") == [("Real title", 1)]


def test_an_overlined_title_may_be_inset():
    # tox's docs, written by docstrfmt: every top-level title is `****` / ` Title` /
    # `****`, as docutils allows under an overline. Its sections had run on into the
    # section above.
    text = (
        "Packaging\n=========\n\nBuild a wheel.\n\n"
        "***************\n Parallel mode\n***************\n\nRun environments at once.\n"
    )
    assert titles(text, "a.rst") == [("Packaging", 1), (" Parallel mode", 2)]
    cut = snippet(text, "docs/a.rst", "parallel environments at once", max_chars=90)
    assert cut.text.startswith("***************\n Parallel mode")
    # Inset without an overline, or under one of another character, it is a block quote.
    assert titles("Text.\n\n Quoted\n -------\n", "a.rst") == []
    assert titles("Text.\n\n#######\n Quoted\n*******\n", "a.rst") == []


def test_an_underline_much_shorter_than_its_title_is_text():
    text = "A sentence that goes on for a while\n---\n\nReal\n====\n"
    assert titles(text, "a.rst") == [("Real", 1)]


def test_asciidoc_headings_start_sections():
    text = (
        "= Guide\n\nIntro about budgets.\n\n== Setup\n\nInstall it.\n\n"
        "=== Token budget\n\nThe token budget caps context.\n\n== Other\n\nUnrelated.\n"
    )
    assert titles(text, "guide.adoc") == [
        ("= Guide", 1), ("== Setup", 2), ("=== Token budget", 3), ("== Other", 2)
    ]  # fmt: skip
    cut = snippet(text, "docs/guide.adoc", "token budget", max_chars=60)
    assert cut.text == "=== Token budget\n\nThe token budget caps context."


MAN_PAGE = r""".TH TOOL 1 "2025" "tool 1.0" "tool - a finder"
.SH NAME
tool - a finder
.SH OPTIONS
.SS Search mode
.TP
.BI "\-\-exact"
Enable exact match.
.TP
.BI "\-\-walker\-skip=" "DIRS"
Comma-separated list of directory names to skip while walking.
Default: \fB.git,node_modules\fR
.SH
ENVIRONMENT
Variables the tool reads.
"""


def test_man_page_sections_and_options_start_sections():
    # roff: `.SH` a section, `.SS` a subsection, `.TP` a tagged paragraph (an option); a
    # bare `.SH` takes its title from the next line.
    assert titles(MAN_PAGE, "man/man1/tool.1") == [
        (".SH NAME", 1), (".SH OPTIONS", 1), (".SS Search mode", 2),
        (".BI \"\\-\\-exact\"", 3), (".BI \"\\-\\-walker\\-skip=\" \"DIRS\"", 3),
        ("ENVIRONMENT", 1),
    ]  # fmt: skip
    cut = snippet(MAN_PAGE, "man/man1/tool.1", "which directories are skipped", max_chars=160)
    # Served as read: a font macro's words, no escapes, layout requests as empty lines.
    assert cut.text.startswith("\n--walker-skip=DIRS\nComma-separated list"), cut.text
    assert "Default: .git,node_modules" in cut.text and "\\" not in cut.text
    lines = split_lines(MAN_PAGE)
    matcher = TermMatcher(query_terms("search mode"))
    assert structure_terms(lines, matcher.lines(MAN_PAGE), "tool.1", matcher) == {"search", "mode"}


MDOC_PAGE = """\
.\\" $OpenBSD: tool.1 $
.Dd August 2026
.Dt TOOL 1
.Sh NAME
.Nm tool
.Nd terminal multiplexer
.Sh OPTIONS
.Bl -tag -width Ds
.It Fl f Ar file
Read the configuration from
.Ar file .
.El
.Ss Window options
.Bl -tag -width Ds
.It Xo Ic synchronize\\-panes
.Op Ic on | off
.Xc
Duplicate input to all other panes in the same window where possible, see
.Xr tool 1 ,
and the
.Ic remain\\-on\\-exit
option.
.Pp
.It Ic status-style Ar style
Set the style of the status line.
.El
"""


def test_bsd_manual_pages_sections_and_entries_start_sections():
    # tmux writes its manual in mdoc, BSD's macros: `.Sh` a section, `.Ss` a subsection,
    # `.It` an entry (an option, a command: its tag on the same line, or over lines
    # between `.Xo` and `.Xc`). It was served as raw macros: `.Ic on ,`, `.Xc`, `.Pp`.
    assert titles(MDOC_PAGE, "tool.1") == [
        (".Sh NAME", 1), (".Sh OPTIONS", 1), (".It Fl f Ar file", 3), (".Ss Window options", 2),
        (".It Xo Ic synchronize\\-panes", 3), (".It Ic status-style Ar style", 3),
    ]  # fmt: skip
    cut = snippet(MDOC_PAGE, "tool.1", "synchronize panes", max_chars=260)
    assert "synchronize-panes\n[on | off]\n\nDuplicate input" in cut.text, cut.text
    assert "tool(1)," in cut.text and "remain-on-exit\noption." in cut.text, cut.text
    assert "\\" not in cut.text and ".Xc" not in cut.text and ".Ic" not in cut.text
    # Punctuation after an enclosed part closes after it; `Oo` ... `Oc` enclose over lines.
    assert [readable(line) for line in (".Op Fl d ,", ".Oo", ".Ar name Oc", ".Pq Ar x ) .")] == [
        "[-d],",
        "[",
        "name]",
        "(x)).",
    ]


def test_a_bare_name_macro_is_the_manuals_name():
    # tmux's manual writes its own name as `.Nm` alone (144 times): "the time for which",
    # an empty line, "waits after an escape". `.Tg` tags an entry for a search, and shows
    # nothing.
    page = (
        ".Dd August 2026\n.Dt TOOL 1\n.Sh NAME\n.Nm tool\n.Nd terminal multiplexer\n"
        ".Sh OPTIONS\n.Bl -tag -width Ds\n.Tg escape\n.It Ic escape\\-time Ar time\n"
        "Set the time in milliseconds for which\n.Nm\nwaits after an escape is input, as\n"
        ".Nm ,\nsays.\n.El\n"
    )
    cut = snippet(page, "tool.1", "milliseconds escape input", max_chars=400)
    assert "for which\ntool\nwaits after" in cut.text, cut.text
    assert "as\ntool,\nsays." in cut.text and ".Tg" not in cut.text, cut.text


def test_a_manual_pages_table_is_served_as_its_rows():
    # zoxide's manual keeps its frecency table in tbl markup: `.TS`, `tab(|);`, `l l.`,
    # `T{` ... `T}` and `.TE` were served as written.
    page = (
        ".TH JUMP 1\n.SH ALGORITHM\nFrecency depends on the last access:\n.TS\ntab(|);\n"
        "l l.\n\\fBLast access\\fR|\\fBFrecency\\fR\nWithin the last hour|score * 4\n"
        "Within the last day|T{\nscore * 2, halved after a week\nT}\n.TE\n"
        ".SH NOTES\nA line that is text: l l.\n"
    )
    cut = snippet(page, "man/man1/jump.1", "frecency last access hour", max_chars=400)
    for markup in (".TS", ".TE", "tab(|);", "T{", "T}"):
        assert markup not in cut.text, cut.text
    assert "\nl l.\n" not in cut.text
    assert "Within the last hour|score * 4" in cut.text
    assert "Within the last day|\nscore * 2, halved after a week" in cut.text
    assert [readable(line) for line in ("lb lb lb.", "c s s", "allbox tab(:);", "a.", "ls")] == [
        "", "", "", "a.", "ls",
    ]  # fmt: skip


def test_asciidoc_listing_blocks_hold_no_headings():
    text = "== Run it\n\n----\n= not a heading\n----\n\n== Next\n"
    assert titles(text, "a.adoc") == [("== Run it", 2), ("== Next", 2)]


def test_rdoc_headings_start_sections():
    # Rails' frameworks keep their READMEs in RDoc (activerecord/README.rdoc): `= Title`,
    # `== Section`; its verbatim text is indented, and a rule is three dashes or more.
    text = (
        "= Active Record -- Object-relational mapping\n\nIntro.\n\n"
        "== Download and installation\n\n  $ gem install activerecord\n\n"
        "  = not a heading\n\n----\n\n=== Source code\n\nOn GitHub.\n\n== License\n\nMIT.\n"
    )
    assert titles(text, "activerecord/README.rdoc") == [
        ("= Active Record -- Object-relational mapping", 1),
        ("== Download and installation", 2), ("=== Source code", 3), ("== License", 2),
    ]  # fmt: skip
    cut = snippet(text, "activerecord/README.rdoc", "installation gem", max_chars=70)
    assert cut.text == "== Download and installation\n\n  $ gem install activerecord"
    terms = structure_terms(
        split_lines(text), {5: {"instal": 1}}, "README.rdoc", TermMatcher(query_terms("install"))
    )
    assert terms == frozenset({"instal"})


def test_markdown_setext_headings_start_sections():
    text = (
        "Guide\n=====\n\nIntro about budgets.\n\nSetup\n-----\n\nInstall it.\n\n"
        "Token budget\n------------\n\nThe token budget caps context.\n"
    )
    assert titles(text, "README.md") == [("Guide", 1), ("Setup", 2), ("Token budget", 2)]
    cut = snippet(text, "README.md", "token budget", max_chars=60)
    assert cut.text.startswith("Token budget\n------------")


def test_markdown_rules_lists_and_fenced_lines_are_not_setext_headings():
    text = (
        "---\ntitle: Front matter\n---\n\n"
        "Para.\n\n---\n\n"  # a thematic break after a blank line
        "- a list item\n---\n\n"  # a list item, then a break
        "```\ncode\n---\n```\n\n"  # inside a fence
        "# Real\n"
    )
    assert titles(text, "a.md") == [("# Real", 1)]


def test_a_setext_title_may_open_on_an_inline_anchor_but_not_on_an_html_block():
    # yargs' docs/api.md: `<a name="demandOption"></a>.demandOption(key, ...)` over a rule is
    # a heading (a paragraph that opens on inline HTML); 37 of its 81 method headings were
    # read as text, their sections merged into the heading above.
    text = (
        "Options\n===\n\n.count(key)\n-----------\n\nCount a flag.\n\n"
        '<a name="demandOption"></a>.demandOption(key, [msg])\n------------------\n'
        ".demandOption(key, msg)\n------------------\n\nDemand each element.\n\n"
        '<div align="center">\n---\n\n</div>\n\n<img src="logo.png">\n---\n'
    )
    assert titles(text, "docs/api.md") == [
        ("Options", 1),
        (".count(key)", 2),
        ('<a name="demandOption"></a>.demandOption(key, [msg])', 2),
        (".demandOption(key, msg)", 2),
    ]


def test_front_matter_is_yaml_or_toml_at_a_pages_top_and_opens_on_a_key():
    # Hugo's pages open on TOML between `+++` lines: a comment in it is no heading.
    toml = '+++\n# the page settings\ntitle = "Routing"\n+++\n\n# Real\n'
    assert titles(toml, "content/a.md") == [("# Real", 1)]
    # A page opening on a thematic break has none: the paragraph under it is a title.
    ruled = "---\n\nSome text\n---\n\n# Real\n"
    assert titles(ruled, "a.md") == [("Some text", 2), ("# Real", 1)]
    # Nor is the rule an underline of the page's last line (pandoc's horizontalRule.md).
    assert titles("---\nA page opening on a rule.\n", "a.md") == []


def structure(text: str, path: str, query: str) -> set[str]:
    matcher = TermMatcher(query_terms(query))
    return set(structure_terms(split_lines(text), matcher.lines(text), path, matcher))


def test_title_words_are_a_files_structure_in_rst_asciidoc_and_setext_markdown():
    assert structure(RST, "guide.rst", "budget install") == {"budget"}
    adoc = "= Guide\n\n== Token budget\n\nInstall it.\n"
    assert structure(adoc, "guide.adoc", "budget install") == {"budget"}
    setext = "Token budget\n------------\n\nInstall it.\n"
    assert structure(setext, "README.md", "budget install") == {"budget"}
    # Underlines are not titles of their own, nor is text above a transition.
    assert structure("Install it.\n\n--------\n\nMore.\n", "a.rst", "install") == set()


# An FAQ written with HTML headings (ripgrep's FAQ.md), and READMEs' centred titles.
HTML_FAQ = """\
## FAQ

* [Does it read config files?](#config)
* [How do I search compressed files?](#compressed)

<h3 name="config">
Does it read config files?
</h3>

Yes. See the guide's section on configuration files.

<h3 name="compressed">
How do I search compressed files?
</h3>

Pass the `-z` flag: gzip, xz and bzip2 files are decompressed first.

<H2 align="center">Licence</H2>

MIT.
"""


def test_markdown_html_headings_start_sections():
    assert titles(HTML_FAQ, "FAQ.md") == [
        ("## FAQ", 2),
        ("Does it read config files?", 3),
        ("How do I search compressed files?", 3),
        ('<H2 align="center">Licence</H2>', 2),
    ]
    cut = snippet(HTML_FAQ, "FAQ.md", "search compressed files", max_chars=140)
    assert cut.text.startswith('<h3 name="compressed">\nHow do I search compressed files?')
    assert "-z" in cut.text
    assert "config" not in cut.text


def test_a_markdown_heading_inside_an_html_comment_is_no_heading():
    # The Rust book keeps regeneration notes in comments (`# copy the output here`): read
    # as a heading, it split `## Await Points` and led a passage of its own.
    text = (
        "## Await Points\n\nWhen we run this code:\n\n<!-- manual-regeneration\n"
        "cd listings/ch17\n# copy the output here\n-->\n\nOutput.\n\n"
        "<!-- Old headings. Do not remove. -->\n\n### Futures\n\nText.\n"
        "<!--\nTitle\n=====\n-->\n"
    )
    assert titles(text, "ch17.md") == [("## Await Points", 2), ("### Futures", 3)]


def test_html_heading_words_are_structure_and_html_elsewhere_is_not():
    in_titles = {term.key for term in query_terms("compressed licence")}
    assert structure(HTML_FAQ, "FAQ.md", "compressed licence gzip") == in_titles
    text = "<p>\nCompressed files are searched.\n</p>\n\n```\n<h2>Fenced gzip</h2>\n```\n"
    assert structure(text, "a.md", "compressed gzip") == set()
    assert titles(text, "a.md") == []


def test_headings_of_a_file_with_crlf_line_ends_are_found():
    crlf = RST.replace("\n", "\r\n")
    assert [title for title, _ in titles(crlf, "guide.rst")] == [
        "Guide", "Setup", "Token budget", "Other"
    ]  # fmt: skip
    cut = snippet(crlf, "docs/guide.rst", "token budget", max_chars=90)
    assert cut.text == (
        "Token budget\n------------\n\nThe token budget caps context.\nTokens are counted."
    )
    setext = "Guide\r\n=====\r\n\r\nIntro.\r\n\r\nToken budget\r\n------------\r\n\r\nCaps.\r\n"
    assert [level for _, level in titles(setext, "README.md")] == [1, 2]
    assert structure(setext, "README.md", "budget") == {"budget"}


def test_a_setext_title_over_two_lines_starts_its_section_at_its_first_line():
    text = (
        "Intro about nothing.\n\nA long title that\nwraps onto two lines\n"
        "====================\n\nBody of the section.\n"
    )
    lines = split_lines(text)
    [heading] = document_headings(lines, "README.md")
    assert lines[heading.start] == "A long title that"
    assert lines[heading.title] == "wraps onto two lines"


NESTED_FENCES = """\
# Templates

````hbs
```rust
# fn main() {
let x = 1;
# }
```
````

## Includes

Include a file with anchors.

~~~
```
## not a heading either
~~~

```python title="a.py"
# a comment, not a heading
```python
"""


def test_a_fence_closes_only_at_its_own_kind_at_least_as_long_and_bare():
    # CommonMark: a block opened by ```` is not closed by ```rust inside it, nor a ~~~
    # block by ```, nor any by a fence with an info string after it (the last block runs
    # to the end); rustdoc's hidden lines (`# fn main() {`) are not headings.
    assert titles(NESTED_FENCES, "book.md") == [("# Templates", 1), ("## Includes", 2)]
    gotten = structure(NESTED_FENCES, "book.md", "main comment includes heading")
    assert gotten == {term.key for term in query_terms("includes")}


def test_a_passage_never_ends_on_the_next_sections_bare_heading():
    doc = (
        "# Guide\n\nAn introduction that is long enough not to fit with the rest of the "
        "guide.\n\n## Budget\n\nThe token budget caps the context served.\n\n## Setup\n\n"
        "Install it with pip and run the tool once.\n"
    )
    cut = snippet(doc, "guide.md", "token budget", max_chars=160)
    assert cut.text == "## Budget\n\nThe token budget caps the context served."
    assert (cut.line_start, cut.line_end) == (5, 7)
    rst = "Budget\n======\n\nThe token budget caps the context.\n\nSetup\n=====\n\nInstall it.\n"
    assert "Setup" not in snippet(rst, "guide.rst", "token budget", max_chars=80).text


def test_a_passage_does_not_end_on_a_paragraph_announcing_what_it_leaves_out():
    # testify's CONTRIBUTING.md: the cap ended a passage on "Please include the following
    # in the description:", the list it announces left out. A paragraph holding a query
    # word stays (pytest's "Here is the algorithm which finds the rootdir").
    doc = (
        "# Guide\n\n## Budget\n\nThe token budget caps the context served to a skill.\n"
        "Tokens are counted as a model counts them.\n\nTo change it, write this in the "
        "config:\n\n```yaml\nqmd_context:\n  default_budget: 4000\n  other: 1\n```\n"
    )
    cut = snippet(doc, "guide.md", "token budget caps context", max_chars=150)
    assert cut.text.endswith("Tokens are counted as a model counts them."), cut.text
    cut = snippet(doc, "guide.md", "token budget caps context config", max_chars=150)
    assert cut.text.endswith("To change it, write this in the config:"), cut.text
    # An announcement served with what it announces is kept.
    cut = snippet(doc, "guide.md", "token budget caps context", max_chars=300)
    assert "default_budget: 4000" in cut.text


FENCED = """\
# Guide

## Budget

The token budget caps the context served to a skill, counted in tokens.

```python
import os
print(os.getcwd())
print(1)
```
"""


def test_the_cut_off_start_of_a_code_block_with_no_room_to_close_it_is_left_out():
    # The cap cuts the block after its first line and leaves no room for the closing
    # fence: an open fence turns what follows into code, whether or not the line holds
    # the query (`import budget`).
    intro = "## Budget\n\nThe token budget caps the context served to a skill, counted in tokens."
    assert snippet(FENCED, "guide.md", "token budget", max_chars=110).text == intro
    held = FENCED.replace("import os", "import budget")
    assert snippet(held, "guide.md", "token budget", max_chars=110).text == intro


def test_a_passage_starting_inside_a_code_block_starts_at_its_fence_when_that_fits():
    doc = (
        "# Clock\n\nAn introduction that is long enough not to fit with the rest of the "
        "guide, really it is long.\n\n```python\nimport os\nimport sys\nimport json\n"
        "from textual.app import App, ComposeResult\n\nclass ClockApp(App):\n"
        "    def compose(self) -> ComposeResult:\n        yield Digits()\n```\n\nMore text.\n"
    )
    cut = snippet(doc, "README.md", "ComposeResult", max_chars=200)
    assert cut.text.startswith("```python\nimport os\n")
    assert cut.line_start == 5 and len(cut.text) <= 200
    # With no room for the lines above, the passage is as it was: never over the cap.
    tight = snippet(doc, "README.md", "ComposeResult", max_chars=140)
    assert tight.text.startswith("import json\n") and len(tight.text) <= 140


def test_a_pages_table_of_contents_is_not_served_for_the_headings_it_repeats():
    # Laravel's docs open each page with a list of links to its own sections: holding
    # every heading's words, it came first for "revoke or expire API tokens", not the
    # sections that answer.
    filler = "This paragraph tells of the feature at some length, as pages do.\n\n"
    text = (
        "# Sanctum\n\n- [Introduction](#introduction)\n- [Issuing API Tokens](#issuing)\n"
        "    - [Revoking Tokens](#revoking-tokens)\n    - [Token Expiration](#token-expiration)\n"
        "- [Testing](#testing)\n\n## Introduction\n\nSanctum authenticates requests.\n\n"
        + filler * 4
        + "## Issuing API Tokens\n\nCall `createToken` to issue an API token.\n\n"
        + filler * 4
        + "### Revoking Tokens\n\nRevoke a token by deleting it: `$user->tokens()->delete();`\n\n"
        "### Token Expiration\n\nSet `expiration` in the config to expire tokens after minutes.\n\n"
        + filler * 4
        + "## Testing\n\nUse `Sanctum::actingAs` in tests.\n"
    )
    query = "how do I revoke or expire API tokens in tests"
    cut = snippet(text, "docs/sanctum.md", query, max_chars=600)
    assert "](#revoking-tokens)" not in cut.text, cut.text
    assert "Revoke a token by deleting it" in cut.text, cut.text


def test_a_passage_does_not_end_on_the_next_sections_label_or_anchor():
    rst = (
        "FAQ\n===\n\nPython 2 Support?\n-----------------\n\n"
        "No. Requests no longer supports Python 2.7 at all.\n\n.. _compliance:\n\n"
        "Standards Compliance\n--------------------\n\n" + "Other text here.\n" * 40
    )
    cut = snippet(rst, "docs/faq.rst", "python 2.7 support", max_chars=400)
    assert cut.text.rstrip().endswith("supports Python 2.7 at all."), cut.text
    markdown = (
        "# FAQ\n\n## Python 2?\n\nNo. Requests no longer supports Python 2.7.\n\n"
        '<a name="compliance"></a>\n\n## Compliance\n\n' + "Other text here.\n" * 40
    )
    cut = snippet(markdown, "docs/faq.md", "python 2.7 support", max_chars=400)
    assert cut.text.rstrip().endswith("supports Python 2.7."), cut.text
    myst = markdown.replace('<a name="compliance"></a>', "(compliance)=")  # MyST's target
    cut = snippet(myst, "docs/faq.md", "python 2.7 support", max_chars=400)
    assert cut.text.rstrip().endswith("supports Python 2.7."), cut.text
    # mkdocs-autorefs' anchor, under the comments pydantic's docs keep over it.
    autorefs = markdown.replace(
        '<a name="compliance"></a>',
        "<!-- old anchor added for backwards compatibility -->\n"
        "<!-- markdownlint-disable-next-line no-empty-links -->\n[](){#compliance}",
    )
    cut = snippet(autorefs, "docs/faq.md", "python 2.7 support", max_chars=400)
    assert cut.text.rstrip().endswith("supports Python 2.7."), cut.text


@pytest.mark.parametrize("opener", ["!!! tip", '??? note "Why"', "> [!TIP]", ":::tip"])
def test_a_passage_does_not_end_on_a_callout_it_cuts_off(opener):
    # The callout's words lie past the cap: its first line alone says nothing.
    text = (
        "# Routing\n\nRoutes are matched in order, so /users/me must come before\n"
        "/users/{id} or it never matches.\n\n"
        f"{opener}\n\n    Put the most specific routes first, always, in every router you write.\n"
        + "More text here.\n"
        * 20
    )
    cut = snippet(text, "docs/routing.md", "route order users me never matches", max_chars=150)
    assert cut.text.rstrip().endswith("or it never matches."), cut.text


def test_a_passage_cut_to_make_room_for_its_heading_does_not_end_on_a_callout():
    # Laravel's pulse.md: the note's words went to make room for the heading of the
    # section the passage starts inside, and the passage ended on `> [!NOTE]`.
    filler = "".join(f"Pulse line {n} describes how cards are registered.\n" for n in range(8))
    text = (
        f"# Pulse\n\n## Custom Cards\n\n{filler}\n"
        "The variables should be passed to their Blade components so the template may change.\n\n"
        "> [!NOTE]\n"
        "> If your card is in a package, you will need to register the component with Livewire.\n\n"
        "## Styling\n\n" + "Styling text here.\n" * 10
    )
    query = "make a variable available in every blade template without passing it"
    cut = snippet(text, "docs/pulse.md", query, max_chars=210)
    assert cut.text.startswith("## Custom Cards"), cut.text
    assert cut.text.rstrip().endswith("so the template may change."), cut.text


def test_a_passage_cut_short_by_the_next_heading_starts_at_its_paragraph():
    intro = "".join(
        f"Intro line {n} says nothing the question asks about here.\n" for n in range(9)
    )
    text = (
        f"# Guide\n\n## Mounting\n\n{intro}\n"
        "When you mount a widget, it mounts what it composes.\n"
        "Mounting completes by the next message handler only.\n"
        "This may be a problem in that same handler.\n\n"
        + "".join(f"Illustration line {n} of what follows from it.\n" for n in range(4))
        + "\n## Other\n\nOther words entirely.\n"
    )
    cut = snippet(text, "docs/app.md", "next message handler", max_chars=400)
    assert "completes by the next message handler" in cut.text
    # Led by its section's heading, the intro left out between.
    assert cut.text.startswith("## Mounting\n[lines 4-14 not shown]\nWhen you mount a widget")


def test_a_second_passage_trimmed_to_a_heading_alone_is_not_served(monkeypatch):
    # vitest's wait-for recipe: the room left after the answer held only the next
    # section's heading (its first paragraph did not fit), and the passage ended on it.
    from tierscope.ranking import sections
    from tierscope.ranking.spans import Span

    doc = (
        "# Recipes\n\n## Hoisting\n\nUse vi.hoisted to run code before the imports.\n\n"
        "## `vi.waitUntil`: poll until truthy\n\nUse vi.waitUntil for a value lookup.\n"
    )
    heading = doc.split("\n").index("## `vi.waitUntil`: poll until truthy")
    monkeypatch.setattr(sections, "second_passage", lambda *a, **k: Span(heading, heading + 2))
    cut = snippet(doc, "docs/recipes.md", "what does vi.hoisted do", max_chars=100)
    assert "Use vi.hoisted" in cut.text
    assert "waitUntil" not in cut.text


def test_a_passage_that_starts_inside_a_code_block_does_not_end_on_its_closing_fence():
    # pinia's migration guide: a window inside a long example ended on the example's
    # closing fence, which a markdown reader takes for an opening one.
    code = "\n".join(f"    // step {n} of the store" for n in range(40))
    doc = (
        "# Migrating\n\n```ts\nexport const useStore = defineStore('auth', {\n"
        f"{code}\n"
        "    // easily reset state using `$reset`\n    clearUser () {\n      this.$reset()\n    }\n"
        "})\n```\n\n" + "\n".join(f"Unrelated closing words number {n}." for n in range(40)) + "\n"
    )
    cut = snippet(doc, "docs/migration.md", "reset state clearUser", max_chars=120)
    assert "this.$reset()" in cut.text
    assert not cut.text.rstrip().endswith("```"), cut.text


def test_a_generic_heading_is_led_by_the_heading_above_it():
    # Slim's CHANGELOG: `### Added` alone does not say which version the line is in.
    older = "".join(f"## 4.{n}.0 - 2019-0{n}-01\n\n### Fixed\n- Fix {n}\n\n" for n in range(1, 4))
    text = (
        "# Changelog\n\n## 4.8.0 - 2021-05-19\n\n### Added\n- Add a PSR-7 decorator\n\n"
        + "".join(f"- Change number {n}\n" for n in range(30))
        + "\n## 4.2.0 - 2019-08-20\n\n### Changed\n"
        + "".join(f"- Rework number {n}\n" for n in range(30))
        + "\n### Added\n- Add a resolver\n"
        + "- Add ability to emit non seekable streams\n- Add a dispatcher\n\n"
        + older
    )
    cut = snippet(text, "CHANGELOG.md", "ability to emit non seekable streams", max_chars=300)
    shown = cut.text.splitlines()
    assert shown[0] == "## 4.2.0 - 2019-08-20", cut.text
    assert shown.index("### Added") > 1
    assert "- Add ability to emit non seekable streams" in shown


def test_a_heading_under_a_version_is_led_by_the_version():
    # uv's changelogs: `### Configuration` under `## 0.9.12` said nothing of the release,
    # and an entry was read as the release of the last version heading shown.
    text = (
        "# Changelog\n\n## 0.9.12\n\n### Enhancements\n"
        + "".join(f"- Enhancement number {n}\n" for n in range(30))
        + "\n### Configuration\n- Add `APP_NO_DEFAULT_GROUPS` to skip the default groups\n\n"
        + "".join(f"## 0.9.{n}\n\n### Python\n- Python change {n}\n\n" for n in range(11, 0, -1))
    )
    cut = snippet(text, "CHANGELOG.md", "APP_NO_DEFAULT_GROUPS environment variable", max_chars=300)
    shown = cut.text.splitlines()
    assert shown[0] == "## 0.9.12", cut.text
    assert "### Configuration" in shown[1:]
    assert "- Add `APP_NO_DEFAULT_GROUPS` to skip the default groups" in shown
    # A heading under a title that names no version is led by its own heading alone.
    guide = text.replace("## 0.9.12", "## Workspaces")
    cut = snippet(
        guide, "docs/guide.md", "APP_NO_DEFAULT_GROUPS environment variable", max_chars=300
    )
    assert cut.text.splitlines()[0] == "### Configuration", cut.text


def test_the_best_passages_heading_comes_before_a_second_passage():
    # express's History.md: a 5.0.0 line was served without its version heading, and a
    # 2.0.0 entry far below took the room.
    note = "with a long note about nothing at all here"
    entries = "".join(f"  * deps: package-{n}@1.0.{n} {note}\n" for n in range(12))
    text = (
        "5.0.0 / 2024-09-10\n==================\n\n" + entries + "* breaking:\n"
        "  * `res.redirect('back')` is no longer a supported magic string, use the Referrer"
        " header\n  * `res.status()` accepts only integers from now on in express\n"
        + "".join(
            f"\n{n}.0.0 / 2020-01-01\n==================\n\n  * Other change {n}\n"
            for n in (4, 3, 2)
        )
        + "".join(f"  * filler {n}\n" for n in range(40))
        + "\n2.0.0beta3 / 2011-03-09\n==================\n\n"
        "  * Fixed `res.redirect()` back, still supported\n"
    )
    query = "is res.redirect('back') still supported in express 5"
    cut = snippet(text, "History.md", query, max_chars=350)
    shown = cut.text.splitlines()
    assert shown[0] == "5.0.0 / 2024-09-10", cut.text
    assert "2.0.0beta3 / 2011-03-09" not in shown


# A Vim help file (Neovim plugins' doc/*.txt): sections under a rule of `=`, each titled
# with its tag on the right, and each option or function under a line ending in its tag.
VIM_HELP = """\
*tool.txt*            Find, Filter, Preview, Pick.

==============================================================================
INTRODUCTION                                                  *tool.nvim*

Tool is a fuzzy finder.

==============================================================================
DEFAULTS                                                   *tool.defaults*

                                                  *tool.defaults.sorting*
    sorting: ~
        How results are sorted: "descending" or "ascending".

        Default: "descending"

                                                  *tool.defaults.history*
    history: ~
        This field handles the configuration for prompt history.

        Fields:
          - path:       The path to the history file.
          - limit:      The amount of entries that will be written in the
                        history.
                        Default: 100


 vim:tw=78:ts=8:ft=help:norl:
"""


def test_vim_help_sections_and_tagged_entries_start_sections():
    assert titles(VIM_HELP, "doc/tool.txt") == [
        ("*tool.txt*            Find, Filter, Preview, Pick.", 1),
        ("INTRODUCTION                                                  *tool.nvim*", 1),
        ("DEFAULTS                                                   *tool.defaults*", 1),
        ("                                                  *tool.defaults.sorting*", 4),
        ("                                                  *tool.defaults.history*", 4),
    ]
    # telescope's "prompt history limit" started at "- limit:", the option it belongs to
    # (`*telescope.defaults.history*`) not shown.
    cut = snippet(VIM_HELP, "doc/tool.txt", "prompt history limit", max_chars=400)
    assert cut.text.lstrip().startswith("*tool.defaults.history*"), cut.text
    assert "Default: 100" in cut.text
    lines = split_lines(VIM_HELP)
    matcher = TermMatcher(query_terms("history sorting"))
    found = structure_terms(lines, matcher.lines(VIM_HELP), "doc/tool.txt", matcher)
    assert found == {"histori", "sort"}


# Vim's own help groups entries under a headline in capitals (tabpage.txt).
VIM_TABS = """\
*tabs.txt*      Editing with tab pages

==============================================================================
2. Commands                                             *tab-page-commands*

Other commands:
                                                        *:tabs*
:tabs           List the tab pages and the windows they contain.
                Shows a ">" for the current window.


REORDERING TAB PAGES:

:tabm[ove] [N]                                          *:tabm* *:tabmove*
                Move the current tab page to after tab page N.  Use zero to
                make the current tab page the first one.
                Without N the tab page is made the last one.

:tabm[ove] +[N]
:tabm[ove] -[N]
                Move the current tab page N places to the right (with +) or
                to the left (with -).


 vim:tw=78:ts=8:ft=help:norl:
"""


def test_vim_help_headlines_in_capitals_head_the_entries_under_them():
    assert ("REORDERING TAB PAGES:", 3) in titles(VIM_TABS, "doc/tabs.txt")
    assert ("Other commands:", 3) not in titles(VIM_TABS, "doc/tabs.txt")  # no capitals
    hostile = VIM_TABS.replace("REORDERING TAB PAGES:", "A" + " " * 100_000 + "a")
    assert all(level != 3 for _, level in titles(hostile, "doc/tabs.txt"))
    # Vim's "reorder tab pages" was served the lines above the headline, ending on it,
    # not the `:tabmove` entries it heads.
    cut = snippet(VIM_TABS, "doc/tabs.txt", "reorder tab pages", max_chars=500)
    assert cut.text.startswith("REORDERING TAB PAGES:"), cut.text
    assert "Move the current tab page to after tab page N." in cut.text


def test_plain_text_that_is_no_vim_help_keeps_its_underlined_titles_alone():
    text = "Notes\n=====\n\nSee *important* things.\n\nMore words *here*\n"
    assert titles(text, "docs/notes.txt") == [("Notes", 1)]


# An AsciiDoc reference's options, as a labelled list (Cowboy's manual).
ASCIIDOC_OPTIONS = """\
= cowboy_http(3)

== Options

idle_timeout (60000)::

Time in ms with no data received before Cowboy closes the connection.

max_headers (100)::

Maximum number of headers allowed per request.

max_keepalive (1000)::

Maximum number of requests allowed per connection.

max_method_length (32)::

Maximum length of the method.

== Changelog

* *2.17*: The `max_authority_length` option was added.
* *2.0*: The `max_keepalive` default is now 1000 requests; `max_headers` and
  `max_method_length` were added; a keepalive connection now counts requests.
"""


def test_an_asciidoc_labelled_list_item_starts_a_section():
    # Cowboy's "max keepalive requests" served the Changelog's list of options, not the
    # option's own entry `max_keepalive (1000)::`.
    assert ("max_keepalive (1000)::", 7) in titles(ASCIIDOC_OPTIONS, "doc/cowboy_http.asciidoc")
    cut = snippet(ASCIIDOC_OPTIONS, "doc/cowboy_http.asciidoc", "max keepalive requests", 120)
    assert cut.text.startswith("max_keepalive (1000)::"), cut.text
    lines = split_lines(ASCIIDOC_OPTIONS)
    matcher = TermMatcher(query_terms("idle timeout"))
    found = structure_terms(lines, matcher.lines(ASCIIDOC_OPTIONS), "a.asciidoc", matcher)
    assert found == {"idl", "timeout"}
    # A listing block's `::` (a C++ scope, an Erlang atom list) is no entry.
    listing = "== Use\n\n----\nstd::\nfoo::\n----\n"
    assert titles(listing, "a.adoc") == [("== Use", 2)]


def test_an_asciidoc_term_followed_by_spaces_still_starts_a_section():
    # The term's pattern allows trailing blanks (an editor's leftovers); the quick check
    # before it did not, so `max_keepalive (1000)::  ` was read as plain text.
    text = ASCIIDOC_OPTIONS.replace("max_keepalive (1000)::\n", "max_keepalive (1000)::  \n")
    assert ("max_keepalive (1000)::  ", 7) in titles(text, "doc/cowboy_http.asciidoc")
    with_tab = ASCIIDOC_OPTIONS.replace("idle_timeout (60000)::\n", "idle_timeout (60000)::\t\n")
    assert ("idle_timeout (60000)::\t", 7) in titles(with_tab, "doc/cowboy_http.asciidoc")


# An Org manual (Magit's docs/magit.org): headlines, a source block, and reference entries
# written as description-list terms alone on their line.
ORG_MANUAL = """\
#+title: Tool User Manual

* Introduction

Tool is an interface to the version control system.

* Buffers
** Status Buffer

The command ~tool-status~ shows the status buffer.

#+begin_src emacs-lisp
* not a headline
- Key: not an entry ::
#+end_src

- Key: C-x g (tool-status) ::

  Show the status of the current repository in a buffer.

- User Option: tool-display-buffer-function ::

  The function used to display a buffer. It decides which window a buffer is
  displayed in, the selected one or another.

** Refreshing Buffers

*Bold* words at the start of a line are no headline.
- a list item :: with its description on the same line
"""


def test_org_headlines_and_reference_entries_start_sections():
    # Magit's manual is Org: read as code (no headings), "which window is a buffer shown
    # in" served a window of lines wherever its words were densest.
    assert titles(ORG_MANUAL, "docs/tool.org") == [
        ("* Introduction", 1),
        ("* Buffers", 1),
        ("** Status Buffer", 2),
        ("- Key: C-x g (tool-status) ::", 7),
        ("- User Option: tool-display-buffer-function ::", 7),
        ("** Refreshing Buffers", 2),
    ]
    cut = snippet(ORG_MANUAL, "docs/tool.org", "which window is a buffer displayed in", 160)
    assert cut.text.startswith("- User Option: tool-display-buffer-function ::"), cut.text
    lines = split_lines(ORG_MANUAL)
    matcher = TermMatcher(query_terms("status refreshing"))
    found = structure_terms(lines, matcher.lines(ORG_MANUAL), "docs/tool.org", matcher)
    assert found == {"status", "refresh"}
    # An entry's term names it: the option's words are the file's structure too.
    matcher = TermMatcher(query_terms("display function"))
    found = structure_terms(lines, matcher.lines(ORG_MANUAL), "docs/tool.org", matcher)
    assert found == {"display", "function"}


def test_org_blocks_hold_no_headlines_whatever_their_case():
    text = "* Use\n\n#+BEGIN_EXAMPLE\n* not a headline\n#+END_EXAMPLE\n\n* Next\n"
    assert titles(text, "README.org") == [("* Use", 1), ("* Next", 1)]
    # An unclosed block runs to the end.
    assert titles("* Use\n#+begin_src sh\n* ls\n", "a.org") == [("* Use", 1)]


# pandoc's MANUAL.txt: its manual, written in (pandoc) markdown, in a .txt file.
MARKDOWN_IN_TEXT = """\
---
title: Pandoc User's Guide
---

# Options

## General options {.options}

`-f` *FORMAT*, `-r` *FORMAT*

:   Specify input format.

## Writer options {.options}

`--toc-depth=`*NUMBER*

:   Specify the number of section levels to include in the table of contents.
    The default is 3.

# Exit codes

If pandoc completes successfully, it will return exit code 0.
"""


def test_a_text_file_written_in_markdown_has_its_headings():
    # Read as plain text (titles underlined only), pandoc's manual had no sections: "table
    # of contents depth" served a window wherever the words were densest.
    assert titles(MARKDOWN_IN_TEXT, "MANUAL.txt") == [
        ("# Options", 1),
        ("## General options {.options}", 2),
        ("## Writer options {.options}", 2),
        ("# Exit codes", 1),
    ]
    cut = snippet(MARKDOWN_IN_TEXT, "MANUAL.txt", "table of contents depth", max_chars=200)
    assert cut.text.startswith("## Writer options"), cut.text
    assert structure(MARKDOWN_IN_TEXT, "MANUAL.txt", "writer exit") == {"writer", "exit"}
    # Plain text with underlined titles keeps them, and a `#` line there is no heading.
    text = "Notes\n=====\n\n# not a heading: a shell comment\n"
    assert titles(text, "docs/notes.txt") == [("Notes", 1)]


def test_markdown_in_a_text_file_is_read_so_despite_rules_in_its_code():
    # pandoc's MANUAL.txt holds a fenced vimdoc sample whose rules read as two underlined
    # titles: its 254 `#` headings were then ignored.
    fenced = "```\nSample\n----------\n```\n\n"
    assert titles(fenced + MARKDOWN_IN_TEXT.split("---\n\n", 1)[1], "MANUAL.txt") == [
        ("# Options", 1),
        ("## General options {.options}", 2),
        ("## Writer options {.options}", 2),
        ("# Exit codes", 1),
    ]
    # reStructuredText titles are still read as such: `~~~` underlines are no fences.
    rst = "Guide\n=====\n\nSetup\n~~~~~\n\nInstall it.\n\nUse\n~~~\n\nRun it.\n"
    assert titles(rst, "docs/guide.rst") == [("Guide", 1), ("Setup", 2), ("Use", 2)]


def test_rst_titles_adorned_with_hashes_stay_rst_titles():
    # The Python docs' convention: parts over- and underlined with `#`. Six of them read as
    # markdown's empty `######` heading, two a title, which outnumbered the rst titles.
    text = "######\nPart I\n######\n\nIntro.\n\n######\nPart 2\n######\n\nMore.\n"
    assert titles(text, "docs/index.rst") == [("Part I", 1), ("Part 2", 1)]


GIT_MAN_PAGE = """\
git-credential-cache(1)
=======================

NAME
----
git-credential-cache - Helper to temporarily store passwords in memory

SYNOPSIS
--------
-----------------------------
git config credential.helper 'cache [<options>]'
-----------------------------

DESCRIPTION
-----------

This command caches credentials for use by future Git programs.

OPTIONS
-------

--timeout <seconds>::

\tNumber of seconds to cache credentials (default: 900).

--socket <path>::

\tUse `<path>` to contact a running cache daemon.

EXAMPLES
--------

The point of this helper is to reduce the number of times you must type
your password. For example:

------------------------------------
$ git config credential.helper cache
------------------------------------

Sub part
~~~~~~~~

Text.
"""


def test_asciidoc_two_line_titles_start_sections_and_are_no_listing_blocks():
    # git's manual pages underline their titles (`OPTIONS` over `-------`): the underline
    # was read as a listing block's delimiter, which then hid every title and labelled
    # list entry after it, and "credential cache timeout" served the examples.
    assert titles(GIT_MAN_PAGE, "Documentation/git-credential-cache.adoc") == [
        ("git-credential-cache(1)", 1), ("NAME", 2), ("SYNOPSIS", 2), ("DESCRIPTION", 2),
        ("OPTIONS", 2), ("--timeout <seconds>::", 7), ("--socket <path>::", 7),
        ("EXAMPLES", 2), ("Sub part", 3),
    ]  # fmt: skip
    cut = snippet(GIT_MAN_PAGE, "Documentation/git-credential-cache.adoc", "cache timeout", 120)
    assert "Number of seconds to cache credentials" in cut.text, cut.text


def test_an_asciidoc_listing_block_under_a_longer_line_is_still_a_block():
    # An underline is as long as its title, give or take two characters.
    text = "== Use\n\nFor example, run this:\n----\n= not a heading\n----\n\n== Next\n"
    assert titles(text, "a.adoc") == [("== Use", 2), ("== Next", 2)]


@pytest.mark.parametrize("path", ["docs/streams.md", "docs/streams.rst", "docs/streams.txt"])
def test_a_passage_ends_at_a_whole_sentence_of_text_wrapped_at_a_column(path):
    # The cap falls inside a wrapped paragraph: its lines after the last whole sentence
    # (holding none of the query's words) say half a thing, and are left out.
    text = (
        "Streams\n=======\n\nReading a file line by line keeps memory low: each line is\n"
        "handed to the callback and dropped, so the file never sits in memory whole.\n\n"
        "The chunk size can vary broadly between systems and depends on the type of\n"
        "file being read. For regular files, each read will process 512 KiB of data.\n"
        "The issue tracker provides more information and a detailed discussion of the\n"
        "trade-offs chosen, with measurements taken on several operating systems and\n"
        "several disks of several kinds.\n\n" + "Other text here.\n" * 40
    )
    cut = snippet(text, path, "read a file line by line memory", max_chars=420)
    assert cut.text.rstrip().endswith("will process 512 KiB of data."), cut.text
    # A paragraph ending on a line of its own is no cut sentence.
    whole = snippet(text, path, "read a file line by line memory", max_chars=2000)
    assert "several disks of several kinds." in whole.text


def test_a_sphinx_object_description_is_a_heading_of_what_is_written_under_it():
    # Django's querysets.txt: a passage started inside a method's description without
    # naming it, and ended on the bare `.. method::` line of the next.
    methods = "".join(
        f"\n.. method:: step{n}(value)\n\n    Steps the value by {n}, as steps do.\n"
        f"    Each step is taken once.\n"
        for n in range(6)
    )
    text = (
        "QuerySet API\n============\n\nMethods\n-------\n"
        + methods
        + "\n.. method:: bulk_create(objs, batch_size=None)\n\n"
        "    Inserts the provided list of objects into the database in one query.\n"
        "    There are caveats: the model's save() is not called.\n\n"
        ".. method:: bulk_update(objs, fields)\n\n"
        "    Updates the given fields on the provided model instances.\n"
        + methods.replace("step", "walk")
    )
    lines = split_lines(text)
    levels = {lines[h.title]: h.level for h in document_headings(lines, "docs/querysets.txt")}
    assert levels["Methods"] < levels[".. method:: bulk_create(objs, batch_size=None)"]
    cut = snippet(text, "docs/querysets.txt", "insert objects into the database in one query")
    assert cut.text.startswith(".. method:: bulk_create(objs, batch_size=None)"), cut.text
    assert ".. method:: bulk_update" not in cut.text, cut.text


def test_a_passage_ending_on_what_announces_an_example_shows_the_example():
    # Elixir's anti-patterns guide: "An example of this anti-pattern, as shown below, is
    # a function..." ended the passage; the ten lines of code it announces fitted the cap.
    text = (
        "# Anti-patterns\n\n## Complex else clauses in with\n\n#### Problem\n\n"
        + "This anti-pattern flattens every error clause into one complex else block. " * 3
        + "\n\n#### Example\n\n"
        + "An example of this anti-pattern, as shown below, is a function reading a file. " * 2
        + "\n\n```elixir\ndef open_decoded_file(path) do\n"
        "  with {:ok, encoded} <- File.read(path) do\n    {:ok, encoded}\n  else\n"
        "    {:error, _} -> {:error, :badfile}\n  end\nend\n```\n\n"
        + "Other text about something else entirely, at some length.\n"
        * 30
    )
    cut = snippet(text, "docs/anti.md", "with else clause", max_chars=1000)
    assert cut.text.rstrip().endswith("end\n```"), cut.text


def test_a_passage_cut_inside_the_example_it_announces_shows_the_whole_example():
    # NestJS's raw-body page: the passage was widened into the example's first lines,
    # then cut back to before it, ending on "First enable the option when creating your
    # Express application:" though the whole example fitted the cap.
    cut = snippet(RAW_BODY, "docs/raw-body.md", "webhook signature raw body", 1500, 1000)
    assert "Express application:\n\n```typescript\nimport" in cut.text, cut.text
    assert "  rawBody: true,\n});\nawait app.listen(3000);\n```" in cut.text, cut.text


def test_a_second_passage_ending_on_what_announces_an_example_shows_the_example():
    # NestJS's provider scopes: the second passage was "Lastly, to turn a regular provider
    # into a durable provider, set the `durable` flag ...:" alone, without the example
    # holding `durable: true`.
    cut = snippet(SCOPES, "docs/scopes.md", "durable request scoped widget", 1500, 1000)
    assert "durable: true })" in cut.text, cut.text


# The NestJS pages' shape: paragraphs of one long line each (the sentences repeated to
# make them as long).
_SHARED = (
    " The widget container builds one instance of each widget and shares it between every"
    " caller; this is simple, fast and almost always what you want."
)
RAW_BODY = (
    "### Raw body\n\n"
    "One of the most common reasons for reading the raw request body is checking a webhook"
    " signature. To check a webhook signature you usually need the unparsed request body,"
    " because the HMAC is computed over the exact bytes the sender transmitted, and any"
    " parsing or re-serialisation of the body changes those bytes.\n\n"
    "> warning **Warning** This feature only works while the built-in body parser is"
    " enabled, so you must not pass `bodyParser: false` when you create the application,"
    " or the body will never be read at all.\n\n"
    "#### Use with Express\n\n"
    "First enable the option when creating your Express application:\n\n"
    "```typescript\nimport { Factory } from '@example/core';\n"
    "import { AppModule } from './app.module';\n\n"
    '// in the "bootstrap" function\n'
    "const app = await Factory.create(AppModule, {\n  rawBody: true,\n});\n"
    "await app.listen(3000);\n```\n\n"
    "To read the raw body in a handler, use the `RawBodyRequest` type:\n\n"
    "```typescript\ncreate(@Req() req: RawBodyRequest<Request>) {\n"
    "  const raw = req.rawBody; // a Buffer\n}\n```\n\n"
    "#### Registering other parsers\n\n"
    "By default only the `json` and `urlencoded` parsers are registered. To register a"
    " different parser on the fly, call `useBodyParser` on the application instance:\n\n"
    "```typescript\napp.useBodyParser('text');\n```\n\n"
    "The `useBodyParser` method respects the `rawBody` option passed in the application"
    " options.\n\n#### Body parser size limit\n\n"
    "If your application needs to parse a body larger than the default `100kb`, pass a"
    " limit:\n\n```typescript\napp.useBodyParser('json', { limit: '10mb' });\n```\n\n"
    "#### Use with Fastify\n\n"
    "First enable the option when creating your Fastify application:\n\n"
    "```typescript\nconst app = await Factory.create(AppModule, new FastifyAdapter(), {\n"
    "  rawBody: true,\n});\nawait app.listen(3000);\n```\n\n"
    "To read the raw body in a handler, use the `RawBodyRequest` type:\n\n"
    "```typescript\ncreate(@Req() req: RawBodyRequest<FastifyRequest>) {\n"
    "  const raw = req.rawBody; // a Buffer\n}\n```\n"
)
SCOPES = (
    "### Widget scopes\n\nBy default every widget is a singleton." + _SHARED + "\n\n"
    "#### Request scope\n\nA request-scoped widget is created anew for each incoming request"
    " and dropped after the response is sent." + _SHARED + "\n\n"
    "```typescript\n@Widget({ scope: Scope.REQUEST })\nexport class CatsWidget {}\n```\n\n"
    "#### Durable widgets\n\nRequest-scoped widgets may add latency, since one request-scoped"
    " widget in a chain makes every widget that depends on it request-scoped as well, and"
    " each of them is built again for every request that comes in." + _SHARED + "\n\n"
    "Having a common widget that most widgets depend on (a database connection, a logger)"
    " turns all of them into request-scoped widgets too, which is rarely what you meant and"
    " costs memory as well as time on every request." + _SHARED + "\n\n"
    "For instance, say ten customers share your application and each has its own data"
    " source." + _SHARED + " You would like one sub-tree of widgets per customer instead of"
    " one per request." + _SHARED + "\n\n"
    "#### Strategies\n\nA strategy tells the container which requests belong together."
    + _SHARED
    + "\n\n"
    "```typescript\nexport class TenantStrategy implements ContextStrategy {\n"
    "  attach(contextId, request) {\n    return contextId;\n  }\n}\n```\n\n"
    "Register the strategy before any request arrives." + _SHARED + "\n\n"
    "Lastly, to turn a regular widget into a durable widget, set the `durable` flag to"
    " `true` and change its scope to `Scope.REQUEST`:\n\n"
    "```typescript\n@Widget({ scope: Scope.REQUEST, durable: true })\n"
    "export class CatsWidget {}\n```\n\n"
    "Similarly, for custom widgets, set the `durable` property in the long-hand form of a"
    " registration.\n"
)


def test_a_passage_does_not_end_on_a_rule_or_on_link_definitions_it_does_not_use():
    # Django REST framework's API guide: a section served with the `---` rule under it,
    # or with the page's closing block of `[name]: url` definitions, most unreferenced.
    section = (
        "# Throttling\n\n## Throttle scope decorator\n\n"
        "Set the [scoped rate throttle][scoped] with `throttle_scope` on the view.\n"
        "The scope names the rate the settings give it.\n\n"
    )
    ruled = section + "---\n\n## Other\n\n" + "Other text entirely, at some length.\n" * 60
    cut = snippet(ruled, "docs/throttling.md", "throttle scope", max_chars=1500)
    assert cut.text.rstrip().endswith("the settings give it."), cut.text
    defined = (
        section + "[scoped]: throttling.md#scopedratethrottle\n"
        "[cite]: https://example.com/cite\n[views]: views.md\n"
    )
    cut = snippet(defined, "docs/throttling.md", "throttle scope", max_chars=1500)
    assert cut.text.rstrip().endswith("[scoped]: throttling.md#scopedratethrottle"), cut.text
    # A definition with its target on the next line (the Rails Guides') is one too.
    two_lines = section + "[cite]:\n    https://example.com/cite\n[views]:\n    views.md\n"
    cut = snippet(two_lines, "docs/throttling.md", "throttle scope", max_chars=1500)
    assert cut.text.rstrip().endswith("the settings give it."), cut.text
    # A thematic break is no setext heading's underline: that stays a heading.
    titled = section + "Rates\n---\n\nThe burst rates.\n"
    cut = snippet(titled, "docs/throttling.md", "throttle scope burst", max_chars=1500)
    assert "Rates\n---" in cut.text, cut.text


def test_a_passage_does_not_end_on_a_comment_or_a_tag_opening_what_it_does_not_show():
    # The Rust book: passages ending on `<!-- Old headings. Do not remove or links may
    # break. -->`, or on a `<Listing number="2-1" ...>` whose code was cut.
    section = (
        "## Sharing Data\n\nA shared cell keeps a count of the borrows it has handed out\n"
        "and checks the rules when the program runs.\n\n"
    )
    listing = '<Listing number="2-1" file-name="src/lib.rs" caption="Two borrows">\n\n```rust\n'
    text = section + listing + "".join(f"let step_{n} = value.get();\n" for n in range(80))
    cut = snippet(text, "ch2.md", "shared cell count of borrows", max_chars=300)
    assert cut.text.rstrip().endswith("when the program runs."), cut.text
    commented = section + "<!-- Old headings. Do not remove or links may break. -->\n\n"
    commented += "## Profiles\n\n" + "Other text about profiles, at some length.\n" * 60
    cut = snippet(commented, "ch2.md", "shared cell count of borrows", max_chars=400)
    assert cut.text.rstrip().endswith("when the program runs."), cut.text
