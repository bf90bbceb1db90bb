"""The term index (`tierscope index`): a query counts from it exactly what reading every
file would count, reads again what changed, lists again when files come and go, and is
never trusted when it is broken, planted or another project's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tierscope.config.model import Config, GrepSettings
from tierscope.models import ResolvedScope
from tierscope.ranking.analysis import query_terms
from tierscope.ranking.matching import TermMatcher
from tierscope.tiers import grep_indexed
from tierscope.tiers.base import Deadline, TierRequest
from tierscope.tiers.grep import _GrepSearch, find_ripgrep
from tierscope.tiers.grep_indexed import matched_tokens
from tierscope.tiers.term_index import (
    TEXT,
    IndexedFile,
    Postings,
    TermIndex,
    count_tokens,
    index_path,
    write_index,
)
from tierscope.tiers.term_index_build import build_term_index

pytestmark = pytest.mark.skipif(find_ripgrep() is None, reason="rg not available")

PROJECT: dict[str, str | bytes] = {
    "docs/guide.md": "# Token budgets\n\nThe tokenBudget, token_budget and token-budget.\n"
    "Run with --dry-run first. Released in v0.28; see 0.28.1 too.\n",
    "docs/api/budget.py": "def getTokenBudget(limit):\n    '''The budget of tokens.'''\n"
    "    return TOKEN_BUDGET_DEFAULT  # tokens\n",
    "docs/naive.md": "Überblick: ein naïve Ansatz für TokenBudgets und Budgetierung.\n",
    "docs/ignored/old.md": "token budget, ignored by docs/.gitignore\n",
    "docs/.gitignore": "ignored/\n",
    "docs/.hidden/secret.md": "token budget in a hidden folder\n",
    "docs/data.json": '{"token": "budget"}\n',
    "docs/blob.bin": b"token budget\x00\x01\x02 binary",
    "docs/big.md": "token budget " * 400,
    "docs/utf16.md": "token budget in UTF-16\n".encode("utf-16"),
    "docs/review/notes.md": "Review the tokens; reviewing budgets; reviewer's budget.\n",
    ".claude/skills/budget/SKILL.md": "# Budget skill\n\nKeeps the token budget.\n",
    # Counts of 255 and more are kept past a posting's own 8 bits.
    "docs/many.md": "budget " * 256 + "\n" + "token " * 255 + "\nreview\n",
}
QUERIES = [
    "token budget",
    "dry run",
    "0.28",
    "getTokenBudget",
    "überblick naive",
    "review the tokens",
    "budget skill",
    "TOKEN_BUDGET_DEFAULT",
]
OLD = time.time() - 3600


def age(root: Path) -> None:
    """Every file and folder an hour old: nothing is racy when the index is built."""
    for folder, folders, files in os.walk(root):
        for name in files + folders:
            os.utime(os.path.join(folder, name), (OLD, OLD), follow_symlinks=False)
    os.utime(root, (OLD, OLD))


def config(**grep) -> Config:
    return replace(Config(), grep=replace(GrepSettings(max_filesize=4000), **grep))


def scope_of(root: Path, paths=("docs",), include=()) -> ResolvedScope:
    places = tuple((root / p).resolve() for p in paths)
    return ResolvedScope("docs", (), (), places, include=include)


def counted(root: Path, query: str, settings: Config, scope: ResolvedScope, private=()):
    """The grep tier's counts for `query`: (engine, notes, frequencies, files, bytes)."""
    request = TierRequest(query, root, scope, settings, 5.0, private_paths=private)
    search = _GrepSearch("grep", request, Deadline.after(5.0))
    found = search.candidates(TermMatcher(query_terms(query)))
    assert found is not None and not hasattr(found, "status"), found
    return search.engine, search.notes, found.frequencies, found.documents, found.total_bytes


def build(root: Path, settings: Config, scope: ResolvedScope, private=()):
    built = build_term_index(root, settings, [scope], private)
    assert built is not None
    return built


def same_as_reading(root, query, scope, settings=None, private=(), reader="ripgrep"):
    """Counts with the index and without it; asserts they agree, returns the notes."""
    settings = settings or config()
    engine, notes, *with_index = counted(root, query, settings, scope, private)
    plain_engine, _, *read = counted(root, query, replace(settings, grep=replace(
        settings.grep, use_index=False)), scope, private)  # fmt: skip
    assert plain_engine == reader
    assert with_index == read, query
    return engine, notes


