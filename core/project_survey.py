"""What a project holds, for `tierscope init`: its documentation and source files by
top-level folder (walked as the grep tier walks them: ignore rules, hidden entries and
vendored trees left out, symbolic links never followed), the qmd collections and ck
indexes already made for it, and its Loa layout and config, if any.

The walk is bounded in files and time: a huge tree is surveyed in part, and says so.
"""

from __future__ import annotations

import os
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from .copied_pages import LISTED_PAGES, copies_or_stubs
from .file_kinds import (
    DOC_EXTENSIONS,
    LANGUAGES,
    PACKAGE_MANIFESTS,
    TEST_FOLDER_NAMES,
    named_for_docs,
)
from .manual_pages import NUMBERED_LOG, is_manual_page
from .module_readmes import AGENT_INSTRUCTIONS, PACKAGE_DOC, ModuleReadmes
from .project import is_inside
from .project_walk import is_plain_file, walk_files
from .ranking.spans import YAML_SUFFIXES
from .scopes import LOA_FOLDERS, has_loa_layout
from .tiers.ck import ck_indexes_in
from .tiers.qmd_collections import Registry, read_registry
from .tiers.qmd_locations import locate
from .yaml_documents import reads_as_prose

# Extensions that are documentation only inside a documentation folder.
_DOCS_IN_FOLDERS_ONLY = frozenset({".txt", *(f".{n}" for n in range(1, 10)), *YAML_SUFFIXES})
# Documentation qmd cannot index: a notebook is JSON to it.
NOT_FOR_QMD = frozenset({".ipynb"})
# Text files that are not documentation, even in a documentation folder (jsonschema's
# spelling-wordlist.txt); at the root, neither is one named as a test (tqdm's nbval notebook)
# nor the instructions a coding agent's harness reads itself (module_readmes.py).
_NOT_DOCUMENTATION = re.compile(
    r"(?i:requirements|constraints|cmakelists|conanfile|robots|license|licence|copying|authors"
    r"|(?:spelling[-_]?)?wordlist)\b"
)
_NOT_DOCS = re.compile(
    rf"{_NOT_DOCUMENTATION.pattern}|tests?_[^.]*\.|[^.]*_tests?\.|{AGENT_INSTRUCTIONS}", re.I
)
# Plain text at the root that is documentation by its name (a README.txt, a GNU project's
# README, NEWS and INSTALL, pandoc's MANUAL.txt): plain text elsewhere at the root is
# settings or data (`requirements.txt`, `CMakeLists.txt`). Without `.txt`, the name starts
# with a capital, as GNU writes them: an `install` is a script.
_ROOT_TEXT_DOCUMENT = re.compile(
    r"(?=[A-Z]|.*\.(?i:txt)$)(?i:readme|manual|install|news|changes|changelog|history|hacking"
    r"|contributing|faq|usage)(?i:\.txt)?$"
)
# Files written for coding agents: their instructions (module_readmes.AGENT_INSTRUCTIONS)
# and a project's summary for language models (`llms.txt`, `llms-full.txt`).
_FOR_AGENTS = re.compile(rf"{AGENT_INSTRUCTIONS}|llms(?:[-_]full)?\.txt$", re.I)
# The contributing guide GitHub's folder keeps (the project's own, for its contributors):
# documentation, though the folder is hidden.
GITHUB_GUIDES = tuple(f".github/CONTRIBUTING{ext}" for ext in (".md", ".rst", ".txt"))
# How deep under a top-level folder a folder named for documentation is still the
# project's: `packages/docs/` (a monorepo's), `axum/src/docs/` (a crate's rustdoc pages).
NESTED_DOCS_DEPTH = 2
# Where Loa installs itself: its skills, scripts, adapters, protocols.
FRAMEWORK_FOLDER = ".claude"
# A survey reads names, never contents; these only bound a very large tree.
MAX_FILES = 50_000
MAX_SECONDS = 5.0


