"""The fallback chain, filtering, dedup and budget, with scripted tiers."""

from __future__ import annotations

import textwrap
import threading
import time
from dataclasses import dataclass, field, replace

import pytest

from tierscope.config.model import Config
from tierscope.engine import run_tiers
from tierscope.events import BudgetApplied, QueryFinished, QueryStarted, TierFinished, TierStarted
from tierscope.models import Hit, QueryRequest, ResolvedScope, TierOutcome, TierStatus
from tierscope.tiers.base import Deadline, TierRequest


@dataclass
class ScriptedTier:
    name: str
    status: TierStatus
    hits: tuple[Hit, ...] = ()
    raises: bool = False
    calls: list[str] = field(default_factory=list)

    def probe(self, request):  # pragma: no cover - not used by the engine
        raise NotImplementedError

    def search(self, request: TierRequest, deadline: Deadline) -> TierOutcome:
        self.calls.append(request.query)
        if self.raises:
            raise RuntimeError("boom")
        return TierOutcome(self.name, self.status, f"{self.name} {self.status}", hits=self.hits)


def hit(source: str, score: float, words: int = 10, tier: str = "grep", line: int = 1) -> Hit:
    return Hit(source, score, " ".join(["word"] * words), tier, line, line + 2)


def run(tiers: dict[str, ScriptedTier], root, budget=2000, all_tiers=False, order=None):
    order = order or tuple(tiers)
    request = QueryRequest("token budget", "all", budget, 1.0, order, all_tiers=all_tiers)
    events = []
    result = run_tiers(
        request,
        query_id="q-test",
        root=root,
        config=Config(),
        scope=ResolvedScope("all", (), (), ()),
        private_paths=(),
        on_event=events.append,
        tier_factory=lambda name: tiers[name],
    )
    return result, events


def statuses(result) -> dict[str, str]:
    return {o.tier: o.status.value for o in result.outcomes}


def test_first_tier_with_hits_serves_and_the_rest_are_skipped(tmp_path):
    tiers = {
        "qmd": ScriptedTier("qmd", TierStatus.SERVED, (hit("a.md", 0.9, tier="qmd"),)),
        "ck": ScriptedTier("ck", TierStatus.SERVED, (hit("b.md", 0.9, tier="ck"),)),
        "grep": ScriptedTier("grep", TierStatus.SERVED, (hit("c.md", 0.9),)),
    }
    result, _ = run(tiers, tmp_path)
    assert statuses(result) == {"qmd": "served", "ck": "skipped", "grep": "skipped"}
    assert result.served_by == "qmd"
    assert [h.source for h in result.hits] == ["a.md"]
    assert tiers["ck"].calls == [] and tiers["grep"].calls == []


def test_falls_through_unavailable_timeout_error_and_empty_to_grep(tmp_path):
    tiers = {
        "qmd": ScriptedTier("qmd", TierStatus.UNAVAILABLE),
        "ck": ScriptedTier("ck", TierStatus.TIMEOUT),
        "store": ScriptedTier("store", TierStatus.EMPTY),
        "grep": ScriptedTier("grep", TierStatus.SERVED, (hit("c.md", 0.5),)),
    }
    result, _ = run(tiers, tmp_path, order=("qmd", "ck", "store", "grep"))
    assert statuses(result) == {
        "qmd": "unavailable",
        "ck": "timeout",
        "store": "empty",
        "grep": "served",
    }
    assert result.served_by == "grep"


def test_a_tier_that_raises_is_an_error_and_the_query_goes_on(tmp_path):
    tiers = {
        "qmd": ScriptedTier("qmd", TierStatus.SERVED, raises=True),
        "ck": ScriptedTier("ck", TierStatus.SERVED, (hit("b.md", 0.4, tier="ck"),)),
    }
    result, _ = run(tiers, tmp_path, order=("qmd", "ck"))
    qmd = result.outcome("qmd")
    assert qmd.status is TierStatus.ERROR
    assert "RuntimeError: boom" in qmd.reason
    assert result.served_by == "ck"


def test_tiers_left_out_of_the_list_are_disabled(tmp_path):
    tiers = {"grep": ScriptedTier("grep", TierStatus.SERVED, (hit("c.md", 0.5),))}
    result, _ = run(tiers, tmp_path, order=("grep",))
    assert statuses(result) == {"grep": "served", "qmd": "disabled", "ck": "disabled"}


