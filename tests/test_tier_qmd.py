"""The qmd tier against a faithful fake `qmd` on PATH: mapping, one OR query (on qmd's index
file, or of lex lines through the CLI), ranking from the files, scope, statuses, models,
cleanup, and index freshness."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from tierscope.config.model import Config, QmdSettings
from tierscope.models import ResolvedScope, TierStatus
from tierscope.tiers import qmd_collections, qmd_freshness, qmd_rank
from tierscope.tiers.base import Deadline, TierRequest
from tierscope.tiers.qmd import CANDIDATES, QmdTier
from tierscope.tiers.qmd_cli import parse_results, split_uri
from tierscope.tiers.qmd_collections import Collection, collection_files, read_registry
from tierscope.tiers.qmd_freshness import check_freshness
from tierscope.tiers.qmd_locations import locate
from tierscope.tiers.qmd_plan import NOT_INSTALLED
from tierscope.tiers.qmd_rank import collection_size

from process_watch import gone_soon
from qmd_rankings import (
    RANKING_COLLECTION,
    RANKING_WORDS,
    ranked_by_fast_path,
    ranked_by_qmd_search,
    ranking_files,
)
from tier_projects import (
    QMD_PROJECT_FILES,
    SELECTION_MASKS,
    translated_page,
    write_files,
    write_selection_tree,
)

FAKE_QMD = Path(__file__).parent / "fakes" / "qmd"
GENEROUS = 30.0

FILES = {
    **QMD_PROJECT_FILES,
    "grimoires/loa/ignored.txt": "budget budget budget\n",
}


@pytest.fixture(autouse=True)
def quiet_environment(monkeypatch):
    for name in (
        "FAKE_QMD_BEHAVIOUR",
        "FAKE_QMD_ARGV_LOG",
        "FAKE_QMD_PIDFILE",
        "INDEX_PATH",
        "QMD_CONFIG_DIR",
    ):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def qmd_on_path(tmp_path, monkeypatch) -> Path:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    launcher = bin_dir / "qmd"
    # Run the fake with this interpreter: a `python3` found through a version-manager shim
    # costs a quarter of a second per call.
    launcher.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{FAKE_QMD}" "$@"\n')
    launcher.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    return bin_dir / "qmd"


@pytest.fixture
def root(tmp_path) -> Path:
    return write_files(tmp_path / "project", FILES)


def qmd(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["qmd", *args], cwd=cwd, capture_output=True, text=True, check=True)


@pytest.fixture
def indexed(qmd_on_path, root) -> Path:
    """The project with a collection for the grimoire."""
    qmd("collection", "add", "grimoires/loa", "--name", "loa-grimoire", cwd=root)
    return root


@pytest.fixture
def indexed_all(indexed) -> Path:
    """The project with collections for the grimoire, its reality folder and the skills."""
    qmd("collection", "add", "grimoires/loa/reality", "--name", "loa-reality", cwd=indexed)
    qmd("collection", "add", ".claude/skills", "--name", "loa-skills", cwd=indexed)
    return indexed


@pytest.fixture
def through_cli(monkeypatch) -> None:
    """Search through the qmd command, never its index file: for tests of the calls made
    and of what qmd prints."""
    monkeypatch.setenv("TIERSCOPE_QMD_FAST_PATH", "0")


@pytest.fixture
def argv_log(tmp_path, monkeypatch) -> Path:
    log = tmp_path / "argv.jsonl"
    monkeypatch.setenv("FAKE_QMD_ARGV_LOG", str(log))
    return log


def logged_calls(log: Path) -> list[list[str]]:
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text().splitlines()]


def make_request(
    root: Path,
    query: str,
    *,
    collections: tuple[str, ...] = ("loa-grimoire",),
    config: Config | None = None,
    refresh: bool = False,
    private_paths: tuple[Path, ...] = (),
) -> TierRequest:
    scope = ResolvedScope(name="grimoires", qmd_collections=collections, ck_paths=(), grep_paths=())
    return TierRequest(
        query=query,
        root=root,
        scope=scope,
        config=config or Config(),
        timeout=GENEROUS,
        private_paths=private_paths,
        refresh=refresh,
    )


def search(request: TierRequest, seconds: float = GENEROUS):
    return QmdTier().search(request, Deadline.after(seconds))


def with_qmd(**settings) -> Config:
    return replace(Config(), qmd=QmdSettings(**settings))


def index_file() -> Path:
    return Path(os.environ["XDG_CACHE_HOME"]) / "qmd" / "index.sqlite"


def bump_mtime(path: Path) -> None:
    """Make a change visible to mtime comparisons even on coarse-grained filesystems."""
    later = time.time() + 5
    os.utime(path, (later, later))


# ------------------------------------------------------------------------------ mapping


def test_served_hits_are_root_relative_with_their_lines_and_no_snippet_header(indexed):
    outcome = search(make_request(indexed, "token budget"))

    assert outcome.status is TierStatus.SERVED
    [hit] = outcome.hits
    assert hit.source == "grimoires/loa/NOTES.md"
    assert hit.tier == "qmd"
    assert 0.0 <= hit.score <= 1.0
    assert not hit.content.startswith("@@")
    lines = (indexed / hit.source).read_text().splitlines()
    assert hit.content == "\n".join(lines[hit.line_start - 1 : hit.line_end])
    assert "The token budget caps" in hit.content


def test_a_file_name_with_spaces_and_parentheses_maps_back_to_the_file(indexed):
    outcome = search(make_request(indexed, "harbour crane"))

    assert [hit.source for hit in outcome.hits] == ["grimoires/loa/sprint notes (draft 2).md"]
    assert (indexed / outcome.hits[0].source).is_file()


def test_every_collection_of_the_scope_is_searched_in_one_call(indexed_all, argv_log, through_cli):
    collections = ("loa-grimoire", "loa-skills")
    outcome = search(make_request(indexed_all, "sprint", collections=collections))

    [argv] = logged_calls(argv_log)
    assert argv[:3] == ["query", "--no-rerank", "--json"]
    assert argv[argv.index("-c") :] == [
        "-c", "loa-grimoire", "-c", "loa-skills", "--", "lex: sprint",
    ]  # fmt: skip
    sources = {hit.source for hit in outcome.hits}
    assert ".claude/skills/implement/SKILL.md" in sources
    assert "grimoires/loa/sprint notes (draft 2).md" in sources


def test_the_result_limit_comes_from_the_config(indexed, argv_log, through_cli):
    outcome = search(make_request(indexed, "the budget rollback", config=with_qmd(limit=1)))

    assert len(outcome.hits) == 1
    [argv] = logged_calls(argv_log)
    assert argv[argv.index("-n") + 1] == str(CANDIDATES)


def test_a_query_starting_with_a_dash_is_searched_for_its_words(indexed, argv_log, through_cli):
    outcome = search(make_request(indexed, "--kubernetes"))

    [argv] = logged_calls(argv_log)
    assert argv[-2:] == ["--", "lex: kubernetes"]
    assert [hit.source for hit in outcome.hits] == ["grimoires/loa/prd.md"]


def test_a_query_without_words_is_empty_without_starting_qmd(indexed, argv_log):
    outcome = search(make_request(indexed, '-- "" ---'))

    assert outcome.status is TierStatus.EMPTY
    assert logged_calls(argv_log) == []


def test_scores_below_min_score_are_dropped_and_counted(indexed):
    outcome = search(make_request(indexed, "token budget", config=with_qmd(min_score=1.0)))

    assert outcome.status is TierStatus.EMPTY
    assert any("below min_score 1.0" in note for note in outcome.notes)


def test_hits_in_tierscope_private_state_are_never_returned(indexed):
    private = indexed / "grimoires/loa/reality"
    outcome = search(make_request(indexed, "lighthouse", private_paths=(private,)))

    assert outcome.hits == ()
    assert any("tierscope's own state" in note for note in outcome.notes)


@pytest.mark.parametrize(
    ("uri", "expected"),
    [
        ("qmd://notes/deploy.md", ("notes", "deploy.md")),
        ("qmd://notes/a b/(c).md", ("notes", "a b/(c).md")),
        ("qmd://notes/sub/x.md?index=work", ("notes", "sub/x.md")),
        ("qmd://notes", None),
        ("qmd:///x.md", None),
    ],
)
def test_qmd_uris_split_into_collection_and_verbatim_relative_path(uri, expected):
    assert split_uri(uri) == expected


# ------------------------------------------------------------------- OR, ranked from files


def test_a_multi_word_query_finds_documents_holding_any_word_in_one_call(
    indexed, argv_log, through_cli
):
    outcome = search(make_request(indexed, "kubernetes lighthouse"))

    [argv] = logged_calls(argv_log)
    assert argv[:2] == ["query", "--no-rerank"]
    assert argv[-1] == "lex: kubernetes\nlex: lighthouse"
    assert list(outcome.argv[1:]) == argv
    assert outcome.status is TierStatus.SERVED
    assert {hit.source for hit in outcome.hits} == {
        "grimoires/loa/prd.md",
        "grimoires/loa/reality/api.md",
    }


def test_a_word_with_two_spellings_is_sent_as_both(indexed, argv_log, through_cli):
    search(make_request(indexed, "kubernetes colour"))

    [argv] = logged_calls(argv_log)
    assert argv[-1] == "lex: kubernetes\nlex: color\nlex: colour"


def test_a_word_with_irregular_forms_is_sent_with_them(indexed, argv_log, through_cli):
    search(make_request(indexed, "kubernetes children"))

    [argv] = logged_calls(argv_log)
    assert argv[-1] == "lex: kubernetes\nlex: child\nlex: children"


def test_an_abbreviation_is_sent_with_the_word_it_stands_for(indexed, argv_log, through_cli):
    search(make_request(indexed, "kubernetes msg"))

    [argv] = logged_calls(argv_log)
    assert argv[-1] == "lex: kubernetes\nlex: msg\nlex: message"


def test_an_everyday_word_is_sent_with_the_technical_word_it_stands_for(
    indexed, argv_log, through_cli
):
    search(make_request(indexed, "kubernetes folder"))

    [argv] = logged_calls(argv_log)
    assert argv[-1] == "lex: kubernetes\nlex: folder\nlex: directory"


def test_stopwords_are_not_sent_as_lex_lines(indexed, argv_log, through_cli):
    search(make_request(indexed, "what is the kubernetes lighthouse"))

    [argv] = logged_calls(argv_log)
    assert argv[-1] == "lex: kubernetes\nlex: lighthouse"


def test_a_query_no_document_matches_is_empty_after_one_call(indexed, argv_log):
    outcome = search(make_request(indexed, "xylophone zeppelin"))

    assert outcome.status is TierStatus.EMPTY
    assert len(logged_calls(argv_log)) == 1


def test_documents_are_ranked_and_cut_from_the_files_themselves(indexed):
    outcome = search(make_request(indexed, "token budget"))

    [hit] = outcome.hits
    assert hit.source == "grimoires/loa/NOTES.md"
    assert (
        "## Token budget\n\nThe token budget caps how much context a skill receives.\n"
        "Budgets are counted in tokens."
    ) in hit.content
    lines = (indexed / hit.source).read_text().split("\n")
    assert hit.content == "\n".join(lines[hit.line_start - 1 : hit.line_end])
    assert dict(hit.terms).keys() >= {"token", "budget"}


def test_a_word_inside_an_identifier_is_found_in_the_index_as_the_grep_tier_finds_it(
    qmd_on_path, tmp_path
):
    # qmd's tokenizer reads `Tree.NodeCollapsed` as the words tree and nodecollapsed, so
    # "collaps"* never matched it: on Textual's docs, "items the user can expand and
    # collapse" found no tree.md through qmd, which the grep tier ranked third.
    root = write_files(
        tmp_path / "project",
        {
            "grimoires/loa/tree.md": "# Tree\n\nPosts `Tree.NodeCollapsed` when a node closes.\n",
            "grimoires/loa/menu.md": "# Menu\n\nAn uncollapsible menu of items.\n",
            "grimoires/loa/notes.md": "# Notes\n\nNothing about it here.\n",
        },
    )
    qmd("collection", "add", "grimoires/loa", "--name", "loa-grimoire", cwd=root)

    outcome = search(make_request(root, "collapse"))

    assert outcome.argv[0] == "qmd-index"
    assert outcome.status is TierStatus.SERVED
    # Inside a word part (`uncollapsible`) it is no match, as in the grep tier.
    assert [hit.source for hit in outcome.hits] == ["grimoires/loa/tree.md"]


def test_hits_outside_the_scope_paths_are_dropped_and_counted(indexed):
    request = make_request(indexed, "lighthouse kubernetes")
    scope = replace(request.scope, name="notes", grep_paths=(indexed / "grimoires/loa/prd.md",))
    outcome = search(replace(request, scope=scope))

    assert [hit.source for hit in outcome.hits] == ["grimoires/loa/prd.md"]
    assert "1 results left out: outside scope notes" in outcome.notes


def test_a_file_deleted_since_indexing_is_never_served(indexed):
    (indexed / "grimoires/loa/reality/api.md").unlink()

    outcome = search(make_request(indexed, "lighthouse"))

    assert outcome.status is TierStatus.EMPTY
    assert "1 results left out: file no longer exists" in outcome.notes


def test_a_file_changed_since_indexing_is_served_as_it_is_now(indexed):
    notes = indexed / "grimoires/loa/NOTES.md"
    notes.write_text(notes.read_text().replace("caps how much", "limits how much"))

    outcome = search(make_request(indexed, "token budget"))

    assert "The token budget limits how much context" in outcome.hits[0].content
    assert any("1 file changed since indexed" in note for note in outcome.notes)


# ------------------------------------------------------------------------ availability


def test_a_missing_binary_is_unavailable(path_without_tools, root):
    outcome = search(make_request(root, "token budget"))

    assert outcome.status is TierStatus.UNAVAILABLE
    assert outcome.reason == NOT_INSTALLED


def test_an_unknown_collection_is_unavailable_without_starting_qmd(indexed, argv_log):
    outcome = search(make_request(indexed, "token budget", collections=("loa-grimoire-x",)))

    assert outcome.status is TierStatus.UNAVAILABLE
    assert outcome.reason == "qmd: collection loa-grimoire-x not found"
    assert logged_calls(argv_log) == []


def test_no_collections_at_all_is_unavailable(qmd_on_path, root):
    outcome = search(make_request(root, "token budget"))

    assert outcome.status is TierStatus.UNAVAILABLE
    assert outcome.reason == "qmd: collection loa-grimoire not found"


def test_known_collections_are_searched_when_others_are_missing(indexed, argv_log, through_cli):
    collections = ("loa-grimoire", "loa-nowhere")
    outcome = search(make_request(indexed, "token budget", collections=collections))

    assert outcome.status is TierStatus.SERVED
    [argv] = logged_calls(argv_log)
    assert "loa-nowhere" not in argv
    assert any("collection loa-nowhere not found" in note for note in outcome.notes)


def test_probe_reports_collection_roots_and_qmd_files(indexed):
    probe = QmdTier().probe(make_request(indexed, "x"))

    assert probe.usable
    assert probe.details["collections"] == {"loa-grimoire": str(indexed / "grimoires/loa")}
    assert probe.details["index_file"] == str(index_file())


def test_an_unparseable_index_yml_is_resolved_by_asking_qmd(indexed, argv_log):
    config_file = Path(os.environ["XDG_CONFIG_HOME"]) / "qmd" / "index.yml"
    # A value the YAML reader rejects but qmd's own parser tolerates.
    config_file.write_text(config_file.read_text() + "    note: [unclosed\n")

    outcome = search(make_request(indexed, "token budget"))

    assert outcome.status is TierStatus.SERVED
    assert outcome.hits[0].source == "grimoires/loa/NOTES.md"
    assert logged_calls(argv_log)[0][:2] == ["collection", "show"]
    assert any("asked qmd collection show" in note for note in outcome.notes)


# ----------------------------------------------------------------------------- models


def test_hybrid_mode_without_models_uses_bm25_and_never_starts_the_hanging_call(
    indexed, argv_log, through_cli
):
    outcome = search(make_request(indexed, "token budget", config=with_qmd(mode="query")), 10)

    assert outcome.status is TierStatus.SERVED
    assert [argv[:2] for argv in logged_calls(argv_log)] == [["query", "--no-rerank"]]
    models_dir = Path(os.environ["XDG_CACHE_HOME"]) / "qmd" / "models"
    assert (
        f"qmd: hybrid query needs models (none in {models_dir}); used BM25 search" in outcome.notes
    )


def test_hybrid_mode_with_models_but_no_embeddings_uses_bm25(indexed, argv_log, through_cli):
    models_dir = Path(os.environ["XDG_CACHE_HOME"]) / "qmd" / "models"
    models_dir.mkdir(parents=True)
    for name in (
        "hf_ggml-org_embeddinggemma-300M-Q8_0.gguf",
        "hf_tobil_qmd-query-expansion-1.7B-q4_k_m.gguf",
        "hf_ggml-org_qwen3-reranker-0.6b-q8_0.gguf",
    ):
        (models_dir / name).write_bytes(b"GGUF" + bytes(16))

    outcome = search(make_request(indexed, "token budget", config=with_qmd(mode="query")), 10)

    assert [argv[:2] for argv in logged_calls(argv_log)] == [["query", "--no-rerank"]]
    assert any("have no embeddings" in note for note in outcome.notes)


def test_an_unknown_mode_is_an_error(indexed):
    outcome = search(make_request(indexed, "token budget", config=with_qmd(mode="vector")))

    assert outcome.status is TierStatus.ERROR
    assert "unsupported qmd mode 'vector'" in outcome.reason


# ------------------------------------------------------------------ faults and cleanup


def test_a_hung_qmd_times_out_with_the_time_it_was_given(indexed, monkeypatch, tmp_path):
    pidfile = tmp_path / "pid"
    monkeypatch.setenv("FAKE_QMD_BEHAVIOUR", "hang")
    monkeypatch.setenv("FAKE_QMD_PIDFILE", str(pidfile))

    outcome = search(make_request(indexed, "token budget"), seconds=1.0)

    assert outcome.status is TierStatus.TIMEOUT
    assert outcome.reason == "timed out after 1.0 s"
    assert gone_soon(int(pidfile.read_text()))


def test_a_hung_worker_process_is_killed_with_its_launcher(indexed, monkeypatch, tmp_path):
    pidfile = tmp_path / "pid"
    monkeypatch.setenv("FAKE_QMD_BEHAVIOUR", "hang-with-child")
    monkeypatch.setenv("FAKE_QMD_PIDFILE", str(pidfile))

    outcome = search(make_request(indexed, "token budget"), seconds=1.5)

    assert outcome.status is TierStatus.TIMEOUT
    assert gone_soon(int(pidfile.read_text()))


def test_a_crash_is_an_error_naming_the_node_error(indexed, monkeypatch, through_cli):
    monkeypatch.setenv("FAKE_QMD_BEHAVIOUR", "crash")

    outcome = search(make_request(indexed, "token budget"))

    assert outcome.status is TierStatus.ERROR
    assert outcome.reason == (
        "qmd exited with code 1: SqliteError: database disk image is malformed"
    )


def test_malformed_output_keeps_the_good_entries_and_counts_the_rest(
    indexed, monkeypatch, through_cli
):
    monkeypatch.setenv("FAKE_QMD_BEHAVIOUR", "malformed")

    outcome = search(make_request(indexed, "token budget"))

    assert outcome.status is TierStatus.SERVED
    assert [hit.source for hit in outcome.hits] == ["grimoires/loa/NOTES.md"]
    # A stray line, a broken element and an element without a file.
    assert outcome.dropped_lines == 3
    assert "3 malformed entries dropped" in outcome.reason


def test_a_complete_array_of_wrong_shapes_is_dropped_entry_by_entry():
    stdout = json.dumps([{"file": "qmd://c/a.md", "score": 0.5}, {"score": 1}, 3]).encode()

    entries, dropped = parse_results(stdout)

    assert [e["file"] for e in entries] == ["qmd://c/a.md"]
    assert dropped == 2


# ---------------------------------------------------------------------------- freshness


def staleness(outcome) -> list[str]:
    return [note for note in outcome.notes if "behind" in note]


def test_a_fresh_index_adds_no_staleness_note(indexed):
    outcome = search(make_request(indexed, "token budget"))

    assert staleness(outcome) == []


def test_changed_added_and_removed_files_are_reported_as_behind(indexed):
    grimoire = indexed / "grimoires/loa"
    (grimoire / "prd.md").write_text("# Product requirements\n\nNow with a token budget.\n")
    bump_mtime(grimoire / "prd.md")
    (grimoire / "new.md").write_text("# New\n\nA token budget appendix.\n")
    (grimoire / "sprint notes (draft 2).md").unlink()

    outcome = search(make_request(indexed, "token budget"))

    assert staleness(outcome) == [
        "qmd: index 3 files behind (1 changed, 1 added, 1 removed);"
        " refresh with --refresh or qmd update"
    ]
    # And qmd itself has not seen them: the new file is not found.
    assert [hit.source for hit in outcome.hits] == ["grimoires/loa/NOTES.md"]


def test_touching_a_file_without_changing_it_is_not_stale(indexed):
    bump_mtime(indexed / "grimoires/loa/NOTES.md")

    outcome = search(make_request(indexed, "token budget"))

    assert staleness(outcome) == []


def test_files_outside_the_mask_and_whitespace_only_files_do_not_count(indexed):
    grimoire = indexed / "grimoires/loa"
    (grimoire / "other.txt").write_text("token budget\n")
    (grimoire / "blank.md").write_text("  \n\n")
    (grimoire / "node_modules").mkdir()
    (grimoire / "node_modules" / "dep.md").write_text("# dep\n")
    (grimoire / ".hidden.md").write_text("# hidden\n")

    outcome = search(make_request(indexed, "token budget"))

    assert staleness(outcome) == []


def test_staleness_names_each_collection_of_a_multi_collection_scope(indexed_all):
    (indexed_all / "grimoires/loa/reality/new.md").write_text("# New reality\n")
    collections = ("loa-grimoire", "loa-reality", "loa-skills")

    outcome = search(make_request(indexed_all, "token budget", collections=collections))

    assert staleness(outcome) == [
        "qmd: index 2 files behind (loa-grimoire: 1 added; loa-reality: 1 added);"
        " refresh with --refresh or qmd update"
    ]


def test_refresh_updates_the_index_first_and_clears_the_note(indexed, argv_log, through_cli):
    (indexed / "grimoires/loa/new.md").write_text("# New\n\nThe zeppelin manifest.\n")

    outcome = search(make_request(indexed, "zeppelin", refresh=True))

    assert [argv[0] for argv in logged_calls(argv_log)] == ["update", "query"]
    assert outcome.status is TierStatus.SERVED
    assert [hit.source for hit in outcome.hits] == ["grimoires/loa/new.md"]
    assert staleness(outcome) == []
    assert any(note.startswith("qmd: index refreshed (qmd update") for note in outcome.notes)


def test_the_refresh_config_key_refreshes_too(indexed, argv_log, through_cli):
    search(make_request(indexed, "token budget", config=with_qmd(refresh=True)))

    assert [argv[0] for argv in logged_calls(argv_log)] == ["update", "query"]


def test_no_refresh_by_default(indexed, argv_log, through_cli):
    (indexed / "grimoires/loa/new.md").write_text("# New\n\nThe zeppelin manifest.\n")

    outcome = search(make_request(indexed, "zeppelin"))

    assert [argv[0] for argv in logged_calls(argv_log)] == ["query"]
    assert outcome.status is TierStatus.EMPTY
    assert staleness(outcome)


def test_a_hung_refresh_times_out_and_says_so(indexed, monkeypatch):
    monkeypatch.setenv("FAKE_QMD_BEHAVIOUR", "hang")

    outcome = search(make_request(indexed, "token budget", refresh=True), seconds=1.0)

    assert outcome.status is TierStatus.TIMEOUT
    assert outcome.reason == "timed out after 1.0 s (during qmd update)"


def test_an_index_with_an_unknown_schema_falls_back_to_file_times(tmp_path):
    root = tmp_path / "notes"
    root.mkdir()
    (root / "old.md").write_text("# old\n")
    index = tmp_path / "index.sqlite"
    sqlite3.connect(index).execute("CREATE TABLE documents (id INTEGER)").connection.commit()
    (root / "new.md").write_text("# new\n")
    bump_mtime(root / "new.md")

    freshness = check_freshness(Collection("notes", root), index)

    assert freshness.method == "mtimes"
    assert freshness.changed == ("new.md",)


def write_documents_index(index: Path, collection: str, paths: list[str]) -> None:
    """An index in qmd's documents layout holding `paths`, none of them hashed right."""
    connection = sqlite3.connect(index)
    connection.execute(
        "CREATE TABLE documents (collection TEXT, path TEXT, hash TEXT, modified_at TEXT,"
        " active INTEGER)"
    )
    connection.executemany(
        "INSERT INTO documents VALUES (?, ?, 'not-a-hash', NULL, 1)",
        [(collection, path) for path in paths],
    )
    connection.commit()
    connection.close()


