"""`tierscope mcp` on the wire: every malformed line gets the JSON-RPC error the spec
requires (-32700 parse error, -32600 invalid request) and the session carries on; bad
tool arguments are tool errors, never a traceback; a closed stdin ends the server cleanly."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
from pathlib import Path

import pytest

from tierscope.cli.mcp_stdin import INVALID_REQUEST, PARSE_ERROR, Rejection, check_line

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"},
    },
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


class Server:
    """`tierscope mcp` as a child process, spoken to one raw line at a time."""

    def __init__(self, root: Path, store: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tierscope", "--root", str(root), "mcp", "--run-id", "r"],
            env={**os.environ, "TIERSCOPE_STORE": str(store), "PATH": "/usr/bin:/bin"},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )

    def send(self, line: bytes) -> None:
        self.process.stdin.write(line + b"\n")
        self.process.stdin.flush()

    def send_json(self, message: object) -> None:
        self.send(json.dumps(message).encode())

    def receive(self, timeout: float = 30.0) -> dict:
        ready, _w, _x = select.select([self.process.stdout], [], [], timeout)
        assert ready, "no reply from the server"
        line = self.process.stdout.readline()
        assert line, f"the server ended: {self.process.stderr.read().decode()}"
        return json.loads(line)

    def initialize(self) -> None:
        self.send_json(INITIALIZE)
        assert self.receive()["id"] == 1
        self.send_json(INITIALIZED)

    def close(self) -> str:
        self.process.stdin.close()
        self.process.wait(timeout=30)
        return self.process.stderr.read().decode()


@pytest.fixture
def server(make_project, tmp_path):
    root = make_project({"grimoires/loa/NOTES.md": "# Notes\n\nThe token budget.\n"})
    server = Server(root, tmp_path / "store.sqlite")
    yield server
    if server.process.poll() is None:
        server.process.kill()
        server.process.wait()


@pytest.mark.parametrize(
    ("line", "code"),
    [
        (b'{"jsonrpc": "2.0", "id": 1, "method"', PARSE_ERROR),
        (b"\xff\xfe not utf-8 \x80", PARSE_ERROR),
        (b'{"jsonrpc": "2.0", "id": 3, "method": "ping", "params": {"x": "\xff"}}', PARSE_ERROR),
        (b"[1, 2, 3]", INVALID_REQUEST),
        (b"[]", INVALID_REQUEST),
        (b"42", INVALID_REQUEST),
        (b'{"jsonrpc": "2.0", "id": 1, "method": NaN}', PARSE_ERROR),
    ],
    ids=["cut-json", "not-utf8", "not-utf8-in-string", "array", "empty-array", "number", "nan"],
)
def test_a_malformed_line_gets_its_json_rpc_error_and_the_session_carries_on(server, line, code):
    server.send(line)
    reply = server.receive()
    assert reply["jsonrpc"] == "2.0" and reply["id"] is None
    assert reply["error"]["code"] == code
    server.initialize()
    server.send_json({"jsonrpc": "2.0", "id": 2, "method": "ping"})
    assert server.receive() == {"jsonrpc": "2.0", "id": 2, "result": {}}
    assert "Traceback" not in server.close()


def test_an_object_that_is_no_json_rpc_message_is_an_invalid_request_with_its_id(server):
    server.send_json({"id": 7, "hello": "world"})
    reply = server.receive()
    assert (reply["id"], reply["error"]["code"]) == (7, INVALID_REQUEST)


@pytest.mark.parametrize(
    ("tool", "arguments", "field"),
    [
        ("write_context", {"type": "discovery", "content": "x", "line": 10**30}, "line"),
        ("read_context", {"limit": 10**30}, "limit"),
        ("read_context", {"offset": -(10**30)}, "offset"),
        ("query_context", {"query": "token", "budget": 10**30}, "budget"),
    ],
)
def test_an_out_of_range_integer_is_a_tool_error_not_a_traceback(server, tool, arguments, field):
    server.initialize()
    server.send_json(
        {
            "jsonrpc": "2.0",
            "id": 5,
            "method": "tools/call",
            "params": {"name": tool, "arguments": arguments},
        }
    )
    reply = server.receive()
    assert "error" not in reply, reply
    assert reply["result"]["isError"] is True
    assert field in reply["result"]["content"][0]["text"]
    assert "Traceback" not in server.close()


def test_the_server_with_stdin_closed_ends_cleanly(make_project, tmp_path):
    root = make_project({"grimoires/loa/NOTES.md": "# Notes\n"})
    result = subprocess.run(
        [sys.executable, "-m", "tierscope", "--root", str(root), "mcp"],
        env={**os.environ, "TIERSCOPE_STORE": str(tmp_path / "store.sqlite")},
        preexec_fn=lambda: os.close(0),
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 0
    assert "Traceback" not in result.stderr
    assert "stdin is closed" in result.stderr


def test_context_write_from_a_closed_stdin_is_refused_in_one_line(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "tierscope", "--root", str(tmp_path), "context", "write",
         "--type", "discovery", "--content", "-"],
        env={**os.environ, "TIERSCOPE_STORE": str(tmp_path / "store.sqlite")},
        preexec_fn=lambda: os.close(0),
        capture_output=True,
        text=True,
        timeout=30,
    )  # fmt: skip
    assert result.returncode == 1
    assert result.stderr == "tierscope context write: cannot read stdin: it is closed\n"


# -- the line check on its own ----------------------------------------------------------


def test_a_valid_message_passes_through_as_text():
    line = json.dumps(INITIALIZE).encode()
    assert check_line(line) == line.decode()


def test_blank_lines_are_skipped():
    assert check_line(b"  \r") is None


def test_a_rejection_names_the_code_and_the_id_when_it_can():
    rejection = check_line(b'{"jsonrpc": "2.0", "id": "abc", "method": 5}')
    assert isinstance(rejection, Rejection)
    assert (rejection.code, rejection.id) == (INVALID_REQUEST, "abc")
