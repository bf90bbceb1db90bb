"""The stdin of `tierscope mcp`: JSON-RPC lines checked before the MCP SDK reads them.

The SDK drops a line it cannot parse without a reply, and a client waits for an answer
that never comes. JSON-RPC 2.0 requires one: -32700 when the line is not JSON (invalid
UTF-8 included: JSON text is UTF-8), -32600 when it is JSON but no JSON-RPC message (a
batch array, a number, an object without the envelope). Those answers go out through the
transport's own write stream, so they never interleave with the SDK's replies.

Lines are read by a daemon thread: a read blocked on an idle stdin must never keep the
process alive once the server has stopped (on a signal, say).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

PARSE_ERROR = -32700
INVALID_REQUEST = -32600


@dataclass(frozen=True, slots=True)
class Rejection:
    """Why a line is refused, as a JSON-RPC error: code, message, and the request id
    when one could be read (else None, sent as `"id": null`)."""

    code: int
    message: str
    id: str | int | None = None


def _no_constants(name: str) -> float:
    raise ValueError(f"{name} is not JSON")


def check_line(raw: bytes) -> str | Rejection | None:
    """The line as text when it is a JSON-RPC message, a Rejection when it is not, None
    for a blank line (nothing to answer)."""
    import mcp_types
    import pydantic

    if not raw.strip():
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return Rejection(PARSE_ERROR, "Parse error: the line is not UTF-8")
    try:
        message = json.loads(text, parse_constant=_no_constants)
    except ValueError as exc:
        return Rejection(PARSE_ERROR, f"Parse error: {str(exc).splitlines()[0]}")
    if not isinstance(message, dict):
        return Rejection(
            INVALID_REQUEST, "Invalid Request: expected one JSON-RPC object (no batches)"
        )
    try:
        mcp_types.jsonrpc_message_adapter.validate_python(message, by_name=False)
    except pydantic.ValidationError:
        request_id = message.get("id")
        if isinstance(request_id, bool) or not isinstance(request_id, str | int):
            request_id = None
        return Rejection(INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 message", request_id)
    return text.strip()


Reply = Callable[[Rejection], Awaitable[None]]


class CheckedStdin:
    """An async iterator of the valid lines of a file descriptor, answering the others.

    `stdio_server(stdin=...)` iterates it; `attach(reply)` gives it the means to answer,
    once the transport's write stream exists (rejections wait for it).
    """

    def __init__(self, descriptor: int) -> None:
        self._descriptor = descriptor
        self._lines: asyncio.Queue[bytes | None] | None = None
        self._reply: Reply | None = None
        self._attached: asyncio.Event | None = None

    def attach(self, reply: Reply) -> None:
        self._reply = reply
        self._ready().set()

    def _ready(self) -> asyncio.Event:
        if self._attached is None:
            self._attached = asyncio.Event()
        return self._attached

    def __aiter__(self) -> CheckedStdin:
        return self

    async def __anext__(self) -> str:
        if self._lines is None:
            self._lines = asyncio.Queue()
            loop = asyncio.get_running_loop()
            threading.Thread(
                target=self._read, args=(loop, self._lines), name="mcp stdin", daemon=True
            ).start()
        while True:
            raw = await self._lines.get()
            if raw is None:
                raise StopAsyncIteration
            verdict = check_line(raw)
            if isinstance(verdict, str):
                return verdict
            if isinstance(verdict, Rejection):
                await self._ready().wait()
                assert self._reply is not None  # attach() sets it before the event
                await self._reply(verdict)

    def _read(self, loop: asyncio.AbstractEventLoop, lines: asyncio.Queue) -> None:
        with contextlib.suppress(RuntimeError):  # the loop closed: nobody is listening
            try:
                with os.fdopen(self._descriptor, "rb", closefd=False) as stream:
                    for raw in stream:
                        loop.call_soon_threadsafe(lines.put_nowait, raw)
            except OSError:
                pass  # a read error ends the input like end of file
            loop.call_soon_threadsafe(lines.put_nowait, None)


def claim_stdin() -> int | None:
    """A private duplicate of fd 0 to read requests from, with fd 0 itself pointed at the
    null device (so a child process or a stray read never takes the client's bytes);
    None when stdin is closed."""
    try:
        private = os.dup(0)
    except OSError:
        return None
    with contextlib.suppress(OSError):
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
    return private
