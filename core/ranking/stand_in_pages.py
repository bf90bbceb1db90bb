"""Pages that stand in for another instead of answering: a short page of directives that
pull in what is written elsewhere (pulls_in_only), one that says it moved (says_it_moved),
a few lines ending on a link to the page that answers (refers_elsewhere). Ranking puts
them below what they point at (navigation.pointing_elsewhere, file_roles.py)."""

from __future__ import annotations

import re

from .spans import front_matter_end

# mkdocstrings' directive (`::: package.module`), the indented options under it, a heading;
# Sphinx's autodoc and include directives (`.. automodule:: werkzeug.middleware.proxy_fix`,
# `.. include:: ../CHANGES.rst`), and what names the module for them or labels the page.
_PULLS_IN = re.compile(
    r":::[ \t]+[\w.]+[ \t]*$"
    r"|\.\.[ \t]+(?:auto\w+|include|literalinclude)::[ \t]*\S+"
)
# A directive that names a module or a label, or writes the page's own table of contents
# (`.. contents::`, atop Celery's 135 autodoc pages of docs/reference/).
_NAMES_ONLY = re.compile(r"\.\.[ \t]+(?:(?:current)?module::|contents::|_[^:]+:[ \t]*$)")
# A reStructuredText title's underline or overline (`=======`).
_ADORNMENT = re.compile(r"([=\-~^\"'*+#`:.])\1{2,}[ \t]*$")
_STUB_MAX_LINES = 40


def pulls_in_only(lines: list[str]) -> bool:
    """Whether a short page holds nothing but directives that pull in what is written
    elsewhere (mkdocstrings', Sphinx's autodoc and include), with their indented options,
    headings and front matter."""
    if len(lines) > _STUB_MAX_LINES:
        return False
    directives = 0
    for index, line in enumerate(lines):
        text = line.strip()
        if _PULLS_IN.match(text):
            directives += 1
        elif text and not (
            line[:1] in " \t"
            or text.startswith("#")
            or text == "---"
            or _NAMES_ONLY.match(text)
            or _ADORNMENT.match(text)
            or (index + 1 < len(lines) and _ADORNMENT.match(lines[index + 1].strip()))
        ):
            return False
    return directives > 0


# A page kept where it was to send readers on: "This page has moved" (pip), "The
# documentation has been moved to ..." (kotlinx.coroutines), "The first edition of the book
# is no longer distributed" (the Rust book), "this is an old link". The page itself must be
# what moved: "The `color` option has been moved to `[display]`" is an answer, and so is
# pytest's fixtures page, "Most of the information of this page has been moved".
_MOVED = re.compile(
    r"(?<!of )(?<!of this )(?<!of the )\b(?:page|document|documentation|docs|content|guide"
    r"|tutorial|chapter|book|article|section|manual|wiki)"
    r"[ \t]+(?:has|have|is|was)[ \t]+(?:been[ \t]+|now[ \t]+)?moved\b"
    r"|\b(?:page|document|documentation|docs|content|guide|tutorial|chapter|book|edition"
    r"|manual)(?:[ \t]+of[ \t]+the[ \t]+\w+)?[ \t]+is[ \t]+no[ \t]+longer[ \t]+"
    r"(?:distributed|maintained|hosted|updated|published)\b"
    r"|\bthis is an old link\b",
    re.IGNORECASE,
)


_OPENING_LINES = 10


def says_it_moved(lines: list[str]) -> bool:
    """Whether a page says it moved or is no longer kept, in its first _OPENING_LINES lines
    (the Rust book's redirects quote the old page's gist after saying so) or anywhere in a
    short page (at most _STUB_MAX_LINES lines): it points at the page that answers."""
    said = "\n".join(lines if len(lines) <= _STUB_MAX_LINES else lines[:_OPENING_LINES])
    lowered = said.lower()  # most pages say none of it: no pattern search at all
    if "moved" not in lowered and "longer" not in lowered and "old link" not in lowered:
        return False
    return _MOVED.search(said) is not None


# A markdown link to a page of the project (no scheme, no anchor alone) ending its line,
# perhaps before a stop, or opening a list item (sinon's how-to index, "- [Stub a
# dependency](./stub-dependency) — Stub a dependency of a module"): one inside a sentence
# links a word it uses (Hugo's glossary, "A _partial_ is a [_template_](g) called from").
_TO_A_PAGE = r"\]\((?![a-z][\w+.-]*:|#)[^)\s]+\)"
_LOCAL_LINK = re.compile(
    rf"{_TO_A_PAGE}[.:;!]?[ \t]*$|^[ \t]*[-*+][ \t]+\[[^\]]*{_TO_A_PAGE}", re.IGNORECASE
)
_REFERRAL_MAX_LINES = 6
# What opens an example of the page's own: a fenced block, VitePress's `<<<` include.
_EXAMPLE_MARKS = ("```", "~~~", "<<<")


def refers_elsewhere(lines: list[str]) -> bool:
    """Whether a markdown page is a few lines of prose (at most _REFERRAL_MAX_LINES,
    front matter and headings aside) ending on a link to another page of the project (its
    last line ends with it, or is a list item opening with it),
    which answers: urfave/cli's `v2/migrating-to-v3.md`, four lines ending "Specific steps
    are included in [Migration Guide: v2 to v3](../migrate-v2-to-v3.md)", came before it.
    Not a page linking in an aside (sinon's "see [matchers](/matchers/)") nor one showing
    an example of its own (a fenced block, VitePress's `<<<` include): it answers."""
    written = [
        line for line in lines[front_matter_end(lines) :]
        if line.strip() and not line.lstrip().startswith("#")
    ]  # fmt: skip
    return (
        0 < len(written) <= _REFERRAL_MAX_LINES
        and _LOCAL_LINK.search(written[-1]) is not None
        and not any(line.lstrip().startswith(_EXAMPLE_MARKS) for line in written)
    )