@dataclass(frozen=True, slots=True)
class FolderSurvey:
    """One top-level folder (or a docs folder inside one, `packages/docs`): its documentation
    files by extension, its source files by language, its files in all (machine data too)."""

    name: str
    docs: Counter[str] = field(default_factory=Counter)
    sources: Counter[str] = field(default_factory=Counter)
    files: int = 0
    package: bool = False  # a build manifest at its top (`Cargo.toml`, `package.json`...)
    # Prose that is no documentation of it: instructions for coding agents (`CLAUDE.md`,
    # `AGENTS.md`) and summaries written for them (`llms.txt`), at any depth.
    agent_files: int = 0

    @property
    def path(self) -> str:
        return f"{self.name}/"


@dataclass(frozen=True, slots=True)
class FoundCollection:
    """A qmd collection of this project: its name, its folder (root-relative, "." for the
    root) and its mask."""

    name: str
    folder: str
    mask: str


@dataclass(frozen=True, slots=True)
class ProjectSurvey:
    root: Path
    folders: tuple[FolderSurvey, ...]
    # Folders named for documentation one or two levels down (`packages/docs`, a
    # monorepo's; `axum/src/docs`, a crate's).
    nested_docs: tuple[FolderSurvey, ...]
    top_docs: tuple[str, ...]  # documentation files in the root
    # The README of each module one to MODULE_README_DEPTH folders deep
    # (`protection/README.md`, `src/Illuminate/Database/README.md`; module_readmes.py),
    # root-relative, sorted.
    module_readmes: tuple[str, ...]
    top_sources: Counter[str]  # language -> source files in the root
    top_source_files: tuple[str, ...]
    collections: tuple[FoundCollection, ...]  # qmd collections inside the project
    qmd_config: Path  # the index.yml qmd uses here
    qmd_project_local: bool
    qmd_problem: str  # why qmd's config could not be read ("" = it could)
    ck_indexes: tuple[str, ...]  # folders holding a ck index (`.ck/`), root-relative
    loa_layout: bool
    stopped: str = ""  # why the walk ended early ("" = every file was seen)
    # The names of text files among the documentation that are none (`requirements.txt`
    # in Django's docs/), sorted: left out of a scope that includes their kind.
    not_docs_named: tuple[str, ...] = ()
    # The top-level folders whose documents are mostly copies a tool wrote or stubs saying
    # the page moved (copied_pages.py): the docs scope leaves them out.
    copies_or_stubs: frozenset[str] = frozenset()
    # Loa's framework folder (`.claude/`, hidden: the walk above skips it) without its
    # skills, surveyed in a project laid out like Loa: its scripts, adapters and
    # protocols are no built-in scope's (`skills` is `.claude/skills/` alone).
    framework: FolderSurvey | None = None


def survey_project(root: Path) -> ProjectSurvey:
    """Look at the project under `root` (a resolved folder). Never raises for what the
    tree holds: unreadable folders are passed over, as the grep tier passes them."""
    loa = has_loa_layout(root)
    counted = _Counter(root, skip_loa=loa)
    counted.walk()
    framework = counted.survey_folder(FRAMEWORK_FOLDER, "skills") if loa else None
    locations = locate(root)
    registry = read_registry(locations.config_file)
    return ProjectSurvey(
        root=root,
        folders=counted.folders.surveys(),
        nested_docs=counted.nested.surveys(),
        top_docs=(
            *counted.top_docs,
            *(name for name in GITHUB_GUIDES if is_plain_file(root, name)),
        ),
        module_readmes=counted.module_readmes.paths(),
        top_sources=counted.top_sources,
        top_source_files=tuple(counted.top_source_files),
        collections=_project_collections(registry, root),
        qmd_config=locations.config_file,
        qmd_project_local=locations.project_local,
        qmd_problem=registry.problem,
        ck_indexes=ck_indexes_in(root, tuple(counted.folders.files)),
        loa_layout=loa,
        stopped=counted.stopped,
        not_docs_named=tuple(sorted(counted.not_docs_named)),
        copies_or_stubs=frozenset(
            top for top, pages in counted.pages.items() if copies_or_stubs(root, pages)
        ),
        framework=framework,
    )


