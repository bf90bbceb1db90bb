"""Where a surveyed project keeps its documentation and its source code, as `tierscope
init` reads the survey (project_survey.py): the places its starter scopes and its qmd
collections are made of."""

from __future__ import annotations

from .file_kinds import TEST_FOLDER_NAMES, named_for_docs
from .module_readmes import PACKAGE_DOC
from .project_survey import NOT_FOR_QMD, FolderSurvey, ProjectSurvey

# A folder this small is classed by what it holds at all; a larger one by its majority.
FEW_FILES = 3
# A folder of code holding this many documents, and documents for at least this share of
# its documents and source files, is documented page by page (clap's examples/, a
# tutorial page beside each program): documentation too, for its documents.
DOCUMENTED_CODE_PAGES = 10
DOCUMENTED_CODE_SHARE = 0.25
# The other way round: a folder of documents holding this many source files, and source
# files for at least this share of its documents and source files, keeps code too (a
# skills folder: each skill's SKILL.md and reference pages beside its scripts). A folder
# named for documentation is not: its programs are its examples. Nor need this many be any
# share: a documentation site's src/ holds its components among thousands of pages
# (withastro/docs: 115 beside 2,569).
DOCUMENTED_SCRIPTS = 10
DOCUMENTED_SCRIPTS_SHARE = 0.25
MANY_SCRIPTS = 50
# More modules' READMEs than this (a repository of many small packages) are not listed one
# by one, which would make the config unreadable: where they outnumber the other
# documents, the project's documentation is its packages' READMEs (pnpm's 184, beside 7
# documents at its root), and the folders holding them are documentation places; elsewhere
# they are left out (uv's 75 crate READMEs, "an internal component of uv", beside the 100
# pages of its docs/).
MAX_MODULE_READMES = 40


def docs_places(survey: ProjectSurvey) -> tuple[list[FolderSurvey], list[str]]:
    """The folders and root files that hold the project's documentation: top-level
    folders (a folder of code too, when documented page by page), a folder named for
    documentation inside one that is not (a monorepo's `packages/docs/`) when it holds a
    few documents, and the folders of code holding the modules' READMEs when those are
    the project's documentation (MAX_MODULE_READMES)."""
    left_out = {folder.name for folder in docs_left_out(survey)}
    folders = [
        folder
        for folder in survey.folders
        if (_is_docs(folder) or _documented(folder)) and folder.name not in left_out
    ]
    taken = {folder.name for folder in folders}
    folders += [
        folder
        for folder in survey.nested_docs
        if folder.name.split("/")[0] not in taken and _is_docs(folder)
        and sum(folder.docs.values()) >= FEW_FILES
    ]  # fmt: skip
    # A Go package's documentation, `doc.go` (module_readmes.py), is code and a document.
    package_doc = [name for name in survey.top_source_files if name == PACKAGE_DOC]
    top_docs = [*survey.top_docs, *package_doc]
    readmes = outside_readmes(survey, folders)
    documents = len(top_docs) + sum(sum(folder.docs.values()) for folder in folders)
    if len(readmes) > MAX_MODULE_READMES and len(readmes) > documents:
        holding = {readme.split("/", 1)[0] for readme in readmes}
        folders += [folder for folder in survey.folders if folder.name in holding]
    return folders, top_docs


def outside_readmes(survey: ProjectSurvey, folders: list[FolderSurvey]) -> list[str]:
    """The modules' READMEs (module_readmes.py) outside the documentation `folders` and the
    folders of copies or stubs left out: each module's own reference, often."""
    inside = tuple(folder.path for folder in [*folders, *docs_left_out(survey)])
    return [path for path in survey.module_readmes if not path.startswith(inside)]


def docs_left_out(survey: ProjectSurvey) -> list[FolderSurvey]:
    """The top-level folders of documents whose pages are mostly copies or stubs
    (copied_pages.py, read by the survey): no documentation place, nor their modules'
    READMEs."""
    return [
        folder
        for folder in survey.folders
        if folder.name in survey.copies_or_stubs and (_is_docs(folder) or _documented(folder))
    ]


def code_folders(survey: ProjectSurvey) -> list[FolderSurvey]:
    """The folders that hold the project's source code: folders of code, and folders of
    documents holding many scripts."""
    return [
        folder
        for folder in survey.folders
        if (_is_code(folder) and (_a_package(folder) or not _is_docs(folder))) or _scripted(folder)
    ]


def _a_package(folder: FolderSurvey) -> bool:
    """A folder of source with a build manifest at its top, not named as documentation:
    a package, code however few its files beside its README and changelog (tracing's
    `tracing-serde/`); a docs site's `package.json` makes no package of `docs/`."""
    return folder.package and bool(folder.sources) and not named_for_docs(_own_name(folder))


def _own_name(folder: FolderSurvey) -> str:
    """A folder's own name, lower-cased (`docs` of `packages/docs`)."""
    return folder.name.rsplit("/", 1)[-1].lower()


def _is_docs(folder: FolderSurvey) -> bool:
    docs, sources = sum(folder.docs.values()), sum(folder.sources.values())
    name = _own_name(folder)
    if not docs or name in TEST_FOLDER_NAMES:
        return False
    if named_for_docs(name):
        return True
    return docs > sources and (docs >= FEW_FILES or 2 * docs >= folder.files)


def _documented(folder: FolderSurvey) -> bool:
    """A folder of code documented page by page (clap's examples/), but not a folder of
    tests beside their fixtures (pandoc's test/: the documents its readers read)."""
    docs, sources = sum(folder.docs.values()), sum(folder.sources.values())
    if _own_name(folder) in TEST_FOLDER_NAMES:
        return False
    return docs >= DOCUMENTED_CODE_PAGES and docs >= DOCUMENTED_CODE_SHARE * (docs + sources)


def _scripted(folder: FolderSurvey) -> bool:
    docs, sources = sum(folder.docs.values()), sum(folder.sources.values())
    if named_for_docs(_own_name(folder)):
        return False
    return sources >= MANY_SCRIPTS or (
        sources >= DOCUMENTED_SCRIPTS and sources >= DOCUMENTED_SCRIPTS_SHARE * (docs + sources)
    )


def _is_code(folder: FolderSurvey) -> bool:
    docs, sources = sum(folder.docs.values()), sum(folder.sources.values())
    if _a_package(folder) or (sources and folder.name.lower() in TEST_FOLDER_NAMES):
        return True  # a package, or tests, whatever documents they keep beside them
    return sources > 0 and sources >= docs and (sources >= FEW_FILES or 2 * sources >= folder.files)


def holds_notebooks(folders: list[FolderSurvey], top_docs: list[str]) -> bool:
    """Whether the documentation places hold documents qmd cannot index (notebooks)."""
    return any(NOT_FOR_QMD.intersection(folder.docs) for folder in folders) or any(
        file_suffix(name) in NOT_FOR_QMD for name in top_docs
    )


def file_suffix(name: str) -> str:
    dot = name.rfind(".")
    return name[dot:].lower() if dot > 0 else ""
