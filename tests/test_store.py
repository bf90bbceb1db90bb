"""The context store: schema and FTS sync, read_context semantics, validation, pruning,
concurrency, where the database lives and which run an entry belongs to."""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tierscope.config.model import Config, StoreSettings
from tierscope.store.entries import (
    CONTEXT_TYPES,
    EntryError,
    ReadFilters,
    WriteRequest,
    project_file,
    readable_content,
)
from tierscope.store.location import STORE_ENV, store_path
from tierscope.store.runs import RUN_ID_ENV, current_run_id, leader_start_time
from tierscope.store.search_text import MAX_TERMS, fts_query, search_terms
from tierscope.store.store import ContextStore, StoreError, StoreInterrupted, StoreMissing

REVIEW_ISSUE = json.dumps(
    {
        "issue_type": "over-engineering",
        "description": "Function handles 5 edge cases not in spec",
        "suggestion": "Remove handling for network timeouts",
    }
)
SCRATCHPAD = json.dumps(
    {
        "iteration": 3,
        "done": False,
        "test_status": "failing",
        "next_step": "Fix TypeError in parseConfig by adding null check",
        "blockers": ["Unclear whether config.timeout is optional"],
        "attempted": ["Added try-catch around parse call"],
    }
)
HOSTILE_TEXT = "Auth middleware: content NEAR the gate, and OR not"
HOSTILE_SEARCHES = [
    ('"', 0),
    ('"unbalanced', 0),
    ('"auth', 1),
    ("auth*", 1),
    ("*", 0),
    ("-auth", 1),
    ("NOT auth", 1),
    ("auth AND OR NOT", 1),
    ("content:auth", 1),
    ("context_fts:auth", 0),
    ("NEAR(auth middleware", 1),
    ("((auth", 1),
    ("auth))", 1),
    ("^auth", 1),
    ("auth + middleware", 1),
    ("{content}: gate", 1),
    ("'; DROP TABLE context; --", 0),
    ("\x00auth", 1),
    ("", 1),  # no search text is no search: everything matches
    ("   ", 1),
]


def _with(base: str, **changes) -> str:
    data = json.loads(base)
    for key, value in changes.items():
        if value is ...:
            del data[key]
        else:
            data[key] = value
    return json.dumps(data)


@pytest.fixture
def store(tmp_path):
    with ContextStore.open(tmp_path / "store" / "context.sqlite") as opened:
        yield opened


def write(store: ContextStore, content: str = "a discovery", **fields) -> int:
    fields.setdefault("run_id", "run-1")
    fields.setdefault("type", "discovery")
    return store.write(WriteRequest(content=content, **fields))


def ids(result) -> list[int]:
    return [entry.id for entry in result.entries]


def raw(store: ContextStore) -> sqlite3.Connection:
    return sqlite3.connect(store.path, isolation_level=None)


# --- schema and FTS sync -------------------------------------------------------------


def test_opening_twice_keeps_the_schema_and_the_entries(tmp_path):
    path = tmp_path / "context.sqlite"
    with ContextStore.open(path) as first:
        write(first, "kept across opens")
    with ContextStore.open(path) as second:
        assert second.read(ReadFilters(search="kept")).total == 1


def test_the_database_uses_wal_and_a_busy_timeout(store):
    with raw(store) as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store._connection.execute("PRAGMA busy_timeout").fetchone()[0] > 0


def test_an_inserted_entry_is_found_by_its_words(store):
    entry_id = write(store, "Found existing auth middleware in src/middleware/auth.ts")
    assert ids(store.read(ReadFilters(run_id="run-1", search="middleware"))) == [entry_id]


def test_an_updated_entry_is_found_by_its_new_words_only(store):
    entry_id = write(store, "the cache is stale")
    with raw(store) as connection:
        connection.execute(
            "UPDATE context SET content = 'tokens are fresh' WHERE id = ?", (entry_id,)
        )
    assert store.read(ReadFilters(search="stale")).total == 0
    assert ids(store.read(ReadFilters(search="fresh"))) == [entry_id]


