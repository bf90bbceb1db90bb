"""The qmd index fast path refuses anything it does not know, so the CLI answers instead."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tierscope.deadline import Deadline
from tierscope.ranking.analysis import query_terms
from tierscope.tiers.qmd_fts import fast_path_supported, fts_expression, open_index


def make_index(path: Path, fts_columns: str = "filepath, title, body") -> Path:
    conn = sqlite3.connect(path)
    conn.executescript(
        "CREATE TABLE content (hash TEXT PRIMARY KEY, doc TEXT NOT NULL, created_at TEXT);"
        "CREATE TABLE documents (id INTEGER PRIMARY KEY, collection TEXT, path TEXT,"
        " title TEXT, hash TEXT, created_at TEXT, modified_at TEXT, active INTEGER);"
        f"CREATE VIRTUAL TABLE documents_fts USING fts5({fts_columns},"
        " tokenize='porter unicode61');"
    )
    conn.close()
    return path


def test_an_index_with_the_known_schema_opens(tmp_path):
    conn = open_index(make_index(tmp_path / "index.sqlite"))
    assert conn is not None
    conn.close()


def test_an_index_with_another_fts_layout_is_refused(tmp_path):
    assert open_index(make_index(tmp_path / "index.sqlite", "path, body")) is None


def test_a_missing_or_corrupt_index_is_refused(tmp_path):
    assert open_index(tmp_path / "absent.sqlite") is None
    (tmp_path / "junk.sqlite").write_bytes(b"not a database at all")
    assert open_index(tmp_path / "junk.sqlite") is None


def test_an_unknown_major_version_is_refused(tmp_path):
    binary = tmp_path / "qmd"
    binary.write_text("#!/bin/sh\necho 'qmd 3.0.0 (abc1234)'\n")
    binary.chmod(0o755)
    assert not fast_path_supported(str(binary), Deadline.after(5))
    binary.write_text("#!/bin/sh\necho 'qmd 2.9.1 (abc1234)'\n")
    assert fast_path_supported(str(binary), Deadline.after(5))


def test_a_binary_that_hangs_on_version_is_not_trusted(tmp_path):
    binary = tmp_path / "qmd"
    binary.write_text("#!/bin/sh\nsleep 30\n")
    binary.chmod(0o755)
    assert not fast_path_supported(str(binary), Deadline.after(0.3))


def test_the_fts_expression_ors_every_term_stem_as_a_prefix():
    assert fts_expression(query_terms("retargeted budgets")) == '"retarget"* OR "budget"*'
    # A hyphenated word: its parts, the word written solid and stemmed, the phrase, the
    # identifier.
    assert fts_expression(query_terms("multi-agent")) == (
        '"multi"* OR "agent"* OR "multiag"* OR "multi agent" OR "multiagent"*'
    )
    assert fts_expression(query_terms('"AND" (x OR NEAR')) == '"near"*'
    assert fts_expression(query_terms("***")) is None
    # Either spelling finds both: qmd's porter stemmer keeps `colour` and `color` apart.
    assert fts_expression(query_terms("colour")) == '"color"* OR "colour"*'
    assert fts_expression(query_terms("harbor")) == '"harbor"* OR "harbour"*'
    assert fts_expression(query_terms("changes in v0.28")) == '"chang"* OR "0 28"'
    assert fts_expression(query_terms("ctrl+i")) == '"ctrl"* OR "ctrl i"'
    # An abbreviation also finds the words it stands for.
    assert fts_expression(query_terms("msg")) == '"msg"* OR "messag"*'
    # An irregular form finds its word's other forms: qmd's porter stemmer keeps them apart.
    assert fts_expression(query_terms("written")) == '"write"* OR "wrote"* OR "written"*'
