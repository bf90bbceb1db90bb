"""What a search over a scope's files hands the ranking: per file, how often each query
term occurs, and the scope's size (how many files, how many bytes) for IDF and length
normalisation."""

from __future__ import annotations

import heapq
import os
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from itertools import islice

from . import bm25
from .bm25 import Scorer
from .declaration_files import declares_only
from .file_roles import (
    AS_IS,
    DATED_POST,
    DECLARATIONS,
    TEST_FILE_WEIGHT,
    Role,
    asks_about_tests,
    asks_about_types,
    role_weigher,
    weighted,
    without_the_subject,
)
from .generated_files import generated_weigher
from .inline_tests import inline_tests
from .matching import TermMatcher
from .name_lookup import (
    LACKS_NAME_LABEL,
    LACKS_NAME_WEIGHT,
    NAME_LOOKUP_DEPTH,
    ONLY_DEFINES_LABEL,
    ONLY_DEFINES_WEIGHT,
    definition_weight,
    files_holding,
    names_an_identifier,
)
from .names_apart import APART_LABEL, APART_WEIGHT, NamesHeld, apart, names_asked, names_held
from .navigation import pointing_elsewhere
from .path_terms import NO_TERMS, PathTerms, found_paths_terms, path_terms
from .post_titles import named_by_title
from .query_asks import asking_keys, asks_for_uses, names_code, names_looked_up, word_count
from .ranked_files import RankedFile, weighed, weighed_where
from .read_file import ReadFile
from .scope_counts import Candidates
from .spans import Span, document_headings, document_kind
from .test_paths import is_test_file

# How many of the best files are read and scored again with their headings or definitions.
RERANK_DEPTH = 20


def file_size(root: str) -> Callable[[str], int | None]:
    """A length lookup for root-relative paths by `stat` (None when the file is gone)."""

    def size(path: str) -> int | None:
        try:
            return os.stat(os.path.join(root, path)).st_size
        except OSError:
            return None

    return size


def rank(
    candidates: Candidates,
    scorer: Scorer,
    length_of: Callable[[str], int | None],
    matcher: TermMatcher | None = None,
    asking: Iterable[str] | None = None,
    in_paths: Mapping[str, PathTerms] | None = None,
) -> Iterator[RankedFile]:
    """Every candidate, best first (ties by path), lazily: a file's length is looked up
    only while its best possible score (at length 0) could still beat the best file not
    yet yielded — the caller usually takes ten files of thousands. A file's role
    (file_roles.py) only lowers its score, so it is asked when the file is scored."""
    # Negated bounds: a heap of the entries pops them best first, ties by path (a path is
    # never repeated, so the counts are never compared). Most of thousands are never popped.
    entries: list[tuple[float, str, Mapping[str, float], PathTerms]] = []
    if in_paths is None:
        in_paths = found_paths_terms(candidates.frequencies, matcher)[0] if matcher else {}
    if asking is None:
        asking = _asking(candidates, matcher) if matcher is not None else scorer.weights
    identifier = matcher is not None and names_an_identifier(matcher.terms)
    role_of = role_weigher(asking, identifier, candidates.frequencies)
    nothing = NO_TERMS
    # A bound depends only on the counts, in their order, when no term is in the path:
    # it is computed once for equal counts. Files with the same matches share one counts
    # mapping (parse_output), looked up by identity first (it holds while `candidates`
    # holds them), then by its items.
    by_identity: dict[int, float] = {}
    by_items: dict[tuple[tuple[str, float], ...], float] = {}
    bound = scorer.bound
    for path, counts in candidates.frequencies.items():
        in_path = in_paths.get(path, nothing)
        if in_path:
            negated = -bound(counts, in_path)
        else:
            known = by_identity.get(id(counts))
            if known is None:
                items = tuple(counts.items())
                known = by_items.get(items)
                if known is None:
                    known = by_items[items] = -bound(counts, nothing)
                by_identity[id(counts)] = known
            negated = known
        entries.append((negated, path, counts, in_path))
    heapq.heapify(entries)
    scored: list[tuple[float, str, dict[str, float], Role]] = []
    while scored or entries:
        while entries and (not scored or -entries[0][0] + 1e-9 >= -scored[0][0]):
            _, path, tf, in_path = heapq.heappop(entries)
            length = candidates.lengths.get(path)
            if length is None:
                length = length_of(path)
            if length is None:
                continue
            role = role_of(path)
            score, contributions = weighted(scorer.contributions(tf, length, in_path), role)
            heapq.heappush(scored, (-score, path, contributions, role))
        if not scored:
            return
        negative, path, contributions, role = heapq.heappop(scored)
        yield RankedFile(path, -negative, contributions, role)