@pytest.fixture
def project(make_project):
    root = make_project(PROJECT)
    age(root)
    return root


@pytest.mark.parametrize("query", QUERIES)
def test_the_index_counts_what_reading_every_file_counts(project, query):
    scope = scope_of(project, ("docs", ".claude/skills"))
    built = build(project, config(), scope)
    assert built.listing_kept and built.racy == 0
    engine, notes = same_as_reading(project, query, scope)
    assert engine == "term index"
    assert not any("listing the files again" in note for note in notes)
    assert any(note.endswith(", 0 read again") for note in notes)
    if query == "token budget":
        *_, frequencies, _, _ = counted(project, query, config(), scope)
        assert frequencies["docs/many.md"] == {"budget": 256, "token": 255}


def test_a_scope_with_include_globs_counts_the_same(project):
    build(project, config(), scope_of(project))
    for include in (("*.py",), ("review/*.md",), ("*.MD",)):
        engine, _ = same_as_reading(
            project, "token budget review", scope_of(project, include=include)
        )
        assert engine == "term index"


def test_a_file_changed_since_is_read_again(project):
    scope = scope_of(project)
    build(project, config(), scope)
    guide = project / "docs/guide.md"
    text = guide.read_text()
    guide.write_text(text.replace("Token budgets", "Dry runs here"))  # same size
    os.utime(guide, (OLD, OLD))  # and the same mtime: its ctime still tells
    engine, notes = same_as_reading(project, "dry run budgets", scope)
    assert engine == "term index"
    assert any(note.endswith(", 1 read again") for note in notes)


@pytest.mark.parametrize("change", ["add", "remove", "rename", "unignore"])
def test_files_added_removed_or_unignored_are_listed_again(project, change):
    scope = scope_of(project)
    build(project, config(), scope)
    docs = project / "docs"
    if change == "add":
        (docs / "api" / "new.md").write_text("a new token budget page\n")
    elif change == "remove":
        (docs / "naive.md").unlink()
    elif change == "rename":
        (docs / "review" / "notes.md").rename(docs / "review" / "tokens.md")
    else:
        folder = os.stat(docs)
        (docs / ".gitignore").write_text("# nothing ignored now\n")  # in place
        os.utime(docs / ".gitignore", (OLD, OLD))
        assert os.stat(docs) == folder  # only the ignore file's own `stat` tells
    engine, notes = same_as_reading(project, "token budget review", scope)
    assert engine == "term index"
    assert any("listing the files again" in note for note in notes)


@pytest.mark.parametrize("change", ["private folder made", "folder touched"])
def test_a_folder_whose_entries_are_as_they_were_keeps_the_listing(project, change):
    # tierscope writes its trajectories inside a searched folder (a Loa project's
    # grimoires/loa/a2a/trajectory/): making that folder changes its parent's `stat`.
    scope = scope_of(project)
    private = ((project / "docs/api/trajectory").resolve(),)
    build(project, config(), scope, private)
    if change == "private folder made":
        (project / "docs/api/trajectory").mkdir()
        (project / "docs/api/trajectory/log.jsonl").write_text('{"token": "budget"}\n')
    else:
        os.utime(project / "docs/api")
    for _ in range(2):
        engine, notes = same_as_reading(project, "token budget", scope, private=private)
        assert engine == "term index"
        assert not any("listing the files again" in note for note in notes), notes


def test_a_folder_found_as_it_was_is_not_read_again_at_every_query(project, monkeypatch):
    # A new user's first query after `tierscope index` makes the trajectory folder inside
    # a searched one (the bench's a2a/ of 1,500 folders): every later query read that
    # folder's entries again, 3.5 ms each time. What a query found is kept beside the
    # index, for the folder's `stat` as it found it.
    from tierscope.tiers import cached_listing

    scope = scope_of(project)
    private = ((project / "docs/api/trajectory").resolve(),)
    build(project, config(), scope, private)
    (project / "docs/api/trajectory").mkdir()
    reads: list[Path] = []
    digest = cached_listing._entries_digest
    monkeypatch.setattr(
        cached_listing,
        "_entries_digest",
        lambda folder, names: reads.append(folder) or digest(folder, names),
    )
    for _ in range(3):
        engine, notes = same_as_reading(project, "token budget", scope, private=private)
        assert engine == "term index"
        assert not any("listing the files again" in note for note in notes), notes
    assert reads == [project / "docs/api"]
    # The folder changes again: read again, and a name added lists the files again.
    (project / "docs/api/new.md").write_text("token budget\n")
    engine, notes = same_as_reading(project, "token budget", scope, private=private)
    assert any("listing the files again" in note for note in notes), notes
    # What a query kept is for that index only: built again, it starts afresh.
    (project / "docs/api/new.md").unlink()
    build(project, config(), scope, private)
    reads.clear()
    os.utime(project / "docs/api")
    for _ in range(2):
        same_as_reading(project, "token budget", scope, private=private)
    assert reads == [project / "docs/api"]


