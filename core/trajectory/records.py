"""One trajectory line, parsed tolerantly: any JSONL shape, malformed lines kept and flagged.

The fields tierscope writes (seed 004 §4.2 plus `query_id`, `served_by`, `budget`,
`total_ms`) are lifted into named attributes; everything else stays in `raw`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

import orjson

TRUNCATED = "truncated: no newline at end of file"
EMPTY_LINE = "empty line"
INVALID_UTF8 = "invalid UTF-8 (decoded with replacement)"

_JSON_TYPE_NAMES = {
    list: "an array",
    str: "a string",
    int: "a number",
    float: "a number",
    bool: "a boolean",
    type(None): "null",
}
# Epoch numbers above this are milliseconds (this many seconds is the year 5138).
_EPOCH_MILLIS_FROM = 1e11


@dataclass(frozen=True, slots=True)
class TrajectoryEntry:
    """One line of a trajectory file.

    `line_no` counts from 1, as an editor does; `byte_offset` is where the line starts in
    the (decompressed) file. `error` is "" for a clean line, else why the line is flagged;
    a flagged line keeps whatever could be recovered in `raw` and its text in `text`.
    `raw` is the parsed object as read; treat it as read-only.
    """

    line_no: int
    byte_offset: int
    raw: dict[str, Any] = field(hash=False)
    text: str
    error: str = ""
    ts: str = ""
    timestamp: float | None = None
    agent: str = ""
    phase: str = ""
    query: str = ""
    query_id: str = ""
    tier: str = ""  # the tier that served (`served_by`), else the seed's `mode`
    result_count: int | None = None
    latency_ms: float | None = None  # `total_ms`, else `latency_ms`
    budget_used: int | None = None
    budget_limit: int | None = None

    @property
    def flagged(self) -> bool:
        return bool(self.error)


def parse_line(
    data: bytes, line_no: int, byte_offset: int, *, complete: bool = True
) -> TrajectoryEntry:
    """Parse one line (with or without its trailing newline); never raises.

    `complete=False` marks the last line of a file that has no newline yet: it is flagged
    as truncated even when what is there happens to parse.
    """
    body = _strip_newline(data)
    text = body.decode("utf-8", "replace")
    record, error = decode_record(body)
    if not complete:
        error = TRUNCATED if not error or error == EMPTY_LINE else f"{TRUNCATED}; {error}"
    if record is None:
        return TrajectoryEntry(line_no, byte_offset, {}, text, error)
    budget = record.get("budget")
    return TrajectoryEntry(
        line_no=line_no,
        byte_offset=byte_offset,
        raw=record,
        text=text,
        error=error,
        ts=_display_time(record.get("ts")),
        timestamp=timestamp_of(record.get("ts")),
        agent=text_field(record, "agent"),
        phase=text_field(record, "phase"),
        query=text_field(record, "query", "new_query", "original_query", "query1"),
        query_id=text_field(record, "query_id"),
        tier=text_field(record, "served_by", "mode"),
        result_count=_integer(record.get("result_count")),
        latency_ms=_number(record.get("total_ms", record.get("latency_ms"))),
        budget_used=_integer(budget.get("used")) if isinstance(budget, dict) else None,
        budget_limit=_integer(budget.get("limit") if isinstance(budget, dict) else budget),
    )


def decode_record(body: bytes) -> tuple[dict[str, Any] | None, str]:
    """(object, "") for a clean JSON object line, else (what could be recovered, why not).

    Invalid UTF-8 is decoded with replacement and parsed again, so such a line keeps its
    fields but is still flagged.
    """
    try:
        value = orjson.loads(body)
    except orjson.JSONDecodeError as exc:
        if not body.strip():
            return None, EMPTY_LINE
        try:
            body.decode("utf-8")
        except UnicodeDecodeError:
            return _decode_replaced(body)
        return None, _json_error(exc)
    if isinstance(value, dict):
        return value, ""
    return None, f"not a JSON object ({_JSON_TYPE_NAMES.get(type(value), 'a value')})"


def _decode_replaced(body: bytes) -> tuple[dict[str, Any] | None, str]:
    try:
        value = orjson.loads(body.decode("utf-8", "replace"))
    except orjson.JSONDecodeError as exc:
        return None, f"{INVALID_UTF8}; {_json_error(exc)}"
    if isinstance(value, dict):
        return value, INVALID_UTF8
    return None, f"{INVALID_UTF8}; not a JSON object"


def _json_error(exc: orjson.JSONDecodeError) -> str:
    return f"invalid JSON at column {exc.colno}: {exc.msg}"


def text_field(record: dict[str, Any], *keys: str) -> str:
    """The first of `keys` holding a string (numbers are shown as text), else ""."""
    for key in keys:
        value = record.get(key)
        if isinstance(value, str):
            return value
        if isinstance(value, int | float) and not isinstance(value, bool):
            return str(value)
    return ""


def moment_of(value: object) -> datetime | None:
    """A `ts` value as an aware datetime: ISO 8601 text (naive = UTC) or epoch seconds or
    milliseconds; None when it is neither."""
    if isinstance(value, str):
        try:
            moment = datetime.fromisoformat(value.strip())
        except ValueError:
            return None
        return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
    number = _number(value)
    if number is None:
        return None
    if abs(number) >= _EPOCH_MILLIS_FROM:
        number /= 1000.0
    try:
        return datetime.fromtimestamp(number, UTC)
    except (OverflowError, OSError, ValueError):
        return None


def timestamp_of(value: object) -> float | None:
    """Epoch seconds of a `ts` value, None when it has none."""
    moment = moment_of(value)
    return moment.timestamp() if moment is not None else None


def day_of(value: object) -> date | None:
    """The calendar day a `ts` value names, in the writer's own offset."""
    moment = moment_of(value)
    return moment.date() if moment is not None else None


def _display_time(value: object) -> str:
    if isinstance(value, str):
        return value
    moment = moment_of(value)
    return moment.isoformat() if moment is not None else ""


def _strip_newline(data: bytes) -> bytes:
    if data.endswith(b"\n"):
        data = data[:-1]
    if data.endswith(b"\r"):
        data = data[:-1]
    return data


def _integer(value: object) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and not value.is_integer():
        return None
    return int(value)


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    number = float(value)
    return number if math.isfinite(number) else None
