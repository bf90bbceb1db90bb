"""Each piece of context once: hits that show the same lines of the same file (scope `all`
overlaps paths, and several collections can index one file), hits whose text is
byte-identical (a copy of a file, build output) — served once, under the original's name —
a hit nearly all of whose lines an earlier one already shows (a file kept once per build
tag or platform, a copy edited here and there; the original's at the better rank) or most of
whose long lines it does (sync and async twins under one doc comment) or, read as words,
most of its text (a README knitted from its .Rmd, wrapped at other columns), a generated
wrapper under a copy of a served doc comment, and a
documentation page in several languages, served in the best-ranked one
(translations.py)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path

from .ignore_rules import original_first
from .models import Hit
from .project import is_inside

# A hit whose written lines are at least this share of an earlier hit's lines is a near
# copy of it; only for hits of at least NEAR_COPY_LINES written lines (a short snippet's
# few lines say little about where it comes from).
NEAR_COPY_SHARE = 0.8
NEAR_COPY_LINES = 5
# Or when at least this share of its long lines (sentences of a doc comment, not `}` nor
# `if err != nil {`) are an earlier hit's, and of the earlier's are its: twins whose names
# and a few words differ (Polly's sync and async policy syntaxes, the same doc comment over
# each), not an FAQ page and one of its questions on a page of its own.
TWIN_SHARE = 0.6
# Unless this many of its long lines or more are code, not comment, most of them its own:
# the same doc comment over other code (Polly's twins differ in their signature's line).
OWN_CODE_LINES = 3
LONG_LINE_CHARS = 40
# Or when, read as words, at least NEAR_COPY_SHARE of each one's runs of this many words are
# the other's: the same text wrapped at other columns (an R package's README.md, its
# README.Rmd knitted at 72 columns), where no line is the same; not a page holding part of
# another (runs of templated sentences are shared more than lines are). Only for texts of
# RUN_WORDS * 2 runs or more.
RUN_WORDS = 6
_WORD = re.compile(r"[^\W_]+")
# Of two files showing the same passage, one at least this many times the other's size holds
# it among much else: an amalgamation of sources (nlohmann/json's single header, SQLite's
# `sqlite3.c`) or a bundle. The smaller is its source, whatever their paths.
AGGREGATE_RATIO = 4

# What a comment's line starts with, its indentation aside.
_COMMENT_MARKS = ("//", "#", "*", "/*", "--", ";")

SizeOf = Callable[[str], "int | None"]
# A passage as its written lines and its runs of words (`_word_runs`).
Passage = tuple[frozenset[str], frozenset[tuple[str, ...]]]
# Whether a source's first lines say a tool wrote it (generated_files.says_generated).
GeneratedOf = Callable[[str], bool]


def is_original(
    source: str, other: str, size_of: SizeOf | None, generated_of: GeneratedOf | None = None
) -> bool:
    """Whether `source` is the original of a passage `other` shows too: the smaller of two
    files when one is an aggregate (AGGREGATE_RATIO), else the one a tool did not write
    (the Rust book's `nostarch/chapter02.md`, "generated from the content in the `/src/`
    directory", is a copy), else the one that is no dated post (Rake's `History.rdoc`
    quotes `doc/rakefile.rdoc` in its 0.8.2 notes: the page on how it works now is the
    original, whichever was written first), else the one original_first prefers
    (not build output, no copy marker, shallower), else the one whose name's words the
    other's name holds and more (`binding.go` of `binding_nomsgpack.go`, Polly's
    `AdvancedCircuitBreakerSyntax.cs` of `AsyncAdvancedCircuitBreakerSyntax.cs`). Of two
    files neither of which is the other's copy (Textual's `app.py` and `widget.py`, a method
    of each under one docstring), neither is: the better-ranked is served."""
    if size_of is not None:
        size, other_size = size_of(source), size_of(other)
        if size and other_size:
            if size * AGGREGATE_RATIO <= other_size:
                return True
            if other_size * AGGREGATE_RATIO <= size:
                return False
    if generated_of is not None:
        written_by_a_tool = generated_of(source)
        if written_by_a_tool != generated_of(other):
            return not written_by_a_tool
    from .ranking.project_records import is_dated_post

    post = is_dated_post(source)
    if post != is_dated_post(other):
        return not post
    mine, theirs = original_first(source), original_first(other)
    if mine[:3] != theirs[:3]:
        return mine[:3] < theirs[:3]
    words, other_words = _name_words(source), _name_words(other)
    return words < other_words


def _name_words(path: str) -> frozenset[str]:
    """The words of a file's name without its suffixes, as an identifier's parts: `binding`
    and `nomsgpack` of `binding_nomsgpack.go`, `async`, `advanced`... of Polly's
    `AsyncAdvancedCircuitBreakerSyntax.cs`."""
    from .ranking.analysis import split_identifier

    name = path.rsplit("/", 1)[-1]
    return frozenset(split_identifier(name.split(".", 1)[0] or name))


def _near_copy_of(
    lines: frozenset[str],
    runs: frozenset[tuple[str, ...]],
    earlier: list[Passage],
) -> int | None:
    """The index of the earlier hit whose lines `lines` nearly copies, or whose words
    (`runs`, `_word_runs`) twin them, if any."""
    from .ranking.spans import mostly_within

    long_lines = _long(lines)
    least = 2 * RUN_WORDS
    for index, (other, other_runs) in enumerate(earlier):
        if mostly_within(lines, other, NEAR_COPY_SHARE, NEAR_COPY_LINES):
            return index
        other_long = _long(other)
        if (
            mostly_within(long_lines, other_long, TWIN_SHARE, NEAR_COPY_LINES)
            and mostly_within(other_long, long_lines, TWIN_SHARE, NEAR_COPY_LINES)
            and not _other_code(long_lines, other_long)
        ):
            return index  # twins, each mostly the other (not a page holding this one)
        if mostly_within(runs, other_runs, NEAR_COPY_SHARE, least) and mostly_within(
            other_runs, runs, NEAR_COPY_SHARE, least
        ):
            return index  # the same words, wrapped otherwise
    return None


def _other_code(lines: frozenset[str], other: frozenset[str]) -> bool:
    """Whether `lines` (written lines, stripped) hold code of their own under what they
    share with `other`: of their long lines that are no comment's, OWN_CODE_LINES or more,
    most are not `other`'s. Immer's implementation of `produce` repeats the doc comment of
    its interface's overloads, and was dropped as their twin."""
    from .ranking.spans import mostly_within

    code = frozenset(line for line in lines if not line.startswith(_COMMENT_MARKS))
    return len(code) >= OWN_CODE_LINES and not mostly_within(code, other, TWIN_SHARE, 1)


