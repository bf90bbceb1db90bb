"""Choosing the lines of one file that answer a query: each candidate span (a section, a
code block, a paragraph) scored like a small document, one too long narrowed to its best
window, the chosen one widened with its context (second_passage.py adds a passage from
elsewhere in the file when there is room; sections.py cuts the snippet from them)."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Collection, Iterable, Mapping
from itertools import accumulate

from .bm25 import saturated
from .code_blocks import statement_start, without_cut_header
from .code_constructs import OpenConstructs
from .file_roles import TEST_FILE_WEIGHT
from .inline_tests import inside
from .line_clip import clip_line, most_shown
from .local_rarity import local_weights
from .matching import TermMatcher
from .prose_bounds import comment_lead
from .sentence_windows import SentenceWindows
from .span_widening import SpanWidening
from .spans import Span, heading_left_alone, paragraphs

# Sections of one file compete first on which query terms they hold (weighted by rarity),
# then on how densely: BM25 with this many characters as the "average" length, so that of
# two sections holding the same terms the tighter one wins.
REFERENCE_CHARS = 300
# A query term in a section's own heading counts this much again towards the section's
# coverage: a section titled for what is asked is where the answer is. So does one in the
# title of a block of code served whole (its definition's line and its documentation's
# first line, definition_titles.py), for a question in words (a name looked up is weighed
# at its definition: NAME_WEIGHT); not in a window of a block too long to serve: the
# window at the definition would outrank the body's answer. Measured with `tierscope
# eval` on 31 sets: the answering passage in 83% of hits on Textual instead of 81%
# (requests 92% -> 96%, Magit 61% -> 70%, clap 57% -> 64%, Telescope 52% -> 56%; Flask
# 88% -> 85%, Gson 78% -> 70%, Polly 100% -> 95%; the others unchanged); weighed 1: 82%;
# counted in windows too: 80%.
HEADING_WEIGHT = 0.5
# A section's heading more than a level below the page's top ones (heading_depth.py) counts
# this share of that.
DEEP_HEADING_SHARE = 0.5
# A span of code that starts where a name the query spells whole (`add_row`) is defined
# counts that name's terms this much again towards its coverage.
NAME_WEIGHT = 1.0
# Two of the query's words written side by side in its order (`add sitemap` in `npx astro
# add sitemap`, for "how do I add a sitemap"; `parse_line_range` for "parse line range")
# count this much of the rarer one's weight again towards a span's coverage: where a
# question's phrase is written, not only its words, is where the answer is. Measured with
# `tierscope eval` on 35 sets: the answering passage in 75.9% of hits on the right file on
# average instead of 74.9% (pandoc 50% -> 61%, clap 64% -> 71%, ripgrep 65% -> 71%, Jinja
# 50% -> 56%, Magit, Phoenix, httpie and chi +4, tldr +3, demo +2, Textual 83% -> 84%;
# click and jq -5, DataFrames.jl, Slim and zod -4, how-to -3); MRR@10 unchanged on average,
# tokens per hit within 6. Weighed 0.25: 74.9%; 1: 75.3%; pairs in either order: 75.3%;
# not across an identifier's parts: 75.5%.
PAIR_WEIGHT = 0.5
# The room kept for the line that stands for the lines left out between two passages
# (`[lines 40-87 not shown]`; second_passage.py).
MARKER_CHARS = 32
# Two spans whose terms held weigh within this share of all the query's terms' weight
# hold as much: the rest of their rank decides (no table of contents, a definition asked
# for, a readable start, density), not a little weight more (Textual's "screen modes
# switch_mode" was served the heading "Modes" and the lines calling `switch_mode`, not
# "A mode is simply a named screen stack" above them). Measured with `tierscope eval` on
# 67 sets: the answering passage in 73.90% of hits on the right file on average instead
# of 72.64% (74 questions gained, 54 lost: axum 59% -> 71%, FastAPI 79% -> 90%, Elixir
# 72% -> 83%; pytest 62% -> 55%, dplyr 57% -> 52%), tokens per hit 287 -> 279, MRR@10
# 0.8414 -> 0.8407 (json 0.799 -> 0.757: a near copy shows as much and is served
# first); 0.05: 73.15%; 0.08: 73.90% (Textual 85%); 0.12: 73.78%; 0.2: 72.81%.
HOLDS_AS_MUCH = 0.1


# How a span compares with others (`SpanChooser._rank` says in what order): whether it
# says anything (in code, is no import block), the terms it holds, whether it is no table
# of contents, whether it starts at a definition asked for, whether it leaves out no lead
# of the comment it starts in, how densely it holds them.
Rank = tuple[bool, float, bool, int, bool, float]


class SpanChooser(SentenceWindows, SpanWidening):
    """One file's lines, scored for a query: which span answers (`choose`), narrowed to
    its best window when too long (`best_window`), with its context (`widen`), and a second
    passage elsewhere (`second`)."""

    def __init__(
        self,
        lines: list[str],
        line_terms: Mapping[int, Mapping[str, int]],
        weights: Mapping[str, float],
        max_chars: int,
        max_line_chars: int,
        headings: Mapping[int, int] | None = None,
        code: bool = False,
        constructs: OpenConstructs | None = None,
        tests: list[Span] | None = None,
        named: Mapping[int, float] | None = None,
        titles: Mapping[Span, tuple[int, ...]] | None = None,
        lead_ins: Mapping[int, int] | None = None,
    ) -> None:
        self.lines = lines
        self.max_chars = max_chars
        self.max_line_chars = max_line_chars
        self.headings = headings or {}  # a section's first line -> its heading's title line
        self.heading_starts = sorted(self.headings)
        self.levels: Mapping[int, int] = {}  # a heading's first line -> its level
        self.deep: Collection[int] = ()  # the sections heading_depth.py tells deep
        # The title line of a page's one top heading, and the query terms it holds
        # (set_page_title): past the file's end and none, for any other file.
        self.page_title = len(lines)
        self.title_keys: frozenset[str] = frozenset()
        self.code = code  # the spans are code blocks
        self.constructs = constructs  # code's brackets and strings over lines, if read
        self.tests = tests or []  # a file's own test modules, when not asked about
        # Where a definition of a name the query spells starts -> that name's weight.
        self.named = named or {}
        # Such a definition's line -> its lead-in's first line (its doc comment's).
        self.lead_ins = lead_ins or {}
        # A code block or the paragraph heading it, whole -> its title lines
        # (definition_titles.py); a window of a long block has none.
        self.titles = titles or {}
        self.keys = [key for key in weights if weights[key] > 0] or list(weights)
        self.matching = sorted(number - 1 for number in line_terms)  # 0-based line indexes
        # Prefix sums: characters (as shown, long lines clipped) and each term's count.
        shown = most_shown(max_line_chars)
        self.chars = list(accumulate((min(len(line), shown) + 1 for line in lines), initial=0))
        self.counts: dict[str, list[int]] = {}
        for key in self.keys:
            per_line = [0] * len(lines)
            for number, on_line in line_terms.items():
                if 0 < number <= len(lines):
                    per_line[number - 1] = on_line.get(key, 0)
            self.counts[key] = list(accumulate(per_line, initial=0))
        self.paragraphs = paragraphs(lines)
        self.paragraph_starts = [span.start for span in self.paragraphs]
        self.paragraph_ends = [span.end for span in self.paragraphs]
        self.scores: dict[Span, tuple[float, float]] = {}
        self.ranks: dict[Span, Rank] = {}
        # Line (0-based) -> the query's word pairs written side by side there, each weighing
        # as its rarer word (set_pairs).
        self.pairs: Mapping[int, Mapping[tuple[str, str], float]] = {}
        self.pair_lines: list[int] = []
        self._prose = None
        self.weights = local_weights(weights, line_terms, self.paragraphs)
        self.tolerance = HOLDS_AS_MUCH * sum(self.weights.get(key, 1.0) for key in self.keys)

    def set_pairs(self, pairs: Mapping[int, Iterable[tuple[str, str]]]) -> None:
        """The query's word pairs written side by side, per line (phrase_pairs.py), each
        weighed as the rarer of its two words."""
        weight = self.weights.get
        self.pairs = {
            index: {pair: min(weight(pair[0], 0.0), weight(pair[1], 0.0)) for pair in found}
            for index, found in pairs.items()
        }
        self.pair_lines = sorted(self.pairs)

    def set_page_title(self, line: int) -> None:
        """The title line of a page's one top heading (sections.py tells it), whose terms
        count as held by every section under it (`_score`)."""
        self.page_title = line
        self.title_keys = frozenset(
            key for key in self.keys if self.counts[key][line + 1] > self.counts[key][line]
        )

    def shown(self, span: Span, matcher: TermMatcher | None) -> list[str]:
        """The span's lines as served: trailing spaces dropped, long lines clipped."""
        return [
            clip_line(self.lines[i].rstrip(), self.weights, matcher, self.max_line_chars)
            for i in range(span.start, span.end)
        ]

    def score(self, span: Span) -> tuple[float, float]:
        """(weight of the distinct terms held, BM25 density): higher is better. Each span
        is scored once (the first and the second passage look at the same spans)."""
        known = self.scores.get(span)
        if known is None:
            known = self.scores[span] = self._score(span)
        return known

    def _score(self, span: Span) -> tuple[float, float]:
        ratio = (self.chars[span.end] - self.chars[span.start]) / REFERENCE_CHARS
        coverage = density = 0.0
        if self.named:  # the definition of what is asked for, not a call of it
            coverage += NAME_WEIGHT * self._named_weight(span)
        heading = self.headings.get(span.start)
        titles = (heading,) if heading is not None else self.titles.get(span, ())
        heading_weight = HEADING_WEIGHT
        if span.start in self.deep:
            heading_weight *= DEEP_HEADING_SHARE
        if heading_weight and titles:
            for key in self.keys:
                counts = self.counts[key]
                if any(counts[line + 1] > counts[line] for line in titles):
                    coverage += heading_weight * self.weights.get(key, 1.0)
        # Below the page's title, its words count as held: every section is about what
        # the page is (serde.rs's "no_std alloc feature" was served the opening of
        # "No-std support", not "Memory allocation"). The opening section, titled so,
        # still counts them again as its heading's.
        below_title = span.start > self.page_title
        for key in self.keys:
            counts = self.counts[key]
            tf = counts[span.end] - counts[span.start]
            weight = self.weights.get(key, 1.0)
            if below_title and not tf and key in self.title_keys:
                coverage += weight
            if tf:
                coverage += weight
                density += weight * saturated(tf, ratio)
        if self.pair_lines:
            held: dict[tuple[str, str], float] = {}
            lines = self.pair_lines
            for index in lines[bisect_left(lines, span.start) : bisect_left(lines, span.end)]:
                held.update(self.pairs[index])
            coverage += PAIR_WEIGHT * sum(held.values())
        return round(coverage, 9), density

    def best_window(
        self, span: Span, limit: int | None = None, whole_sentences: bool = True
    ) -> Span:
        """The best run of lines inside `span` that fits `limit` (the cap). A best window
        starts on a matching line (or one line before it, for a lead-in; or where the
        statement that line closes starts; or in code where the signature, call or
        docstring it is inside starts) or at the heading of a match's section: only
        those are tried, and where a definition of a name asked for starts. One that
        starts inside a section ends where the next begins (no tail of one section run into
        another); one that starts at a heading may go on into the next ones; one serving a
        definition asked for ends before the next definition beside it."""
        limit = self.max_chars if limit is None else limit
        first = bisect_left(self.matching, span.start)
        last = bisect_left(self.matching, span.end)
        lines = self.lines
        starts = {
            statement_start(lines, max(span.start, index - 1), span.start)
            for index in self.matching[first:last]
        } or {span.start}
        if self.constructs is not None:  # or where a signature or docstring cut in two starts
            starts = {self.constructs.past_closing_comment(start, span.end) for start in starts}
            starts |= {
                start
                for start in map(self.constructs.readable_start, list(starts))
                if start >= span.start
            }
        # or where a name the query spells is defined (its doc comment's first line)
        starts |= {start for start in self.named if span.start <= start < span.end}
        if self.code:  # or at the lead of the line comment a start is inside
            leads = {comment_lead(lines, start, self.matching) for start in starts}
            starts |= {lead for lead in leads if lead >= span.start}
        headings = self.heading_starts
        for index in self.matching[first:last]:  # the heading of each match's section
            above = bisect_right(headings, index) - 1
            if above >= 0 and headings[above] >= span.start:
                starts.add(headings[above])
        best: tuple[Rank, int, Span] | None = None
        for start in sorted(starts):
            stop = span.end
            if start not in self.headings:
                after = bisect_right(headings, start)
                if after < len(headings) and headings[after] < stop:
                    stop = headings[after]
            fits = self.fitting_end(start, limit)
            for line, lead_in in self.lead_ins.items():
                if lead_in <= start <= line:
                    stop = self._next_beside(line, min(fits, stop))
            window = Span(start, max(start + 1, min(fits, stop)))
            if start in self.headings:  # it may go on into the next sections
                window = self._without_bare_heading(window)
            elif self.code:
                window = without_cut_header(lines, window)
            candidate = (self._rank(window), -start, window)
            if best is None or self._better(candidate, best):
                best = candidate
        if best is None:
            return Span(span.start, span.start + 1)
        if whole_sentences:
            return self.in_whole_sentences(best[2], span, limit)
        return best[2]

    def _without_bare_heading(self, window: Span) -> Span:
        """A window without a last section's heading alone, which the snippet would trim
        off its end (passage_tails.py): ranked on it, Viper's troubleshooting page served
        a section holding no query word for the `file` in the next one's heading."""
        last = heading_left_alone(self.lines, self.headings, self.heading_starts, window)
        return window if last is None else Span(window.start, last)

    def _rank(self, span: Span) -> Rank:
        """`_rank_afresh`, worked out once per span: a span is ranked again as a window of
        a longer one, for the second passage, and as a window tried twice (a third of the
        ranks asked for on Textual's questions)."""
        known = self.ranks.get(span)
        if known is None:
            known = self.ranks[span] = self._rank_afresh(span)
        return known

    def _rank_afresh(self, span: Span) -> Rank:
        """How a span compares with others: in code, any that is no import block before
        one that is, whatever terms each holds (an import block's names match a question's
        words, their camelCase parts more of them: vitest's composables/navigation.ts
        served its nine `import` lines, naming `watch`, `rerunFiles` and `viewMode`, for
        "watch mode rerun source file"; the code using the names answers, when any of it
        holds a term); then the terms it holds (for one inside the file's own tests, less);
        of two holding the same, the one that is not a table of contents (a list of links
        points at the answer the other gives), then the one starting where a name asked
        for is defined (its doc comment's first line: not a window of its examples further
        down), then in code the one leaving out no lead of the line comment it starts in
        (prose_bounds.comment_lead: uv's uv-cache/src/cli.rs started at `/// 2. The
        specific cache directory`, its "Prefer, in order:" left out for a body line
        holding the same words) nor the first lines of the call, signature or string it
        starts inside (commander's `previous,`, an argument of `this._callParseArg(`);
        then the denser."""
        coverage, density = self.score(span)
        if self.tests and inside(span, self.tests):
            coverage *= TEST_FILE_WEIGHT  # as a test file's score is (file_roles.py)
        # A definition looked up among imports says what it is (ESLint's linter.js defines
        # `MAX_AUTOFIX_PASSES = 10` among its `require` lines).
        navigation = self.is_navigation(span) and not (self.named and self._named_weight(span))
        says = not (navigation and self.code)
        constructs = self.constructs
        led = not self.code or (
            comment_lead(self.lines, span.start, self.matching) == span.start
            and (constructs is None or constructs.readable_start(span.start) >= span.start)
        )
        return says, coverage, not navigation, self._definition_start(span), led, density

    def _better(self, candidate: tuple[Rank, int, Span], best: tuple[Rank, int, Span]) -> bool:
        """Whether a span (its rank, then its size or start negated) outranks the best so
        far: by `_rank`'s order, where terms held within `tolerance` of each other's
        weight hold as much (HOLDS_AS_MUCH)."""
        rank, other = candidate[0], best[0]
        if rank[0] != other[0]:
            return rank[0]
        if abs(rank[1] - other[1]) > self.tolerance:
            return rank[1] > other[1]
        if rank[2:] != other[2:]:
            return rank[2:] > other[2:]
        return (rank[1], candidate[1]) > (other[1], best[1])

    def choose(self, structural: list[Span], fallback: list[Span]) -> Span:
        """The best structural span (section, block); a fallback span (paragraph) only
        when it holds more of the query than any structural one (or as much, where that
        one is a table of contents)."""
        best = self.best(structural)
        other = self.best(fallback)
        if best is None or (other is not None and other[0][:3] > best[0][:3]):
            best = other
        if best is None:
            return self.best_window(Span(0, len(self.lines)))
        return best[2]

    def _best_possible(self, span: Span) -> float:
        """The most a window of `span` can hold: the terms it holds, and the weight of a
        name defined inside it, which a window starting at that definition counts again."""
        inside = (weight for start, weight in self.named.items() if span.start < start < span.end)
        return self.score(span)[0] + NAME_WEIGHT * max(inside, default=0.0)

    def best(self, spans: list[Span], limit: int | None = None) -> tuple[Rank, int, Span] | None:
        """The best span, each over `limit` (the cap) narrowed to its best window. A span is
        narrowed only while the terms it holds in full (and a definition looked up inside it)
        could still beat the best so far: a long file has hundreds of nested blocks."""
        limit = self.max_chars if limit is None else limit
        best: tuple[Rank, int, Span] | None = None
        matching = self.matching
        holding = [
            span
            for span in spans
            if span.end > span.start
            and bisect_left(matching, span.start) < bisect_left(matching, span.end)
        ]  # only spans with a matching line can score
        ranked = sorted(holding, key=lambda span: (-self.score(span)[0], self.size(span)))
        for span in ranked:
            if self.size(span) > limit:
                reach = self._best_possible(span)
                # Past a best that says something, only more terms win (an import block
                # best so far loses to any window of code that holds a term).
                if best is not None and best[0][0] and reach < best[0][1] - self.tolerance:
                    continue
                if best is not None and best[0][0] and reach == best[0][1] and best[0][2]:
                    continue  # the same terms at best, and the best is no table of contents
                # Ranked as the cap cuts it, served in whole sentences.
                window = self.best_window(span, limit, whole_sentences=False)
                if limit < self.max_chars and self.size(window) > limit:
                    continue  # one line longer than the room a first passage leaves
                rank = self._rank(window)
                span = self.in_whole_sentences(window, span, limit)
            else:
                rank = self._rank(span)
                if any(span.start < start < span.end for start in self.named):
                    # A definition looked up inside a paragraph that fits (isort's
                    # constant among constants, no blank line above it): the window
                    # starting there too.
                    window = self.best_window(span, limit)
                    window_rank = self._rank(window)
                    if self._better(
                        (window_rank, -self.size(window), window), (rank, -self.size(span), span)
                    ):
                        span, rank = window, window_rank
            if rank[1] <= 0:
                continue
            candidate = (rank, -self.size(span), span)
            if best is None or self._better(candidate, best):
                best = candidate
        return best