def test_all_tiers_failing_gives_no_hits(tmp_path):
    tiers = {
        "qmd": ScriptedTier("qmd", TierStatus.ERROR),
        "ck": ScriptedTier("ck", TierStatus.UNAVAILABLE),
        "grep": ScriptedTier("grep", TierStatus.EMPTY),
    }
    result, _ = run(tiers, tmp_path)
    assert result.hits == ()
    assert result.served_by is None


def test_all_tiers_runs_every_tier_and_keeps_their_hits_apart(tmp_path):
    tiers = {
        "qmd": ScriptedTier("qmd", TierStatus.SERVED, (hit("a.md", 0.9, tier="qmd"),)),
        "ck": ScriptedTier("ck", TierStatus.EMPTY),
        "grep": ScriptedTier("grep", TierStatus.SERVED, (hit("c.md", 0.5),)),
    }
    result, _ = run(tiers, tmp_path, all_tiers=True)
    assert [c for t in tiers.values() for c in t.calls] == ["token budget"] * 3
    assert result.served_by == "qmd"
    assert [h.source for h in result.outcome("grep").hits] == ["c.md"]
    assert [h.source for h in result.hits] == ["a.md"]


def test_events_arrive_in_pipeline_order(tmp_path):
    tiers = {
        "qmd": ScriptedTier("qmd", TierStatus.UNAVAILABLE),
        "grep": ScriptedTier("grep", TierStatus.SERVED, (hit("c.md", 0.5),)),
    }
    _, events = run(tiers, tmp_path, order=("qmd", "grep"))
    kinds = [type(e).__name__ for e in events]
    assert kinds[0] == QueryStarted.__name__
    assert kinds[1:5] == [TierStarted.__name__, TierFinished.__name__] * 2
    assert kinds[-2:] == [BudgetApplied.__name__, QueryFinished.__name__]


def test_overlapping_hits_of_one_file_are_deduplicated(tmp_path):
    hits = (
        Hit("a.md", 0.9, "alpha beta", "grep", 10, 14),
        Hit("a.md", 0.5, "beta gamma", "grep", 12, 16),
        Hit("a.md", 0.4, "far away", "grep", 40, 44),
    )
    tiers = {"grep": ScriptedTier("grep", TierStatus.SERVED, hits)}
    result, _ = run(tiers, tmp_path, order=("grep",))
    assert [(h.line_start, h.score) for h in result.hits] == [(10, 0.9), (40, 0.4)]
    assert result.deduplicated == 1


# gin's binding.go and binding_nomsgpack.go: one file per build tag, nearly the same.
BINDING_HEAD = "func Default() Binding {\n"
BINDING = BINDING_HEAD + "\n".join(f"\tcase MIME{n}:\n\t\treturn Binding{n}" for n in range(8))
NO_MSGPACK = BINDING.replace(
    "\tcase MIME7:\n\t\treturn Binding7", "\tcase MIMEMSGPACK:\n\t\treturn MsgPack"
)


def run_binding_hits(tmp_path, first: tuple[str, str], second: tuple[str, str]):
    """The answer to hits on two build variants (path, content), scored 0.9 and 0.8, and
    one other file."""
    hits = (
        Hit(first[0], 0.9, first[1], "grep", 1, 17),
        Hit(second[0], 0.8, second[1], "grep", 1, 17),
        Hit("binding/form.go", 0.5, "func Default() Binding {\n\treturn Form\n}", "grep", 1, 3),
    )
    tiers = {"grep": ScriptedTier("grep", TierStatus.SERVED, hits)}
    result, _ = run(tiers, tmp_path, order=("grep",))
    return result


def test_a_near_copy_of_a_served_passage_is_served_once(tmp_path):
    result = run_binding_hits(
        tmp_path, ("binding/binding.go", BINDING), ("binding/binding_nomsgpack.go", NO_MSGPACK)
    )
    assert [h.source for h in result.hits] == ["binding/binding.go", "binding/form.go"]
    assert result.deduplicated == 1