def test_a_file_modified_just_before_it_was_read_is_read_again_later(make_project, monkeypatch):
    # A project just cloned: its files' times are now, and a change in the same clock
    # tick would not show in their `stat`. The build waits that out and reads them again.
    from tierscope.tiers import term_index_build

    monkeypatch.setattr(term_index_build, "RACY_NS", 300_000_000)  # a shorter window
    root = make_project(PROJECT)
    age(root)
    os.utime(root / "docs/guide.md")  # now
    scope = scope_of(root)
    built = build(root, config(), scope)
    assert built.waited > 0 and built.racy == 0
    engine, notes = same_as_reading(root, "token budget", scope)
    assert engine == "term index"
    assert any(note.endswith(", 0 read again") for note in notes)


def test_an_ignore_file_written_just_before_the_build_does_not_spoil_the_listing(
    make_project, monkeypatch
):
    # `tierscope demo` copies a project and `tierscope index` follows at once: the copied
    # .gitignore's `stat` was too new to be trusted, and every query listed the files.
    from tierscope.tiers import term_index_build

    monkeypatch.setattr(term_index_build, "RACY_NS", 300_000_000)  # a shorter window
    root = make_project(PROJECT)
    age(root)
    os.utime(root / "docs/.gitignore")  # now
    scope = scope_of(root)
    built = build(root, config(), scope)
    assert built.listing_kept and built.waited > 0
    engine, notes = same_as_reading(root, "token budget", scope)
    assert engine == "term index"
    assert not any("listing the files again" in note for note in notes), notes


def test_a_file_changing_while_the_build_waits_is_never_trusted(make_project, monkeypatch):
    from tierscope.tiers import term_index_build

    monkeypatch.setattr(term_index_build, "RACY_NS", 300_000_000)  # a shorter window
    root = make_project(PROJECT)
    age(root)
    guide = root / "docs/guide.md"
    os.utime(guide)
    real_sleep = time.sleep

    def sleep_and_edit(seconds):
        real_sleep(seconds)
        guide.write_text(guide.read_text() + "more token budget\n")

    monkeypatch.setattr(term_index_build.time, "sleep", sleep_and_edit)
    scope = scope_of(root)
    built = build(root, config(), scope)
    assert built.racy == 1
    monkeypatch.setattr(term_index_build.time, "sleep", real_sleep)
    for _ in range(2):
        engine, notes = same_as_reading(root, "token budget", scope)
        assert engine == "term index"
        assert any(note.endswith(", 1 read again") for note in notes)


def test_too_many_changes_and_every_file_is_read(project, monkeypatch):
    scope = scope_of(project)
    build(project, config(), scope)
    for path in (project / "docs").rglob("*.md"):
        path.write_bytes(path.read_bytes() + b" budget\n")
    monkeypatch.setattr(grep_indexed, "LIVE_FILES_LIMIT", 2)
    engine, notes = same_as_reading(project, "token budget", scope)
    assert engine == "ripgrep"
    assert any("files changed since it was built" in note for note in notes)


@pytest.mark.parametrize("damage", ["garbage", "truncated", "empty", "another-root", "link"])
def test_a_broken_or_planted_index_is_not_used(project, make_project, damage):
    scope = scope_of(project)
    build(project, config(), scope)
    path = Path(index_path(project))
    if damage == "garbage":
        path.write_bytes(os.urandom(4096))
    elif damage == "truncated":
        path.write_bytes(path.read_bytes()[:-7])
    elif damage == "empty":
        path.write_bytes(b"")
    elif damage == "another-root":
        other = make_project({"docs/other.md": "token budget elsewhere\n"}, name="other")
        age(other)
        build(other, config(), scope_of(other))
        path.write_bytes(Path(index_path(other)).read_bytes())
    else:
        target = path.with_name("real.bin")
        path.rename(target)
        path.symlink_to(target)
    engine, notes = same_as_reading(project, "token budget", scope)
    assert engine == "ripgrep"
    assert any(note.startswith("term index not used") for note in notes)


