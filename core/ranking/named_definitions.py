"""The definitions of the names a query spells, in one file's lines (where a snippet of
code starts: sections.py, span_choice.py), and the weights that leave out what holds the
member looked up."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .code_blocks import indentation, lead_in_start
from .matching import TermMatcher
from .query_asks import names_code, plain_words, run_together

# A definition of the same name starting at most this many lines below another is its
# next clause (Elixir's `def humanize(atom) ... do:` then `def humanize(bin) do`).
CLAUSE_GAP = 3


def named_definitions(
    lines: list[str],
    line_terms: Mapping[int, Mapping[str, int]],
    weights: Mapping[str, float],
    matcher: TermMatcher | None,
) -> tuple[dict[int, float], dict[int, int]]:
    """Where a definition of a name the query spells whole starts (its lead-in's first
    line, and its own line), with the weight of that name's terms; and each such
    definition's line with its lead-in's first line."""
    if matcher is None or not matcher.names:
        return {}, {}
    # A dotted name (`AsyncClient.stream`) is looked up in a question too; a name alone in
    # a question is only part of what is asked.
    # So is the name its words spell run together (`stylesheet parse error`:
    # StylesheetParseError), however many they are.
    dotted = any(term.qualifier for term in matcher.terms)
    joined = None
    if not (dotted or names_code(matcher.terms)):
        joined = run_together(matcher.terms)
        if joined is None or joined not in matcher.names:
            return {}, {}
    from .code_definitions import definitions_of_names, holder_of, holders_asked

    starts: dict[int, float] = {}
    found = definitions_of_names(lines, line_terms, matcher)
    if joined is not None:
        found = {i: keys for i, keys in found.items() if keys == matcher.names[joined]}
        # Or with another of its words between (`walk_depth_first` for "walk widgets
        # depth first", axum's `with_graceful_shutdown` for "graceful shutdown serve").
        found = found or spelt_in_order(lines, line_terms, matcher)
    holders = holders_asked(matcher)
    if holders:  # `AsyncClient.stream`: the `stream` of class AsyncClient, if there is one
        held = {i: keys for i, keys in found.items() if holder_of(lines, i) in holders}
        if held:
            # Of the holder's definitions of the name, the shallowest: its own, not the
            # stub a macro of it injects (Elixir's `def terminate` inside `quote`, beside
            # the documented `@callback terminate`).
            shallowest = min(indentation(lines[i]) for i in held)
            held = {i: keys for i, keys in held.items() if indentation(lines[i]) == shallowest}
        found = held or found
    elif not dotted:
        # `JsonParser parseString`: the member of a class also named (as the dotted form),
        # or named in a plain word (`crontab remaining estimate`: of the `remaining_estimate`
        # Celery's `crontab` and `solar` both define, crontab's); `evolve`: the module's
        # function, not a class's method of that name.
        asked = {*matcher.names, *(term.word for term in plain_words(matcher.terms))}
        holder = {i: holder_of(lines, i) for i in found}  # each read up the file once
        held = {i: keys for i, keys in found.items() if holder[i] in asked}
        found = held or {i: keys for i, keys in found.items() if not holder[i]} or found
    if len(found) > 1:  # of overloads, the one doing the work, not one passing its call on
        found = _without_passing_on(lines, found)
    lead_ins: dict[int, int] = {}
    for index, keys in found.items():
        weight = sum(weights.get(key, 0.0) for key in keys)
        lead_ins[index] = lead_in_start(lines, index, indentation(lines[index]))
        for start in (index, lead_ins[index]):
            starts[start] = max(starts.get(start, 0.0), weight)
    return starts, lead_ins


def _without_passing_on(
    lines: list[str], found: dict[int, tuple[str, ...]]
) -> dict[int, tuple[str, ...]]:
    """The definitions found without the overloads that only pass their call on to another
    of the same name, beside it (in the same class, as deep): Kotlin's `delay(Duration)`
    to `delay(Long)`. A method wrapping a module's function of its name is kept (it is
    what the class offers), and so is a clause followed by the same function's next one
    (Elixir's: one definition, its doc above the first)."""
    from .code_definitions import holder_of, passes_on

    def place(index: int) -> tuple[str, int]:
        return holder_of(lines, index), indentation(lines[index])

    forwarding = {
        i for i in found if passes_on(lines, i) and not any(0 < j - i <= CLAUSE_GAP for j in found)
    }
    working = {place(i) for i in found if i not in forwarding}
    return {i: keys for i, keys in found.items() if i not in forwarding or place(i) not in working}


def without_qualifiers(
    weights: Mapping[str, float], matcher: TermMatcher, holders: Iterable[str] = ()
) -> dict[str, float]:
    """The weights with what holds the member looked up (`Session` of `Session.mount`,
    and `holders`: the names of the query holding a definition found, `LineMatcher` of
    `LineMatcher fnmatch_lines`) left out: in a file defining the member, its definition
    answers, not the class's first lines nor a docstring naming both."""
    held = {key for term in matcher.terms if term.qualifier for key in (term.key, *term.parts)}
    held.update(key for holder in holders for key in matcher.names[holder])
    held -= {key for name, keys in matcher.names.items() if name not in holders for key in keys}
    return {key: 0.0 if key in held else weight for key, weight in weights.items()}


def holders_named(
    lines: list[str], named: Mapping[int, float], matcher: TermMatcher
) -> frozenset[str]:
    """The names of the query that hold a definition of another it looks up (the class
    of `JsonParser parseString`)."""
    from .code_definitions import holder_of

    return frozenset(
        holder for index in named if (holder := holder_of(lines, index)) in matcher.names
    )


def spelt_in_order(
    lines: list[str], line_terms: Mapping[int, Mapping[str, int]], matcher: TermMatcher
) -> dict[int, tuple[str, ...]]:
    """The definitions whose name's words are the query's plain words in the query's order,
    two at least and at least half of them, each with its words' term keys."""
    from .analysis import split_identifier, stem
    from .code_definitions import defined_as_spelt
    from .stopwords import STOPWORDS

    words = [term.key for term in plain_words(matcher.terms)]
    found: dict[int, tuple[str, ...]] = {}
    for index, name in defined_as_spelt(lines, line_terms, matcher):
        # Its function words are no words of the query's (`redirect_back_or_to`).
        written = [part.lower() for part in split_identifier(name)]
        parts = [stem(part) for part in written if part not in STOPWORDS]
        if len(parts) < 2 or 2 * len(parts) < len(words):
            continue
        remaining = iter(words)
        if all(part in remaining for part in parts):  # in order, others between
            found[index] = tuple(dict.fromkeys(parts))
    return found
