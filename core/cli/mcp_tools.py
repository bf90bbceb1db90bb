"""The tools `tierscope mcp` lists, as MCP's Tool fields: each one's name, description and
input schema (seed 002's for the context store, the context types from
tierscope.store.context_types), and what the server tells a client it is for."""

from __future__ import annotations

from typing import Any, TypedDict

from tierscope.store.context_types import CONTEXT_TYPES, entries_in_prose

SERVER_NAME = "tierscope"
INSTRUCTIONS = (
    f"Shared context for the skills of one run: write {entries_in_prose()} with "
    "write_context, read them back "
    "(filtered or searched) with read_context, and search the project's documents and code "
    "under a token budget with query_context. Within this connection's session, a section "
    "already provided is answered with a short reference to it; when a result says to "
    "synthesize and clear, write down what matters and call clear_session."
)


# Integers are stored in SQLite and passed to the engine: a 64-bit signed range at most.
INTEGER_RANGE = {"minimum": -(2**63), "maximum": 2**63 - 1}


class ToolSpec(TypedDict):
    """A tool as the server lists it: MCP's Tool fields, in MCP's spelling."""

    name: str
    description: str
    inputSchema: dict[str, Any]


WRITE_CONTEXT: ToolSpec = {
    "name": "write_context",
    "description": "Write context to the shared context store.",
    "inputSchema": {
        "type": "object",
        "properties": {
            "type": {
                "type": "string",
                "enum": list(CONTEXT_TYPES),
                "description": "The type of context being written",
            },
            "content": {
                "type": "string",
                "description": "The content. Plain string for simple types, JSON string for "
                "structured types",
            },
            "task_id": {"type": "string", "description": "Associated task ID (optional)"},
            "loop_id": {"type": "string", "description": "Associated loop ID (optional)"},
            "file": {"type": "string", "description": "Associated file path (optional)"},
            "line": {
                "type": "integer",
                **INTEGER_RANGE,
                "description": "Associated line number (optional)",
            },
        },
        "required": ["type", "content"],
        "additionalProperties": False,
    },
}

READ_CONTEXT: ToolSpec = {
    "name": "read_context",
    "description": "Read context from the shared context store. Supports filtering and "
    "full-text search.",
    "inputSchema": {
        "type": "object",
        "properties": {
            "types": {
                "type": "array",
                "items": {"type": "string"},
                "description": "Filter by context types (optional)",
            },
            "task_id": {"type": "string", "description": "Filter by task ID (optional)"},
            "loop_id": {"type": "string", "description": "Filter by loop ID (optional)"},
            "file": {"type": "string", "description": "Filter by file path (optional)"},
            "search": {"type": "string", "description": "Full-text search query (optional)"},
            "limit": {
                "type": "integer",
                **INTEGER_RANGE,
                "description": "Max entries to return (default: 500)",
            },
            "offset": {
                "type": "integer",
                **INTEGER_RANGE,
                "description": "Skip first N entries (default: 0)",
            },
            "order": {
                "type": "string",
                "enum": ["asc", "desc"],
                "description": "Sort by created_at (default: desc)",
            },
        },
        "required": [],
        "additionalProperties": False,
    },
}

QUERY_CONTEXT: ToolSpec = {
    "name": "query_context",
    "description": "Search the project's documents and code through the retrieval tiers "
    "(qmd, then ck, then grep, falling through), cut to a token budget. Returns a JSON "
    "array of {source, score, content, tier}, best first.",
    "inputSchema": {
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "What to look for, in plain words"},
            "scope": {
                "type": "string",
                "description": "grimoires, skills, notes, reality, all, or a scope the "
                "project's config defines (optional)",
            },
            "budget": {
                "type": "integer",
                **INTEGER_RANGE,
                "description": "Token budget for the answer (optional; default from config)",
            },
            "skill": {
                "type": "string",
                "description": "Calling skill: selects its config overrides and names its "
                "trajectory log (optional)",
            },
            "session": {
                "type": "string",
                "description": "Session to answer in (optional; default: this connection's "
                "own session). Sections it has received come back as references",
            },
        },
        "required": ["query"],
        "additionalProperties": False,
    },
}

CLEAR_SESSION: ToolSpec = {
    "name": "clear_session",
    "description": "Record a clearing of the session (seed 004's clearing phase), once its "
    "results have been synthesized: the accumulated token count restarts at 0 and sections "
    "provided before may be provided again. The session's total goes on.",
    "inputSchema": {
        "type": "object",
        "properties": {
            "session": {
                "type": "string",
                "description": "Session to clear (optional; default: this connection's)",
            },
            "summary": {"type": "string", "description": "What was synthesized (optional)"},
        },
        "required": [],
        "additionalProperties": False,
    },
}

TOOLS = (WRITE_CONTEXT, READ_CONTEXT, QUERY_CONTEXT, CLEAR_SESSION)