def test_translations_from_any_tier_are_served_once(tmp_path):
    hits = (
        Hit("docs/en/guide.md", 0.9, "Deploy with waves.", "ck", 1, 3),
        Hit("docs/ja/guide.md", 0.8, "ウェーブでデプロイ。", "ck", 1, 3),
        Hit("docs/en/faq.md", 0.5, "Waves?", "ck", 1, 2),
        Hit("README.fr.md", 0.4, "Déployer.", "ck", 1, 2),
        Hit("README.md", 0.3, "Deploy.", "ck", 1, 2),
    )
    tiers = {"ck": ScriptedTier("ck", TierStatus.SERVED, hits)}
    result, _ = run(tiers, tmp_path, order=("ck",))
    assert [h.source for h in result.hits] == ["docs/en/guide.md", "docs/en/faq.md", "README.fr.md"]
    assert result.deduplicated == 2


def test_hits_from_filtered_files_are_removed_and_reported(make_project):
    root = make_project(
        {
            "notes/keep.md": "fine\n",
            "notes/brainstorm-ideas.md": "noise\n",
            "grimoires/loa/archive/old.md": "old\n",
            "notes/low.md": "---\nsignal: low\n---\nnoise\n",
        }
    )
    sources = ["notes/keep.md", "notes/brainstorm-ideas.md", "grimoires/loa/archive/old.md",
               "notes/low.md"]  # fmt: skip
    tiers = {
        "qmd": ScriptedTier("qmd", TierStatus.SERVED, tuple(hit(s, 0.5, tier="qmd")
                                                          for s in sources)),
    }  # fmt: skip
    result, _ = run(tiers, root, order=("qmd",))
    assert [h.source for h in result.hits] == ["notes/keep.md"]
    assert result.outcome("qmd").reason == "qmd served; 3 filtered, 1 hit left"
    reasons = {f.source: f.reason for f in result.outcome("qmd").filtered}
    assert reasons["notes/brainstorm-ideas.md"] == "exclude glob **/brainstorm-*.md"
    assert reasons["grimoires/loa/archive/old.md"].startswith("archive zone")
    assert reasons["notes/low.md"] == "signal: low (threshold medium)"


def test_a_tier_whose_hits_are_all_filtered_is_empty_and_the_next_serves(make_project):
    root = make_project({"grimoires/loa/archive/old.md": "old\n", "b.md": "b\n"})
    tiers = {
        "qmd": ScriptedTier(
            "qmd", TierStatus.SERVED, (hit("grimoires/loa/archive/old.md", 0.9, tier="qmd"),)
        ),
        "grep": ScriptedTier("grep", TierStatus.SERVED, (hit("b.md", 0.2),)),
    }
    result, _ = run(tiers, root, order=("qmd", "grep"))
    assert result.outcome("qmd").status is TierStatus.EMPTY
    assert result.outcome("qmd").reason == "1 hit, all filtered"
    assert result.served_by == "grep"


def test_cancelled_query_skips_remaining_tiers(tmp_path):
    cancel = threading.Event()

    class Cancelling(ScriptedTier):
        def search(self, request, deadline):
            cancel.set()
            return TierOutcome(self.name, TierStatus.ERROR, "cancelled")

    tiers = {
        "qmd": Cancelling("qmd", TierStatus.ERROR),
        "grep": ScriptedTier("grep", TierStatus.SERVED, (hit("c.md", 0.5),)),
    }
    request = QueryRequest("q", "all", 100, 1.0, ("qmd", "grep"))
    started = time.monotonic()
    result = run_tiers(
        request,
        query_id="q",
        root=tmp_path,
        config=Config(),
        scope=ResolvedScope("all", (), (), ()),
        private_paths=(),
        on_event=lambda e: None,
        cancel=cancel,
        tier_factory=lambda name: tiers[name],
    )
    assert time.monotonic() - started < 5
    assert result.outcome("grep").status is TierStatus.SKIPPED
    assert result.outcome("grep").reason == "query cancelled"
    assert tiers["grep"].calls == []


def test_store_notes_without_lines_about_one_file_are_not_merged(tmp_path):
    notes = (
        Hit("src/auth.py", 0.9, "uses JWT", "store"),
        Hit("src/auth.py", 0.8, "token refresh is missing", "store"),
        Hit("src/auth.py", 0.7, "uses JWT", "store"),
    )
    tiers = {"store": ScriptedTier("store", TierStatus.SERVED, notes)}
    result, _ = run(tiers, tmp_path, order=("store",))
    assert [h.content for h in result.hits] == ["uses JWT", "token refresh is missing"]


# Polly's circuit breaker syntax, once per sync/async and plain/TResult: one doc comment.
BREAKER = "\n".join(f"    /// The circuit breaks when {n} actions fail in a row." for n in range(8))


