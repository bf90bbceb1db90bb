"""The starter `.tierscope.yaml` that `tierscope init` proposes: scopes made from what a
survey of the project found (`docs`, `code`, and `all` where the project is not laid out
like Loa), written as a commented YAML file.

Every name in the file comes from the project tree and is untrusted: values are written
by the config writer's own YAML rendering (quoted and escaped where needed), and text in
comments has its control characters escaped, so no file name can add a line to the file.
"""

from __future__ import annotations

import re
import textwrap
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .config.document import yaml_inline
from .config.model import ScopeConfig
from .models import noun_for
from .project_survey import (
    DOC_EXTENSIONS,
    DOC_FOLDER_NAMES,
    LANGUAGES,
    NOT_FOR_QMD,
    TEST_FOLDER_NAMES,
    FolderSurvey,
    FoundCollection,
    ProjectSurvey,
)
from .qmd_setup import LOCAL_DIR, WantedCollection
from .scopes import LOA_FOLDERS, PROJECT_FILES
from .terminal import printable

# A folder this small is classed by what it holds at all; a larger one by its majority.
FEW_FILES = 3
# Files of the root listed one by one in a scope; more than this and the scope takes the
# whole root with `include` globs instead.
MAX_LISTED_FILES = 12
TOP_LEVEL_COLLECTION = "top-level"
CK_REMARK = "empty: ck searches the grep paths"
# qmd reads a mask as globs joined by commas: a name with these cannot be listed in one.
_MASK_SPECIAL = re.compile(r"[,*?\[\]{}!]")


@dataclass(frozen=True, slots=True)
class StarterScope:
    """One scope of the starter: its settings, what it holds (the comment above it) and a
    comment for some of its keys."""

    name: str
    scope: ScopeConfig
    about: str
    remarks: Mapping[str, str]


@dataclass(frozen=True, slots=True)
class Starter:
    """What `tierscope init` proposes for a project."""

    survey: ProjectSurvey
    scopes: tuple[StarterScope, ...]

    def text(self) -> str:
        """The starter file: a header saying what was found, then `qmd_context.scopes`."""
        lines = [f"# {printable(line)}" for line in _header(self.survey, self.scopes)]
        lines += ["qmd_context:", "  scopes:"]
        for starter in self.scopes:
            lines += _scope_lines(starter)
        return "\n".join(lines) + "\n"

    def entries(self) -> dict[str, dict[str, object]]:
        """Each scope as the plain data `ConfigDocument.set` writes (no comments)."""
        return {starter.name: _entry(starter.scope) for starter in self.scopes}


def docs_places(survey: ProjectSurvey) -> tuple[list[FolderSurvey], list[str]]:
    """The folders and root files that hold the project's documentation: top-level
    folders, and a folder named for documentation inside one that is not (a monorepo's
    `packages/docs/`) when it holds a few documents."""
    folders = [folder for folder in survey.folders if _is_docs(folder)]
    taken = {folder.name for folder in folders}
    folders += [
        folder
        for folder in survey.nested_docs
        if folder.name.split("/")[0] not in taken and _is_docs(folder)
        and sum(folder.docs.values()) >= FEW_FILES
    ]  # fmt: skip
    return folders, list(survey.top_docs)


def code_folders(survey: ProjectSurvey) -> list[FolderSurvey]:
    """The folders that hold the project's source code."""
    return [folder for folder in survey.folders if not _is_docs(folder) and _is_code(folder)]


def _is_docs(folder: FolderSurvey) -> bool:
    docs, sources = sum(folder.docs.values()), sum(folder.sources.values())
    name = folder.name.rsplit("/", 1)[-1].lower()
    if not docs or name in TEST_FOLDER_NAMES:
        return False
    if name in DOC_FOLDER_NAMES:
        return True
    return docs > sources and (docs >= FEW_FILES or 2 * docs >= folder.files)


def _is_code(folder: FolderSurvey) -> bool:
    docs, sources = sum(folder.docs.values()), sum(folder.sources.values())
    if sources and folder.name.lower() in TEST_FOLDER_NAMES:
        return True  # tests, whatever fixtures they keep beside them
    return sources > 0 and sources >= docs and (sources >= FEW_FILES or 2 * sources >= folder.files)


