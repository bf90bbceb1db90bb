"""From ranked files to hits: each file read as untrusted input, filtered, checked for
machine data, its content deduplicated (a copy serves once, under its original's name,
and a page once in one language), and cut to its best section."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from ..dedup import GeneratedOf, ShownPassages, SizeOf, facts_under, is_original
from ..files import TextFile, Unreadable, read_text_file
from ..filtering import ContextFilter
from ..ignore_rules import original_first
from ..models import FilteredHit, Hit, noun_for
from ..ranking.analysis import Term
from ..ranking.bm25 import Scorer
from ..ranking.data_uris import without_data_payloads
from ..ranking.file_roles import BUILT_OUTPUT, GENERATED, older_editions
from ..ranking.license_headers import without_license_header
from ..ranking.machine_data import machine_data_kind
from ..ranking.markup_words import without_markup_words
from ..ranking.matching import TermMatcher
from ..ranking.notebooks import is_notebook, notebook_view
from ..ranking.ranked_files import RankedFile
from ..ranking.read_file import ReadFile
from ..ranking.sections import cut_snippet
from ..ranking.spans import document_kind, mostly_within, written_lines
from ..translations import Originals, ServedPages, words_held
from .base import TierRequest

# A file whose written lines are nearly all a served file's, and the other way round, is
# a copy of it edited here and there (Loa's `SKILL.md.constraint-*`): served once, even
# when its best section would be another part of it than the served one's. Only for files
# of NEAR_COPY_LINES distinct lines or more: two short examples a line apart
# (`tutorial001.py`, `tutorial001_an.py`) are two examples.
NEAR_COPY_SHARE = 0.9
NEAR_COPY_LINES = 20
# A file scoring below this share of the best hit's score is not served, whatever budget
# is left: it shares a word or two with the question (`use`, the project's name), no more.
# Over 764 eval questions on 20 projects the answer's file, when served, never scored
# below 0.44 of the best; the files below 0.3 of it took a tenth of the tokens served.
RELATIVE_FLOOR = 0.3


def is_near_copy(lines: frozenset[str], other: frozenset[str]) -> bool:
    """Whether two files' written lines (written_lines) make them copies of each other."""
    return mostly_within(lines, other, NEAR_COPY_SHARE, NEAR_COPY_LINES) and mostly_within(
        other, lines, NEAR_COPY_SHARE, NEAR_COPY_LINES
    )


def read_in(request: TierRequest, path: str) -> TextFile:
    """A root-relative file of the request's project, read as untrusted input (within
    the root, at most grep.max_filesize bytes); raises Unreadable."""
    root = request.root
    return read_text_file(root / path, root, request.config.grep.max_filesize)


def read_file(document: TextFile, path: str, matcher: TermMatcher) -> ReadFile:
    """A file as ranking and snippets read it: a notebook as its cells' text (its outputs
    and metadata left out, notebooks.py), any other file as it is, but for its data URIs'
    payloads (data_uris.py); in a document, its markup's words count for nothing
    (markup_words.py), in code its licence header's (license_headers.py)."""
    shown = without_data_payloads(document.text)
    if shown != document.text:
        document = replace(document, text=shown, size=len(shown.encode()))
    view = notebook_view(document.text) if is_notebook(path) else None
    text = view.text if view else document.text
    kind = document_kind(path)
    counted = without_markup_words(text, kind) if kind != "code" else without_license_header(text)
    if counted != text:
        return ReadFile(document, matcher.lines(counted), view, markup_left_out=True)
    return ReadFile(document, matcher.lines(text), view)


@dataclass
class FileReader:
    """Reads the best files once for every stage that needs them (re-ranking, snippets);
    None for a file that cannot be read (FileHits says why when it tries)."""

    request: TierRequest
    matcher: TermMatcher
    read_already: dict[str, TextFile] = field(default_factory=dict)
    cache: dict[str, ReadFile] = field(default_factory=dict)

    def read(self, path: str) -> ReadFile | None:
        if path not in self.cache:
            document = self.read_already.get(path)
            if document is None:
                try:
                    document = read_in(self.request, path)
                except Unreadable:
                    return None
            self.cache[path] = read_file(document, path, self.matcher)
        return self.cache[path]

    def size(self, path: str) -> int | None:
        """The length ranking counts for a notebook (its cells' text; notebooks.py)."""
        found = self.read(path)
        return found.size if found is not None else None


