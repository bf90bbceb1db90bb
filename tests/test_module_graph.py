"""The top-level modules of tierscope import each other one way only: no two reach each
other (scripts/module_graph.py prints the graph)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

from module_graph import cycles, package_graph


def test_no_two_top_level_modules_import_each_other():
    edges = package_graph()

    assert "tierscope.engine" in edges and "tierscope.tiers" in edges["tierscope.engine"]
    assert cycles(edges) == []


def test_a_cycle_is_reported():
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}

    assert cycles(edges) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert cycles({"a": {"b"}, "b": set()}) == []