def collections_to_create(survey: ProjectSurvey) -> dict[str, WantedCollection]:
    """The project-local qmd collections `init --qmd` would make for the docs scope: one
    per documentation folder (of its kinds of document), and one for the root's
    documentation files, each unless an existing collection already covers it. Nothing
    when qmd's collections for this project live in the user's own index: a project-local
    index would hide them from qmd here."""
    existing = survey.collections
    if existing and not survey.qmd_project_local:
        return {}
    folders, top_docs = docs_places(survey)
    if _holds_notebooks(folders, top_docs):
        return {}  # the docs scope names no collection (see _docs_scope)
    taken = {collection.name for collection in existing}
    wanted: dict[str, WantedCollection] = {}
    for folder in folders:
        mask = _documents_mask(folder)
        if mask is not None and not _covered(folder.name, existing, mask):
            wanted[_unique(_slug(folder.name), taken)] = WantedCollection(folder.name, mask)
    listed = [
        name
        for name in top_docs
        if not _MASK_SPECIAL.search(name) and _suffix(name) not in NOT_FOR_QMD
    ]
    if listed and not any(c.folder == "." for c in existing):
        wanted[_unique(TOP_LEVEL_COLLECTION, taken)] = WantedCollection(".", ",".join(listed))
    return wanted


def _documents_mask(folder: FolderSurvey) -> str | None:
    """The mask of a folder's collection: qmd's default (every markdown file) for a folder
    of markdown, else its kinds of document (`**/*.rst`): qmd indexes any text its mask
    names, and by default it would index nothing of reStructuredText docs. None for a
    folder of nothing qmd can index (notebooks: JSON to qmd)."""
    kinds = [suffix for suffix, _ in folder.docs.most_common() if suffix not in NOT_FOR_QMD]
    if not kinds:
        return None
    return "" if kinds == [".md"] else ",".join(f"**/*{suffix}" for suffix in kinds)


def _covered(folder: str, collections: Iterable[FoundCollection], mask: str = "") -> bool:
    """Whether a collection indexes the folder's documents (its markdown; or, for a folder
    of other documents, what `mask` names): one of it, or of a folder above it."""
    masks = (mask,) if mask else ("**/*.md", "")
    return any(
        c.folder == folder or c.folder == "." or folder.startswith(f"{c.folder}/")
        for c in collections
        if c.mask in masks
    )


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-").lower() or "docs"


def _unique(name: str, taken: set[str]) -> str:
    candidate, number = name, 2
    while candidate in taken:
        candidate, number = f"{name}-{number}", number + 1
    taken.add(candidate)
    return candidate


def plan_starter(survey: ProjectSurvey, new_collections: Iterable[str] = ()) -> Starter:
    """The scopes for `survey`'s project. `new_collections`: collections made (or, in a
    dry run, to be made) by `init --qmd`, which the docs scope names too."""
    new_collections = tuple(new_collections)
    docs_folders, top_docs = docs_places(survey)
    code = code_folders(survey)
    collections = _docs_collections(survey, docs_folders, new_collections)
    scopes = []
    if docs_folders or top_docs:
        scopes.append(_docs_scope(survey, docs_folders, top_docs, collections, new_collections))
    if code or survey.top_sources:
        scopes.append(_code_scope(survey, code, docs_folders))
    framework = _framework_scope(survey.framework) if survey.framework else None
    if framework:
        scopes.append(framework)
    if not survey.loa_layout:
        scopes.append(_all_scope(collections))
    return Starter(survey, tuple(scopes))


def _docs_collections(
    survey: ProjectSurvey,
    folders: list[FolderSurvey],
    new_collections: Iterable[str],
) -> list[str]:
    """The existing collections of the documentation places (a collection of the root
    counts: qmd indexes markdown), then the new ones."""
    places = [folder.name for folder in folders]
    names = [
        c.name
        for c in survey.collections
        if c.folder == "." or any(_related(c.folder, p) for p in places)
    ]
    return list(dict.fromkeys([*names, *new_collections]))


def _related(folder: str, place: str) -> bool:
    """Whether one of two root-relative folders is the other or lies inside it."""
    return folder == place or folder.startswith(f"{place}/") or place.startswith(f"{folder}/")