def _word_runs(text: str) -> frozenset[tuple[str, ...]]:
    """Each run of RUN_WORDS consecutive words of `text`, lower-cased, whatever the
    lines, spaces and punctuation between them."""
    words = _WORD.findall(text.lower())
    return frozenset(zip(*(words[i:] for i in range(RUN_WORDS)), strict=False))


def _long(lines: frozenset[str]) -> frozenset[str]:
    return frozenset(line for line in lines if len(line) >= LONG_LINE_CHARS)


def _overlaps(a: Hit, b: Hit) -> bool:
    if a.line_start is None or b.line_start is None:
        # No span (a store note about a file): only the very same text is a duplicate.
        return a.content == b.content
    a_end = a.line_end if a.line_end is not None else a.line_start
    b_end = b.line_end if b.line_end is not None else b.line_start
    return a.line_start <= b_end and b.line_start <= a_end


class ShownPassages:
    """The passages served so far, each as its lines and runs of words: which of them a
    new hit's passage repeats (`same`, `near_copy`)."""

    def __init__(self, *, rewrapped: bool = True) -> None:
        # Whether the same words wrapped otherwise are a copy too (`_word_runs`): the
        # engine's dedup tells them; the grep tier, picking its hits, leaves them to it.
        self.rewrapped = rewrapped
        self.hits: list[Hit] = []
        self._shown: list[Passage] = []
        self._by_content: dict[str, int] = {}
        self._read: dict[str, Passage] = {}  # content -> passage

    def same(self, hit: Hit) -> int | None:
        """The index of the served passage `hit` shows again: the same lines of the same
        file, or the same text."""
        for index, kept in enumerate(self.hits):
            if kept.source == hit.source and _overlaps(kept, hit):
                return index
        return self._by_content.get(hit.content)

    def near_copy(self, hit: Hit) -> int | None:
        """The index of the served passage `hit` nearly copies (`_near_copy_of`)."""
        return _near_copy_of(*self._passage_of(hit), self._shown)

    def repeats_its_comments(self, hit: Hit) -> bool:
        """Whether the long comment lines of `hit`'s passage (two or more) are nearly all
        in passages served already: a generated wrapper under a copy of the doc comment
        of what it wraps (testify's forwarders, each assertion's comment over a line
        calling it)."""
        from .ranking.generated_files import says_generated

        comments = [
            line
            for line in _long(self._passage_of(hit)[0])
            if line.startswith(_COMMENT_MARKS) and not says_generated([line])
        ]  # its own comments, not the tool's banner (`Code generated ... DO NOT EDIT.`)
        if len(comments) < 2:
            return False
        shown = sum(any(line in lines for lines, _ in self._shown) for line in comments)
        return shown >= NEAR_COPY_SHARE * len(comments)

    def shows_as_much(self, hit: Hit, index: int) -> bool:
        """Whether `hit` shows nearly all the served passage at `index` shows (its near
        copy the other way round too): only then may it stand in that passage's place. A
        definition whose docstring quotes an example program shows the example, and more."""
        return _near_copy_of(*self._shown[index], [self._passage_of(hit)]) is not None

    def put(self, hit: Hit, index: int | None = None) -> None:
        """Serve `hit`: after the others, or in place of the passage at `index`."""
        passage = self._passage_of(hit)
        if index is None:
            index = len(self.hits)
            self.hits.append(hit)
            self._shown.append(passage)
        else:
            self._by_content.pop(self.hits[index].content, None)
            self.hits[index] = hit
            self._shown[index] = passage
        self._by_content[hit.content] = index

    def _passage_of(self, hit: Hit) -> Passage:
        """A hit's written lines and runs of words, read once."""
        known = self._read.get(hit.content)
        if known is None:
            from .ranking.spans import written_lines

            runs = _word_runs(hit.content) if self.rewrapped else frozenset()
            known = written_lines(hit.content.split("\n")), runs
            self._read[hit.content] = known
        return known


