"""The context types are declared once (tierscope.store.context_types): the CLI, the MCP
server, the workbench and the docs name the same six, in the same order."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from tierscope.cli import build_parser
from tierscope.cli.mcp_tools import INSTRUCTIONS, WRITE_CONTEXT
from tierscope.store.context_types import (
    CONTEXT_TYPES,
    DEFINITIONS,
    PRUNED_TYPES,
    TEXT_TYPES,
    entries_in_prose,
    types_listed,
)
from tierscope.tui.widgets.store_entries import TYPE_VARIABLES

DOCS = Path(__file__).resolve().parents[1]


def test_prose_names_the_entries_of_every_type_in_order():
    assert entries_in_prose() == (
        "discoveries, errors, decisions, review issues, scratchpads and codebase analyses"
    )
    assert types_listed() == ", ".join(CONTEXT_TYPES)


def test_plain_text_and_pruning_follow_the_declarations():
    assert TEXT_TYPES == ("discovery", "error", "decision")
    assert PRUNED_TYPES == ("discovery", "error", "decision", "review_issue", "scratchpad")


def test_the_cli_accepts_exactly_the_declared_types_and_lists_them_in_its_help(capsys):
    parser = build_parser("context")
    for name in CONTEXT_TYPES:
        args = parser.parse_args(["context", "write", "--type", name, "--content", "x"])
        assert args.type == name
    with pytest.raises(SystemExit):
        parser.parse_args(["context", "write", "--type", "note", "--content", "x"])
    assert f"(expected one of: {types_listed()})" in capsys.readouterr().err
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    context = subparsers.choices["context"]
    assert entries_in_prose() in (context.description or "")


def test_the_mcp_tools_offer_the_declared_types():
    assert WRITE_CONTEXT["inputSchema"]["properties"]["type"]["enum"] == list(CONTEXT_TYPES)
    assert f"write {entries_in_prose()} with write_context" in INSTRUCTIONS


def test_the_workbench_colours_every_type():
    assert tuple(TYPE_VARIABLES) == CONTEXT_TYPES


def test_the_docs_describe_every_type():
    guide = (DOCS / "docs" / "context-store.md").read_text(encoding="utf-8")
    types = guide[guide.index("## Types") :].split("\n## ", 1)[0]
    for definition in DEFINITIONS:
        assert f"`{definition.name}`" in types
    readme = (DOCS / "README.md").read_text(encoding="utf-8")
    assert f"(types: {types_listed()})" in readme