def test_a_near_copy_whose_name_adds_words_gives_way_to_the_plain_name(tmp_path):
    hits = (
        Hit("src/Polly/CircuitBreaker/AsyncAdvancedCircuitBreakerSyntax.cs", 0.9, BREAKER + "\n1",
            "grep", 1, 9),
        Hit("src/Polly/CircuitBreaker/AdvancedCircuitBreakerSyntax.cs", 0.8, BREAKER + "\n2",
            "grep", 1, 9),
    )  # fmt: skip
    tiers = {"grep": ScriptedTier("grep", TierStatus.SERVED, hits)}
    result, _ = run(tiers, tmp_path, order=("grep",))
    assert [(h.source, h.score) for h in result.hits] == [
        ("src/Polly/CircuitBreaker/AdvancedCircuitBreakerSyntax.cs", 0.9)
    ]


def test_a_near_copy_ranked_above_its_original_gives_way_to_it(tmp_path):
    # The build variant scored higher; the default build's file is served in its place.
    result = run_binding_hits(
        tmp_path, ("binding/binding_nomsgpack.go", NO_MSGPACK), ("binding/binding.go", BINDING)
    )
    assert [(h.source, h.score) for h in result.hits] == [
        ("binding/binding.go", 0.9),
        ("binding/form.go", 0.5),
    ]
    assert result.hits[0].content == BINDING
    assert result.deduplicated == 1


# Textual's App.mount passes its call on to Screen.mount under Widget.mount's docstring:
# two files of their own, neither a copy of the other, whatever their names' order.
MOUNT_DOC = "\n".join(
    f"            {word}: Optional location to mount {word}, an index or a query."
    for word in ("before", "after", "first", "last", "around", "beside")
)


@pytest.mark.parametrize("first", ["src/textual/widget.py", "src/textual/app.py"])
def test_of_near_copies_in_unrelated_files_the_better_ranked_is_served(tmp_path, first):
    second = next(p for p in ("src/textual/widget.py", "src/textual/app.py") if p != first)
    head = f"    def mount(self, *widgets):\n{MOUNT_DOC}\n"
    hits = (
        Hit(first, 0.9, head + "        ...", "grep", 1, 8),
        Hit(second, 0.8, head + "        return", "grep", 1, 8),
    )
    tiers = {"grep": ScriptedTier("grep", TierStatus.SERVED, hits)}
    result, _ = run(tiers, tmp_path, order=("grep",))
    assert [(h.source, h.score) for h in result.hits] == [(first, 0.9)]
    assert result.deduplicated == 1


# nlohmann/json: each header's code is also in the one amalgamated header, 23 times its
# size; that one was kept (a shallower path) and the source file the grep tier ranked
# first was served under its name.
DUMP = (
    "void dump_escaped(const string_t& s)\n{\n    for (auto c : s) {\n        write(c);\n    }\n}"
)


@pytest.mark.parametrize("amalgamated_first", [False, True])
def test_a_passage_also_in_an_amalgamated_file_is_served_from_its_source(
    make_project, amalgamated_first
):
    padding = "".join(f"inline int helper_{n}() {{ return {n}; }}\n" for n in range(400))
    root = make_project(
        {
            "include/nlohmann/detail/output/serializer.hpp": f"#pragma once\n{DUMP}\n",
            "single_include/nlohmann/json.hpp": f"{padding}{DUMP}\n{padding}",
        }
    )
    source = Hit("include/nlohmann/detail/output/serializer.hpp", 0.9, DUMP, "grep", 2, 7)
    amalgamated = Hit("single_include/nlohmann/json.hpp", 0.8, DUMP, "grep", 401, 406)
    if amalgamated_first:
        source, amalgamated = replace(source, score=0.8), replace(amalgamated, score=0.9)
    tiers = {"grep": ScriptedTier("grep", TierStatus.SERVED, (source, amalgamated))}
    result, _ = run(tiers, root, order=("grep",))
    assert [(h.source, h.line_start) for h in result.hits] == [
        ("include/nlohmann/detail/output/serializer.hpp", 2)
    ]
    assert result.deduplicated == 1


