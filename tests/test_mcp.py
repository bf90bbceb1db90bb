"""`tierscope mcp`: the three tools, first as plain calls, then through a real MCP client
session over stdio (the SDK's client launching the command)."""

from __future__ import annotations

import json
import os
import sys

import anyio
import pytest

from tierscope.cli.mcp import ContextTools, ToolFailure, check_arguments
from tierscope.cli.mcp_tools import CLEAR_SESSION, QUERY_CONTEXT, READ_CONTEXT, TOOLS, WRITE_CONTEXT
from tierscope.store.location import STORE_ENV


@pytest.fixture
def project(tmp_path, monkeypatch):
    root = tmp_path / "repo"
    (root / "grimoires" / "loa").mkdir(parents=True)
    (root / "grimoires" / "loa" / "budget.md").write_text(
        "# Budget\n\nThe token budget packer skips hits that do not fit.\n"
    )
    monkeypatch.setenv(STORE_ENV, str(tmp_path / "store" / "context.sqlite"))
    return root.resolve()


@pytest.fixture
def tools(project):
    tools = ContextTools(project, None, "run-1")
    yield tools
    tools.close()


def call(tools: ContextTools, name: str, **arguments) -> object:
    return json.loads(tools.call(name, arguments)[0])


# --- the tools as plain calls --------------------------------------------------------


def test_the_context_tools_have_seed_002_schemas():
    write, read = WRITE_CONTEXT["inputSchema"], READ_CONTEXT["inputSchema"]
    assert list(write["properties"]) == ["type", "content", "task_id", "loop_id", "file", "line"]
    assert write["required"] == ["type", "content"]
    assert write["properties"]["line"]["type"] == "integer"
    assert write["properties"]["type"]["enum"] == [
        "discovery", "error", "decision", "review_issue", "scratchpad", "codebase_analysis",
    ]  # fmt: skip
    assert list(read["properties"]) == [
        "types", "task_id", "loop_id", "file", "search", "limit", "offset", "order",
    ]  # fmt: skip
    assert read["required"] == []
    assert read["properties"]["order"]["enum"] == ["asc", "desc"]
    assert QUERY_CONTEXT["inputSchema"]["required"] == ["query"]
    assert "run_id" not in write["properties"] and "run_id" not in read["properties"]


def test_written_context_is_read_back_in_the_servers_run(tools):
    written = call(tools, "write_context", type="decision", content="Use JWT", task_id="T1")
    result = call(tools, "read_context", types=["decision"], task_id="T1")
    assert result["total"] == 1
    (entry,) = result["entries"]
    assert (entry["id"], entry["run_id"], entry["content"]) == (written["id"], "run-1", "Use JWT")


def test_another_runs_entries_are_not_read(project, tools):
    other = ContextTools(project, None, "run-2")
    try:
        call(other, "write_context", type="discovery", content="elsewhere")
    finally:
        other.close()
    assert call(tools, "read_context") == {"entries": [], "total": 0}


def test_files_are_stored_relative_to_the_project_root(project, tools):
    call(tools, "write_context", type="discovery", content="x", file=str(project / "src/a.py"))
    call(tools, "write_context", type="discovery", content="y", file="src/a.py")
    assert call(tools, "read_context", file="src/a.py")["total"] == 2


def test_reading_before_any_write_creates_no_store(tools):
    assert call(tools, "read_context", search="anything") == {"entries": [], "total": 0}
    assert not tools.store_path.exists()


@pytest.mark.parametrize(
    ("name", "arguments", "message"),
    [
        ("write_context", {"content": "x"}, "missing required argument 'type'"),
        ("write_context", {"type": "discovery", "content": "x", "run_id": "r"}, "unknown argument"),
        ("write_context", {"type": "note", "content": "x"}, "type must be one of"),
        (
            "write_context",
            {"type": "discovery", "content": "x", "line": "7"},
            "line must be a JSON",
        ),
        (
            "write_context",
            {"type": "discovery", "content": "x", "line": True},
            "line must be a JSON",
        ),
        ("write_context", {"type": "scratchpad", "content": "{}"}, "scratchpad: iteration"),
        ("read_context", {"types": "error"}, "types must be a JSON array"),
        ("read_context", {"types": [1]}, r"types\[0\] must be a JSON string"),
        ("read_context", {"types": ["note"]}, "unknown type 'note'"),
        ("read_context", {"limit": -1}, "limit must be a non-negative integer"),
        ("read_context", {"order": "newest"}, "order must be one of"),
        ("query_context", {}, "missing required argument 'query'"),
        ("query_context", {"query": "x", "budget": "100"}, "budget must be a JSON integer"),
        ("drop_tables", {}, "unknown tool 'drop_tables'"),
    ],
)
def test_bad_calls_fail_with_a_one_line_reason_and_write_nothing(tools, name, arguments, message):
    with pytest.raises(ToolFailure, match=message) as caught:
        tools.call(name, arguments)
    assert "\n" not in str(caught.value)
    assert call(tools, "read_context")["total"] == 0