@dataclass
class FileHits:
    """Collects up to `limit` hits from ranked files, with what was left out and why."""

    request: TierRequest
    terms: tuple[Term, ...]
    matcher: TermMatcher
    scorer: Scorer
    tier: str
    context_filter: ContextFilter
    limit: int
    hits: list[Hit] = field(default_factory=list)
    filtered: list[FilteredHit] = field(default_factory=list)
    skipped: Counter = field(default_factory=Counter)  # reason -> files
    duplicates: int = 0
    near_copies: int = 0
    repeated_passages: int = 0  # files whose passage repeats a served file's, left out
    weak: int = 0  # files scoring below RELATIVE_FLOOR of the best hit, left out
    translations: int = 0  # other languages' copies of a served page, left out
    # The query terms of every matching file (a search over the whole scope), when known:
    # a translation about to be served is served as its original when that matched too and
    # holds as many of the query's words as typed (`_original_of`).
    frequencies: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    _pages: ServedPages = field(default_factory=ServedPages)
    _served_originals: set[str] = field(default_factory=set)
    _originals: Originals | None = None
    _texts: dict[str, int] = field(default_factory=dict)  # file text -> its hit's index
    # The hits' passages, as dedup.py tells them (not the same words wrapped otherwise).
    _passages: ShownPassages = field(default_factory=lambda: ShownPassages(rewrapped=False))
    _facts: tuple[SizeOf, GeneratedOf] | None = None  # dedup.facts_under, once asked
    # The written lines of each served file long enough to have near copies, by hit index.
    _lines: dict[int, frozenset[str]] = field(default_factory=dict)
    _built_output: set[str] = field(default_factory=set)  # files met that a build wrote
    _older_edition: Callable[[str], bool] | None = None  # file_roles.older_editions, once asked

    @property
    def full(self) -> bool:
        """Nothing more to take: `limit` hits, or as many with the files too weak to serve."""
        return len(self.hits) + self.weak >= self.limit

    def add(self, ranked: RankedFile, read: ReadFile | None = None) -> None:
        """Make a hit of the file (read now unless `read` has it already)."""
        if self.hits and ranked.score < RELATIVE_FLOOR * self.hits[0].score:
            self.weak += 1
            return
        if self._pages.is_translation(ranked.path):
            self.translations += 1
            return
        if ranked.path in self._served_originals:
            return  # served already, in place of a translation ranked above it
        reason = self.context_filter.reason_to_exclude(ranked.path)
        if reason:
            self.filtered.append(FilteredHit(ranked.path, self.tier, reason))
            return
        settings = self.request.config
        if read is None:
            try:
                document = read_in(self.request, ranked.path)
            except Unreadable as exc:
                self.skipped[str(exc)] += 1
                return
            read = read_file(document, ranked.path, self.matcher)
        original = self._original_of(ranked.path, read.text)
        if original is not None:
            path, document = original
            ranked = replace(ranked, path=path)
            read = read_file(document, path, self.matcher)
            self._served_originals.add(path)
        document, view, text = read.document, read.view, read.text
        if not settings.filtering.include_machine_data:
            kind = machine_data_kind(text)
            if kind:
                self.filtered.append(FilteredHit(ranked.path, self.tier, f"machine data ({kind})"))
                return
        if ranked.role is BUILT_OUTPUT:
            self._built_output.add(ranked.path)
        if document.text in self._texts:
            self.duplicates += 1
            index = self._texts[document.text]
            kept = self.hits[index]
            if self._original_first(ranked.path) < self._original_first(kept.source):
                self.hits[index] = Hit(
                    ranked.path, kept.score, kept.content, kept.tier, kept.line_start,
                    kept.line_end, kept.terms,
                )  # fmt: skip
            return
        lines = written_lines(document.text.split("\n"))
        copied = self._near_copy_of(lines)
        if copied is not None and not self._plainly_original(ranked.path, self.hits[copied].source):
            self.near_copies += 1
            return
        line_terms = read.line_terms
        if not line_terms:
            if view is not None:
                self.skipped["query terms only in a notebook's outputs"] += 1
            elif read.markup_left_out:
                self.skipped["query terms only in markup or a licence header"] += 1
            else:
                self.skipped["changed since it was searched: no query term left"] += 1
            return
        snippet = cut_snippet(
            text,
            ranked.path,
            line_terms,
            self.scorer.weights,
            max_chars=settings.snippets.max_chars,
            max_line_chars=settings.snippets.max_line_chars,
            matcher=self.matcher,
            file_lines=view.file_lines if view is not None else None,
            lines=read.lines,
        )
        labels = {term.key: term.label for term in self.terms}
        explained = tuple(
            (labels.get(key, key), part)
            for key, part in sorted(ranked.contributions.items(), key=lambda kv: -kv[1])
        )
        hit = Hit(
            ranked.path,
            round(ranked.score, 4),
            snippet.text,
            self.tier,
            snippet.line_start,
            snippet.line_end,
            explained,
        )
        if ranked.role is GENERATED and self._passages.repeats_its_comments(hit):
            self.repeated_passages += 1  # a wrapper a tool wrote under a served comment
            return
        if copied is None:
            # Another file whose passage repeats a served one (settings kept per locale):
            # served once, as dedup.py would, leaving its place to the next file.
            copied = self._passages.same(hit)
            if copied is None:
                copied = self._passages.near_copy(hit)
            if copied is not None and not (
                self._passages.shows_as_much(hit, copied)
                and self._is_original(ranked.path, self.hits[copied].source)
                and self._holds_its_terms(ranked.path, self.hits[copied].source)
            ):
                self.repeated_passages += 1
                return
        self._pages.add(ranked.path)
        if copied is not None:
            # The original of a copy served above it: in its place, at its rank.
            self.near_copies += 1
            self._texts[document.text] = copied
            self.hits[copied] = replace(hit, score=self.hits[copied].score)
            self._passages.put(self.hits[copied], copied)
            self._lines[copied] = lines
            return
        index = len(self.hits)
        self._texts[document.text] = index
        if len(lines) >= NEAR_COPY_LINES:
            self._lines[index] = lines
        self.hits.append(hit)
        self._passages.put(hit)

    def _original_first(self, path: str) -> tuple[bool, bool, tuple[int, int, int, str]]:
        """original_first, a file whose lines tell it is build output (a bundle) last, an
        older edition of a page (editions.py) after the newest."""
        return path in self._built_output, self._is_older(path), original_first(path)

    def _plainly_original(self, path: str, other: str) -> bool:
        """Of two near copies, whether `path` is plainly the original of `other`: not build
        output, no older edition, no copy marker where the other has one, or shallower.
        Siblings alike in all of these differ where the query may look (golang-migrate's
        sqlite3 and sqlcipher drivers): the better ranked is kept, whatever their names'
        order."""

        def plainly(source: str) -> tuple[bool, bool, int, int, int]:
            built, older, (in_output, marked, depth, _) = self._original_first(source)
            return built, older, in_output, marked, depth

        return plainly(path) < plainly(other)

    def _is_older(self, path: str) -> bool:
        """Whether `path` is an older edition of a page (editions.py) among those found."""
        if self._older_edition is None:
            self._older_edition = older_editions(self.frequencies)
        return self._older_edition(path)

    def _holds_its_terms(self, path: str, other: str) -> bool:
        """Whether `path` holds every query term `other` holds: an original serves in its
        copy's place only then. Chart.js's `polar-area-center-labels.md` is
        `polar-area.md` and the option it is named for; asked about that option, it is the
        answer, not a copy."""
        mine, theirs = self.frequencies.get(path), self.frequencies.get(other)
        if mine is None or theirs is None:
            return True
        return all(mine.get(key) for key, count in theirs.items() if count)

    def _is_original(self, path: str, other: str) -> bool:
        """Of two files showing one passage, whether `path` is the original, as dedup.py
        tells it (the smaller of an aggregate and its source, the one no tool wrote...);
        first of all, the newest edition of a page (urfave/cli's v3 page, renamed, over
        its v2 copy)."""
        older = self._is_older(path)
        if older != self._is_older(other):
            return not older
        if self._facts is None:
            self._facts = facts_under(self.request.root)
        return is_original(path, other, *self._facts)

    def _near_copy_of(self, lines: frozenset[str]) -> int | None:
        """The index of the served hit whose file `lines` nearly copies, if any."""
        if len(lines) < NEAR_COPY_LINES:
            return None
        for index, other in self._lines.items():
            if is_near_copy(lines, other):
                return index
        return None

    def _original_of(self, path: str, text: str) -> tuple[str, TextFile] | None:
        """The original to serve in place of a translation (`text`), read: a matching
        English file of the same page holding as many of the query's words as written."""
        if not self.frequencies:
            return None
        if self._originals is None:
            self._originals = Originals(self.frequencies)
        candidates = self._originals.of(path)
        if not candidates:
            return None
        # The words as typed; an identifier's parts (`dependency_overrides`) are code,
        # which a translation keeps: they tell no language.
        parts = {part for term in self.terms if term.compound for part in term.parts}
        words = [
            term.word
            for term in self.terms
            if not term.compound and not term.literal and term.word not in parts
        ]
        held = words_held(text, words)
        for original in candidates:
            if self.context_filter.reason_to_exclude(original):
                continue
            try:
                document = read_in(self.request, original)
            except Unreadable:
                continue
            if words_held(document.text, words) >= held:
                return original, document
        return None

    def notes(self) -> list[str]:
        notes = [f"{count} {noun_for(count, 'file')} skipped: {reason}"
                 for reason, count in self.skipped.items()]  # fmt: skip
        if self.weak:
            noun = noun_for(self.weak, "file")
            notes.append(
                f"{self.weak} {noun} left out: scored below {RELATIVE_FLOOR:.0%} of the best"
            )
        if self.duplicates:
            noun = noun_for(self.duplicates, "copy", "copies")
            notes.append(f"{self.duplicates} identical {noun} of a served file left out")
        if self.near_copies:
            noun = noun_for(self.near_copies, "copy", "copies")
            notes.append(f"{self.near_copies} near {noun} of a served file left out")
        if self.repeated_passages:
            count = self.repeated_passages
            notes.append(
                f"{count} {noun_for(count, 'file')} left out: a served passage shown again"
            )
        if self.translations:
            noun = noun_for(self.translations, "translation")
            notes.append(f"{self.translations} {noun} of a served page left out")
        if self._served_originals:
            count = len(self._served_originals)
            noun = noun_for(count, "translation")
            notes.append(f"{count} {noun} served as the original")
        return notes