def test_a_passage_showing_more_than_its_near_copy_keeps_its_place(make_project):
    # typer's models.py: a class whose docstring quotes a tutorial's program. The tutorial,
    # a small file, is no source of the definition: it shows part of what the hit shows.
    quoted = "\n".join(f"    {line}" for line in DUMP.splitlines())
    definition = f'class Dumper:\n    """Writes escaped text. Example:\n\n{quoted}\n    """'
    padding = "".join(f"inline int helper_{n}() {{ return {n}; }}\n" for n in range(400))
    root = make_project(
        {"src/dumper.py": f"{padding}{definition}\n", "examples/dump.cpp": f"{DUMP}\n"}
    )
    hits = (
        Hit("src/dumper.py", 0.9, definition, "grep", 401, 410),
        Hit("examples/dump.cpp", 0.8, DUMP, "grep", 1, 6),
    )
    result, _ = run({"grep": ScriptedTier("grep", TierStatus.SERVED, hits)}, root, order=("grep",))
    assert [(h.source, h.score) for h in result.hits] == [("src/dumper.py", 0.9)]
    assert result.deduplicated == 1


def test_of_identical_passages_in_files_of_a_size_the_original_is_kept(make_project):
    # A copy (a `.bak`, a deeper path) of about the same size is still the copy.
    root = make_project({"docs/guide.md": DUMP + "\n", "old/docs/guide.md.bak": DUMP + "\n\n"})
    hits = (
        Hit("old/docs/guide.md.bak", 0.9, DUMP, "grep", 1, 6),
        Hit("docs/guide.md", 0.8, DUMP, "grep", 1, 6),
    )
    result, _ = run({"grep": ScriptedTier("grep", TierStatus.SERVED, hits)}, root, order=("grep",))
    assert [h.source for h in result.hits] == ["docs/guide.md"]


# The Rust book: nostarch/chapter02.md is src/ch02-00-guessing-game-tutorial.md again,
# for the printed edition, under "DO NOT EDIT THIS FILE. This file is periodically
# generated from the content in the `/src/` directory". Neither name nor path tells which
# is the original; the copy ranked first and was served in the source's place.
STDIN = "\n".join(
    [
        "### Receiving User Input",
        "",
        "Recall that we included the input/output functionality from the standard",
        "library with `use std::io;` on the first line of the program. Now we will call",
        "the `stdin` function from the `io` module, which will allow us to handle user",
        "input:",
        "",
        "    io::stdin()",
        "        .read_line(&mut guess)",
    ]
)


@pytest.mark.parametrize("generated_first", [True, False])
def test_of_near_copies_the_one_a_tool_generated_gives_way(make_project, generated_first):
    generated = (
        "<!-- DO NOT EDIT THIS FILE.\n\nThis file is periodically generated from the content"
        " in the `/src/` directory, so all fixes need to be made in `/src/`.\n-->\n\n"
    )
    root = make_project(
        {
            "nostarch/chapter02.md": generated + "# Chapter 2\n\n" + STDIN + "\n",
            "src/ch02-00-guessing-game-tutorial.md": "# Guessing Game\n\n" + STDIN + "\n",
        }
    )
    copy = Hit("nostarch/chapter02.md", 0.9, STDIN, "grep", 10, 18)
    source = Hit("src/ch02-00-guessing-game-tutorial.md", 0.8, STDIN + "\n", "grep", 3, 11)
    if not generated_first:
        copy, source = replace(copy, score=0.8), replace(source, score=0.9)
    tiers = {"grep": ScriptedTier("grep", TierStatus.SERVED, (copy, source))}
    result, _ = run(tiers, root, order=("grep",))
    assert [(h.source, h.score) for h in result.hits] == [
        ("src/ch02-00-guessing-game-tutorial.md", 0.9)
    ]
    assert result.deduplicated == 1


# Polly's sync and async policy syntaxes: the same XML doc comment over each twin method,
# the names and a word or two apart (three of six hits on a circuit-breaker question).
SYNC_DOC = "\n".join(
    [
        "    /// <summary>",
        "    /// <para> The circuit will break if, within any timeslice of samplingDuration,",
        "    /// the share of actions resulting in a handled exception exceeds failureThreshold,",
        "    /// provided also that the number of actions through the circuit in the timeslice",
        "    /// is at least minimumThroughput.</para>",
        "    /// <para>The circuit will stay broken for the durationOfBreak.</para>",
        "    /// </summary>",
        '    /// <param name="policyBuilder">The policy builder.</param>',
        '    /// <param name="failureThreshold">The threshold at which the circuit breaks.</param>',
        "    /// <returns>The policy instance.</returns>",
        "    public static CircuitBreakerPolicy AdvancedCircuitBreaker(this PolicyBuilder builder,",
        "        double failureThreshold, TimeSpan samplingDuration, int minimumThroughput)",
    ]
)
ASYNC_DOC = (
    SYNC_DOC.replace(
        "CircuitBreakerPolicy AdvancedCircuitBreaker",
        "AsyncCircuitBreakerPolicy AdvancedCircuitBreakerAsync",
    )
    .replace("The policy builder.", "The async policy builder.")
    .replace("The policy instance.", "The async policy instance.")
)


