"""Print tierscope's import graph between its top-level modules and packages
(`tierscope.tiers`, `tierscope.engine`, ...): one line per module, then what it imports,
and any cycles between them. Usage: .venv/bin/python scripts/module_graph.py"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from stage_package import ROOT, stage


def top_level(module: str) -> str:
    return ".".join(module.split(".")[:2])


def package_graph() -> dict[str, set[str]]:
    import grimp

    staged = stage(ROOT / ".cache" / "staged")
    sys.path.insert(0, str(staged))
    graph = grimp.build_graph("tierscope")
    edges: dict[str, set[str]] = {}
    for module in graph.modules:
        source = top_level(module)
        edges.setdefault(source, set())
        for imported in graph.find_modules_directly_imported_by(module):
            target = top_level(imported)
            if target != source and target != "tierscope":
                edges[source].add(target)
    return edges


def cycles(edges: dict[str, set[str]]) -> list[tuple[str, ...]]:
    """Each import (as a sorted pair) whose target leads back to its source."""

    def reaches(start: str, goal: str) -> bool:
        seen, stack = set(), [start]
        while stack:
            node = stack.pop()
            if node == goal:
                return True
            if node not in seen:
                seen.add(node)
                stack.extend(edges.get(node, ()))
        return False

    found = {tuple(sorted((a, b))) for a in edges for b in edges[a] if reaches(b, a)}
    return sorted(found)


def main() -> None:
    edges = package_graph()
    for name in sorted(edges):
        short = sorted(target.removeprefix("tierscope.") for target in edges[name])
        print(f"{name.removeprefix('tierscope.'):<22} -> {', '.join(short) or '-'}")
    found = cycles(edges)
    print()
    print("cycles: " + (", ".join(f"{a} <-> {b}" for a, b in found) if found else "none"))


if __name__ == "__main__":
    main()