def _docs_scope(
    survey: ProjectSurvey,
    folders: list[FolderSurvey],
    top_docs: list[str],
    collections: list[str],
    new_collections: tuple[str, ...],
) -> StarterScope:
    extensions: Counter[str] = Counter()
    for folder in folders:
        extensions.update(folder.docs)
    for name in top_docs:
        extensions[_suffix(name)] += 1
    include = tuple(DOC_EXTENSIONS[ext] for ext, _ in extensions.most_common())
    paths = [folder.path for folder in folders]
    if len(top_docs) <= MAX_LISTED_FILES:
        paths += top_docs
    else:
        paths = ["./"]
    count = sum(extensions.values())
    mixed = [folder.path for folder in folders if sum(folder.sources.values())]
    qmd_remark = _collection_remark(survey, collections, new_collections)
    if _holds_notebooks(folders, top_docs):
        # qmd answering from the other documents would never let grep reach these.
        collections, qmd_remark = (
            [],
            "none: qmd cannot index notebooks and would answer without them",
        )
    remarks = {
        "qmd_collection": qmd_remark,
        "ck_path": CK_REMARK,
        "include": "documentation files only"
        + (f" ({_join(mixed)} also hold{'s' if len(mixed) == 1 else ''} code)" if mixed else ""),
    }
    scope = ScopeConfig(",".join(collections), "", tuple(paths), include)
    files = f"{count:,} {noun_for(count, 'file')}"
    about = f"Documentation: {files} ({', '.join(include)}) in {_join(paths)}."
    return StarterScope("docs", scope, about, remarks)


def _holds_notebooks(folders: list[FolderSurvey], top_docs: list[str]) -> bool:
    """Whether the documentation places hold documents qmd cannot index (notebooks)."""
    return any(NOT_FOR_QMD.intersection(folder.docs) for folder in folders) or any(
        _suffix(name) in NOT_FOR_QMD for name in top_docs
    )


def _collection_remark(
    survey: ProjectSurvey, collections: list[str], new_collections: tuple[str, ...]
) -> str:
    if not collections:
        return "none yet: `tierscope init --qmd` makes them (needs qmd)"
    if new_collections or survey.qmd_project_local:
        return f"in qmd's project-local index ({LOCAL_DIR}/)"
    return f"in qmd's index {survey.qmd_config}"


def _code_scope(
    survey: ProjectSurvey, folders: list[FolderSurvey], docs_folders: list[FolderSurvey]
) -> StarterScope:
    languages: Counter[str] = Counter(survey.top_sources)
    for folder in folders:
        languages.update(folder.sources)
    top_files = list(survey.top_source_files)
    paths = [folder.path for folder in folders]
    # Only source files where the code's paths also hold the documentation scope's.
    holding_docs = [
        code.path
        for code in folders
        if any(docs.name.startswith(f"{code.name}/") for docs in docs_folders)
    ]
    if len(top_files) <= MAX_LISTED_FILES:
        paths += top_files
    else:
        paths = ["./"]  # the whole root, which holds the documentation too
        holding_docs = ["the root"]
    include: tuple[str, ...] = ()
    if holding_docs:
        ranked = [language for language, _ in languages.most_common()]
        found = [(ranked.index(lang), ext) for ext, lang in LANGUAGES.items() if lang in ranked]
        include = tuple(f"*{ext}" for _, ext in sorted(found))
    indexed = survey.ck_indexes
    remarks = {
        "qmd_collection": "qmd indexes markdown: code is searched by ck and grep",
        "ck_path": CK_REMARK
        + (f" (ck index found in {_join(p + '/.ck/' for p in indexed)})" if indexed else ""),
    }
    if include:
        remarks["include"] = f"source files only: the documentation is in {_join(holding_docs)} too"
    scope = ScopeConfig("", "", tuple(paths), include)
    counts = _join(
        f"{language} ({count:,} {noun_for(count, 'file')})"
        for language, count in languages.most_common()
    )
    about = f"Source code: {counts} in {_join(paths)}."
    return StarterScope("code", scope, about, remarks)