def is_documentation(folders: list[str], name: str) -> bool:
    """Whether a `.txt` file or a manual page is documentation: inside a documentation
    folder (`docs/`, as Django writes its reStructuredText; `man/`, or one or two levels
    down: httpie's `extras/man/`), and not a requirements or licence file, nor a numbered
    changelog (`CHANGELOG.1`). `folders`: the top-level folder and those below it on the
    file's path."""
    in_docs = _in_docs(folders)
    return in_docs and not _NOT_DOCUMENTATION.match(name) and not NUMBERED_LOG.match(name)


def _in_docs(folders: list[str]) -> bool:
    return any(named_for_docs(folder) for folder in folders[: 1 + NESTED_DOCS_DEPTH])


class _Folders:
    """Per folder: documentation files by extension, source files by language, all files."""

    def __init__(self) -> None:
        self.docs: dict[str, Counter[str]] = {}
        self.sources: dict[str, Counter[str]] = {}
        self.files: Counter[str] = Counter()
        self.packages: set[str] = set()
        self.agent_files: Counter[str] = Counter()

    def count(self, name: str, suffix: str, file_name: str = "", *, agent: bool = False) -> None:
        self.files[name] += 1
        if agent:
            self.agent_files[name] += 1
        if file_name in PACKAGE_MANIFESTS:
            self.packages.add(name)
        if suffix in DOC_EXTENSIONS:
            self.docs.setdefault(name, Counter())[suffix] += 1
        elif suffix in LANGUAGES:
            self.sources.setdefault(name, Counter())[LANGUAGES[suffix]] += 1

    def surveys(self) -> tuple[FolderSurvey, ...]:
        return tuple(
            FolderSurvey(
                name,
                self.docs.get(name, Counter()),
                self.sources.get(name, Counter()),
                files,
                package=name in self.packages,
                agent_files=self.agent_files[name],
            )
            for name, files in self.files.items()
        )


