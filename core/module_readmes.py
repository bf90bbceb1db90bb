"""The READMEs of a project's modules, which `tierscope init` puts in the docs scope: each
module's own reference, often (okhttp's okcurl/README.md, Vite's
packages/plugin-legacy/README.md, Laravel's src/Illuminate/Database/README.md on using
the database outside Laravel). The survey (project_survey.py) shows every file of a
folder to a ModuleReadmes, which keeps the READMEs that are a module's:

- one or two folders deep, any (`okcurl/`, `packages/plugin-legacy/`);
- three folders deep (Laravel's components: src/Illuminate/Queue/), the first README on
  its path, in a folder that holds source code, or whose parent does (bat's
  src/syntax_mapping/builtins/, on writing the mappings its folders of TOML files hold).
  Deeper than two, a README below another is a part of that one's module, a template or
  an example (Vite's packages/create-vite/template-react/, Vim's
  runtime/syntax/generator/; git's t/unit-tests/clar/ below t/README), and one far from
  code documents no module (ripgrep's benchsuite/runs/2022-12-16-archlinux-duff/, a
  benchmark run's machine);
- never among tests (pydantic's tests/mypy/README.md, on running those tests).

And a module's other documents, one or two folders deep beside its code (HCL's
`hclsyntax/spec.md`, the specification of the syntax the folder's code parses;
`cmd/hcldec/spec-format.md`): not its changelog, licence or contributing guide. A Go
package's `doc.go` is one: its documentation, written as the comment of a file of its own.
"""

from __future__ import annotations

import re

# A module's README (`README.md`, `readme.rst`...): a document by its extension.
README = re.compile(r"readme\.[a-z]+$", re.IGNORECASE)
# Any README, documents or not (git's t/README, Vim's runtime/syntax/README.txt): one
# covers the folders below it.
_ANY_README = re.compile(r"readme(?:\.[\w.-]+)?$", re.IGNORECASE)
# Go's file holding a package's documentation as its comment (go-playground/validator's
# reference, 1,650 lines: every tag it knows, its panics): source code, and a document.
PACKAGE_DOC = "doc.go"
# Instructions for coding agents, which an agent's harness reads into its context itself
# (Claude Code its CLAUDE.md, others their AGENTS.md): served again, they repeat what the
# agent holds (go-playground/validator's 78-line CLAUDE.md came first for 11 of 15 docs
# questions). The `all` scope still searches them.
AGENT_INSTRUCTIONS = r"(?:claude|agents|gemini)\.md$"
# A module's paperwork, no documentation of it.
_PAPERWORK = re.compile(
    r"(?:changelog|changes|history|news|license|licence|copying|notice|authors|contributing"
    rf"|code_of_conduct|security|maintainers|release[-_]?notes)\b|{AGENT_INSTRUCTIONS}",
    re.IGNORECASE,
)
# How many folders deep a README is a module's as it is: `okcurl/` (one),
# `packages/legacy/` (two); and how many at most, where it is the first README on its path
# beside code: `src/Illuminate/Database/` (three).
AS_IS_DEPTH = 2
MODULE_README_DEPTH = 3


class ModuleReadmes:
    """The module READMEs among the files of a walk, told once it has seen them all."""

    def __init__(self) -> None:
        self.found: list[tuple[str, ...]] = []  # a README's folders, then its name
        self.with_code: set[tuple[str, ...]] = set()  # folders holding code, below too
        self.with_readme: set[tuple[str, ...]] = set()  # folders holding any README
        self.documents: list[tuple[str, ...]] = []  # other documents: folders, then name

    def see(self, folders: list[str], name: str, *, document: bool, source: bool) -> None:
        """One file of a folder: `folders` from the top-level folder down to its own;
        whether it is a document the docs scope may take (none among tests), whether it
        is source code."""
        if source:
            for depth in range(1, min(len(folders), MODULE_README_DEPTH) + 1):
                self.with_code.add(tuple(folders[:depth]))
            if document and name == PACKAGE_DOC and len(folders) <= AS_IS_DEPTH:
                self.documents.append((*folders, name))
        elif len(folders) <= MODULE_README_DEPTH and _ANY_README.match(name):
            self.with_readme.add(tuple(folders))
            if document and README.match(name):
                self.found.append((*folders, name))
        elif document and len(folders) <= AS_IS_DEPTH and not _PAPERWORK.match(name):
            self.documents.append((*folders, name))

    def paths(self) -> tuple[str, ...]:
        """The module READMEs and the other documents beside a module's code, root-relative,
        sorted."""
        readmes = (found for found in self.found if self._is_a_modules(found[:-1]))
        beside_code = (found for found in self.documents if found[:-1] in self.with_code)
        return tuple(sorted("/".join(found) for found in (*readmes, *beside_code)))

    def _is_a_modules(self, folders: tuple[str, ...]) -> bool:
        """Whether a README in `folders` is a module's: it is as it is up to AS_IS_DEPTH;
        deeper, its folder or the one above holds code and none above holds a README."""
        if len(folders) <= AS_IS_DEPTH:
            return True
        covered = any(folders[:depth] in self.with_readme for depth in range(1, len(folders)))
        near_code = folders in self.with_code or folders[:-1] in self.with_code
        return near_code and not covered
