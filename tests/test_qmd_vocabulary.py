"""qmd's index tokens, listed once per change of the index, for finding a query word inside
an identifier's token (`nodecollaps` for "collapse"), which qmd's tokenizer never splits."""

from __future__ import annotations

import marshal
import sqlite3
from pathlib import Path

import pytest

from tierscope.tiers import qmd_vocabulary
from tierscope.tiers.base import Deadline
from tierscope.tiers.qmd_vocabulary import INNER_TOKENS, inner_tokens


def write_index(path: Path, bodies: list[str]) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute(
            "CREATE VIRTUAL TABLE IF NOT EXISTS documents_fts USING fts5("
            "filepath, title, body, tokenize='porter unicode61')"
        )
        conn.executemany(
            "INSERT INTO documents_fts (filepath, title, body) VALUES ('', '', ?)",
            [(body,) for body in bodies],
        )
    conn.close()


@pytest.fixture
def cache_file(tmp_path, monkeypatch) -> Path:
    path = tmp_path / "cache" / "qmd-vocabulary.marshal"
    monkeypatch.setattr(qmd_vocabulary, "_cache_file", lambda: str(path))
    return path


@pytest.fixture
def listings(monkeypatch) -> list[int]:
    """One entry per listing of an index's vocabulary."""
    made: list[int] = []
    listed = qmd_vocabulary._list_tokens

    def counted(conn, deadline):
        made.append(1)
        return listed(conn, deadline)

    monkeypatch.setattr(qmd_vocabulary, "_list_tokens", counted)
    return made


def tokens_holding(index: Path, stems: dict[str, str]) -> dict[str, list[str]]:
    conn = sqlite3.connect(f"{index.as_uri()}?mode=ro", uri=True)
    try:
        return inner_tokens(conn, index, stems, Deadline.after(10))
    finally:
        conn.close()


def test_tokens_holding_a_stem_after_their_start_only(tmp_path, cache_file):
    index = tmp_path / "index.sqlite"
    write_index(index, ["Posts Tree.NodeCollapsed", "a collapsed node", "NodeCollapsed again"])

    found = tokens_holding(index, {"collaps": "collaps", "node": "node"})

    assert found == {"collaps": ["nodecollaps"]}  # `collaps` itself starts its token


def test_a_short_stem_is_not_looked_for_inside_tokens(tmp_path, cache_file, listings):
    index = tmp_path / "index.sqlite"
    write_index(index, ["the build uses a GUI"])

    assert tokens_holding(index, {"ui": "ui"}) == {}
    assert listings == []  # nothing to look for: the vocabulary is not even listed


def test_the_tokens_in_most_documents_come_first_and_are_capped(tmp_path, cache_file):
    index = tmp_path / "index.sqlite"
    names = [f"Node{letter}{other}Collapsed" for letter in "abcdefgh" for other in "abcdefgh"]
    write_index(index, [*names, "NodeZCollapsed " * 3, "NodeZCollapsed"])

    [found] = tokens_holding(index, {"collaps": "collaps"}).values()

    assert len(found) == INNER_TOKENS < len(names) + 1
    assert found[0] == "nodezcollaps"  # in two documents, every other in one


def test_the_vocabulary_is_listed_again_only_when_the_index_changes(tmp_path, cache_file, listings):
    index = tmp_path / "index.sqlite"
    write_index(index, ["Tree.NodeCollapsed"])
    assert tokens_holding(index, {"collaps": "k"}) == {"k": ["nodecollaps"]}
    assert tokens_holding(index, {"collaps": "k"}) == {"k": ["nodecollaps"]}
    assert len(listings) == 1

    write_index(index, ["Panel.WasCollapsed"])

    assert tokens_holding(index, {"collaps": "k"}) == {"k": ["nodecollaps", "wascollaps"]}
    assert len(listings) == 2


def test_without_a_cache_the_vocabulary_is_listed_every_time(tmp_path, monkeypatch, listings):
    monkeypatch.setattr(qmd_vocabulary, "_cache_file", lambda: None)
    index = tmp_path / "index.sqlite"
    write_index(index, ["Tree.NodeCollapsed"])

    for _ in range(2):
        assert tokens_holding(index, {"collaps": "k"}) == {"k": ["nodecollaps"]}
    assert len(listings) == 2


def test_a_planted_cache_entry_of_another_shape_is_ignored(tmp_path, cache_file):
    index = tmp_path / "index.sqlite"
    write_index(index, ["Tree.NodeCollapsed"])
    key = qmd_vocabulary._index_key(index)
    cache_file.parent.mkdir(parents=True)
    cache_file.write_bytes(marshal.dumps({key: ["nodecollaps"]}))

    assert tokens_holding(index, {"collaps": "k"}) == {"k": ["nodecollaps"]}


def test_a_planted_listing_adds_no_search_syntax(tmp_path, cache_file):
    index = tmp_path / "index.sqlite"
    write_index(index, ["Tree.NodeCollapsed"])
    key = qmd_vocabulary._index_key(index)
    cache_file.parent.mkdir(parents=True)
    planted = 'x" OR collaps OR "y\nnodecollaps\nnode collaps'
    cache_file.write_bytes(marshal.dumps({key: planted}))

    assert tokens_holding(index, {"collaps": "k"}) == {"k": ["nodecollaps"]}


def test_a_listing_past_its_time_is_given_up_until_the_index_changes(
    tmp_path, cache_file, listings, monkeypatch
):
    # A large index's vocabulary must not spend the tier's timeout on every query.
    monkeypatch.setattr(qmd_vocabulary, "LISTING_SECONDS", 0.0)
    index = tmp_path / "index.sqlite"
    write_index(index, ["Tree.NodeCollapsed"])

    assert tokens_holding(index, {"collaps": "k"}) == {}
    assert tokens_holding(index, {"collaps": "k"}) == {}
    assert len(listings) == 1

    monkeypatch.setattr(qmd_vocabulary, "LISTING_SECONDS", 10.0)
    write_index(index, ["Panel.WasCollapsed"])
    assert tokens_holding(index, {"collaps": "k"}) == {"k": ["nodecollaps", "wascollaps"]}


def test_only_the_tokens_in_most_documents_are_kept(tmp_path, cache_file, monkeypatch):
    monkeypatch.setattr(qmd_vocabulary, "LISTED_TOKENS", 3)
    index = tmp_path / "index.sqlite"
    write_index(index, ["alpha NodeCollapsed", "alpha beta", "alpha beta gamma", "WasCollapsed"])

    listed = qmd_vocabulary.vocabulary(
        sqlite3.connect(f"{index.as_uri()}?mode=ro", uri=True), index, Deadline.after(10)
    )

    tokens = listed.split("\n")
    assert len(tokens) == 3 and tokens[:2] == ["alpha", "beta"]  # in 3 and 2 documents