def test_an_integer_written_as_a_whole_float_is_an_integer(tools):
    # JSON Schema's integer is any number without a fraction: 7.0 is one, and it is
    # stored and read back as 7.
    call(tools, "write_context", type="discovery", content="x", line=7.0)
    (entry,) = call(tools, "read_context")["entries"]
    assert entry["line"] == 7 and isinstance(entry["line"], int)
    assert call(tools, "read_context", limit=1.0)["total"] == 1


@pytest.mark.parametrize(
    ("schema", "arguments", "message"),
    [
        # Keywords beyond type, enum and required are held too, not passed over.
        ({"properties": {"n": {"type": "integer", "minimum": 1}}}, {"n": 0}, "n must be at least"),
        ({"properties": {"s": {"type": "string", "maxLength": 3}}}, {"s": "long"}, "s: "),
        # A type the tools do not use yet is known all the same.
        ({"properties": {"x": {"type": "number"}}}, {"x": "1.5"}, "x must be a JSON number"),
        # Items and nested objects: the message names where, index included.
        (
            {"properties": {"t": {"type": "array", "items": {"enum": ["a", "b"]}}}},
            {"t": ["a", "c"]},
            r"t\[1\] must be one of: a, b",
        ),
        (
            {
                "properties": {
                    "o": {
                        "type": "object",
                        "properties": {"k": {"type": "string"}},
                        "additionalProperties": False,
                    }
                }
            },
            {"o": {"k": "v", "extra": 1}},
            "o: unknown key 'extra'",
        ),
    ],
)
def test_every_keyword_of_a_schema_is_held(schema, arguments, message):
    schema = {"type": "object", "additionalProperties": False, **schema}
    with pytest.raises(ToolFailure, match=message) as caught:
        check_arguments(schema, arguments)
    assert "\n" not in str(caught.value)


def test_the_tools_input_schemas_are_valid_json_schemas():
    from jsonschema.validators import validator_for

    for tool in TOOLS:
        schema = tool["inputSchema"]
        validator_for(schema).check_schema(schema)
        # Every argument a tool takes is named: any other is refused, not passed on.
        assert schema["additionalProperties"] is False


def test_a_query_answers_with_the_headless_json_array(tools):
    blocks = tools.call("query_context", {"query": "token budget packer", "scope": "grimoires"})
    hits = json.loads(blocks[0])
    assert hits and all(set(hit) == {"source", "score", "content", "tier"} for hit in hits)
    assert hits[0]["source"] == "grimoires/loa/budget.md"


def test_a_refused_query_is_an_empty_array_with_a_note(tools):
    blocks = tools.call("query_context", {"query": "budget", "scope": "nowhere"})
    assert json.loads(blocks[0]) == []
    assert blocks[1] == "note: Invalid scope: nowhere"


# --- sessions -------------------------------------------------------------------------


REFERENCE = "already provided in this session: grimoires/loa/budget.md:1-3"


def test_the_connections_queries_are_one_session(project, tools):
    first = json.loads(tools.call("query_context", {"query": "token budget packer"})[0])
    second = json.loads(tools.call("query_context", {"query": "budget packer skips"})[0])
    assert first[0]["content"].startswith("# Budget")
    assert [hit["content"] for hit in second] == [REFERENCE]
    assert tools.session.startswith("mcp-")
    assert (project / "grimoires/loa/a2a/trajectory/sessions" / f"{tools.session}.jsonl").is_file()


def test_another_connection_is_another_session(project, tools):
    tools.call("query_context", {"query": "token budget packer"})
    other = ContextTools(project, None, "run-1")
    try:
        answer = json.loads(other.call("query_context", {"query": "token budget packer"})[0])
    finally:
        other.close()
    assert answer[0]["content"].startswith("# Budget")


def test_a_call_may_name_its_own_session(tools):
    tools.call("query_context", {"query": "token budget packer", "session": "shared"})
    mine = json.loads(tools.call("query_context", {"query": "token budget packer"})[0])
    shared = tools.call("query_context", {"query": "token budget packer", "session": "shared"})
    assert mine[0]["content"].startswith("# Budget")
    assert [hit["content"] for hit in json.loads(shared[0])] == [REFERENCE]


@pytest.mark.parametrize("bad", ["../x", "a b", "-rf", "é", "x" * 65])
def test_a_session_that_cannot_name_a_file_is_a_tool_error(project, tools, bad):
    with pytest.raises(ToolFailure, match="session must be 1-64 letters"):
        tools.call("query_context", {"query": "budget", "session": bad})
    with pytest.raises(ToolFailure, match="session must be 1-64 letters"):
        tools.call("clear_session", {"session": bad})
    assert not (project / "grimoires/loa/a2a/trajectory/sessions").exists()