def ranked_and_rescored(
    candidates: Candidates,
    scorer: Scorer,
    length_of: Callable[[str], int | None],
    matcher: TermMatcher,
    read: Callable[[str], ReadFile | None],
) -> Iterator[RankedFile]:
    """Every candidate best first (`rank`), the best scored again by their structure
    (`rerank_by_structure`), the roles the query asks about told once for both."""
    asking = _asking(candidates, matcher)
    in_paths, layout = found_paths_terms(candidates.frequencies, matcher)
    ranked = rank(candidates, scorer, length_of, matcher, asking, in_paths)
    return rerank_by_structure(
        ranked, candidates, scorer, matcher, read, asking=asking, layout=layout
    )


def _asking(candidates: Candidates, matcher: TermMatcher) -> set[str]:
    """The keys the query asks with (file_roles: tests, news, examples...), without the
    words about tests that are the project's own subject, unless the query names an
    identifier (`tests for loadEnv`: that name's tests, whatever the project says `test`
    for: vite calls `RegExp.prototype.test` throughout)."""
    keys = asking_keys(matcher.terms)
    if names_an_identifier(matcher.terms):
        return set(keys)
    return without_the_subject(keys, candidates.frequencies)


def rerank_by_structure(
    ranked: Iterator[RankedFile],
    candidates: Candidates,
    scorer: Scorer,
    matcher: TermMatcher,
    read: Callable[[str], ReadFile | None],
    *,
    asking: Iterable[str],
    depth: int | None = None,
    layout: frozenset[str] = frozenset(),
) -> Iterator[RankedFile]:
    """The best `depth` files scored again with the terms among their headings or
    definitions and the terms found close together (`read` reads a file; None when it
    cannot), then the rest as they came. These fields only add, so no file left behind
    outscores those ahead of it by its text (a notebook's text is now its cells': its
    outputs counted in the search only lifted it); what a file's own tests add (a Rust test
    module, inline_tests.py) counts as a test file's text does, unless the query asks
    about tests (`asking`: the keys it asks with, `_asking`). A query looking a name up
    reads NAME_LOOKUP_DEPTH files and those holding a compound name whole (`pulled` from
    the rest: name_lookup.files_holding), and when one defines the name, those that only use it
    weigh less (`_weighed_by_definition`); a question asking where a name is used weighs
    less a file that only defines it. For a question of several words, a document's best
    section is a field too, and its score is out of the most a document can score
    (bm25.SECTION_WEIGHT); `layout`, the terms most found files' paths hold, counts
    nothing in a path (path_terms.found_paths_terms). These lower a score only among the
    files read, which the files left behind already ranked below by their text."""
    looked_up = names_looked_up(matcher.terms)
    if depth is None:
        depth = NAME_LOOKUP_DEPTH if looked_up else RERANK_DEPTH
    head = list(islice(ranked, depth))
    compounds = looked_up.intersection(term.key for term in matcher.terms if term.compound)
    tests_count_less = not asks_about_tests(asking)
    declarations_count_less = not asks_about_types(asking)
    if compounds:
        read_first = {entry.path for entry in head}
        role_of = role_weigher(asking, names_an_identifier(matcher.terms), candidates.frequencies)
        skip = is_test_file if tests_count_less else lambda path: False
        head += [
            RankedFile(path, 0.0, {}, role_of(path))  # scored once read, as the others
            for path in files_holding(candidates.frequencies, compounds, read_first, skip)
        ]
        pulled = {entry.path for entry in head} - read_first
    else:
        pulled = set()
    dotted = any(term.member for term in matcher.terms)
    # Weighed only when the name is what the query asks (not one named in a question, nor
    # its tests: `tests for loadEnv`).
    weighed_names = looked_up if names_code(matcher.terms) and tests_count_less else frozenset()
    # A question asking where a name is used: the code files read that only define it.
    used = (
        frozenset(term.key for term in matcher.terms if term.compound)
        if asks_for_uses(matcher.terms)
        else frozenset()
    )
    only_defining: set[str] = set()
    # A name asked alone: the files read holding none of its compounds whole.
    whole_names = compounds if names_an_identifier(matcher.terms) else frozenset()
    lacking: set[str] = set()
    held = False
    # A document's best section counts for a question of several words, not for one word
    # or a name looked up: a section holding its one term says no more than the text does.
    by_section = not looked_up and word_count(matcher.terms) > 1
    # Code file read -> each name asked it defines -> 0: outside a class, 1: only in one,
    # DEPRECATED_LEVEL: only in forms marked deprecated (name_definitions.definition_levels).
    names_defined: dict[str, dict[str, int]] = {}
    # Two names or more looked up (`TooManyRedirects max_redirects`): the code where they
    # all meet is what is asked, whether or not it defines one; it is not marked down.
    meeting = compounds & weighed_names
    meet: set[str] = set()
    generated = generated_weigher(asking, [term.word for term in matcher.terms])
    compounds_asked = frozenset(term.key for term in matcher.terms if term.compound)
    several = names_asked(matcher.terms)
    holding: dict[str, NamesHeld] = {}
    rescored: list[RankedFile] = []
    for entry in head:
        found = read(entry.path)
        if found is None:
            rescored.append(entry)
            continue
        tests = inline_tests(found.lines, entry.path) if tests_count_less else []
        # The file as read, when less than the search counted: a data URI's payload is
        # left out (data_uris.py), no length of the text.
        length = min(candidates.lengths.get(entry.path, found.size), found.size)
        in_path = path_terms(entry.path, matcher).without(layout)
        fields = _FileFields(found, entry.path, length, in_path, scorer, matcher, by_section)
        counted_apart = found.view is not None or found.markup_left_out
        tf = found.term_counts if counted_apart else candidates.frequencies[entry.path]
        contributions = fields.contributions(tf, found.line_terms)
        if tests:
            contributions = fields.with_tests_weighed(tf, contributions, tests)
        role = entry.role
        written_by_a_tool = generated(entry.path, found.lines) if role is AS_IS else None
        if written_by_a_tool is not None:
            role = written_by_a_tool  # told by its first or last lines, read only now
        elif role is DATED_POST and named_by_title(found.lines, found.line_terms, scorer.weights):
            role = AS_IS
        elif role is AS_IS and declarations_count_less and declares_only(entry.path, found.lines):
            role = DECLARATIONS  # an interface, constants alone: told by its text, read now
        elif role is AS_IS:
            pointing = pointing_elsewhere(
                entry.path, found.lines, found.line_terms, compounds_asked
            )
            role = pointing or role
        score, contributions = weighted(contributions, role)
        if whole_names:
            if any(tf.get(key) for key in whole_names):
                held = True
            else:
                lacking.add(entry.path)
        rescored.append(RankedFile(entry.path, score, contributions, role))
        if (weighed_names or several) and document_kind(entry.path) == "code":
            from .name_definitions import definition_levels

            # Where the file defines the names looked up and those asked together, in
            # one reading of its definitions.
            defined_here = definition_levels(
                found.lines, found.line_terms, matcher, weighed_names | several
            )
            if several:
                holding[entry.path] = names_held(found, defined_here, several)
            if weighed_names:
                names_defined[entry.path] = {
                    name: level for name, level in defined_here.items() if name in weighed_names
                }
                meets = len(meeting) > 1 and all(tf.get(key) for key in meeting)
                if meets and not is_test_file(entry.path):  # a test using them all says less
                    meet.add(entry.path)
        if used and document_kind(entry.path) == "code":
            from .name_definitions import only_defines

            if only_defines(found.lines, found.line_terms, matcher, used):
                only_defining.add(entry.path)
    # A test's fixture or helper of the name (`def no_proxy(monkeypatch)`) is no definition
    # that marks the code using the name down (weighed_names is empty when the query asks
    # about tests); a test file is weighed as any file is.
    # A file's level: the least of its names' (None: it defines none).
    levels = {path: min(names.values(), default=None) for path, names in names_defined.items()}
    defining = [level for path, level in levels.items() if not is_test_file(path)]
    if any(level is not None for level in defining):
        at_top = {
            name
            for path, names in names_defined.items()
            if not is_test_file(path)
            for name, level in names.items()
            if level == 0
        }
        rescored = [
            _weighed_by_definition(entry, levels, defining, dotted, names_defined, at_top)
            if entry.path not in meet
            else entry
            for entry in rescored
        ]
    if lacking and held:
        rescored = weighed_where(rescored, lacking, LACKS_NAME_WEIGHT, LACKS_NAME_LABEL)
    rescored = weighed_where(rescored, apart(holding), APART_WEIGHT, APART_LABEL)
    rescored = weighed_where(rescored, only_defining, ONLY_DEFINES_WEIGHT, ONLY_DEFINES_LABEL)
    rescored.sort(key=lambda entry: (-entry.score, -entry.evidence, entry.path))
    yield from rescored
    yield from (entry for entry in ranked if entry.path not in pulled)


