"""The parsed config cache: a text parses once, and the cache can only ever cost a parse
(a broken, planted or full cache is parsed past, an unkeepable value is not kept)."""

from __future__ import annotations

import datetime
import marshal

import pytest

from tierscope.config import parse_cache


@pytest.fixture
def cache_file(tmp_path, monkeypatch):
    path = tmp_path / "tierscope" / "parsed-configs-v1.marshal"
    monkeypatch.setattr(parse_cache, "_cache_file", lambda: str(path))
    return path


def test_a_text_is_found_as_it_was_parsed(cache_file):
    data = {"qmd_context": {"tiers": ["grep"], "timeout_seconds": 2.5, "enabled": True}}
    lines = {"qmd_context": 1, "qmd_context.tiers": 2}
    assert parse_cache.lookup("text", "qmd_context") is None
    parse_cache.remember("text", "qmd_context", data, lines)
    assert parse_cache.lookup("text", "qmd_context") == (data, lines)
    assert parse_cache.lookup("text ", "qmd_context") is None
    assert parse_cache.lookup("text", "other") is None
    assert cache_file.stat().st_mode & 0o777 == 0o600


def test_values_marshal_cannot_keep_are_not_kept(cache_file):
    parse_cache.remember("day", "qmd_context", {"day": datetime.date(2026, 1, 1)}, {})
    assert parse_cache.lookup("day", "qmd_context") is None


def test_only_the_newest_texts_are_kept(cache_file):
    for number in range(40):
        parse_cache.remember(f"text {number}", "qmd_context", {"n": number}, {})
    assert parse_cache.lookup("text 0", "qmd_context") is None
    assert parse_cache.lookup("text 39", "qmd_context") == ({"n": 39}, {})


@pytest.mark.parametrize(
    "content",
    [
        b"\x00not marshal",
        marshal.dumps(["a list"]),
        marshal.dumps({("qmd_context", "text"): "not a pair"}),
        marshal.dumps({("qmd_context", "text"): ({}, {"line": "not a number"})}),
    ],
)
def test_a_broken_or_planted_cache_costs_a_parse(cache_file, content):
    cache_file.parent.mkdir(parents=True)
    cache_file.write_bytes(content)
    assert parse_cache.lookup("text", "qmd_context") is None
    parse_cache.remember("text", "qmd_context", {"a": 1}, {"a": 1})
    assert parse_cache.lookup("text", "qmd_context") == ({"a": 1}, {"a": 1})


def test_a_symlink_planted_at_the_cache_path_is_not_followed(cache_file, tmp_path):
    decoy = tmp_path / "decoy"
    planted = marshal.dumps({("qmd_context", "text"): ({"planted": 1}, {})})
    decoy.write_bytes(planted)
    cache_file.parent.mkdir(parents=True)
    cache_file.symlink_to(decoy)
    assert parse_cache.lookup("text", "qmd_context") is None
    parse_cache.remember("text", "qmd_context", {"a": 1}, {})
    assert not cache_file.is_symlink()
    assert decoy.read_bytes() == planted