def test_crossing_accumulated_is_said_in_the_result_until_the_session_is_cleared(project, tools):
    (project / ".tierscope.yaml").write_text(
        "qmd_context:\n  token_budgets: {single_search: 2000, accumulated: 10, session: 100000}\n"
    )
    blocks = tools.call("query_context", {"query": "token budget packer"})
    assert len(blocks) == 2
    assert blocks[1].startswith(f"note: session {tools.session}: ")
    assert blocks[1].endswith(
        "over the accumulated threshold of 10: synthesize and clear "
        f"(then: tierscope session clear {tools.session})"
    )
    cleared = json.loads(tools.call("clear_session", {"summary": "noted the packer"})[0])
    assert cleared["session"] == tools.session and cleared["cleared_tokens"] > 0
    again = tools.call("query_context", {"query": "token budget packer"})
    assert len(again) == 2 and again[1] == blocks[1]  # sent in full again, so over again
    assert json.loads(again[0]) == json.loads(blocks[0])


def test_clearing_a_session_that_never_queried_is_a_tool_error(tools):
    with pytest.raises(ToolFailure, match="no session mcp-"):
        tools.call("clear_session", {})


# --- a real client session over stdio ------------------------------------------------


def test_an_mcp_client_lists_and_calls_the_tools(project, tmp_path):
    from mcp import Client, StdioServerParameters

    server = StdioServerParameters(
        command=sys.executable,
        args=["-m", "tierscope", "--root", str(project), "mcp", "--run-id", "session-run"],
        env={STORE_ENV: os.environ[STORE_ENV], "XDG_STATE_HOME": str(tmp_path / "state")},
        cwd=str(project),
    )

    async def session() -> dict:
        async with Client(server, read_timeout_seconds=60) as client:
            listed = await client.list_tools()
            wrote = await client.call_tool(
                "write_context", {"type": "discovery", "content": "budget packer skips hits"}
            )
            refused = await client.call_tool(
                "write_context", {"type": "review_issue", "content": "{}"}
            )
            read = await client.call_tool("read_context", {"search": "packer"})
            queried = await client.call_tool(
                "query_context", {"query": "token budget", "budget": 500}
            )
            return {"listed": listed, "wrote": wrote, "refused": refused, "read": read,
                    "queried": queried}  # fmt: skip

    results = anyio.run(session)

    listed = {tool.name: tool for tool in results["listed"].tools}
    assert set(listed) == {tool["name"] for tool in TOOLS}
    for spec in TOOLS:
        assert listed[spec["name"]].input_schema == spec["inputSchema"]
        assert listed[spec["name"]].description == spec["description"]

    assert not results["wrote"].is_error
    entry_id = json.loads(results["wrote"].content[0].text)["id"]

    assert results["refused"].is_error
    assert "review_issue: issue_type must be one of" in results["refused"].content[0].text

    read = json.loads(results["read"].content[0].text)
    assert read["total"] == 1
    assert (read["entries"][0]["id"], read["entries"][0]["run_id"]) == (entry_id, "session-run")

    hits = json.loads(results["queried"].content[0].text)
    assert not results["queried"].is_error
    assert [hit["source"] for hit in hits] == ["grimoires/loa/budget.md"]


def test_an_mcp_client_connection_is_a_session(project, tmp_path):
    from mcp import Client, StdioServerParameters

    (project / ".tierscope.yaml").write_text(
        "qmd_context:\n  token_budgets: {single_search: 2000, accumulated: 30, session: 100000}\n"
    )
    server = StdioServerParameters(
        command=sys.executable,
        args=["-m", "tierscope", "--root", str(project), "mcp", "--run-id", "r"],
        env={STORE_ENV: os.environ[STORE_ENV], "XDG_STATE_HOME": str(tmp_path / "state")},
        cwd=str(project),
    )

    def texts(result) -> list[str]:
        assert not result.is_error
        return [block.text for block in result.content]

    async def connection() -> list[list[str]]:
        async with Client(server, read_timeout_seconds=60) as client:
            return [
                texts(await client.call_tool("query_context", {"query": "token budget packer"})),
                texts(await client.call_tool("query_context", {"query": "packer skips hits"})),
                texts(await client.call_tool("clear_session", {})),
                texts(await client.call_tool("query_context", {"query": "packer skips hits"})),
            ]

    first, second, cleared, after = anyio.run(connection)
    assert json.loads(first[0])[0]["content"].startswith("# Budget") and len(first) == 1
    assert [hit["content"] for hit in json.loads(second[0])] == [REFERENCE]
    (note,) = second[1:]
    assert "over the accumulated threshold of 30: synthesize and clear" in note
    session = json.loads(cleared[0])["session"]
    assert session.startswith("mcp-") and f"session {session}:" in note
    contents = [hit["content"] for hit in json.loads(first[0])]
    assert [hit["content"] for hit in json.loads(after[0])] == contents and len(after) == 1
    # A new connection is a new session.
    first_again, *_ = anyio.run(connection)
    assert json.loads(first_again[0]) == json.loads(first[0])


def test_the_clear_session_tool_takes_an_optional_session_and_summary():
    schema = CLEAR_SESSION["inputSchema"]
    assert list(schema["properties"]) == ["session", "summary"] and schema["required"] == []
    assert "session" in QUERY_CONTEXT["inputSchema"]["properties"]