def test_a_deleted_entry_is_no_longer_found(store):
    entry_id = write(store, "ephemeral note")
    with raw(store) as connection:
        connection.execute("DELETE FROM context WHERE id = ?", (entry_id,))
    assert store.read(ReadFilters(search="ephemeral")).total == 0


def test_the_fts_index_passes_its_integrity_check_after_every_kind_of_change(store):
    first = write(store, "alpha beta")
    write(store, "gamma delta")
    with raw(store) as connection:
        connection.execute("UPDATE context SET content = 'epsilon' WHERE id = ?", (first,))
        connection.execute("DELETE FROM context WHERE content = 'gamma delta'")
        # Raises "database disk image is malformed" when index and table disagree.
        connection.execute(
            "INSERT INTO context_fts(context_fts, rank) VALUES ('integrity-check', 1)"
        )


def test_search_stems_words(store):
    entry_id = write(store, "several timeouts happened")
    assert ids(store.read(ReadFilters(search="timeout"))) == [entry_id]


# --- read_context semantics ----------------------------------------------------------


def test_filters_combine_and_the_total_counts_every_match_beyond_the_page(store):
    for n in range(7):
        write(store, f"note {n}", task_id="T1", loop_id="L1", file="src/a.py")
    write(store, "other task", task_id="T2", file="src/a.py")
    write(store, "other file", task_id="T1", loop_id="L1", file="src/b.py")
    write(store, "a decision", type="decision", task_id="T1", loop_id="L1", file="src/a.py")
    write(store, "other run", run_id="run-2", task_id="T1", loop_id="L1", file="src/a.py")

    page = store.read(
        ReadFilters(
            run_id="run-1", types=("discovery",), task_id="T1", loop_id="L1", file="src/a.py",
            limit=3, offset=2,
        )
    )  # fmt: skip
    assert page.total == 7
    assert [e.content for e in page.entries] == ["note 4", "note 3", "note 2"]


def test_several_types_can_be_read_at_once(store):
    write(store, "d", type="discovery")
    write(store, "e", type="error")
    write(store, "x", type="decision")
    result = store.read(ReadFilters(run_id="run-1", types=("error", "decision")))
    assert sorted(e.type for e in result.entries) == ["decision", "error"]


def test_reads_are_newest_first_by_default_and_oldest_first_on_request(store):
    written = [write(store, f"entry {n}") for n in range(5)]
    assert ids(store.read(ReadFilters(run_id="run-1"))) == written[::-1]
    assert ids(store.read(ReadFilters(run_id="run-1", order="asc"))) == written


def test_a_run_sees_only_its_entries_and_no_run_filter_sees_all(store):
    mine = write(store, "mine", run_id="run-1")
    theirs = write(store, "theirs", run_id="run-2")
    assert ids(store.read(ReadFilters(run_id="run-1"))) == [mine]
    assert set(ids(store.read(ReadFilters()))) == {mine, theirs}


def test_search_combines_with_filters_and_counts_only_matches(store):
    write(store, "auth token expired", type="error")
    write(store, "auth token rotated", type="decision")
    write(store, "unrelated", type="error")
    result = store.read(ReadFilters(run_id="run-1", types=("error",), search="auth token"))
    assert result.total == 1
    assert result.entries[0].content == "auth token expired"


def test_search_requires_every_word(store):
    write(store, "budget packer")
    write(store, "budget only")
    result = store.read(ReadFilters(search="budget packer"))
    assert [e.content for e in result.entries] == ["budget packer"]


def test_search_puts_better_matches_first(store):
    weak = write(store, "cache " + "filler " * 30)
    strong = write(store, "cache cache cache")
    assert ids(store.read(ReadFilters(search="cache"))) == [strong, weak]


def test_entries_come_back_with_every_column(store):
    entry_id = write(store, "x", task_id="T", loop_id="L", file="f.py", line=7)
    (entry,) = store.read(ReadFilters()).entries
    assert entry.to_dict() == {
        "id": entry_id, "run_id": "run-1", "type": "discovery", "content": "x",
        "task_id": "T", "loop_id": "L", "file": "f.py", "line": 7,
        "created_at": entry.created_at,
    }  # fmt: skip
    assert entry.created_at[:4].isdigit()