@pytest.mark.parametrize("layout", ["documents", "unknown"])
def test_the_freshness_walk_measures_the_collection_as_ranking_needs(tmp_path, layout):
    root = tmp_path / "notes"
    (root / "deep").mkdir(parents=True)
    (root / "old.md").write_text("# old\n\nsome words\n")
    (root / "deep" / "new.md").write_text("# new\n" * 50)
    (root / "blank.md").write_text("")
    (root / "skipped.txt").write_text("not in the mask\n")
    (root / "link.md").symlink_to(root / "old.md")
    index = tmp_path / "index.sqlite"
    if layout == "documents":
        write_documents_index(index, "notes", ["old.md", "gone.md"])
    else:
        sqlite3.connect(index).execute("CREATE TABLE documents (id INTEGER)").connection.commit()
    collection = Collection("notes", root)

    freshness = check_freshness(collection, index)

    assert freshness.method == ("hashes" if layout == "documents" else "mtimes")
    assert freshness.size == collection_size((collection,)) == (3, 18 + 300)


def test_the_qmd_tier_ranks_with_the_size_the_freshness_walk_found(
    indexed, through_cli, monkeypatch
):
    walks = []
    real_walk = qmd_collections.collection_files

    def counted_walk(collection):
        walks.append(collection.name)
        return real_walk(collection)

    monkeypatch.setattr(qmd_freshness, "collection_files", counted_walk)
    monkeypatch.setattr(qmd_rank, "collection_files", counted_walk)

    outcome = search(make_request(indexed, "token budget"))

    assert outcome.status is TierStatus.SERVED
    assert walks == ["loa-grimoire"]


