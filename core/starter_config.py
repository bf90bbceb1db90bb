"""The starter `.tierscope.yaml` that `tierscope init` proposes: scopes made from what a
survey of the project found (`docs`, `code`, `framework` in a Loa project, and `all`
where the project is not laid out like Loa; project_places.py tells where documentation
and code are), written as a commented YAML file. The qmd collections `init --qmd` makes
are starter_collections.py's.

Every name in the file comes from the project tree and is untrusted: values are written
by the config writer's own YAML rendering (quoted and escaped where needed), and text in
comments has its control characters escaped, so no file name can add a line to the file.
"""

from __future__ import annotations

import textwrap
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .config.document import yaml_inline
from .config.model import ScopeConfig
from .file_kinds import DOC_EXTENSIONS, LANGUAGES
from .globs import glob_to_regex
from .models import noun_for
from .module_readmes import PACKAGE_DOC
from .project_places import (
    FEW_FILES,
    MAX_MODULE_READMES,
    code_folders,
    docs_left_out,
    docs_places,
    file_suffix,
    holds_notebooks,
    outside_readmes,
)
from .project_survey import FolderSurvey, ProjectSurvey
from .qmd_setup import LOCAL_DIR
from .scopes import LOA_FOLDERS, PROJECT_FILES
from .terminal import printable

# Files of the root listed one by one in a scope; more than this and the scope takes the
# whole root with `include` globs instead.
MAX_LISTED_FILES = 12
CK_REMARK = "empty: ck searches the grep paths"


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


def plan_starter(survey: ProjectSurvey, new_collections: Iterable[str] = ()) -> Starter:
    """The scopes for `survey`'s project. `new_collections`: collections made (or, in a
    dry run, to be made) by `init --qmd`, which the docs scope names too."""
    new_collections = tuple(new_collections)
    docs_folders, top_docs = docs_places(survey)
    code = code_folders(survey)
    readmes = _module_readmes(survey, docs_folders)
    collections = _docs_collections(survey, docs_folders, new_collections)
    scopes = []
    if docs_folders or top_docs:
        scopes.append(
            _docs_scope(survey, docs_folders, top_docs, readmes, collections, new_collections)
        )
    if code or survey.top_sources:
        scopes.append(_code_scope(survey, code, docs_folders, readmes))
    framework = _framework_scope(survey.framework) if survey.framework else None
    if framework:
        scopes.append(framework)
    if not survey.loa_layout:
        scopes.append(_all_scope(collections))
    return Starter(survey, tuple(scopes))


def _module_readmes(survey: ProjectSurvey, docs_folders: list[FolderSurvey]) -> list[str]:
    """The modules' READMEs outside the documentation folders, listed one by one when
    there are at most MAX_MODULE_READMES of them (project_places.outside_readmes)."""
    readmes = outside_readmes(survey, docs_folders)
    return readmes if len(readmes) <= MAX_MODULE_READMES else []


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
    readmes: list[str],
    collections: list[str],
    new_collections: tuple[str, ...],
) -> StarterScope:
    extensions: Counter[str] = Counter()
    for folder in folders:
        extensions.update(folder.docs)
    for name in [*top_docs, *readmes]:
        base = name.rsplit("/", 1)[-1]
        # A GNU project's `NEWS`, a Go package's `doc.go`: its name.
        extensions[base if base == PACKAGE_DOC else file_suffix(name) or name] += 1
    include = tuple(DOC_EXTENSIONS.get(ext, ext) for ext, _ in extensions.most_common())
    globs = [glob_to_regex(glob, ignore_case=True) for glob in include]
    include += tuple(  # `!requirements.txt` after `*.txt`
        f"!{name}" for name in survey.not_docs_named if any(g.match(name) for g in globs)
    )
    paths = [folder.path for folder in folders]
    if len(top_docs) <= MAX_LISTED_FILES:
        paths += [*top_docs, *readmes]
    else:
        paths = ["./"]
    count = sum(extensions.values())
    mixed = [folder.path for folder in folders if sum(folder.sources.values())]
    qmd_remark = _collection_remark(survey, collections, new_collections)
    if holds_notebooks(folders, top_docs):
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
    kinds = ", ".join(glob for glob in include if not glob.startswith("!"))
    about = f"Documentation: {files} ({kinds}) in {_join(paths)}."
    left_out = [folder.path for folder in docs_left_out(survey)]
    if left_out:
        about += (
            f" Left out: {_join(left_out)}, whose pages say a tool wrote them from others"
            " or that they moved."
        )
    return StarterScope("docs", scope, about, remarks)


def _collection_remark(
    survey: ProjectSurvey, collections: list[str], new_collections: tuple[str, ...]
) -> str:
    if not collections:
        return "none yet: `tierscope init --qmd` makes them (needs qmd)"
    if new_collections or survey.qmd_project_local:
        return f"in qmd's project-local index ({LOCAL_DIR}/)"
    return f"in qmd's index {survey.qmd_config}"


def _code_scope(
    survey: ProjectSurvey,
    folders: list[FolderSurvey],
    docs_folders: list[FolderSurvey],
    readmes: list[str],
) -> StarterScope:
    languages: Counter[str] = Counter(survey.top_sources)
    for folder in folders:
        languages.update(folder.sources)
    top_files = list(survey.top_source_files)
    paths = [folder.path for folder in folders]
    # Only source files where the code's paths also hold documents: the documentation
    # scope's, or an example's README (Cowboy's examples/*/README.asciidoc).
    holding_docs = [
        code.path
        for code in folders
        if code.docs
        or any(docs.name.startswith(f"{code.name}/") for docs in docs_folders)
        or any(readme.startswith(code.path) for readme in readmes)
    ]
    if len(top_files) <= MAX_LISTED_FILES:
        paths += top_files
    else:
        paths = ["./"]  # the whole root, which holds the documentation too
        holding_docs = ["the root"]
    # Or files written for coding agents (Koin's projects/llms.txt, a summary of the
    # whole library, came first for code questions).
    holding_agent_files = [
        code.path for code in folders if code.agent_files and code.path not in holding_docs
    ]
    include: tuple[str, ...] = ()
    if holding_docs or holding_agent_files:
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
        reasons = []
        if holding_docs:
            reasons.append(f"the documentation is in {_join(holding_docs)} too")
        if holding_agent_files:
            holds = "holds" if len(holding_agent_files) == 1 else "hold"
            reasons.append(
                f"{_join(holding_agent_files)} also {holds} instructions for coding agents"
            )
        remarks["include"] = "source files only: " + "; ".join(reasons)
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


def _join(items: Iterable[str]) -> str:
    """`a`, `a and b`, `a, b and c`."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"