def test_limit_zero_still_reports_the_total(store):
    for _ in range(3):
        write(store)
    result = store.read(ReadFilters(limit=0))
    assert (result.entries, result.total) == ((), 3)


@pytest.mark.parametrize(("search", "matches"), HOSTILE_SEARCHES)
def test_hostile_search_text_is_searched_as_plain_words(store, search, matches):
    write(store, HOSTILE_TEXT)
    assert store.read(ReadFilters(search=search)).total == matches
    # The tier searches only when there are words; blank text finds nothing there.
    assert len(store.search_ranked(search, 5)) == (matches if search.strip() else 0)


@pytest.fixture(scope="module")
def filled_store(tmp_path_factory):
    path = tmp_path_factory.mktemp("filled") / "context.sqlite"
    with ContextStore.open(path) as store:
        store.write_many(WriteRequest("run-1", "discovery", text) for text in (HOSTILE_TEXT, "x"))
        yield store


@settings(max_examples=300, deadline=None)
@given(text=st.text())
def test_no_search_text_makes_a_search_raise(filled_store, text):
    try:
        filters = ReadFilters(search=text)
    except EntryError:  # text that cannot be encoded is refused up front, with a message
        filters = None
    if filters is not None:
        filled_store.read(filters)
    filled_store.search_ranked(text, 5)
    filled_store.search_ranked(text, 5, any_term=True)


@given(text=st.text())
def test_the_fts_query_holds_nothing_but_quoted_words(text):
    query = fts_query(text)
    if query is None:
        assert search_terms(text) == ()
        return
    quoted = re.findall(r'"([^"]*)"', query)
    assert quoted and all(part.isalnum() for part in quoted)
    assert re.sub(r'"[^"]*"', "", query).strip() == ""


def test_a_pasted_document_is_cut_to_a_bounded_number_of_terms():
    text = " ".join(f"word{n}" for n in range(MAX_TERMS * 3))
    assert len(search_terms(text)) == MAX_TERMS


def test_text_without_a_word_matches_nothing(store):
    write(store)
    assert store.read(ReadFilters(search="*** --- ()")).total == 0


def test_a_filter_that_cannot_be_stored_is_refused():
    with pytest.raises(EntryError, match="not valid UTF-8"):
        ReadFilters(search="\ud800")


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("types", ("note",), "unknown type 'note'"),
        ("limit", -1, "limit must be a non-negative integer"),
        ("offset", "3", "offset must be a non-negative integer"),
        ("order", "newest", "order must be 'asc' or 'desc'"),
    ],
)
def test_bad_filters_are_refused_with_a_one_line_reason(field, value, message):
    with pytest.raises(EntryError, match=message) as caught:
        ReadFilters(**{field: value})
    assert "\n" not in str(caught.value)


# --- write validation ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("entry_type", "content"),
    [
        ("discovery", "Found existing auth middleware"),
        ("error", "Cost limit exceeded"),
        ("decision", "Using JWT tokens"),
        ("review_issue", REVIEW_ISSUE),
        ("scratchpad", SCRATCHPAD),
        (
            "scratchpad",
            json.dumps({"iteration": 0, "done": True, "test_status": "passing", "next_step": ""}),
        ),
        ("codebase_analysis", json.dumps({"project_type": "CLI", "tech_stack": ["Python"]})),
    ],
)
def test_every_type_accepts_its_seed_shape(store, entry_type, content):
    entry_id = write(store, content, type=entry_type)
    (entry,) = store.read(ReadFilters()).entries
    assert (entry.id, entry.type, entry.content) == (entry_id, entry_type, content)


