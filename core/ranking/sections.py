"""Snippets: the best section of a file for a query, capped in characters.

A section is a document's section (a heading and what follows, up to the next heading; or
a heading with its subsections; markdown, reStructuredText and AsciiDoc headings, see
spans.py), a code block (a line and the more-indented lines under it: a function, a class,
a method; or the paragraph that opens one, its definition and docstring), or a paragraph
of plain text. Each candidate that fits the cap is scored like a small document (BM25 over
the query's terms, weighted by the terms' rarity in the scope); one that is too long is
narrowed to its best window that fits. A line well over the line cap is clipped where most
of the query is, with a visible marker (line_clip.py). A passage of a document never ends
on the next section's bare heading, nor on the cut-off start of a fenced code block that
holds none of the query's words; one that starts inside a code block starts at its fence,
and one that starts inside a paragraph at the paragraph's first line, when the cap leaves
room for the lines above (passage_ends.py). A passage of code is
started, and ended, the same way outside a signature, a call or a docstring spread over
lines (a docstring at its definition), when the cap leaves room (code_constructs.py); the
best window of a block too long to serve may start there too.

When the best section leaves room under the cap, the best one elsewhere in the file that
holds at least half as much of the query follows it, in file order, after a line that
says which lines are left out between them (`[lines 40-87 not shown]`):
a question's words often cluster in one place (an overview, a signature) and its answer
sits in another (the section on the option, the docstring of the attribute).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise

from ..models import left_out_marker
from .bm25 import held_weight
from .code_blocks import block_heads, code_blocks, without_cut_header
from .code_constructs import open_constructs
from .code_passages import (
    definition_run_on,
    documented_by,
    with_its_methods,
    with_what_it_leads_into,
)
from .definition_titles import definition_titles, documented_attributes
from .document_passages import (
    around_markup,
    with_its_announcement,
    with_the_example_announced,
)
from .file_roles import asks_about_tests
from .heading_depth import deep_sections
from .inline_tests import inline_tests, inside
from .long_files import excerpt, excerpt_start
from .matching import TermMatcher
from .named_definitions import holders_named, named_definitions, without_qualifiers
from .named_sections import named_sections
from .navigation import without_contents_lines
from .page_markup import markup_blocks, text_start
from .passage_ends import PassageEnds
from .path_terms import path_terms
from .phrase_pairs import side_by_side
from .query_asks import CONSTANT_NAME_WEIGHT, asking_keys, constant_names_weighed, names_code
from .second_passage import documented_definition, second_passage
from .span_choice import MARKER_CHARS, PAIR_WEIGHT, SpanChooser
from .spans import (
    Heading,
    Span,
    document_headings,
    document_kind,
    document_sections,
    heading_alone,
    line_run,
    split_lines,
)
from .table_rows import compact_tables

# A query term that a code file's path holds (a folder's or the file's name: `grid` and
# `layout` in `layouts/grid.py`, `data` and `table` in `widgets/_data_table.py`) is what
# the whole file is about: it says little of where in the file the answer is, and it
# pulled the passage to where the file names itself (the class named for it, its header).
# Choosing the passage, it weighs PATH_TERM_WEIGHT as much, unless the path holds
# PATH_SHARE_LIMIT of the query's weight or more: then the question is about what the file
# is named for (`deep freeze atom value` in `freezeAtom.ts`; `request ID middleware` in
# `middleware/request_id.go`). Measured with `tierscope eval` over 43 runs of 42 sets: the
# answering passage in 74.95% of hits on the right file on average instead of 74.30% (Alamofire
# 65% -> 74%, clap 71% -> 79%, ripgrep 71% -> 77%, Telescope 56% -> 60%, Flask 85% -> 88%,
# Polly 95% -> 96% and its MRR@10 0.831 -> 0.839, Textual 84% -> 85%; fastify 67% -> 61%,
# demo 91% -> 89%, pip 72% -> 70%); whatever the share: 75.12%, but chi 87% -> 83% and the
# freezeAtom passage lost; in documents too (measured on 39 sets): 14 hits gained, 6 lost.
PATH_TERM_WEIGHT = 0.25
PATH_SHARE_LIMIT = 0.5


@dataclass(frozen=True, slots=True)
class Snippet:
    """The text served for a file and the lines it spans."""

    text: str
    line_start: int  # 1-based, inclusive
    line_end: int


def _path_terms_weighed(
    path: str, weights: Mapping[str, float], matcher: TermMatcher
) -> Mapping[str, float]:
    """The weights with the terms the path holds weighing PATH_TERM_WEIGHT as much."""
    held = path_terms(path, matcher)
    keys = held.named | held.inside
    if not keys:
        return weights
    total = sum(weights.values())
    if total and held_weight(keys, weights) >= PATH_SHARE_LIMIT * total:
        return weights  # the question is about what the file is named for
    return {
        key: weight * PATH_TERM_WEIGHT if key in keys else weight for key, weight in weights.items()
    }


def _page_title(headings: list[Heading]) -> Heading | None:
    """A page's one top heading, first of several: its title, what each of its sections
    is about (span_choice.py counts its words for each)."""
    top = [heading for heading in headings if heading.level == 1]
    return headings[0] if len(headings) > 1 and top == headings[:1] else None


def cut_snippet(
    text: str,
    path: str,
    line_terms: Mapping[int, Mapping[str, int]],
    weights: Mapping[str, float],
    *,
    max_chars: int,
    max_line_chars: int,
    matcher: TermMatcher | None = None,
    file_lines: Sequence[int] | None = None,
    lines: list[str] | None = None,
) -> Snippet:
    """The best section of `text` for the terms found on `line_terms` (1-based lines),
    with its context (see `SpanChooser.widen`), and the next best elsewhere when it leaves
    room (`SpanChooser.second`). The lines given span both: the file's lines, or when
    `file_lines` gives the file's line for each of `text` (a notebook's cells,
    notebooks.py), those. `lines` are the text's lines when ranking split them already
    (split_lines; code_lines.CodeLines remember what ranking read of them)."""
    if lines is None:
        lines = split_lines(text)
    if not lines:
        return Snippet("", 1, 1)
    kind = document_kind(path)
    blocks: list[Span] = []  # a page's markup blocks, code for its renderer
    if kind == "markdown":
        blocks = markup_blocks(lines)
        first = text_start(lines, blocks)
        # The page's text from its first line, past the markup at its top (front matter,
        # MDX imports: page_markup.py), which no passage starts on, grows back over
        # (fiber's Docusaurus pages, `widen`) or shows (vitest's VitePress pages opened on
        # their `---` and `title:` lines).
        if 0 < first < len(lines):
            lines, line_terms, file_lines = line_run(
                first, len(lines), lines, line_terms, file_lines
            )
            blocks = [Span(b.start - first, b.end - first) for b in blocks if b.start >= first]
    start = excerpt_start(len(lines), line_terms, weights)  # nearly every line answers
    if start is not None:
        lines, line_terms, file_lines, blocks = excerpt(
            start, lines, line_terms, file_lines, blocks
        )
    if kind == "code" and matcher is not None and PATH_TERM_WEIGHT != 1:
        weights = _path_terms_weighed(path, weights, matcher)
    if kind == "code" and matcher is not None and CONSTANT_NAME_WEIGHT != 1:
        weights = constant_names_weighed(weights, matcher.terms)
    if kind == "markdown":  # a table's padding is served (and counted) as one space
        lines = compact_tables(lines)
        line_terms = without_contents_lines(lines, line_terms)
    headings: dict[int, int] = {}
    levels: dict[int, int] = {}
    found: list[Heading] = []
    if kind == "code":
        structural = code_blocks(lines, [number - 1 for number in sorted(line_terms)])
    else:
        found = document_headings(lines, path)
        headings = {heading.start: heading.title for heading in found}
        levels = {heading.start: heading.level for heading in found}
        # Without headings, markdown is one section and other text is its paragraphs.
        structural = document_sections(lines, found) if found or kind == "markdown" else []
    constructs = open_constructs(lines, path) if kind == "code" else None
    asking = asking_keys(matcher.terms) if matcher is not None else weights
    about_tests = asks_about_tests(asking)
    tests = [] if about_tests else inline_tests(lines, path)
    # A name's tests asked about (`add_row tests`): its tests, not its definition.
    named, lead_ins = (
        named_definitions(lines, line_terms, weights, matcher)
        if kind == "code" and not about_tests
        else (named_sections(lines, headings, weights, matcher), {})
    )
    page_title = _page_title(found)
    if page_title is not None:  # no section of its own titled with a name asked for
        named = {start: weight for start, weight in named.items() if start != page_title.start}
    if named and matcher is not None and kind == "code":
        weights = without_qualifiers(weights, matcher, holders_named(lines, named, matcher))
    chooser = SpanChooser(
        lines, line_terms, weights, max_chars, max_line_chars, headings,
        code=kind == "code", constructs=constructs, tests=tests, named=named,
        lead_ins=lead_ins,
    )  # fmt: skip
    chooser.levels = levels
    chooser.deep = deep_sections(found, page_title, lines, kind)
    if page_title is not None:
        chooser.set_page_title(page_title.title)
    if matcher is not None and PAIR_WEIGHT:
        chooser.set_pairs(side_by_side(lines, line_terms, matcher))
    if kind == "code":
        structural += block_heads(structural, chooser.paragraphs, constructs)
        if not (named or (matcher is not None and names_code(matcher.terms))):
            # A question in words; a name looked up is weighed at its definition (`named`),
            # and a block titled with parts of it is no answer (ShellCompRequestCmd is
            # defined in a `const (` block, not by the `initCompleteCmd` it is used in).
            # Only a block served whole counts its title: one over the cap is served as a
            # window of it.
            fitting = [span for span in structural if chooser.size(span) <= max_chars]
            attributes = documented_attributes(lines, chooser.paragraphs)
            structural += list(attributes)
            chooser.titles = {**definition_titles(lines, fitting), **attributes}
    core = chooser.choose(structural, chooser.paragraphs)
    chosen = chooser.widen(core, structural)
    ends = PassageEnds(lines, headings, kind, chooser.matching, constructs, levels)
    ends.prose = chooser.prose
    ends.coverage = lambda span: chooser.score(span)[0]
    if kind == "code":
        chosen = with_what_it_leads_into(lines, chosen, chooser, max_chars)
        if chooser.at_a_definition(core):
            chosen = definition_run_on(chosen, structural, chooser, max_chars)
            chosen = with_its_methods(lines, chosen, chooser, max_chars)
    elif kind == "markdown":
        chosen = with_the_example_announced(lines, chosen, chooser, max_chars, ends.blocks)
        chosen = with_its_announcement(lines, chosen, chooser, max_chars, ends.blocks)
    if kind == "code":
        chosen = _with_room_for_its_lead(chosen, ends, chooser, max_chars)
    # The line of the definition a doc comment passage documents, shown after it.
    definition = documented_by(lines, chosen, chooser, max_chars) if kind == "code" else None
    if definition is not None:
        room = max_chars - chooser.size(definition) - MARKER_CHARS  # the line, after a marker
        chosen = chooser.best_window(chosen, room)
    fragments = [ends.trimmed(chosen)]
    # A name looked up is shown at its definition first: no call of it from above.
    at_definition = chooser.at_a_definition(core)
    second = None
    if definition is None:  # a first passage shown with its definition leaves no room
        second = second_passage(chooser, structural, chosen, core, after_only=at_definition)
    if second is not None:
        if kind == "markdown":  # shown with the example it announces, room left
            room = max_chars - chooser.size(fragments[0]) - MARKER_CHARS
            second = with_the_example_announced(lines, second, chooser, room, ends.blocks)
        second = ends.trimmed(second)
        if heading_alone(lines, headings, second.start, second.end):
            second = None  # trimmed to the next section's heading: it answers nothing
    if second is None and definition is None:  # code shown alone: on into what follows
        fragments = [ends.trimmed(chooser.with_next_lines(fragments[0]))]
    if second is not None:
        # A doc comment cut off before its definition is followed by the definition's
        # line (second_passage.py left room for it), joined to it when none lie between.
        documented = documented_definition(lines, second) if kind == "code" else None
        if documented is not None and not fragments[0].start <= documented < fragments[0].end:
            if documented == second.end:
                second = Span(second.start, documented + 1)
            else:
                definition = Span(documented, documented + 1)
        fragments = sorted([fragments[0], second], key=lambda span: span.start)
        # One passage, the lines between included, when they fit the cap (with the
        # characters of the marker they spare): the lines a marker would stand for are
        # often the very ones between two parts of an answer (a function's middle).
        whole = Span(fragments[0].start, fragments[1].end)
        held = chooser.size(definition) + MARKER_CHARS if definition is not None else 0
        if chooser.size(whole) + held <= max_chars + MARKER_CHARS:
            fragments = [whole]
    if definition is not None and not inside(definition, fragments):
        fragments = sorted([*fragments, definition], key=lambda span: span.start)
    fragments = ends.opened_whole(fragments, max_chars, chooser.size)

    def file_line(index: int) -> int:  # a 0-based line of `text` -> the file's (1-based)
        return file_lines[index] if file_lines is not None else index + 1

    fragments = ends.with_context(fragments, max_chars, chooser.size)
    fragments = _gaps_filled(fragments, max_chars, chooser.size)
    if kind == "code":
        fragments = _without_license_comment(lines, fragments)
    if blocks:
        fragments = around_markup(lines, fragments, blocks, chooser.size)
    shown = chooser.shown(fragments[0], matcher)
    for before, fragment in pairwise(fragments):
        left_out = (file_line(before.end - 1) + 1, file_line(fragment.start) - 1)
        shown.append(left_out_marker(*left_out))
        shown += chooser.shown(fragment, matcher)
    if kind == "roff":  # a manual page as read, not its markup (line for line)
        from .roff_text import manual_name, readable

        name = manual_name(lines)
        shown = [readable(line, name) for line in shown]
    return Snippet(
        "\n".join(shown), file_line(fragments[0].start), file_line(fragments[-1].end - 1)
    )


def _without_license_comment(lines: list[str], fragments: list[Span]) -> list[Span]:
    """The fragments without the licence comment at the file's top (license_headers.py)
    nor what precedes it there (a shebang, `<?php`): a small file served whole starts at
    its code. A fragment of nothing else is kept (nothing else holds the terms)."""
    from .license_headers import license_comment

    found = license_comment(lines)
    if found is None:
        return fragments
    end = found[1]
    kept = [
        Span(max(fragment.start, end), fragment.end) if fragment.start < end else fragment
        for fragment in fragments
        if fragment.end > end
    ]
    return kept or fragments


def _gaps_filled(fragments: list[Span], max_chars: int, size: Callable[[Span], int]) -> list[Span]:
    """The fragments joined where the lines between them fit the room left under the cap
    (with the characters of the marker they spare), the shortest gap first: a heading
    added as a passage's lead had been followed by `[lines 2-4 not shown]` standing for
    the page's one-sentence definition (Textual's text_opacity.md)."""
    room = max_chars - sum(size(span) for span in fragments)
    room -= MARKER_CHARS * (len(fragments) - 1)
    joined = list(fragments)
    while len(joined) > 1:
        cost, at = min(
            (size(Span(before.end, after.start)), number)
            for number, (before, after) in enumerate(pairwise(joined))
        )
        if cost > room + MARKER_CHARS:
            break
        room -= cost - MARKER_CHARS
        joined[at : at + 2] = [Span(joined[at].start, max(joined[at].end, joined[at + 1].end))]
    return joined


def _with_room_for_its_lead(
    chosen: Span, ends: PassageEnds, chooser: SpanChooser, max_chars: int
) -> Span:
    """A passage of code inside a definition, narrowed to its best window that leaves
    room for the lines leading it (code_leads.py: the definition's line, a method's
    class) when it has none and that window holds all it holds of the query: a window
    deep in a method's body filled the cap and was served without the method's line.
    One that starts at a definition asked for, or right under the line it is led by,
    keeps its start (Phoenix's `def json(conn, data) do`)."""
    leads = ends.context_of(chosen.start, comments=False)
    if not leads:
        return chosen
    lead = leads[0]
    cost = chooser.size(lead) + (MARKER_CHARS if lead.end < chosen.start else 0)
    if chooser.size(chosen) + cost <= max_chars:
        return chosen
    if lead.end == chosen.start or chosen.start in chooser.named:
        end = chooser.fitting_end(chosen.start, max_chars - cost)
        window = Span(chosen.start, min(chosen.end, max(chosen.start + 1, end)))
        window = without_cut_header(ends.lines, window)  # no `if x:` without its body
    else:
        window = chooser.best_window(chosen, max_chars - cost)
    return window if chooser.score(window)[0] >= chooser.score(chosen)[0] else chosen


def cut_span(
    text: str,
    line_start: int,
    line_end: int,
    line_terms: Mapping[int, Mapping[str, int]],
    weights: Mapping[str, float],
    *,
    max_chars: int,
    max_line_chars: int,
    matcher: TermMatcher | None = None,
) -> Snippet | None:
    """The lines a tier pointed at (1-based, inclusive), as they are now: narrowed to
    their best window when over the cap, long lines clipped. None when the span is past
    the end of the file."""
    lines = split_lines(text)
    start, end = max(1, line_start) - 1, min(len(lines), max(line_end, line_start))
    if start >= end:
        return None
    chooser = SpanChooser(lines, line_terms, weights, max_chars, max_line_chars)
    span = Span(start, end)
    if chooser.size(span) > max_chars:
        span = chooser.best_window(span)
    body = "\n".join(chooser.shown(span, matcher))
    return Snippet(body.strip("\n"), span.start + 1, span.end)
