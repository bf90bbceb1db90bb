"""`tierscope mcp`: an MCP server over stdio for agent skills.

Tools: `write_context` and `read_context` (seed 002's schemas; the run is injected by the
server, resolved once at start-up by the rule in tierscope.store.runs), `query_context`
(the tiered query, answered as the headless JSON array) and `clear_session`.

Each client connection is a session (`--session`, else $TIERSCOPE_SESSION, else a fresh
`mcp-<hex>` id), unless a call names its own: a section the session has received is
referenced instead of sent again, and crossing a threshold is said in the tool result.
The MCP SDK and jsonschema (which holds each call's arguments to its tool's input schema)
are imported only when this command runs.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from .mcp_tools import INSTRUCTIONS, SERVER_NAME, TOOLS

if TYPE_CHECKING:
    from tierscope.store.store import ContextStore


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "mcp",
        help="serve the context store and queries to MCP clients over stdio",
        description="An MCP server over stdio exposing write_context, read_context and "
        "query_context for the project.",
    )
    parser.add_argument("--run-id", help="the run (default: $TIERSCOPE_RUN_ID, else the session)")
    parser.add_argument(
        "--session",
        metavar="ID",
        help="the connection's query session (default: $TIERSCOPE_SESSION, else a new id)",
    )
    parser.add_argument("--config", default=argparse.SUPPRESS, help="config file")
    parser.add_argument("--root", default=argparse.SUPPRESS, help="project root")
    parser.set_defaults(handler=run)


class ToolFailure(Exception):
    """A tool call the caller got wrong; reported to the client as a tool error."""


class ContextTools:
    """The three tools as plain calls: arguments in, JSON text out. No MCP types here."""

    def __init__(
        self, root: Path, config_path: str | None, run_id: str, session: str | None = None
    ) -> None:
        from tierscope.config.loader import load_config
        from tierscope.session.names import new_session_id
        from tierscope.store.location import store_path

        from .mcp_arguments import check_schemas

        check_schemas(tool["inputSchema"] for tool in TOOLS)

        self.root = root
        self.config_path = config_path
        self.run_id = run_id
        self.session = session or new_session_id("mcp")
        self.store_path = store_path(root, load_config(root, config_path))
        self._store: ContextStore | None = None
        self._opening = threading.Lock()

    def call(self, name: str, arguments: dict | None) -> list[str]:
        """Run one tool; returns its text blocks. Raises ToolFailure for bad input."""
        from tierscope.store.entries import EntryError
        from tierscope.store.store import StoreError

        tool = next((t for t in TOOLS if t["name"] == name), None)
        if tool is None:
            raise ToolFailure(f"unknown tool {name!r}")
        arguments = check_arguments(tool["inputSchema"], arguments or {})
        handlers: dict[str, Callable[..., list[str]]] = {
            "write_context": self.write_context,
            "read_context": self.read_context,
            "query_context": self.query_context,
            "clear_session": self.clear_session,
        }
        try:
            return handlers[name](**arguments)
        except (EntryError, StoreError) as exc:
            raise ToolFailure(str(exc)) from None

    def write_context(self, **arguments) -> list[str]:
        from tierscope.store.entries import WriteRequest, project_file

        file = arguments.pop("file", None)
        request = WriteRequest(
            run_id=self.run_id,
            file=project_file(file, self.root, self.root) if file else None,
            **arguments,
        )
        entry_id = self._open_store(create=True).write(request)
        return [json.dumps({"id": entry_id}, ensure_ascii=False)]

    def read_context(self, **arguments) -> list[str]:
        from tierscope.store.entries import ReadFilters, ReadResult, project_file

        types = tuple(dict.fromkeys(arguments.pop("types", ())))
        file = arguments.pop("file", None)
        filters = ReadFilters(
            run_id=self.run_id,
            types=types,
            file=project_file(file, self.root, self.root) if file else None,
            **arguments,
        )
        store = self._open_store(create=False)
        result = store.read(filters) if store is not None else ReadResult((), 0)
        return [json.dumps(result.to_dict(), ensure_ascii=False)]

    def query_context(
        self, query: str, scope=None, budget=None, skill=None, session=None
    ) -> list[str]:
        from tierscope.api import Project, QueryOptions
        from tierscope.render import render_json

        session = self._session(session)
        project = Project(self.root, self.config_path)
        result = project.run(
            QueryOptions(text=query, scope=scope, budget=budget, skill=skill, session=session)
        )
        blocks = [render_json(result.hits)]
        # The array stays the first block, byte for byte the CLI's; why it may be empty
        # follows as a note the calling agent can read, and so does each threshold crossed.
        notes = [*([result.refused.message] if result.refused else []), *result.warnings]
        if notes:
            blocks.append("note: " + "; ".join(notes))
        if result.session is not None:
            blocks.extend(f"note: {note}" for note in result.session.notes)
        return blocks

    def clear_session(self, session=None, summary="") -> list[str]:
        from tierscope.session.keeper import clear_session
        from tierscope.session.ledger import SessionUnavailable
        from tierscope.trajectory.paths import agent_name

        session = self._session(session)
        project = self._project()
        try:
            clearing = clear_session(
                project.trajectory_dir(),
                session,
                agent=agent_name(None),
                summary=summary or "cleared with the MCP tool clear_session",
                wait=project.config.timeout_seconds,
            )
        except SessionUnavailable as exc:
            raise ToolFailure(str(exc)) from None
        answer = {
            "session": clearing.session,
            "cleared_tokens": clearing.cleared_tokens,
            "session_tokens": clearing.total,
        }
        return [json.dumps(answer)]

    def _session(self, named: str | None) -> str:
        from tierscope.session.names import SESSION_ID_RULE, is_session_id

        if named is None or named == "":
            return self.session
        if not is_session_id(named):
            raise ToolFailure(f"session must be {SESSION_ID_RULE}, got {json.dumps(named)[:60]}")
        return named

    def _project(self):
        from tierscope.api import Project

        return Project(self.root, self.config_path)

    def close(self) -> None:
        if self._store is not None:
            self._store.close()

    def _open_store(self, *, create: bool):
        from tierscope.store.store import ContextStore

        with self._opening:
            if self._store is None:
                if not create and not self.store_path.is_file():
                    return None
                self._store = ContextStore.open(self.store_path, create=create)
            return self._store


def check_arguments(schema: dict, arguments: object) -> dict:
    """Hold `arguments` to the tool's input schema (JSON Schema, by jsonschema) and return
    them as the tool takes them; raises ToolFailure saying which argument is wrong and how."""
    from .mcp_arguments import ArgumentsRefused, checked_arguments

    try:
        return checked_arguments(schema, arguments)
    except ArgumentsRefused as exc:
        raise ToolFailure(str(exc)) from None


def run(args: argparse.Namespace) -> int:
    import anyio

    from tierscope.cli.mcp_stdin import claim_stdin
    from tierscope.project import find_root
    from tierscope.store.runs import current_run_id

    root = find_root(getattr(args, "root", None))
    stdin = claim_stdin()
    if stdin is None:
        print("tierscope mcp: stdin is closed; no client to serve", file=sys.stderr)
        return 0
    if sys.stdout is None:
        print("tierscope mcp: stdout is closed; no client to answer", file=sys.stderr)
        return 1
    from tierscope.session.names import SESSION_ENV, SESSION_ID_RULE, is_session_id
    from tierscope.terminal import printable

    session = args.session if args.session is not None else os.environ.get(SESSION_ENV)
    if session and not is_session_id(session):
        shown = printable(session)
        print(f"tierscope mcp: ignoring session '{shown}': {SESSION_ID_RULE}", file=sys.stderr)
        session = None
    tools = ContextTools(
        root, getattr(args, "config", None), current_run_id(args.run_id), session or None
    )
    print(
        f"tierscope mcp: serving {root} (run {tools.run_id}, session {tools.session})",
        file=sys.stderr,
    )
    stopped_by: list[int] = []
    try:
        anyio.run(_serve, tools, stdin, stopped_by)
    finally:
        tools.close()
    # A signal ends the server as it ends any process, by its number: 128 + signum.
    return 128 + stopped_by[0] if stopped_by else 0


async def _serve(tools: ContextTools, stdin: int, stopped_by: list[int]) -> None:
    import anyio
    import anyio.to_thread
    import mcp_types as types
    from mcp.server import Server
    from mcp.server.stdio import stdio_server
    from mcp.shared.message import SessionMessage

    from tierscope import __version__
    from tierscope.cli.mcp_stdin import CheckedStdin, Rejection

    async def list_tools(_ctx, _params) -> types.ListToolsResult:
        return types.ListToolsResult(
            tools=[
                types.Tool(
                    name=t["name"], description=t["description"], input_schema=t["inputSchema"]
                )
                for t in TOOLS
            ]
        )

    async def call_tool(_ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        try:
            # Tools block (SQLite locks, tier subprocesses): keep them off the event loop.
            blocks = await anyio.to_thread.run_sync(tools.call, params.name, params.arguments)
        except ToolFailure as exc:
            return types.CallToolResult(
                content=[types.TextContent(type="text", text=str(exc))], is_error=True
            )
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=block) for block in blocks]
        )

    server = Server(
        SERVER_NAME,
        version=__version__,
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )
    requests = CheckedStdin(stdin)
    async with anyio.create_task_group() as group:
        group.start_soon(_stop_on_signal, group.cancel_scope, stopped_by)
        # mcp's stdio_server annotates `stdin` as an anyio AsyncFile; it only iterates lines.
        transport = stdio_server(stdin=requests)  # type: ignore[arg-type]
        async with transport as (read_stream, write_stream):

            async def reply(rejection: Rejection) -> None:
                error = types.ErrorData(code=rejection.code, message=rejection.message)
                message = types.JSONRPCError(jsonrpc="2.0", id=rejection.id, error=error)
                await write_stream.send(SessionMessage(message))

            requests.attach(reply)
            await server.run(read_stream, write_stream, server.create_initialization_options())
        group.cancel_scope.cancel()  # the client went away: stop waiting for signals


async def _stop_on_signal(scope, stopped_by: list[int]) -> None:
    """On SIGTERM or SIGHUP (how MCP clients and terminals stop a server): cancel running
    queries, kill the tiers' process groups, and stop serving."""
    import signal

    import anyio

    from tierscope import shutdown

    wanted = [s for s in (signal.SIGTERM, signal.SIGHUP) if signal.getsignal(s) != signal.SIG_IGN]
    with anyio.open_signal_receiver(*wanted) as signals:
        async for signum in signals:
            stopped_by.append(int(signum))
            shutdown.request()
            scope.cancel()
            return