@pytest.mark.parametrize(
    ("entry_type", "content", "message"),
    [
        ("discovery", "   ", "discovery: content is empty"),
        ("review_issue", "not json", "review_issue: content is not valid JSON"),
        ("review_issue", "[1, 2]", "review_issue: content must be a JSON object"),
        ("review_issue", _with(REVIEW_ISSUE, issue_type="style"), "issue_type must be one of"),
        ("review_issue", _with(REVIEW_ISSUE, description=...), "description must be a non-empty"),
        ("review_issue", _with(REVIEW_ISSUE, suggestion=3), "suggestion must be a non-empty"),
        ("scratchpad", _with(SCRATCHPAD, iteration="3"), "iteration must be a non-negative"),
        ("scratchpad", _with(SCRATCHPAD, iteration=True), "iteration must be a non-negative"),
        ("scratchpad", _with(SCRATCHPAD, done="no"), "done must be true or false"),
        ("scratchpad", _with(SCRATCHPAD, test_status=...), "test_status must be a string"),
        ("scratchpad", _with(SCRATCHPAD, next_step=None), "next_step must be a string"),
        ("scratchpad", _with(SCRATCHPAD, blockers="none"), "blockers must be a list of strings"),
        ("scratchpad", _with(SCRATCHPAD, attempted=[1]), "attempted must be a list of strings"),
        ("codebase_analysis", '"a summary"', "codebase_analysis: content must be a JSON object"),
        ("codebase_analysis", "{", "codebase_analysis: content is not valid JSON"),
    ],
)
def test_malformed_structured_content_is_refused_and_nothing_is_written(
    store, entry_type, content, message
):
    with pytest.raises(EntryError, match=message) as caught:
        write(store, content, type=entry_type)
    assert "\n" not in str(caught.value)
    assert store.count() == 0


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"type": "note"}, "unknown type 'note'"),
        ({"run_id": " "}, "run_id must be a non-empty string"),
        ({"line": 0}, "line must be a positive integer"),
        ({"line": True}, "line must be a positive integer"),
        ({"task_id": ""}, "task_id must be a non-empty string"),
        ({"content": 12}, "content must be a string"),
    ],
)
def test_bad_fields_are_refused(fields, message):
    base = {"run_id": "r", "type": "discovery", "content": "x"}
    with pytest.raises(EntryError, match=message):
        WriteRequest(**{**base, **fields})


def test_a_batch_with_one_bad_entry_writes_nothing(store):
    def batch():
        yield WriteRequest("run-1", "discovery", "fine")
        yield WriteRequest("run-1", "scratchpad", "{}")

    with pytest.raises(EntryError):
        store.write_many(batch())
    assert store.count() == 0


def test_a_batch_is_written_whole(store):
    written = store.write_many(WriteRequest("run-1", "discovery", f"n{n}") for n in range(3))
    assert list(written) == sorted(ids(store.read(ReadFilters())))


@pytest.mark.parametrize(
    ("entry_type", "content", "expected"),
    [
        ("decision", "Use JWT", "Use JWT"),
        ("review_issue", REVIEW_ISSUE, "Review issue (over-engineering): Function handles 5 edge "
         "cases not in spec Suggestion: Remove handling for network timeouts"),
        ("scratchpad", SCRATCHPAD, "Scratchpad iteration 3 (not done, tests failing). Next step: "
         "Fix TypeError in parseConfig by adding null check. Blockers: Unclear whether "
         "config.timeout is optional. Attempted: Added try-catch around parse call."),
        ("codebase_analysis", json.dumps({"project_type": "CLI", "tech_stack": ["Py", "SQL"]}),
         "project type: CLI. tech stack: Py, SQL"),
    ],
)  # fmt: skip
def test_structured_entries_read_as_one_paragraph(store, entry_type, content, expected):
    write(store, content, type=entry_type)
    (entry,) = store.read(ReadFilters()).entries
    assert readable_content(entry) == expected


# --- pruning -------------------------------------------------------------------------


def test_prune_keeps_the_newest_entries_of_each_type_in_the_run(store):
    discoveries = [write(store, f"d{n}") for n in range(5)]
    errors = [write(store, f"e{n}", type="error") for n in range(2)]
    other_run = [write(store, f"o{n}", run_id="run-2") for n in range(5)]

    deleted = store.prune("run-1", keep=3)

    assert deleted == 2
    assert set(ids(store.read(ReadFilters(run_id="run-1")))) == {*discoveries[-3:], *errors}
    assert set(ids(store.read(ReadFilters(run_id="run-2")))) == set(other_run)


