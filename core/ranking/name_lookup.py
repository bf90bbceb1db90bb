"""A query looking a name up (`create_model`, `Session.mount`): which files are read for
its definition, and how a file weighs by what it does with the name — defines it, defines
it as a member of another class, defines it only in forms marked deprecated, or only uses
it. What `--explain` lists as the part taken away is each weight's label."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping

from .analysis import Term
from .query_asks import few_words

# The module defining the name may be long, its text ranking it far down among shorter files
# that use the name (pydantic's `types.py`, 3,352 lines, came 22nd for `Strict`); its
# definition is told only once it is read: this many of the best files are read.
NAME_LOOKUP_DEPTH = 60
# And the files below those holding a compound name whole (vite's `isCSSRequest` in
# utils.ts, 2,012 lines, below the 60 read: its parts are everywhere), unless more than this
# many do (a name used throughout).
HOLDING_NAME_FILES = 40

# What name_definitions.definition_levels tells of a file whose definitions of the name are
# all marked deprecated (deprecation.py).
DEPRECATED_LEVEL = 2

# When some code file defines the name, one that only uses it (imports, calls, annotates
# with it) weighs USES_NAME_WEIGHT, and one defining it nested in another class
# NESTED_DEFINITION_WEIGHT when another defines it at the top level: the definition comes
# first, a module's own before a method of the same name.
USES_NAME_WEIGHT = 0.6
NESTED_DEFINITION_WEIGHT = 0.8
USES_NAME_LABEL = "(does not define it)"  # it may hold only the name's parts
NESTED_DEFINITION_LABEL = "(defines it in another class)"
# A file whose definitions of the name are all marked deprecated, when another defines it
# still in use (kotlinx.coroutines' Guidance.kt, two deprecated `CoroutineScope.launch`
# overloads, came before Builders.common.kt): between the two weights above.
DEPRECATED_WEIGHT = 0.7
DEPRECATED_LABEL = "(deprecated)"
# A query that is a name written as code (`TOKIO_WORKER_THREADS`, `names_an_identifier`):
# a file read holding only the name's parts weighs this when another holds it whole (tokio's
# worker.rs files, `worker` and `thread` throughout, came before the lib.rs explaining the
# variable).
LACKS_NAME_WEIGHT = 0.4
LACKS_NAME_LABEL = "(holds only the name's parts)"


# A question asking where a name is used (`where is findSuggestions called`): a code file
# whose every mention of it defines it weighs this, the callers first.
ONLY_DEFINES_WEIGHT = 0.6
ONLY_DEFINES_LABEL = "(only defines it)"


def names_an_identifier(terms: tuple[Term, ...]) -> bool:
    """Whether the query is a word or two (`few_words`), one a name written as code writes
    it (`tests for loadEnv`, `dry_run tests`), not a hyphenated English word
    (`re-rendering`) nor a file's name (`test_utils.py`): it asks about that name, not a
    question naming it in passing."""
    return few_words(terms) and any(
        term.compound
        and not term.file_name
        and ("_" in term.spelt or term.spelt[1:] != term.spelt[1:].lower())
        for term in terms
    )


def files_holding(
    frequencies: Mapping[str, Collection[str]],
    names: frozenset[str],
    read: Collection[str],
    skip: Callable[[str], bool] = lambda path: False,
) -> list[str]:
    """The files not `read` yet whose counted terms hold one of the compound `names` whole,
    in path order; none when more than HOLDING_NAME_FILES do. Files `skip` says are
    neither counted nor returned: tests, which use the names they test everywhere (831 of
    Svelte's test files call `flushSync`; ten other files hold it)."""
    holding = [
        path
        for path, keys in frequencies.items()
        if path not in read and not names.isdisjoint(keys) and not skip(path)
    ]
    return sorted(holding) if len(holding) <= HOLDING_NAME_FILES else []


def definition_weight(
    level: int | None, levels: Collection[int | None], dotted: bool, defined_above: bool = True
) -> tuple[float, str] | None:
    """The weight and label of a code file read for a name some file defines, by its
    `level` (the least of name_definitions.definition_levels) among all files' `levels`:
    None to keep its score — it defines the name at the top level (or in the class a
    dotted name names), or only members define it, or only deprecated forms do, or
    (`defined_above` False) no other file defines at the top level a name it defines."""
    if level is None:
        return USES_NAME_WEIGHT, USES_NAME_LABEL
    if level == DEPRECATED_LEVEL:
        if not any(other in (0, 1) for other in levels):
            return None  # no file defines it otherwise: the deprecated one is the answer
        return DEPRECATED_WEIGHT, DEPRECATED_LABEL
    if level and not dotted and 0 in levels and defined_above:
        return NESTED_DEFINITION_WEIGHT, NESTED_DEFINITION_LABEL
    return None
