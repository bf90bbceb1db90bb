"""Where a passage of a file starts and ends as served (`PassageEnds`): blank lines
trimmed; tails that say nothing left out; the start moved up to where what it starts inside
starts, and in code the end down to where what it ends inside ends, when the cap leaves
room (sections.py cuts the passages)."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Mapping

from .code_blocks import without_cut_header
from .code_constructs import OpenConstructs
from .fenced_blocks import FencedBlocks, trimmed_span
from .passage_starts import PassageStarts
from .passage_tails import PassageTails
from .prose_bounds import ProseBounds
from .section_headings import ASKED_LEAD_LINES, SectionHeadings
from .span_choice import MARKER_CHARS
from .spans import Span


class PassageEnds(PassageStarts):
    """Where a passage of a document starts and ends as served: blank lines trimmed, and
    the tails that say nothing left out (passage_tails.py); its start moved up to what it
    starts inside, its end to what closes what it shows, and the lines that lead it."""

    def __init__(
        self,
        lines: list[str],
        headings: Mapping[int, int],
        kind: str,
        matching: list[int],
        constructs: OpenConstructs | None = None,
        levels: Mapping[int, int] | None = None,
    ) -> None:
        self.lines = lines
        self.constructs = constructs
        # `headings`: a heading's first line -> its title line; `levels` -> its level.
        self.sections = SectionHeadings(lines, headings, levels or {})
        self.kind = kind
        self.blocks = FencedBlocks(lines, kind, matching)
        self.matching = matching  # sorted 0-based indexes of the lines holding a term
        self.tails = PassageTails(lines, self.sections, kind, self.blocks, matching)
        # The sentences of its prose or comments (the span chooser's), set by its reader.
        self.prose: ProseBounds | None = None
        # How much of the query a span holds (the span chooser's), set by its reader.
        self.coverage: Callable[[Span], float] | None = None

    def trimmed(self, span: Span) -> Span:
        """The passage without blank lines at its ends nor tails that say nothing
        (passage_tails.py)."""
        return self.tails.trimmed(span)

    def with_context(
        self, passages: list[Span], max_chars: int, size: Callable[[Span], int]
    ) -> list[Span]:
        """The passages, each that starts inside something whose first lines say what it
        is led by those lines, as a passage of their own, while the cap leaves room for
        them and the marker between: in a document, the heading of the section it starts
        inside, then the header row (and delimiter row) of the table it starts among, or
        the opening fence of the code block; in code, the definition it starts inside (a
        method's class), its docstring's first words too (code_leads.py). A window
        alone does not say where it is. One ending inside a fenced block is followed by
        its closing fence: a fence left open turns what follows into code."""
        room = max_chars - sum(size(span) for span in passages)
        room -= MARKER_CHARS * (len(passages) - 1)

        def afford(span: Span, extra: Span, closing: bool = False) -> tuple[Span, bool]:
            """The passage, and whether `extra` (with its marker, unless only blank lines
            lie between them) fits: room made at the passage's end, from lines without
            terms (still ending inside the fenced block when `extra` is its `closing`
            fence: the block is cut already, so its lines may go)."""
            nonlocal room
            cost = cost_of(extra, span)
            if cost > room:
                shorter = self._without_tail(span, cost - room, size, keep_blocks=not closing)
                if shorter is not None and (
                    not closing or self.blocks.closing_fence(shorter) == extra
                ):
                    room += size(span) - size(shorter)
                    span = shorter
            if cost > room and self.kind == "code" and self.coverage is not None:
                from .code_leads import without_repeats_at_its_end

                shorter = without_repeats_at_its_end(
                    self.lines, span, cost - room, size, self.coverage
                )
                if shorter is not None:
                    room += size(span) - size(shorter)
                    span = shorter
            if cost > room:
                return span, False
            room -= cost
            return span, True

        def cost_of(extra: Span, span: Span) -> int:
            """What showing `extra` beside the passage takes: its lines, and the marker
            between them unless only blank lines lie between (then they show joined)."""
            apart = extra.end > span.start or any(
                line.strip() for line in self.lines[extra.end : span.start]
            )
            return size(extra) + (MARKER_CHARS if apart else 0)

        led: list[Span] = []
        for number, span in enumerate(list(passages)):
            if number >= len(passages):
                break  # a later passage given up for the first one's lead
            mark = len(led)
            block = self.blocks.around(span.start) if self.kind != "code" else None
            opening = Span(block.start, block.start + 1) if block is not None else None
            opened = False
            if opening is not None:
                # The opening fence, with the language, is afforded before the heading:
                # without it, a closing fence shown opens a block, and code and prose read
                # the other way round.
                span, opened = afford(span, opening)
                if not opened and number:
                    break  # a later passage read as prose, its code unfenced: given up
                after = None if opened else self.blocks.after_block(span, self.coverage)
                if after is not None:  # the block's last lines give way to what follows it
                    room += size(span) - size(after)
                    span, block, opening = after, None, None
            contexts = self.context_of(span.start)
            for context in contexts:
                if led and led[-1].end > context.start:
                    continue  # shown already
                between = Span(context.end, span.start)
                if context.end < span.start and size(between) <= MARKER_CHARS:
                    context = Span(context.start, span.start)  # no more than its marker
                lead = self.sections.with_its_lead(context, span.start)
                if lead is not None and self.kind != "code":
                    span, fits = afford(span, lead)
                    if fits:
                        led.append(lead)
                        continue
                if self.kind != "code":
                    asked = self._lead_over_tail(context, span, room, size, cost_of)
                    if asked is not None:
                        lead, shorter = asked
                        room += size(span) - size(shorter) - cost_of(lead, shorter)
                        span = shorter
                        led.append(lead)
                        continue
                span, fits = afford(span, context)
                if (
                    not fits
                    and number == 0
                    and len(passages) > 1
                    and self.sections.names_a_version(context)
                ):
                    # The version heading the best passage is under comes before a
                    # second passage: a changelog line without its version misleads.
                    room += sum(size(p) + MARKER_CHARS for p in passages[1:])
                    passages = passages[:1]
                    span, fits = afford(span, context)
                if fits:
                    led.append(context)
            if opened and opening is not None:
                led.append(opening)  # below the section's heading, above the passage
            elif block is not None and span.end >= block.end > span.start + 1:
                # Inside a block whose fence is not shown: end before its closing fence.
                inside = trimmed_span(self.lines, Span(span.start, block.end - 1))
                room += size(span) - size(inside)
                span = inside
            closing = self.blocks.closing_fence(span)
            if block is not None and not opened and self.blocks.around(span.end) == block:
                closing = None  # inside a block whose fence is not shown: none shown
            following = passages[number + 1].start if number + 1 < len(passages) else None
            if closing is not None and (following is None or closing.end <= following):
                span, fits = afford(span, closing, closing=True)
                if fits:
                    led += [span, closing]
                    continue
                cost = size(closing) + MARKER_CHARS
                cut = self.blocks.cut_to_close(span, cost - room, size)
                if cut is not None:  # its last lines go, what it shows in the block stays
                    room += size(span) - size(cut) - cost
                    led += [cut, closing]
                    continue
                before = self.blocks.before_open_block(span)
                if before is not None:  # no room to close the block: end before it opens
                    room += size(span) - size(before)
                    span = before
                elif opened and opening is not None:
                    if number:  # a later passage: given up (starlette's background.md)
                        del led[mark:]
                        break
                    # No room to close the block it starts inside: its lines alone, as
                    # code that shows no fence.
                    led.remove(opening)
                    room += cost_of(opening, span)
                elif span.end - span.start > 1 and self.blocks.opens_block_it_ends_in(span):
                    # It starts on the fence of the block it cannot close: from below it.
                    inside = trimmed_span(self.lines, Span(span.start + 1, span.end))
                    room += size(span) - size(inside)
                    span = inside
            led.append(span)
        joined: list[Span] = []
        for span in led:  # next to each other (or blank lines apart): one passage, no marker
            if joined and not any(line.strip() for line in self.lines[joined[-1].end : span.start]):
                joined[-1] = Span(joined[-1].start, max(joined[-1].end, span.end))
            else:
                joined.append(span)
        return joined

    def _lead_over_tail(
        self,
        heading: Span,
        span: Span,
        room: int,
        size: Callable[[Span], int],
        cost_of: Callable[[Span, Span], int],
    ) -> tuple[Span, Span] | None:
        """The section's heading with its opening paragraph (up to ASKED_LEAD_LINES lines),
        and the passage without as many of its last lines as that takes, when the
        paragraph holds more of the query than those lines: Pinia's "Subscribing to
        actions" opens on what `$onAction`, `after` and `onError` do, and was left out
        for the end of the example below it. None otherwise."""
        if self.coverage is None:
            return None
        lead = self.sections.with_its_lead(heading, span.start, ASKED_LEAD_LINES)
        if lead is None:
            return None
        needed = cost_of(lead, span) - room
        end, freed = span.end, 0
        while freed < needed and end - 1 > span.start:
            end -= 1
            freed += size(Span(end, end + 1))
        if freed < needed:
            return None
        shorter = self.trimmed(Span(span.start, end))
        if shorter.end <= shorter.start:
            return None
        if self.coverage(Span(heading.end, lead.end)) <= self.coverage(Span(end, span.end)):
            return None
        return lead, shorter

    def context_of(self, start: int, comments: bool = True) -> list[Span]:
        """The lines that say what a passage starting on line `start` is inside, in file
        order (with_context shows them, while the cap leaves room); in code, without the
        comments above definitions unless `comments`."""
        if self.kind == "code":
            from .code_leads import code_lead

            return code_lead(self.lines, start, comments)
        context = self.sections.leading(start)
        first = self._table_above(start)
        if first is not None:
            context.append(Span(first, first + 2))
        return context  # a fenced block's opening fence: with_context

    def _without_tail(
        self, span: Span, needed: int, size: Callable[[Span], int], keep_blocks: bool = True
    ) -> Span | None:
        """The passage without as many of its last lines as free `needed` characters, when
        none of them holds a query term or (with `keep_blocks`) lies in a fenced block the
        passage opens (the end of its code), and some line is left; else None. In prose,
        the lines left of a sentence cut so go too, when they may, and so does a tail left
        that says nothing (passage_tails.py)."""
        end = span.end
        freed = 0
        while freed < needed and end - 1 > span.start:
            if not self._may_go(span, end - 1, keep_blocks):
                return None
            freed += size(Span(end - 1, end))
            end -= 1
        if freed < needed:
            return None
        if self.kind == "code":  # nor a line opening a block left out (`if mode == "auto":`)
            cut = without_cut_header(self.lines, Span(span.start, end))
            if not all(self._may_go(span, index, keep_blocks) for index in range(cut.end, end)):
                return None
            end = cut.end
        prose = self.prose
        if prose is not None and end < span.end:
            whole = end
            while prose.runs_on(whole) and whole - 1 > span.start:
                if not self._may_go(span, whole - 1, keep_blocks):
                    break
                whole -= 1
            if not prose.runs_on(whole):
                end = whole
        shorter = trimmed_span(self.lines, Span(span.start, end))
        # The tail then left may say nothing: Laravel's pulse.md ended on `> [!NOTE]`, its
        # note's words cut to make room for a heading. (A passage ending inside a fenced
        # block keeps it, for the closing fence it makes room for.)
        return self.tails.trimmed(shorter) if keep_blocks else shorter

    def _may_go(self, span: Span, index: int, keep_blocks: bool) -> bool:
        """Whether line `index` of the passage may be left out of its end: it holds no
        query term, nor (with `keep_blocks`) lies in a fenced block the passage opens."""
        found = bisect_left(self.matching, index)
        if found < len(self.matching) and self.matching[found] == index:
            return False
        return not (
            keep_blocks and any(span.start <= b.start <= index < b.end for b in self.blocks.fences)
        )  # a block the passage shows from its fence: shown whole