def test_building_writes_through_no_link(project, tmp_path):
    path = Path(index_path(project))
    path.parent.mkdir(parents=True, exist_ok=True)
    victim = tmp_path / "victim"
    victim.write_text("keep me")
    path.symlink_to(victim)
    build(project, config(), scope_of(project))
    assert victim.read_text() == "keep me"
    assert path.is_file() and not path.is_symlink()


@pytest.mark.parametrize("query", QUERIES[:3])
def test_without_ripgrep_the_index_counts_what_the_python_scan_counts(project, query, monkeypatch):
    monkeypatch.setenv("TIERSCOPE_GREP_ENGINE", "python")
    scope = scope_of(project, ("docs", ".claude/skills"))
    build(project, config(), scope)
    engine, _ = same_as_reading(project, query, scope, reader="python scan")
    assert engine == "term index"
    (project / "docs/api/new.md").write_text("a new token budget page\n")
    # Files come and go: without ripgrep to list them, the scan reads every file.
    engine, _ = same_as_reading(project, query, scope, reader="python scan")
    assert engine == "python scan"


def test_switched_off_by_config(project):
    scope = scope_of(project)
    build(project, config(), scope)
    engine, *_ = counted(project, "token budget", config(use_index=False), scope)
    assert engine == "ripgrep"


def test_other_filtering_settings_list_the_files_again(project):
    scope = scope_of(project)
    build(project, config(), scope)
    wider = replace(config(), filtering=replace(config().filtering, include_machine_data=True))
    engine, notes = same_as_reading(project, "token budget", scope, wider)
    assert engine == "term index"
    assert any("filtering settings changed" in note for note in notes)


def test_when_the_walk_and_ripgrep_disagree_queries_list_with_ripgrep(project, monkeypatch):
    from tierscope.tiers import term_index_build

    real_walk = term_index_build._walk

    def walk_missing_one(*args):
        walked, visited = real_walk(*args)
        walked = {place: found[1:] for place, found in walked.items()}
        return walked, visited

    monkeypatch.setattr(term_index_build, "_walk", walk_missing_one)
    scope = scope_of(project)
    built = build(project, config(), scope)
    assert not built.listing_kept
    engine, notes = same_as_reading(project, "token budget review", scope)
    assert engine == "term index"
    assert not any("listing the files again" in note for note in notes)


def test_files_coming_while_the_index_is_built_leave_no_listing(project, monkeypatch):
    # The folders' `stat`s are taken after the walk and the reading; a file added
    # between the two is in neither the listing nor a later change of those `stat`s.
    from tierscope.tiers import term_index_build

    real_read = term_index_build._Reader.read

    def read_then_add(self, source):
        late = project / "docs/api/late.md"
        if not late.exists():
            late.write_text("a late token budget page\n")
        return real_read(self, source)

    monkeypatch.setattr(term_index_build._Reader, "read", read_then_add)
    scope = scope_of(project)
    built = build(project, config(), scope)
    assert not built.listing_kept
    monkeypatch.setattr(term_index_build._Reader, "read", real_read)
    engine, notes = same_as_reading(project, "token budget", scope)
    assert engine == "term index"
    assert any(note.endswith(", 1 read again") for note in notes)


WORDS = st.sampled_from(
    ["token", "Token", "tokens", "budget", "tokenBudget", "token_budget", "token-budget",
     "dry-run", "dryRun", "0.28", "v0.28", "0.28.1", "review", "reviewer's", "über",
     "naïve", "İstanbul", "x25vw", "TOKEN", "budgeting", "overview", "view"]
)  # fmt: skip
# roff's escaped hyphen (`escape\-time`) joins a name's parts as `-` does.
GLUE = st.sampled_from([" ", "\n", ".", "-", "_", "/", "(", "", ", ", "\t", "…", "\\-", "\\"])