def test_twins_that_differ_by_a_few_lines_are_served_once(tmp_path):
    hits = (
        Hit("src/Polly/AdvancedCircuitBreakerSyntax.cs", 0.9, SYNC_DOC, "grep", 12, 23),
        Hit("src/Polly/AsyncAdvancedCircuitBreakerSyntax.cs", 0.88, ASYNC_DOC, "grep", 15, 26),
        Hit(
            "src/Polly.Core/AdvancedCircuitBehavior.cs",
            0.5,
            "failures / total >= ratio",
            "grep",
            1,
            1,
        ),
    )
    tiers = {"grep": ScriptedTier("grep", TierStatus.SERVED, hits)}
    result, _ = run(tiers, tmp_path, order=("grep",))
    assert [h.source for h in result.hits] == [
        "src/Polly/AdvancedCircuitBreakerSyntax.cs",
        "src/Polly.Core/AdvancedCircuitBehavior.cs",
    ]
    assert result.deduplicated == 1


KNITTED = (
    "## Overview\n\n"
    "dplyr is a grammar of data manipulation, providing a consistent set of verbs that help"
    " you solve the most common data manipulation challenges, whatever the data source.\n\n"
    "These all combine naturally with `group_by()` which allows you to perform any operation"
    " by group. You can learn more about them in the introduction vignette.\n\n"
    "As well as these single-table verbs, dplyr also provides a variety of two-table verbs,"
    " which you can learn about in the two-table vignette, with joins and set operations.\n"
)


def test_a_copy_wrapped_at_other_columns_is_served_once(tmp_path):
    # An R package's README.md is its README.Rmd knitted, the same words wrapped at 72
    # columns: no line is the same, and both took the budget.
    knitted = "\n\n".join(textwrap.fill(part, 72) for part in KNITTED.split("\n\n"))
    hits = (
        Hit("README.Rmd", 0.55, KNITTED, "grep", 17, 26),
        Hit("README.md", 0.54, knitted, "grep", 4, 16),
        Hit("vignettes/dplyr.Rmd", 0.45, "Use `filter()` to pick rows.\n", "grep", 3, 3),
    )
    tiers = {"grep": ScriptedTier("grep", TierStatus.SERVED, hits)}
    result, _ = run(tiers, tmp_path, order=("grep",))
    assert [h.source for h in result.hits] == ["README.Rmd", "vignettes/dplyr.Rmd"]
    assert result.deduplicated == 1


def test_two_passages_sharing_a_sentence_are_no_copies(tmp_path):
    # A sentence quoted in two pages (a guide and a reference) is no reason to drop either.
    sentence = "The cache keeps each build's outputs for the next build that needs them."
    guide = sentence + "\n" + "\n".join(f"Guide step {n}: run the build again." for n in range(8))
    reference = sentence + "\n" + "\n".join(f"Option {n}: sets the cache size." for n in range(8))
    hits = (
        Hit("docs/guide.md", 0.9, guide, "grep", 1, 9),
        Hit("docs/ref.md", 0.8, reference, "grep", 1, 9),
    )
    tiers = {"grep": ScriptedTier("grep", TierStatus.SERVED, hits)}
    result, _ = run(tiers, tmp_path, order=("grep",))
    assert [h.source for h in result.hits] == ["docs/guide.md", "docs/ref.md"]


def test_code_sharing_only_its_short_boilerplate_lines_is_no_copy(tmp_path):
    # Go's error checks and closing braces are in every function: two functions that share
    # only those are two answers.
    boilerplate = "\tif err != nil {\n\t\treturn err\n\t}\n\treturn nil\n}\n"
    first = "func (s *Server) Start(addr string) error {\n\terr := s.listen(addr)\n" + boilerplate
    second = (
        "func (s *Server) Stop(ctx context.Context) error {\n\terr := s.drain(ctx)\n" + boilerplate
    )
    hits = (
        Hit("server.go", 0.9, first, "grep", 1, 7),
        Hit("shutdown.go", 0.8, second, "grep", 1, 7),
    )
    tiers = {"grep": ScriptedTier("grep", TierStatus.SERVED, hits)}
    result, _ = run(tiers, tmp_path, order=("grep",))
    assert [h.source for h in result.hits] == ["server.go", "shutdown.go"]