def _weighed_by_definition(
    entry: RankedFile,
    levels: Mapping[str, int | None],
    defining: list[int | None],
    dotted: bool,
    names_defined: Mapping[str, Mapping[str, int]],
    at_top: set[str],
) -> RankedFile:
    """A code file's score when the query looks a name up and some file that is no test
    defines it (`defining`: the levels of those files), scaled as
    name_lookup.definition_weight says; a file defining names only as members is weighed
    so only when each of them is defined at the top level elsewhere (`at_top`, the names
    files that are no tests define there): `query_exactly_one TooManyMatches` asks for a
    method of one class and an error another file defines."""
    if entry.path not in levels:
        return entry  # a document, or a file not read
    defined_above = set(names_defined.get(entry.path, ())) <= at_top
    weighing = definition_weight(levels[entry.path], defining, dotted, defined_above)
    return entry if weighing is None else weighed(entry, *weighing)


@dataclass(frozen=True)
class _FileFields:
    """One read file's score parts: text, path, headings or definitions, proximity."""

    found: ReadFile
    path: str
    length: int
    in_path: PathTerms  # the query terms its path holds
    scorer: Scorer
    matcher: TermMatcher
    by_section: bool = True  # whether a document's best section counts (section_scores.py)

    def contributions(
        self, tf: Mapping[str, float], line_terms: Mapping[int, Mapping[str, int]]
    ) -> dict[str, float]:
        # Imported when there is a file to re-rank: headings and definitions.
        from .code_definitions import defined_names
        from .structure import heading_share, structure_names, terms_of

        lines, path, matcher = self.found.lines, self.path, self.matcher
        names = structure_names(lines, line_terms, path, matcher)
        in_structure = terms_of(names, matcher)
        together = bm25.closest_terms(line_terms, self.scorer.weights)
        defined = defined_names(lines, line_terms, path, matcher)
        if not defined and document_kind(path) in ("markdown", "plain"):
            from .reference_headings import headed_names

            # A reference page's `## envPrefix`, Sphinx's `.. envvar:: PYTEST_ADDOPTS`.
            defined = headed_names(names, matcher)
        share = heading_share(lines, path) if in_structure else 1.0
        section = None
        if self.by_section and document_kind(path) != "code":
            from .section_scores import best_section_parts

            headings = document_headings(lines, path)
            section = best_section_parts(lines, line_terms, headings, self.scorer.weights)
        return self.scorer.contributions(
            tf, self.length, self.in_path, in_structure, together, defined, share, section
        )

    def with_tests_weighed(
        self, tf: Mapping[str, float], contributions: dict[str, float], tests: list[Span]
    ) -> dict[str, float]:
        """The parts with what the file's own tests add (inline_tests.py) counted as a
        test file's text is, by TEST_FILE_WEIGHT."""
        code_terms: dict[int, Mapping[str, int]] = {}
        in_tests: Counter[str] = Counter()
        for number, on_line in self.found.line_terms.items():
            if any(test.start < number <= test.end for test in tests):
                in_tests.update(on_line)
            else:
                code_terms[number] = on_line
        code = self.contributions(
            {key: max(0.0, count - in_tests[key]) for key, count in tf.items()}, code_terms
        )
        return {
            key: code.get(key, 0.0) + TEST_FILE_WEIGHT * (value - code.get(key, 0.0))
            for key, value in contributions.items()
        }
