"""Files that answer a question second-hand, told by their paths, and scored lower.

- A test file names the code it tests at every turn, so on the very words of a question
  about that code it often outscores the code itself. Unless the question is about tests,
  its score is scaled by TEST_FILE_WEIGHT (measured with `tierscope eval` on eval/self,
  questions about tierscope's own code: MRR@10 0.78 without it, 0.95 with it; 0.6 and
  anything down to 0.4 do as well, 0.8 less).
- A dated post (a blog post, news, a changelog, release notes) tells a story around the
  words of a how-to question, at length, where the guide or reference page answers it.
  Unless the question is about news, its score is scaled by POST_WEIGHT (measured with
  `tierscope eval` on Textual: docs MRR@10 0.869 without it, 0.874 with it; on the held-out
  how-to questions 0.490 without, 0.547 with it, 0.529 at 0.8). Code is never a post: a
  `news/` or `blog/` package holds an application's code. A post whose title is most of
  the question is the page about it, and is not scaled (post_titles.py).
- A project's plans (a TODO list, a roadmap) name what a question asks about, as work to
  do, where the guide says how it is done. Unless the question asks about plans, its score
  is scaled by POST_WEIGHT, as a dated post's is.
- An example program (code under `examples/`, `_examples/`, `samples/`, `demo/`, or
  FastAPI's `docs_src/`) calls the code a question is about, by its names, in a few lines,
  where the implementation defines it among much else. Unless the question asks for
  examples, its score is scaled by EXAMPLE_WEIGHT (measured with `tierscope eval`, code
  questions: FastAPI MRR@10 0.639 without it, 0.833 with it; axum's 0.760 and 0.844;
  Textual's 0.863 and 0.865; Flask, fastify and bubbletea the same; 0.7 and 0.6 no better).
  A document there is no example program: it says what the examples show.
- A declaration file (TypeScript's `.d.ts`, a Python stub `.pyi`) declares, by name and
  type, what the implementation beside it defines, often at length in doc comments.
  Unless the question asks about types, its score is scaled by DECLARATIONS_WEIGHT
  (measured with `tierscope eval`, code questions: Fastify MRR@10 0.771 without it, 0.800
  with it, passage 71% and 75%; Textual, which has stubs, and vitest the same; 0.6 no
  better).
- A translated page (a document under a language's folder or named with its tag, other
  than English: `docs/zh-CN/`, `README_zh-CN.md`) keeps the original's code and names, so
  on a question's identifiers it ranks as the English page does, and on FastAPI or
  commander.js an English question got Spanish and Chinese pages. Unless the query holds
  a word no English query spells (a letter outside ASCII), its score is scaled by
  TRANSLATION_WEIGHT. A tag that is also a common folder name (`it`, `io`...) is left
  alone (translations.py).
- A table of contents for the question (a document whose lines holding the query's words
  are mostly links of a list: mdBook's `SUMMARY.md`) names the page that answers, in a
  line; it weighs TABLE_OF_CONTENTS_WEIGHT (told when the best files are read again).
- A page that says it moved ("This page has moved", "The first edition of the book is
  no longer distributed") sends the reader to the page that answers; it weighs as a table
  of contents does (told when the best files are read again).
- An older edition of the docs (a document under a version's folder: jq's
  `manual/v1.6/`, Docusaurus' `versioned_docs/version-2.x/`, a book's `notebooks_v1/`)
  is the current page again, older, and on a question's words ranks as it does (the
  Python Data Science Handbook's first edition was served before its second). Unless the
  query asks about versions (`version`, or a version number), its score is scaled by
  VERSIONED_WEIGHT; the newest of a page kept once per numbered version among the files a
  query found is the current one, and is not (editions.py).
- A project's paperwork (its licence, notices, copying terms, code of conduct) is long
  legal or community prose that holds every common word of a question ("how does paging
  *work*": Apache's licence says *work* 40 times). Unless the question is about licensing
  or conduct, its score is scaled by PAPERWORK_WEIGHT.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass

from ..translations import Originals, is_translation_tag, page_and_language
from .editions import VERSIONED_PATH, Editions
from .project_records import is_dated_post, is_decision_record, is_plans
from .spans import YAML_SUFFIXES, document_kind
from .test_paths import is_test_file

TEST_FILE_WEIGHT = 0.6
POST_WEIGHT = 0.6
TRANSLATION_WEIGHT = 0.6
EXAMPLE_WEIGHT = 0.8
COMPLETION_WEIGHT = 0.6
DECLARATIONS_WEIGHT = 0.8
# A file a tool wrote (generated_files.py): generated code, a bundle or a generated page.
GENERATED_WEIGHT = 0.6
BUILT_OUTPUT_WEIGHT = 0.3
PAPERWORK_WEIGHT = 0.6
TABLE_OF_CONTENTS_WEIGHT = 0.6
VERSIONED_WEIGHT = 0.6
# What each demotion is called where `--explain` lists what each term added.
DEMOTION_LABEL = "(test file)"
POST_DEMOTION_LABEL = "(dated post)"
PLANS_DEMOTION_LABEL = "(plans)"
DECISION_RECORD_LABEL = "(decision record)"
TRANSLATION_DEMOTION_LABEL = "(translation)"
EXAMPLE_DEMOTION_LABEL = "(example)"
COMPLETION_LABEL = "(shell completion)"
DECLARATIONS_DEMOTION_LABEL = "(declarations)"
GENERATED_DEMOTION_LABEL = "(generated)"
BUILT_OUTPUT_LABEL = "(build output)"
PAPERWORK_DEMOTION_LABEL = "(licence or conduct)"
TABLE_OF_CONTENTS_LABEL = "(table of contents)"
IMPORTS_ONLY_LABEL = "(imports only)"
VERSIONED_LABEL = "(older edition)"
MOVED_LABEL = "(page moved)"
# Query terms (stems) that ask about tests, or about news: then those rank as any file does.
_ASKS_ABOUT_TESTS = frozenset({"test", "spec", "fixtur", "pytest", "unittest", "conftest"})
_ASKS_ABOUT_NEWS = frozenset({"blog", "post", "news", "changelog", "releas", "announc"})
_ASKS_ABOUT_PLANS = frozenset({"todo", "roadmap", "plan"})
_ASKS_ABOUT_DECISIONS = frozenset({"decid", "adr"})  # `decision` is `decide` (irregular_forms)
_ASKS_ABOUT_COMPLETION = frozenset({"complet", "tab"})
_ASKS_FOR_EXAMPLES = frozenset({"exampl", "sampl", "demo", "playground"})
_ASKS_ABOUT_PAPERWORK = frozenset(
    {"licens", "licenc", "copyright", "warranti", "patent", "trademark", "notic",
     "conduct", "harass", "apach", "gpl", "mit", "bsd"}
)  # fmt: skip
_ASKS_ABOUT_VERSIONS = frozenset({"version", "edit", "legaci"})
_ASKS_ABOUT_TYPES = frozenset({"type", "typescript", "declar", "signatur", "stub", "interfac"})
_DECLARATION_SUFFIXES = (".d.ts", ".d.mts", ".d.cts", ".pyi")
# A version number in the query (`0.28`) asks about news too.
_VERSION = re.compile(r"\d+(?:\.\d+)+")
# A version named (`v1`, `v2.1`) asks about an older edition.
_VERSION_NAMED = re.compile(r"v\d+(?:\.\d+)*")


@dataclass(frozen=True, slots=True)
class Role:
    """What a file's role keeps of the score its text earns (`weight`), and what the rest
    is called where `--explain` lists what each term added (`label`)."""

    weight: float = 1.0
    label: str = ""


AS_IS = Role()
TEST_FILE = Role(TEST_FILE_WEIGHT, DEMOTION_LABEL)
# Code that is no test, when the query asks for a name's tests (`tests for loadEnv`).
NOT_ITS_TESTS = Role(TEST_FILE_WEIGHT, "(not a test)")
DATED_POST = Role(POST_WEIGHT, POST_DEMOTION_LABEL)
PLANS = Role(POST_WEIGHT, PLANS_DEMOTION_LABEL)
DECISION_RECORD = Role(POST_WEIGHT, DECISION_RECORD_LABEL)
TRANSLATED_PAGE = Role(TRANSLATION_WEIGHT, TRANSLATION_DEMOTION_LABEL)
EXAMPLE_PROGRAM = Role(EXAMPLE_WEIGHT, EXAMPLE_DEMOTION_LABEL)
COMPLETION_SCRIPT = Role(COMPLETION_WEIGHT, COMPLETION_LABEL)
DECLARATIONS = Role(DECLARATIONS_WEIGHT, DECLARATIONS_DEMOTION_LABEL)
GENERATED = Role(GENERATED_WEIGHT, GENERATED_DEMOTION_LABEL)
BUILT_OUTPUT = Role(BUILT_OUTPUT_WEIGHT, BUILT_OUTPUT_LABEL)
PAPERWORK = Role(PAPERWORK_WEIGHT, PAPERWORK_DEMOTION_LABEL)
TABLE_OF_CONTENTS = Role(TABLE_OF_CONTENTS_WEIGHT, TABLE_OF_CONTENTS_LABEL)
# Code whose lines holding the query's terms are mostly imports or exports (a package's
# `__init__.py` re-exporting its modules' names) points at them, as a table of contents.
IMPORTS_ONLY = Role(TABLE_OF_CONTENTS_WEIGHT, IMPORTS_ONLY_LABEL)
OLDER_EDITION = Role(VERSIONED_WEIGHT, VERSIONED_LABEL)
# A page that says it moved (stand_in_pages.says_it_moved) points elsewhere, as a table of
# contents does.
MOVED_PAGE = Role(TABLE_OF_CONTENTS_WEIGHT, MOVED_LABEL)

# A folder of documentation, for a manual written as YAML.
_DOCS_FOLDER = re.compile(r"(?:^|/)(?:docs?|documentation|manual|guides?|book)/", re.IGNORECASE)

# A licence (`LICENSE`, `LICENSE-APACHE`, `LICENCE.txt`, `COPYING`, any file of a
# `licenses/` folder), its notices, or a code of conduct, in any folder.
_PAPERWORK_PATH = re.compile(
    r"(?:^|/)licen[cs]es/"
    r"|(?:^|/)(?:(?:licen[cs]es?|copying)(?:[-_.][^/]*)?"
    r"|(?:notice|copyright|code[-_]of[-_]conduct)(?:\.[a-z]+)?)$",
    re.IGNORECASE,
)


# A folder of example programs (FastAPI keeps the code its docs show in `docs_src/`; Vue
# and Vite projects try themselves out in `playground/`); not a Java package's name under
# its domain (`com/example/ok_http/`, the package a Flutter plugin is made with).
_EXAMPLE_PATH = re.compile(
    r"(?:^|/)(?<!\bcom/)(?<!\borg/)(?<!\bnet/)(?<!\bio/)"
    r"(?:_?examples?|samples?|demos?|docs_src|playgrounds?)(?:-[\w-]+)?/"
)


# A script named as a command is, without a suffix, in lower case (commander's
# `examples/pm-install`, a `#!/usr/bin/env node` script); not a `README` or a `Makefile`.
_COMMAND_NAME = re.compile(r"(?:^|/)[a-z0-9][a-z0-9_-]*$")


# A shell's completion script in a folder of them (fd's `contrib/completion/_fd`, Celery's
# `extra/zsh-completion/celery.zsh`, `bash_completion.d/`, Task's
# `completion/fish/task.fish`, bat's `assets/completions/bat.bash.in`): it repeats every
# option's help text, and outranked the code that does what the options say. Not a page
# about completion, nor code named for it (`clap_complete/src/`, fzf's
# `shell/completion.bash`, cobra's `completions.go`).
_COMPLETION_PATH = re.compile(
    r"(?:^|/)(?:(?:bash|zsh|fish)[-_])?completions?(?:\.d)?/(?:[^/]+/)*[^/]+$"
)


def is_completion_script(path: str) -> bool:
    """True for a root-relative POSIX path of a file in a folder of shell completion
    scripts that is no page."""
    return _COMPLETION_PATH.search(path) is not None and document_kind(path) in ("code", "plain")


def is_example_program(path: str) -> bool:
    """True for a root-relative POSIX path of code in a folder of examples
    (`examples/router/main.go`, `docs_src/first_steps/tutorial001.py`, a script named as a
    command: `examples/pm-install`)."""
    if _EXAMPLE_PATH.search(path) is None:
        return False
    return document_kind(path) == "code" or _COMMAND_NAME.search(path) is not None


def is_paperwork(path: str) -> bool:
    """True for a root-relative POSIX path of a licence, notice or code of conduct
    (`LICENSE-APACHE`, `docs/COPYING.txt`, `CODE_OF_CONDUCT.md`)."""
    return _PAPERWORK_PATH.search(path) is not None and document_kind(path) != "code"


def is_older_edition(path: str) -> bool:
    """True for a root-relative POSIX path of a document in a version's folder
    (`docs/manual/v1.6/colors.md`, `versioned_docs/version-2.x/intro.md`), or of a manual
    written as YAML in a documentation folder (jq's `docs/content/manual/v1.6/manual.yml`;
    an API's `api/v1/openapi.yaml` is the current one)."""
    if VERSIONED_PATH.search(path) is None:
        return False
    if path.endswith(YAML_SUFFIXES):
        return _DOCS_FOLDER.search(path) is not None
    return document_kind(path) != "code"


def older_editions(found: Collection[str] | None = None) -> Callable[[str], bool]:
    """Tells an older edition of the docs by its path (is_older_edition); among `found`,
    the files a query found, only a page a newer edition among them has too (editions.py,
    which reads `found` only once a path in a version's folder is asked about); and among
    them, code in a version's folder beside the current code of its path."""
    editions = Editions(found) if found is not None else None

    def older(path: str) -> bool:
        if document_kind(path) == "code" and not path.endswith(YAML_SUFFIXES):
            return editions is not None and editions.is_replaced(path)
        return is_older_edition(path) and (editions is None or editions.is_older(path))

    return older


def is_translated_page(path: str, found: Iterable[str] = ()) -> bool:
    """True for a document in a language other than English, told by its path
    (`docs/es/docs/cors.md`, `README_zh-CN.md`), or by its English original among `found`
    (`README-de.md` beside `README.md`); not for a tag that is also a common folder name
    (`docs/it/`)."""
    return _translated(path, Originals(found))


def _translated(path: str, originals: Originals) -> bool:
    page = page_and_language(path)
    if page is None:
        return False
    return is_translation_tag(page[1]) or bool(originals.of(path))


# A word about tests that at least this share of the other matching files hold (and at
# least that many of them) is the project's own subject, not a question about its tests:
# vitest's code says `test` throughout. Half was too few: a Rust crate's inline
# `#[cfg(test)]` modules made half of just's files matching a question in words (43 of
# 85), whose test then scored 0.4 (measured over 96 sets: MRR@10 +0.0005, just's and
# Magit's "is there a test that checks ..." from out of the top 10 to 1 and 2; none down).
SUBJECT_SHARE = 0.6
SUBJECT_FILES = 20
SUBJECT_SAMPLE = 1000


def without_the_subject(query_keys: Iterable[str], files: Mapping[str, Iterable[str]]) -> set[str]:
    """The query's keys without the words about tests that the project's code (the
    matching files, `files`: path -> keys, that are no tests) holds throughout. A file
    that matches by those words alone is not counted: it was found for holding them
    (just's inline `#[cfg(test)]` modules had made half the files matching `fallback
    test`)."""
    keys = set(query_keys)
    testing = _ASKS_ABOUT_TESTS.intersection(keys)
    if not testing:
        return keys
    code: list[Iterable[str]] = []
    for path, held in files.items():  # a share: a thousand files (no tests) tell it
        if not is_test_file(path) and any(key not in testing for key in held):
            code.append(held)
            if len(code) == SUBJECT_SAMPLE:
                break
    if len(code) < SUBJECT_FILES:
        return keys
    for key in testing:
        if sum(1 for held in code if key in held) >= SUBJECT_SHARE * len(code):
            keys.discard(key)
    return keys


def asks_about_types(keys: Iterable[str]) -> bool:
    """Whether the query's keys ask about types (then declarations rank as any file)."""
    return DECLARATIONS_WEIGHT == 1 or bool(_ASKS_ABOUT_TYPES.intersection(keys))


def asks_about_tests(query_keys: Iterable[str]) -> bool:
    """Whether a query's keys ask about tests (then tests rank as any code does)."""
    return bool(_ASKS_ABOUT_TESTS.intersection(query_keys))


def role_weigher(
    query_keys: Iterable[str],
    names_an_identifier: bool = False,
    found: Collection[str] | None = None,
) -> Callable[[str], Role]:
    """The role of a file, by its path, for a query with these keys: TEST_FILE unless the
    query asks about tests, EXAMPLE_PROGRAM unless it asks for examples, COMPLETION_SCRIPT
    unless it asks about completion, DECLARATIONS unless it asks about types, DATED_POST
    unless it asks about news (or holds a version number), PLANS unless it asks about
    plans, DECISION_RECORD unless it asks about decisions, TRANSLATED_PAGE unless the
    query holds a word outside ASCII, PAPERWORK unless it asks about licensing or conduct,
    OLDER_EDITION unless it asks about versions (among `found`, the files the query found,
    the newest edition of a page is current: editions.py), else AS_IS; when it asks about
    tests and `names_an_identifier` (`tests for loadEnv`), NOT_ITS_TESTS for a code file
    that is no test.
    Asked only of the files a ranking scores (a few of thousands)."""
    keys = set(query_keys)
    tests = TEST_FILE_WEIGHT < 1 and not asks_about_tests(keys)
    its_tests = TEST_FILE_WEIGHT < 1 and names_an_identifier and not tests
    asks_about_news = _ASKS_ABOUT_NEWS.intersection(keys) or any(map(_VERSION.fullmatch, keys))
    posts = POST_WEIGHT < 1 and not asks_about_news
    plans = POST_WEIGHT < 1 and not _ASKS_ABOUT_PLANS.intersection(keys)
    decisions = POST_WEIGHT < 1 and not _ASKS_ABOUT_DECISIONS.intersection(keys)
    translations = TRANSLATION_WEIGHT < 1 and all(key.isascii() for key in keys)
    examples = EXAMPLE_WEIGHT < 1 and not _ASKS_FOR_EXAMPLES.intersection(keys)
    completion = COMPLETION_WEIGHT < 1 and not _ASKS_ABOUT_COMPLETION.intersection(keys)
    declarations = not asks_about_types(keys)
    paperwork = PAPERWORK_WEIGHT < 1 and not _ASKS_ABOUT_PAPERWORK.intersection(keys)
    versions = VERSIONED_WEIGHT < 1 and not (
        _ASKS_ABOUT_VERSIONS.intersection(keys)
        or any(map(_VERSION.fullmatch, keys))
        or any(map(_VERSION_NAMED.fullmatch, keys))
    )
    older = older_editions(found)
    originals = Originals(found or ())

    def role(path: str) -> Role:
        if tests and is_test_file(path):
            return TEST_FILE
        if its_tests and document_kind(path) == "code" and not is_test_file(path):
            return NOT_ITS_TESTS
        if examples and is_example_program(path):
            return EXAMPLE_PROGRAM
        if completion and is_completion_script(path):
            return COMPLETION_SCRIPT
        if declarations and path.endswith(_DECLARATION_SUFFIXES):
            return DECLARATIONS
        if posts and is_dated_post(path):
            return DATED_POST
        if plans and is_plans(path):
            return PLANS
        if decisions and is_decision_record(path):
            return DECISION_RECORD
        if translations and _translated(path, originals):
            return TRANSLATED_PAGE
        if paperwork and is_paperwork(path):
            return PAPERWORK
        if versions and older(path):
            return OLDER_EDITION
        return AS_IS

    return role


def weighted(contributions: Mapping[str, float], role: Role) -> tuple[float, dict[str, float]]:
    """A file's score from what each term added, scaled by its role's weight; below 1, the
    part taken away is listed under the role's label, so the parts still add up to the
    score."""
    total = min(1.0, sum(contributions.values()))
    parts = dict(contributions)
    if role.weight < 1.0:
        parts[role.label] = -(1.0 - role.weight) * total
    return total * role.weight, parts