def test_prune_never_removes_codebase_analysis(store):
    analyses = [write(store, json.dumps({"n": n}), type="codebase_analysis") for n in range(3)]
    write(store, "d")
    store.prune("run-1", keep=0)
    assert ids(store.read(ReadFilters(run_id="run-1"))) == analyses[::-1]


def test_prune_keeps_the_search_index_in_step(store):
    for n in range(4):
        write(store, f"pruneable entry {n}")
    store.prune("run-1", keep=1)
    assert store.read(ReadFilters(search="pruneable")).total == 1


def test_prune_refuses_a_negative_keep(store):
    with pytest.raises(EntryError, match="keep must be a non-negative integer"):
        store.prune("run-1", keep=-1)


# --- runs, interruption, errors ------------------------------------------------------


def test_runs_are_listed_most_recent_first_with_their_sizes(store):
    write(store, run_id="old")
    write(store, run_id="new")
    write(store, run_id="new")
    assert [(r.run_id, r.entries) for r in store.runs()] == [("new", 2), ("old", 1)]


def test_a_search_stops_when_its_caller_says_so(store):
    store.write_many(WriteRequest("run-1", "discovery", f"common word {n}") for n in range(2000))
    with pytest.raises(StoreInterrupted):
        store.search_ranked("common word", 10, should_stop=lambda: True)
    assert len(store.search_ranked("common word", 10)) == 10


def test_opening_without_create_refuses_a_missing_database(tmp_path):
    with pytest.raises(StoreMissing):
        ContextStore.open(tmp_path / "absent.sqlite", create=False)
    assert not (tmp_path / "absent.sqlite").exists()


def test_a_file_that_is_not_a_database_is_a_one_line_store_error(tmp_path):
    path = tmp_path / "context.sqlite"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match=r"context store .*not a database") as caught:
        ContextStore.open(path)
    assert "\n" not in str(caught.value)


# --- concurrency ---------------------------------------------------------------------


WRITER = """
import sys
from pathlib import Path
from tierscope.store.entries import WriteRequest
from tierscope.store.store import ContextStore

path, writer = Path(sys.argv[1]), sys.argv[2]
with ContextStore.open(path) as store:
    for n in range(500):
        store.write(WriteRequest(f"run-{writer}", "discovery", f"writer {writer} entry {n}"))
"""


def test_eight_parallel_writer_processes_lose_nothing(tmp_path):
    path = tmp_path / "fresh" / "context.sqlite"  # created by the racing writers themselves
    writers = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(path), str(n)], stderr=subprocess.PIPE)
        for n in range(8)
    ]
    failures = [w.stderr.read() for w in writers if w.wait(120) != 0]
    assert failures == []
    with ContextStore.open(path) as store:
        assert store.count() == 4000
        for n in range(8):
            contents = {e.content for e in store.read(ReadFilters(run_id=f"run-{n}")).entries}
            assert contents == {f"writer {n} entry {i}" for i in range(500)}


def test_opening_waits_for_a_writer_creating_a_new_database(tmp_path):
    # Another process is creating the schema of a new (not yet WAL) database: switching
    # it to WAL gets "database is locked" at once, without SQLite's busy wait.
    path = tmp_path / "context.sqlite"
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    holder.execute("CREATE TABLE racing (a)")
    release = threading.Timer(0.3, lambda: holder.execute("ROLLBACK"))
    release.start()
    try:
        with ContextStore.open(path, busy_timeout=10) as store:
            assert store.count() == 0
    finally:
        release.join()
        holder.close()


def test_opening_gives_up_when_the_lock_outlasts_the_busy_timeout(tmp_path):
    path = tmp_path / "context.sqlite"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    holder.execute("CREATE TABLE racing (a)")
    try:
        with pytest.raises(StoreError, match="database is locked"):
            ContextStore.open(path, busy_timeout=0.2)
    finally:
        holder.execute("ROLLBACK")
        holder.close()


