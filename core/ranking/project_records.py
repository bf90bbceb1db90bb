"""A project's records among its documents, which rank below the pages on how it works
now (file_roles.py weighs them): its dated posts (a blog, news, changelogs and release
notes), its plans (a TODO list, a roadmap) and its architecture decision records."""

from __future__ import annotations

import re

from .spans import document_kind

# A blog, news, release-notes or announcements folder (pytest's `announce/`, Django's
# `releases/`, Python's `whatsnew/`, git's `RelNotes/`), a changelog's name (`changelog_3x.md`,
# older entries moved out: `ChangeLog-old.md`, `CHANGELOG_PRE_v30.md`; Fiber's
# `docs/whats_new.md`), its pieces' folder (towncrier's `changelog.d/`, `changelog/`,
# `changes/`, `newsfragments/`), a file of a `changelogs/` folder named for its version
# (uv's `changelogs/0.4.x.md`; the folder's other files may be no changelog: okhttp keeps
# its upgrade guides there), an announcement's name, a version's notes named for it (Vim's
# `version9.txt`) or named for their version first (the Rails Guides'
# `7_2_release_notes.md`); only for documents (spans.document_kind).
_POST_PATH = re.compile(
    r"(?:^|/)(?:blog|_?posts|news|changelog(?:\.d)?|changes|newsfragments|rel(?:ease)?[-_]?notes"
    r"|releases|announce|whatsnew)/"
    r"|(?:^|/)(?:changelog|changes|history|news|rel(?:ease)?[-_]?notes|whats[-_]?new)"
    r"(?:[-_](?:v?\d[\w.]*?|old|archive|pre[-_]?v?\d[\w.]*?))?"
    r"(?:\.[a-z]+)?$"
    r"|(?:^|/)changelogs/v?\d+(?:[._-](?:\d+|x))*\.[a-z]+$"
    r"|(?:^|/)v?\d[\d._-]*?[-_](?:changelog|changes|rel(?:ease)?[-_]?notes)(?:\.[a-z]+)?$"
    r"|(?:^|/)[^/]*[-_]announcement\.[a-z]+$"
    r"|(?:^|/)version[-_]?v?\d[\w.]*?\.[a-z]+$",
    re.IGNORECASE,
)
# A changelog named in capitals, as a project's own files are: with a word after its name
# (Node's `CHANGELOG_IOJS.md` beside `CHANGELOG_V18.md`), or `RELEASES.md` (Rust's). In
# lower case such a name may be a page about changelogs (`changelog_guidelines.md`) or
# about releases (Phoenix's guides/deployment/releases.md).
_CAPITALS_POST_NAME = re.compile(
    r"(?:^|/)(?:(?:CHANGELOG|CHANGES|HISTORY|NEWS|RELEASE[-_]?NOTES)[-_][A-Z0-9][A-Z0-9_.-]*"
    r"|RELEASES)\.(?:md|markdown|rst|txt|adoc|rdoc|org)$"
)


# A project's plans: its TODO list or roadmap (Vim's `runtime/doc/todo.txt`, Textual's
# `docs/roadmap.md`), a document.
_PLANS_PATH = re.compile(r"(?:^|/)(?:todo|roadmap)(?:\.[a-z]+)?$", re.IGNORECASE)


# A folder of architecture decision records (`decisions/`, `docs/adr/`,
# `architecture/decisions/`): dated, each the record of a choice made once (React Router's
# decisions/0001-use-blocker.md, "Status: accepted"), not how the project works now.
_DECISION_RECORDS_PATH = re.compile(r"(?:^|/)(?:decisions|adrs?|decision[-_]records)/")


def is_decision_record(path: str) -> bool:
    """True for a root-relative POSIX path of a document in a folder of architecture
    decision records."""
    return _DECISION_RECORDS_PATH.search(path) is not None and document_kind(path) != "code"


def is_plans(path: str) -> bool:
    """True for a root-relative POSIX path of a document that is the project's TODO list
    or roadmap (`TODO.md`, `docs/roadmap.md`)."""
    return _PLANS_PATH.search(path) is not None and document_kind(path) != "code"


def is_dated_post(path: str) -> bool:
    """True for a root-relative POSIX path of a document that is a blog post, news, a
    changelog or release notes (`docs/blog/posts/x.md`, `CHANGELOG.md`, `docs/changes.rst`)."""
    return (
        _POST_PATH.search(path) is not None or _CAPITALS_POST_NAME.search(path) is not None
    ) and document_kind(path) != "code"