def _framework_scope(folder: FolderSurvey) -> StarterScope | None:
    """Loa's framework (`.claude/`, skills included), when it holds documents or code
    besides its skills (`folder` counts those); None when it holds too few."""
    docs, sources = sum(folder.docs.values()), sum(folder.sources.values())
    if docs + sources < FEW_FILES:
        return None
    ranked = [language for language, _ in folder.sources.most_common()]
    code = sorted((ranked.index(lang), ext) for ext, lang in LANGUAGES.items() if lang in ranked)
    include = (
        *(DOC_EXTENSIONS[ext] for ext, _ in folder.docs.most_common()),
        *(f"*{ext}" for _, ext in code),
    )
    held = [f"{lang} ({n:,} {noun_for(n, 'file')})" for lang, n in folder.sources.most_common()]
    if docs:
        held.append(f"{docs:,} {noun_for(docs, 'document')}")
    about = (
        f"Loa's framework: its skills, and besides them {_join(held)} in {folder.path} "
        f"(scripts, adapters, protocols). The built-in skills scope is {LOA_FOLDERS[1]} alone."
    )
    remarks = {
        "qmd_collection": "none: qmd would answer from the documents alone",
        "ck_path": CK_REMARK,
        "include": "documents and source files only",
    }
    return StarterScope("framework", ScopeConfig("", "", (folder.path,), include), about, remarks)


def _all_scope(collections: list[str]) -> StarterScope:
    # No qmd collection even when the docs scope has some: qmd would serve every query
    # from the documentation alone (the first tier with hits serves), and code never.
    scope = ScopeConfig("", "", PROJECT_FILES.grep_paths, ())
    about = (
        "Everything: every file of the project that is not ignored (.gitignore), vendored "
        "(node_modules/, dist/, ...) or machine data (JSON, lock files, ...). The scope of "
        "a query that names none."
    )
    remarks = {"ck_path": CK_REMARK}
    if collections:
        remarks["qmd_collection"] = "none: qmd would answer from the docs alone"
    return StarterScope("all", scope, about, remarks)


def _header(survey: ProjectSurvey, scopes: tuple[StarterScope, ...]) -> list[str]:
    lines = [
        "tierscope settings for this project, written by `tierscope init` from what it found.",
        "Paths are relative to the project root. `tierscope doctor` checks them; `tierscope",
        "config show` lists every other setting with its default. tierscope reads this file",
        "before .loa.config.yaml.",
    ]
    if survey.loa_layout:
        loa = _join(LOA_FOLDERS)
        lines.append(
            f"Loa's layout is here ({loa}): the built-in scopes grimoires, skills, notes, "
            "reality and all search it as before."
        )
    elif (survey.root / LOA_FOLDERS[1]).is_dir():
        lines.append(
            f"Not laid out like Loa (no {LOA_FOLDERS[0]}): the built-in scopes grimoires, "
            f"notes and reality find nothing here; skills searches {LOA_FOLDERS[1]}."
        )
    else:
        lines.append(
            "The built-in Loa scopes (grimoires, skills, notes, reality) find nothing here."
        )
    if not scopes or all(s.name == "all" for s in scopes):
        lines.append("No documentation or source folders were recognised.")
    if survey.stopped:
        lines.append(f"The survey {survey.stopped}: check the paths below.")
    return lines


def _scope_lines(starter: StarterScope) -> list[str]:
    lines = [f"    # {printable(text)}" for text in _wrap(starter.about, 84)]
    lines.append(f"    {starter.name}:")
    for key, value in _entry(starter.scope).items():
        line = f"      {key}: {yaml_inline(value)}"
        remark = starter.remarks.get(key)
        if remark:
            line = f"{line.ljust(36)}  # {printable(remark)}"
        lines.append(line)
    return lines


def _entry(scope: ScopeConfig) -> dict[str, object]:
    """Every key of a scope, so that one named like a built-in (`all`) keeps nothing of
    the built-in's; `include` only when it narrows the scope."""
    entry: dict[str, object] = {
        "qmd_collection": scope.qmd_collection,
        "ck_path": scope.ck_path,
        "grep_paths": list(scope.grep_paths),
    }
    if scope.include:
        entry["include"] = list(scope.include)
    return entry


def _wrap(text: str, width: int) -> list[str]:
    return textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False) or [""]


def _suffix(name: str) -> str:
    dot = name.rfind(".")
    return name[dot:].lower() if dot > 0 else ""


def _join(items: Iterable[str]) -> str:
    """`a`, `a and b`, `a, b and c`."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"
