"""Test files, told by their paths. A test names the code it tests at every turn, so on the
very words of a question about that code it often outscores the code itself. Unless the
question is about tests, a test file's score is scaled by TEST_FILE_WEIGHT (measured with
`tierscope eval` on eval/self, questions about tierscope's own code: MRR@10 0.78 without it,
0.95 with it; 0.6 and anything down to 0.4 do as well, 0.8 less)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

TEST_FILE_WEIGHT = 0.6
# What the demotion is called where `--explain` lists what each term added.
DEMOTION_LABEL = "(test file)"
# Query terms (stems) that ask about tests: then tests rank as any file does.
_ASKS_ABOUT_TESTS = frozenset({"test", "spec", "fixtur", "pytest", "unittest", "conftest"})

# A folder of tests, or a file named as test runners find them (Python and Django, Go,
# Ruby, Elixir, JavaScript and TypeScript, Java, Kotlin, PHP, C#, Swift). Not a `spec/`
# folder: many projects keep their specifications there (RSpec's tests are `*_spec.rb`
# wherever they are).
_TEST_PATH = re.compile(
    r"(?:^|/)(?:tests?|Tests|__tests__)/"
    r"|(?:^|/)(?:test_[^/]*\.py|[^/]*_tests?\.py|tests?\.py|conftest\.py"
    r"|[^/]*_test\.(?:go|rb|exs)|[^/]*_spec\.rb|[^/]*\.(?:test|spec)\.[cm]?[jt]sx?"
    r"|[^/]*Tests?\.(?:java|kt|php|cs|swift))$"
)


def is_test_file(path: str) -> bool:
    """True for a root-relative POSIX path of a test (a file under `tests/`, `test_x.py`...)."""
    return _TEST_PATH.search(path) is not None


def demoted_test_files(paths: Iterable[str], query_keys: Iterable[str]) -> dict[str, float]:
    """The weight of each test file among `paths` (files not listed weigh 1); none when the
    query asks about tests."""
    if not TEST_FILE_WEIGHT < 1 or _ASKS_ABOUT_TESTS.intersection(query_keys):
        return {}
    # Only a path holding one of these words can be a test's (the pattern is case-sensitive):
    # they are found in the joined paths (in C), not path by path.
    joined = "\n".join(paths)
    found: dict[str, float] = {}
    for word in ("test", "Test", "spec"):
        start = joined.find(word)
        while start >= 0:
            begin = joined.rfind("\n", 0, start) + 1
            end = joined.find("\n", start)
            end = len(joined) if end < 0 else end
            path = joined[begin:end]
            if path not in found and is_test_file(path):
                found[path] = TEST_FILE_WEIGHT
            start = joined.find(word, end)
    return found


def weighted(contributions: Mapping[str, float], weight: float) -> tuple[float, dict[str, float]]:
    """A file's score from what each term added, scaled by its weight; below 1, the part
    taken away is listed as DEMOTION_LABEL, so the parts still add up to the score."""
    total = min(1.0, sum(contributions.values()))
    parts = dict(contributions)
    if weight < 1.0:
        parts[DEMOTION_LABEL] = -(1.0 - weight) * total
    return total * weight, parts