def test_a_page_holding_another_hits_text_among_more_is_no_twin_of_it(tmp_path):
    # Textual's FAQ.md is made of its questions/*.question.md: the FAQ's passage, holding
    # one question whole and the next, gave way to that one question and lost the next.
    question = "\n".join(
        f"The terminal's own colour scheme is not used by Textual apps, reason number {n}."
        for n in range(6)
    )
    other = "\n".join(
        f"Textual does not use ANSI themes, because of this long explanation {n}." for n in range(6)
    )
    hits = (
        Hit("docs/FAQ.md", 0.9, question + "\n\n" + other, "grep", 50, 70),
        Hit(
            "questions/transparent-background.question.md",
            0.8,
            "---\ntitle: Colours?\nalt_titles:\n  - scheme\n---\n" + question,
            "grep",
            1,
            11,
        ),
    )
    # The FAQ is many times the question's size: an aggregate, whose parts are originals.
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs/FAQ.md").write_text((question + "\n" + other + "\n") * 10)
    (tmp_path / "questions").mkdir()
    (tmp_path / "questions/transparent-background.question.md").write_text(hits[1].content)
    tiers = {"grep": ScriptedTier("grep", TierStatus.SERVED, hits)}
    result, _ = run(tiers, tmp_path, order=("grep",))
    assert result.hits[0].source == "docs/FAQ.md"
    assert other in result.hits[0].content


# Immer copies `produce`'s doc comment onto its interface's overloads and its implementation.
PRODUCE_DOC = "\n".join(
    [
        "  /**",
        "   * The `produce` function takes a value and a recipe function (whose",
        "   * return value often depends on the base state). The recipe function is",
        "   * free to mutate its first argument however it wants. All mutations are",
        "   * only ever applied to a __copy__ of the base state.",
        "   *",
        '   * Pass only a function to create a "curried producer" which relieves you',
        "   * from passing the recipe function every time.",
        "   *",
        "   * Only plain objects and arrays are made mutable. All other objects are",
        "   * considered uncopyable, and are left as they are by the recipe.",
        "   *",
        "   * @param {any} base - the initial state, left unchanged by the producer",
        "   * @param {Function} recipe - function that receives a proxy of the base",
        "   * @param {Function} patchListener - optional, called with the patches made",
        "   * @returns {any} a new state, or the initial state if nothing was modified",
        "   */",
    ]
)
INTERFACE = (
    PRODUCE_DOC
    + "\n"
    + "\n".join(
        [
            "  <Curried extends AnyFunc>(recipe: Curried): InferCurriedFromRecipe<Curried, false>",
            "  <Base, D = Draft<Base>>(base: Base, recipe: (draft: D) => ValidRecipeReturnType<D>)",
        ]
    )
)
IMPLEMENTATION = (
    PRODUCE_DOC
    + "\n"
    + "\n".join(
        [
            "  produce: IProduce = (base: any, recipe?: any, patchListener?: any) => {",
            '    if (typeof base === "function" && typeof recipe !== "function") {',
            "      const defaultBase = recipe  // the curried producer: a function of the state",
            "      return function curriedProduce(this: any, base = defaultBase, ...args: any[]) {",
            "        return self.produce(base, (draft: any) => recipe.call(this, draft, ...args))",
            "      }",
            "    }",
        ]
    )
)


def test_the_same_doc_comment_over_other_code_is_no_twin(tmp_path):
    # Immer's implementation of `produce`, under the doc comment its interface repeats, was
    # dropped as the interface's twin: "curried produce" never served the code doing it.
    hits = (
        Hit("src/types/types-external.ts", 0.9, INTERFACE, "grep", 20, 30),
        Hit("src/core/immerClass.ts", 0.8, IMPLEMENTATION, "grep", 60, 75),
    )
    tiers = {"grep": ScriptedTier("grep", TierStatus.SERVED, hits)}
    result, _ = run(tiers, tmp_path, order=("grep",))
    assert [h.source for h in result.hits] == [
        "src/types/types-external.ts",
        "src/core/immerClass.ts",
    ]