def deduplicate(
    hits: Iterable[Hit], size_of: SizeOf | None = None, generated_of: GeneratedOf | None = None
) -> tuple[tuple[Hit, ...], int]:
    """Keep the best-scoring hit of each overlapping group, of each identical or nearly
    identical text (under its original's name: `is_original`, `size_of` giving a source's
    size in bytes, `generated_of` whether a tool wrote it) and of each page's languages;
    return (kept, removed count)."""
    hits = tuple(hits)
    if not hits:
        return (), 0
    # Imported once there is a hit: a query that finds nothing does not pay for it.
    from .translations import ServedPages

    pages = ServedPages()
    shown = ShownPassages()
    removed = 0
    for hit in sorted(hits, key=lambda h: -h.score):
        same = shown.same(hit)
        if same is not None:
            removed += 1
            earlier = shown.hits[same]
            if (
                earlier.content == hit.content
                and earlier.source != hit.source
                and is_original(hit.source, earlier.source, size_of, generated_of)
            ):
                moved = replace(
                    earlier, source=hit.source, line_start=hit.line_start, line_end=hit.line_end
                )
                shown.put(moved, same)
            continue
        if pages.is_translation(hit.source):
            removed += 1
            continue
        copied = shown.near_copy(hit)
        if copied is not None:
            removed += 1
            earlier = shown.hits[copied]
            if shown.shows_as_much(hit, copied) and is_original(
                hit.source, earlier.source, size_of, generated_of
            ):
                # The original (`binding.go`, not `binding_nomsgpack.go`) at the copy's rank.
                shown.put(replace(hit, score=earlier.score), copied)
                pages.add(hit.source)
            continue
        shown.put(hit)
        pages.add(hit.source)
    return tuple(shown.hits), removed


# How much of a file's start is read to tell whether a tool wrote it.
GENERATED_HEAD_BYTES = 4096


def facts_under(root: Path) -> tuple[SizeOf, GeneratedOf]:
    """What `is_original` asks of two sources under `root`: each one's size in bytes (None
    when it is gone or is no file under the root, such as a store note's source) and
    whether its first lines say a tool wrote it (read only for two hits showing one
    passage)."""
    resolved_root = root.resolve()

    def path_of(source: str) -> Path | None:
        path = root / source
        try:
            return path if is_inside(path.resolve(), resolved_root) else None
        except (OSError, ValueError):
            return None

    def size_of(source: str) -> int | None:
        path = path_of(source)
        try:
            return path.stat().st_size if path is not None and path.is_file() else None
        except (OSError, ValueError):
            return None

    def generated_of(source: str) -> bool:
        from .files import read_head
        from .ranking.generated_files import says_generated

        path = path_of(source)
        if path is None:
            return False
        head = read_head(path, GENERATED_HEAD_BYTES).decode("utf-8", "replace")
        return says_generated(head.splitlines())

    return size_of, generated_of