# --- location and runs ---------------------------------------------------------------


def test_the_default_store_is_per_project_under_the_user_data_dir(tmp_path, monkeypatch):
    monkeypatch.delenv(STORE_ENV, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    first = store_path(tmp_path / "a" / "repo", Config())
    second = store_path(tmp_path / "b" / "repo", Config())
    assert first.name == "context.sqlite"
    assert first.parent.parent == tmp_path / "data" / "tierscope" / "projects"
    assert first.parent.name.startswith("repo-") and len(first.parent.name) == len("repo-") + 8
    assert first != second


def test_the_configured_store_path_is_root_relative_and_inside_the_project(tmp_path, monkeypatch):
    monkeypatch.delenv(STORE_ENV, raising=False)
    root = tmp_path / "repo"
    root.mkdir()
    relative = Config(store=StoreSettings(path=".state/ctx.sqlite"))
    inside = Config(store=StoreSettings(path=str(root / "db" / "ctx.sqlite")))
    assert store_path(root, relative) == root / ".state/ctx.sqlite"
    assert store_path(root, inside) == root / "db" / "ctx.sqlite"
    # Out of the project (absolute, `..`, or through a link): the project's config does
    # not choose where on the machine tierscope writes; the default store is used.
    (tmp_path / "elsewhere").mkdir()
    (root / "linked").symlink_to(tmp_path / "elsewhere")
    for outside in (str(tmp_path / "elsewhere.sqlite"), "../x.sqlite", "linked/ctx.sqlite"):
        config = Config(store=StoreSettings(path=outside))
        assert store_path(root, config) == store_path(root, Config()), outside


def test_a_store_file_that_is_a_link_out_of_the_project_is_not_used(tmp_path, monkeypatch):
    monkeypatch.delenv(STORE_ENV, raising=False)
    root = tmp_path / "repo"
    root.mkdir()
    (root / "ctx.sqlite").symlink_to(tmp_path / "elsewhere.sqlite")  # dangling: sqlite
    config = Config(store=StoreSettings(path="ctx.sqlite"))  # would create it out there
    assert store_path(root, config) == store_path(root, Config())


def test_the_environment_overrides_the_configured_store(tmp_path, monkeypatch):
    monkeypatch.setenv(STORE_ENV, str(tmp_path / "env.sqlite"))
    config = Config(store=StoreSettings(path="configured.sqlite"))
    assert store_path(tmp_path, config) == tmp_path / "env.sqlite"


def test_the_run_id_comes_from_the_flag_then_the_environment_then_the_session(monkeypatch):
    monkeypatch.setenv(RUN_ID_ENV, "from-env")
    assert current_run_id("from-flag") == "from-flag"
    assert current_run_id(None) == "from-env"
    monkeypatch.delenv(RUN_ID_ENV)
    session = current_run_id(None)
    assert session.startswith("sid-")
    assert current_run_id(None) == session


def test_the_session_run_includes_the_leaders_start_time(tmp_path):
    stat = tmp_path / "42" / "stat"
    stat.parent.mkdir()
    fields = ["S"] + [str(n) for n in range(4, 22)] + ["987654", "0"]
    stat.write_text(f"42 (odd ) name (x) {' '.join(fields)}\n")
    assert leader_start_time(42, proc=tmp_path) == 987654
    assert leader_start_time(43, proc=tmp_path) is None


def test_files_are_stored_root_relative(tmp_path):
    root = tmp_path / "repo"
    assert project_file(str(root / "src" / "a.py"), root, tmp_path) == "src/a.py"
    assert project_file("a.py", root, root / "src") == "src/a.py"
    assert project_file("../lib/../b.py", root, root / "src") == "b.py"
    assert project_file("/etc/hosts", root, root) == "/etc/hosts"


def test_every_seed_type_is_known():
    assert CONTEXT_TYPES == (
        "discovery", "error", "decision", "review_issue", "scratchpad", "codebase_analysis",
    )  # fmt: skip