class _Counter:
    def __init__(self, root: Path, *, skip_loa: bool) -> None:
        self.root = root
        # Loa's own folders are the built-in scopes' business, not documentation to add.
        self.skipped = {path.split("/")[0] for path in LOA_FOLDERS} if skip_loa else set()
        self.folders = _Folders()  # top-level folders
        self.nested = _Folders()  # documentation folders one level down (`packages/docs`)
        self.top_docs: list[str] = []
        self.module_readmes = ModuleReadmes()
        self.top_sources: Counter[str] = Counter()
        self.top_source_files: list[str] = []
        # The names of text files in documentation folders that are no documentation.
        self.not_docs_named: set[str] = set()
        # Top-level folder -> the documents in it (root-relative), the first LISTED_PAGES.
        self.pages: dict[str, list[str]] = {}
        self.seen = 0
        self.deadline = time.monotonic() + MAX_SECONDS
        self.stopped = ""

    def should_stop(self) -> bool:
        if self.seen >= MAX_FILES:
            self.stopped = f"stopped after {MAX_FILES:,} files"
        elif time.monotonic() > self.deadline:
            self.stopped = f"stopped after {MAX_SECONDS:g} s ({self.seen:,} files)"
        return bool(self.stopped)

    def walk(self) -> None:
        prefix = len(str(self.root)) + 1
        for walked in walk_files(
            self.root, self.root, machine_data=True, should_stop=self.should_stop
        ):
            self.seen += 1
            relative = str(walked.path)[prefix:]
            top, _, rest = relative.partition(os.sep)
            if top in self.skipped:
                continue
            suffix = os.path.splitext(walked.path.name)[1].lower()
            folders = [top, *rest.split(os.sep)[:-1]] if rest else []  # the file's folders
            if suffix in _DOCS_IN_FOLDERS_ONLY and not is_documentation(folders, walked.path.name):
                if rest or not is_manual_page(walked.path):
                    if _in_docs(folders) and _NOT_DOCUMENTATION.match(walked.path.name):
                        self.not_docs_named.add(walked.path.name)  # `docs/requirements.txt`
                    suffix = ""
            elif suffix in YAML_SUFFIXES and not reads_as_prose(
                walked.path, in_docs=_in_docs(folders)
            ):
                suffix = ""  # settings, not a manual written as YAML
            if not rest:  # a file of the root; a licence there is no documentation either
                named_so = _ROOT_TEXT_DOCUMENT.match(top)
                if (named_so or suffix in DOC_EXTENSIONS) and not _NOT_DOCS.match(top):
                    self.top_docs.append(top)
                elif suffix in LANGUAGES:
                    self.top_sources[LANGUAGES[suffix]] += 1
                    self.top_source_files.append(top)
                continue
            folders_under = folders[1:]  # the folders between `top` and the file
            agent = _FOR_AGENTS.match(walked.path.name) is not None
            if suffix in DOC_EXTENSIONS and agent:
                self.not_docs_named.add(walked.path.name)  # Hugo's `docs/AGENTS.md`
                suffix = ""
            elif suffix in DOC_EXTENSIONS and TEST_FOLDER_NAMES.intersection(
                part.lower() for part in folders_under
            ):
                suffix = ""  # a document among a folder's tests is a fixture (no README)
            self.folders.count(top, suffix, rest, agent=agent)  # `rest`: a file right under `top`
            if suffix in DOC_EXTENSIONS:
                pages = self.pages.setdefault(top, [])
                if len(pages) < LISTED_PAGES:
                    pages.append(relative)
            self.module_readmes.see(
                folders,
                walked.path.name,
                document=(suffix in DOC_EXTENSIONS or walked.path.name == PACKAGE_DOC)
                and not TEST_FOLDER_NAMES.intersection(part.lower() for part in folders),
                source=suffix in LANGUAGES,
            )
            inner = folders_under[:NESTED_DOCS_DEPTH]
            for depth, name in enumerate(inner, start=1):
                lowered = name.lower()
                if lowered in TEST_FOLDER_NAMES:
                    break
                if named_for_docs(lowered):
                    self.nested.count("/".join([top, *inner[:depth]]), suffix)
                    break

    def survey_folder(self, name: str, leaving_out: str) -> FolderSurvey | None:
        """One folder of the root, walked even when hidden (as a scope naming it is),
        without its subfolder `leaving_out`; None when it holds no other file."""
        folder = _Folders()
        left_out = self.root / name / leaving_out
        for walked in walk_files(
            self.root / name,
            self.root,
            machine_data=True,
            skip=lambda path: path == left_out,
            should_stop=self.should_stop,
        ):
            self.seen += 1
            suffix = os.path.splitext(walked.path.name)[1].lower()
            if suffix in _DOCS_IN_FOLDERS_ONLY:
                suffix = ""  # text files outside a documentation folder are no documents
            folder.count(name, suffix)
        surveys = folder.surveys()
        return surveys[0] if surveys else None


def _project_collections(registry: Registry, root: Path) -> tuple[FoundCollection, ...]:
    """The collections whose folder lies inside the project (the user's other projects'
    collections are none of its business)."""
    found = []
    for collection in registry.collections.values():
        folder = collection.root if collection.root.is_absolute() else root / collection.root
        try:
            folder = folder.resolve()
        except OSError:
            continue
        if is_inside(folder, root):
            relative = folder.relative_to(root).as_posix() or "."
            found.append(FoundCollection(collection.name, relative, collection.mask))
    return tuple(found)
