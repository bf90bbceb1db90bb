"""Test files, told by their paths: a folder of tests, or a name test runners find."""

from __future__ import annotations

import re

from .spans import document_kind

# A folder of tests (pytest's own `testing/`, Go's `testdata/`, mypy's `test-data/`, GCC's
# `testsuite/`, test `fixtures/`, a Gradle source set's `jvmTest/`, `androidTest/`,
# `testFixtures/`, Perl's and git's `t/`, Perl's author tests' `xt/`, Vim's `testdir/`, the
# BSDs' `regress/` (tmux's, OpenSSH's),
# Vite's `__tests_dts__/`, Jest's `__mocks__/`, `__fixtures__/`, `__snapshots__/` and
# `__testdata__/`), or a file named as test runners find them (Python and Django,
# Go, Ruby, Elixir, C and C++ (`*_test.c`, `*_unittest.cc`), JavaScript and TypeScript
# (Vitest's and tsd's type tests, `*.test-d.ts`; Deno's `*_test.ts`; React Router's
# `*-test.ts`), Java, Kotlin, PHP,
# C#, Swift, Perl (`*.t`), Vim script (`test_*.vim`)). Not a `spec/` folder: many projects
# keep their specifications there (RSpec's tests are `*_spec.rb` wherever they are); but
# its `spec/support/` and `spec/spec_helper.rb` hold their helpers, as Cucumber's
# `features/support/` and `features/step_definitions/` (httparty's older `features/steps/`)
# hold the features'.
_TEST_PATH = re.compile(
    r"(?:^|/)(?:tests?|Tests|__(?:tests?|mocks|(?:test)?fixtures|snapshots|testdata)(?:_\w+)?__"
    r"|test[-_]?data|testdir|testsuite|regress|fixtures"
    r"|testFixtures|x?t|e2e|spec/support|features/(?:support|step_definitions|steps)"
    r"|test[-_]?utils?|test[-_]support|test[-_]?helpers?"
    r"|[a-z][a-z0-9]*Test)/"
    r"|(?:^|/)(?:test_[^/]*\.(?:py|vim)|[^/]*_tests?\.py|tests?\.py|conftest\.py"
    r"|[^/]*_test\.(?:go|rb|exs|c|cc|cpp|[cm]?[jt]sx?)|[^/]*_unittest\.(?:c|cc|cpp)|[^/]*_spec\.rb"
    r"|[^/]*[.-](?:test|spec)(?:-d)?\.[cm]?[jt]sx?|[^/]*Tests?\.(?:java|kt|php|cs|swift)"
    r"|[^/]*\.t|spec/(?:spec|rails)_helper\.rb)$"
)


# A `testing/` folder holds test code (pytest's `testing/`, Go's `internal/testing/`), or,
# among documents, pages about testing (Rust by Example's `src/testing/unit_testing.md`,
# Django's `docs/topics/testing/`): only its code is tests.
_TESTING_FOLDER = re.compile(r"(?:^|/)testing/")


# A Go package named `test` in the module (logrus' `hooks/test/`, a null logger for its users'
# tests) is a library: Go's tests are `_test.go` files. A root `test/` holds the project's.
_GO_TEST_PACKAGE = re.compile(r"/test/(?=[^/]+(?<!_test)\.go$)")


def is_test_file(path: str) -> bool:
    """True for a root-relative POSIX path of a test (a file under `tests/`, `test_x.py`,
    code under `testing/`...)."""
    if "/test/" in path and path.endswith(".go"):
        path = _GO_TEST_PACKAGE.sub("/", path)
    if _TEST_PATH.search(path) is not None:
        return True
    return _TESTING_FOLDER.search(path) is not None and document_kind(path) == "code"