@settings(max_examples=200, deadline=None)
@example([("token", "\\-"), ("budget", " ")], "tokenBudget")  # tmux.1's `escape\-time`
@given(
    st.lists(st.tuples(WORDS, GLUE), max_size=30),
    st.sampled_from([*QUERIES, "view", "über", "dryRun", "v0.28", "x25vw", "tokenBudget"]),
)
def test_counting_by_token_is_counting_the_text(pieces, query):
    text = "".join(word + glue for word, glue in pieces)
    matcher = TermMatcher(query_terms(query))
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "index.bin")
        entry = IndexedFile("a.md", len(text), 1, 1, 1, TEXT, len(text))
        gathered = Postings()
        gathered.add(0, count_tokens(text))
        write_index(path, Path(folder), 0, [entry], gathered)
        with TermIndex.open(path) as index:
            counts: dict[str, int] = {}
            for token, keys in matched_tokens(matcher, index).items():
                for number, occurrences in index.postings(token):
                    assert number == 0
                    for key, times in keys.items():
                        counts[key] = counts.get(key, 0) + occurrences * times
    assert counts == matcher.count(text)


def test_the_command_builds_reports_and_removes(project):
    (project / ".tierscope.yaml").write_text(
        "qmd_context:\n  scopes:\n    docs: {grep_paths: [docs/]}\n"
    )
    age(project)

    def tierscope(*args):
        return subprocess.run(
            [sys.executable, "-m", "tierscope", "--root", str(project), "index", *args],
            capture_output=True,
            text=True,
            check=False,
        )

    def doctor_says():
        doctor = subprocess.run(
            [sys.executable, "-m", "tierscope", "--root", str(project), "doctor"],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        return next(line for line in doctor.stdout.splitlines() if "term index" in line)

    before = json.loads(tierscope("--status", "--json").stdout)
    assert before["exists"] is False
    assert "none (`tierscope index` builds one" in doctor_says()
    made = tierscope()
    assert made.returncode == 0, made.stderr
    assert made.stdout.startswith("indexed ")
    status = json.loads(tierscope("--status", "--json").stdout)
    assert status["usable"] and status["changed"] == 0 and status["files"] > 5
    assert " MB, built " in doctor_says()

    def query():
        return subprocess.run(
            [sys.executable, "-m", "tierscope", "--root", str(project), "query", "token budget",
             "--scope", "docs", "--tiers", "grep", "--explain"],
            capture_output=True, text=True, check=False,
        ).stdout  # fmt: skip

    # A folder touched, found as it was: noted beside the index.
    os.utime(project / "docs")
    assert "term index: " in query()
    folders_found = Path(status["path"] + ".folders")
    assert folders_found.exists()
    (project / "docs/new.md").write_text("token budget\n")
    status = json.loads(tierscope("--status", "--json").stdout)
    assert status["changed"] == 1
    assert "term index: " in query()
    assert json.loads(tierscope("--remove", "--json").stdout)["removed"] is True
    assert not Path(status["path"]).exists()
    assert not folders_found.exists()


def test_a_user_cache_that_is_no_folder_is_no_index(project, tmp_path, monkeypatch):
    cache = tmp_path / "cache-file"
    cache.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    status = subprocess.run(
        [sys.executable, "-m", "tierscope", "--root", str(project), "index", "--status",
         "--json"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert json.loads(status.stdout)["exists"] is False
    engine, notes = same_as_reading(project, "token budget", scope_of(project))
    assert engine == "ripgrep" and not any("term index" in note for note in notes)
    built = subprocess.run(
        [sys.executable, "-m", "tierscope", "--root", str(project), "index"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert built.returncode == 1 and "cannot build the term index" in built.stderr


def test_a_ripgrep_listing_that_never_ends_fails_the_build_in_bounded_time(
    make_project, monkeypatch
):
    # ripgrep blocks opening a FIFO named like an ignore file: `tierscope index` waited
    # ten minutes for its listing before saying "ripgrep failed".
    from tierscope.tiers import term_index_build

    root = make_project({"docs/a.md": "token budget\n"})
    os.mkfifo(root / "docs" / ".ignore")
    monkeypatch.setattr(term_index_build, "LISTING_SECONDS", 1.0)
    started = time.monotonic()
    with pytest.raises(term_index_build.ListingFailed, match="did not list the files within"):
        build_term_index(root, config(), [scope_of(root)], ())
    assert time.monotonic() - started < 10