def test_collection_files_follow_qmd_masks():
    assert Collection("c", Path("/x")).selects("a/b/c.md")
    assert Collection("c", Path("/x")).selects("top.md")
    assert not Collection("c", Path("/x")).selects("a/b/c.txt")
    comma = Collection("c", Path("/x"), mask="**/*.md,*.txt")
    assert comma.selects("notes.txt") and not comma.selects("sub/notes.txt")
    braces = Collection("c", Path("/x"), mask="docs/**/*.{md,rst}")
    assert braces.selects("docs/a/b.rst") and not braces.selects("src/b.rst")
    ignoring = Collection("c", Path("/x"), ignore=("archive/**",))
    assert not ignoring.selects("archive/old.md")


@pytest.mark.parametrize("mask", SELECTION_MASKS)
def test_collection_files_are_the_files_qmd_indexes(qmd_on_path, tmp_path, mask):
    root = write_selection_tree(tmp_path / "tree")
    qmd("collection", "add", ".", "--name", "tree", "--mask", mask, cwd=root)

    indexed = sqlite3.connect(index_file()).execute(
        "SELECT path FROM documents WHERE collection = 'tree' AND active = 1"
    )
    selected = {path for path, entry in collection_files(Collection("tree", root, mask))}
    assert {path for (path,) in indexed} == selected - {"blank.md"}


