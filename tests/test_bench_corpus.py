"""The benchmark corpus generator: deterministic, Loa-shaped, Zipf-like."""

from __future__ import annotations

import re
import statistics
import sys
from collections import Counter
from pathlib import Path

# bench/ is a folder of the checkout, not an installed package.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.corpus import (
    benchmark_queries,
    build_vocabulary,
    ensure_corpus,
    write_corpus,
)

SIZE = 100


def snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_the_same_seed_writes_the_same_bytes(tmp_path):
    write_corpus(tmp_path / "first", SIZE, seed=7)
    write_corpus(tmp_path / "second", SIZE, seed=7)

    assert snapshot(tmp_path / "first") == snapshot(tmp_path / "second")


def test_another_seed_writes_another_corpus(tmp_path):
    write_corpus(tmp_path / "first", SIZE, seed=7)
    write_corpus(tmp_path / "second", SIZE, seed=8)

    assert snapshot(tmp_path / "first") != snapshot(tmp_path / "second")


def test_the_corpus_is_laid_out_like_a_loa_project(tmp_path):
    corpus = write_corpus(tmp_path / "project", SIZE, seed=7)
    files = set(snapshot(corpus.root))

    assert corpus.file_count == len(files) == SIZE
    for document in ("NOTES.md", "prd.md", "sdd.md", "sprint.md"):
        assert f"grimoires/loa/{document}" in files
    assert any(re.fullmatch(r"grimoires/loa/a2a/sprint-\d+/[\w-]+\.md", f) for f in files)
    assert any(f.startswith("grimoires/loa/reality/") for f in files)
    assert any(re.fullmatch(r"\.claude/skills/[\w-]+/SKILL\.md", f) for f in files)


def test_files_hold_headings_code_fences_and_tables(tmp_path):
    corpus = write_corpus(tmp_path / "project", SIZE, seed=7)
    text = (corpus.root / "grimoires/loa/sdd.md").read_text()

    assert text.startswith("# ")
    assert "\n## " in text
    assert "```" in text
    assert re.search(r"^\|---", text, re.MULTILINE)


def test_term_frequencies_are_zipf_like(tmp_path):
    corpus = write_corpus(tmp_path / "project", SIZE, seed=7)
    words = Counter(
        word
        for path in corpus.root.rglob("*.md")
        for word in re.findall(r"[a-z0-9]+", path.read_text().lower())
    )
    frequencies = sorted(words.values(), reverse=True)

    assert frequencies[0] > 100 * statistics.median(frequencies)


def test_the_vocabulary_ranks_real_words_before_invented_ones():
    vocabulary = build_vocabulary(seed=7)

    assert vocabulary.terms[0] == "the"
    assert len(set(vocabulary.terms)) == len(vocabulary.terms)
    assert list(vocabulary.cumulative_weights) == sorted(vocabulary.cumulative_weights)


def test_queries_are_deterministic_and_mix_medium_and_rare_terms():
    queries = benchmark_queries(seed=7, count=4)
    vocabulary = build_vocabulary(seed=7)

    assert queries == benchmark_queries(seed=7, count=4)
    assert all(2 <= len(q.terms) <= 3 for q in queries)
    assert all(set(q.bands) == {"medium", "rare"} for q in queries)
    for query in queries:
        pairs = list(zip(query.bands, map(vocabulary.rank_of, query.terms), strict=True))
        medium = max(rank for band, rank in pairs if band == "medium")
        rare = min(rank for band, rank in pairs if band == "rare")
        assert medium < rare


def test_a_cached_corpus_is_reused_not_rewritten(tmp_path):
    first = ensure_corpus(SIZE, seed=7, base=tmp_path)
    marker = first.root / "grimoires/loa/NOTES.md"
    before = marker.stat().st_mtime_ns

    second = ensure_corpus(SIZE, seed=7, base=tmp_path)

    assert second.root == first.root
    assert second.file_count == SIZE
    assert marker.stat().st_mtime_ns == before
    assert [p.name for p in tmp_path.iterdir()] == [first.root.name]