def test_collection_files_skip_links_hidden_names_and_build_directories(tmp_path):
    (tmp_path / "a.md").write_text("# a\n")
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "b.md").write_text("# b\n")
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "c.md").write_text("# c\n")
    (tmp_path / "link.md").symlink_to(tmp_path / "a.md")

    found = sorted(relative for relative, _ in collection_files(Collection("c", tmp_path)))

    assert found == ["a.md"]


def test_locations_follow_qmd_environment_variables(tmp_path):
    env = {"HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    env["QMD_CONFIG_DIR"] = str(tmp_path / "conf")

    locations = locate(tmp_path, env)

    assert locations.config_file == tmp_path / "conf" / "index.yml"
    assert locations.index_file == tmp_path / "cache" / "qmd" / "index.sqlite"
    assert locations.models_dir == tmp_path / "cache" / "qmd" / "models"


def test_a_project_local_qmd_config_wins(tmp_path):
    (tmp_path / ".qmd").mkdir()
    (tmp_path / ".qmd" / "index.yml").write_text("collections: {}\n")
    (tmp_path / "sub").mkdir()

    locations = locate(tmp_path / "sub", {"HOME": str(tmp_path)})

    assert locations.project_local
    assert locations.index_file == tmp_path / ".qmd" / "index.sqlite"


def test_the_registry_reads_what_qmd_writes(indexed_all):
    registry = read_registry(locate(indexed_all).config_file)

    assert registry.problem == ""
    assert set(registry.collections) == {"loa-grimoire", "loa-reality", "loa-skills"}
    grimoire = registry.collections["loa-grimoire"]
    assert grimoire.root == indexed_all / "grimoires/loa"
    assert grimoire.mask == "**/*.md"
    assert registry.models["embed"].startswith("hf:")


# ---------------------------------------------------------------------- the index fast path


@pytest.fixture
def ranking(qmd_on_path, tmp_path) -> Path:
    """A collection whose matches all score apart (see qmd_rankings)."""
    root = write_files(tmp_path / "ranking", ranking_files())
    qmd("collection", "add", ".", "--name", RANKING_COLLECTION, cwd=root)
    return root


@pytest.mark.parametrize("word", RANKING_WORDS)
def test_the_index_fast_path_ranks_and_scores_as_qmd_search_does(ranking, word):
    direct = ranked_by_fast_path(index_file(), RANKING_COLLECTION, word, 50)
    through_cli = ranked_by_qmd_search(ranking, RANKING_COLLECTION, word, 50)

    assert len(direct) >= 10
    assert all(0 < score < 1 for _, score in direct)
    assert direct == through_cli


@pytest.mark.parametrize(
    "query", ["token budget", "rollback", "lighthouse", "crane repaired", "kubernetes lighthouse"]
)
def test_reading_the_index_directly_agrees_with_the_qmd_cli(indexed_all, monkeypatch, query):
    collections = ("loa-grimoire", "loa-skills")
    direct = search(make_request(indexed_all, query, collections=collections))
    monkeypatch.setenv("TIERSCOPE_QMD_FAST_PATH", "0")
    through_cli = search(make_request(indexed_all, query, collections=collections))

    assert direct.argv[0] == "qmd-index"
    assert through_cli.argv[0].endswith("qmd")
    assert direct.status is through_cli.status is TierStatus.SERVED
    assert [(h.source, h.score, h.content) for h in direct.hits] == [
        (h.source, h.score, h.content) for h in through_cli.hits
    ]


def test_reading_the_index_directly_ors_every_term_in_one_match(indexed, argv_log):
    outcome = search(make_request(indexed, "kubernetes lighthouse"))

    assert outcome.status is TierStatus.SERVED
    assert outcome.argv[-1] == '"kubernet"* OR "lighthous"*'
    assert any(note.endswith("directly (no Node start)") for note in outcome.notes)
    assert [argv[0] for argv in logged_calls(argv_log)] in ([], ["--version"])
    assert {h.source for h in outcome.hits} == {
        "grimoires/loa/prd.md",
        "grimoires/loa/reality/api.md",
    }


def test_an_english_question_gets_the_english_page_over_a_translation(qmd_on_path, root):
    write_files(root, translated_page("site"))
    qmd("collection", "add", "site", "--name", "site", cwd=root)

    outcome = search(make_request(root, "dependency_overrides get_db", collections=("site",)))

    assert [hit.source for hit in outcome.hits] == ["site/en/docs/testing.md"]


def served_and_grepped(root: Path, pages: dict[str, str], query: str, monkeypatch):
    """`query` answered by the qmd tier from a collection of `pages` (notes/) of which
    only qmd's best three are read, and by the grep tier over the same folder."""
    from tierscope.tiers import qmd as qmd_module
    from tierscope.tiers.grep import GrepTier

    root = write_files(root, pages)
    qmd("collection", "add", "notes", "--name", "notes", cwd=root)
    monkeypatch.setattr(qmd_module, "CANDIDATES", 3)
    served = search(make_request(root, query, collections=("notes",)))
    scope = ResolvedScope(
        name="notes", qmd_collections=(), ck_paths=(), grep_paths=(root / "notes",)
    )
    grep_request = TierRequest(query=query, root=root, scope=scope, config=Config(), timeout=5)
    return served, GrepTier().search(grep_request, Deadline.after(5.0))


def test_terms_weigh_as_rare_as_in_the_whole_collection_when_candidates_are_cut(
    qmd_on_path, tmp_path, monkeypatch
):
    # Textual's docs (330 pages) against qmd.CANDIDATES (200): a long question matched
    # every page, only qmd's best 200 were read, and a common word counted as rare as it
    # was among those 200. The qmd tier ranked three questions apart from the grep tier
    # over the same pages. Its scores now are the grep tier's, whatever the cut.
    pages = {f"notes/budget-{n}.md": f"# Page {n}\n\nThe budget of team {n}.\n" for n in range(6)}
    pages["notes/rollback.md"] = "# Rollback\n\nA rollback undoes a deploy.\n"
    pages["notes/rollback-budget.md"] = "# Limits\n\nThe rollback budget caps retries.\n"
    served, grepped = served_and_grepped(
        tmp_path / "project", pages, "rollback budget", monkeypatch
    )

    assert served.status is TierStatus.SERVED and served.argv[0] == "qmd-index"
    # Of qmd's best three, the pages on rollback: a page on the budget alone scores below
    # 30% of the best, as in the grep tier (it scored 0.34 to rollback.md's 0.42).
    assert [(hit.source, hit.score) for hit in served.hits] == [
        (hit.source, hit.score) for hit in grepped.hits
    ]
    assert [hit.source for hit in served.hits] == ["notes/rollback-budget.md", "notes/rollback.md"]


def test_a_word_counts_as_rare_as_it_is_not_as_the_longer_words_it_begins(
    qmd_on_path, tmp_path, monkeypatch
):
    # Textual's docs, `text box`: the index searches `"text"*`, which every page holds as
    # `Textual`; counted so, `text` weighed nothing, and the pages on text inputs fell out
    # of the first ten that the grep tier ranked fifth.
    pages = {f"notes/page-{n}.md": f"# Page {n}\n\nTextual draws box {n}.\n" for n in range(6)}
    pages["notes/input.md"] = "# Input\n\nA text box takes text.\n"
    pages["notes/log.md"] = "# Log\n\nThe log shows text in Textual.\n"
    served, grepped = served_and_grepped(tmp_path / "project", pages, "text box", monkeypatch)

    assert served.status is TierStatus.SERVED and served.argv[0] == "qmd-index"
    assert served.hits[0].source == "notes/input.md"
    grep_scores = {hit.source: hit.score for hit in grepped.hits}
    assert [(hit.source, hit.score) for hit in served.hits] == [
        (hit.source, grep_scores.get(hit.source)) for hit in served.hits
    ]
