"""A tool call's arguments held to the tool's input schema with jsonschema, by the draft the
schema names (`$schema`; MCP's default, 2020-12, when it names none). Each schema is checked
once, the first time it is used. A refusal is one line naming the argument and what was
wrong with it.

Only the MCP server imports this module, so only it loads jsonschema.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match
from jsonschema.protocols import Validator
from jsonschema.validators import validator_for


class ArgumentsRefused(ValueError):
    """The arguments do not fit the schema; the message says where and how."""


_validators: dict[str, Validator] = {}


def check_schemas(schemas: Iterable[dict[str, Any]]) -> None:
    """Check each schema against its draft's metaschema now (raises SchemaError)."""
    for schema in schemas:
        _validator(schema)


def _validator(schema: dict[str, Any]) -> Validator:
    key = json.dumps(schema, sort_keys=True)
    validator = _validators.get(key)
    if validator is None:
        cls = validator_for(schema, default=Draft202012Validator)
        cls.check_schema(schema)  # a broken schema is our fault: it raises SchemaError
        validator = _validators[key] = cls(schema)
    return validator


def checked_arguments(schema: dict[str, Any], arguments: object) -> dict[str, Any]:
    """`arguments` if they fit `schema` (integers written as whole floats, 7.0, made ints);
    raises ArgumentsRefused otherwise."""
    if not isinstance(arguments, dict):
        raise ArgumentsRefused(f"arguments must be a JSON object, got {_shown(arguments)}")
    validator = _validator(schema)
    error = best_match(validator.iter_errors(arguments))
    if error is not None:
        raise ArgumentsRefused(_reason(error))
    return _whole_numbers(schema, arguments)


def _whole_numbers(schema: Mapping[str, Any], value: Any) -> Any:
    """JSON Schema's integer is any number without a fraction: pass 7.0 on as 7."""
    if isinstance(value, float) and _types(schema) & {"integer"} and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        return {
            key: _whole_numbers(properties[key], item) if key in properties else item
            for key, item in value.items()
        }
    if isinstance(value, list) and isinstance(schema.get("items"), Mapping):
        return [_whole_numbers(schema["items"], item) for item in value]
    return value


def _types(schema: Mapping[str, Any]) -> set[str]:
    wanted = schema.get("type", ())
    return {wanted} if isinstance(wanted, str) else set(wanted)


def _reason(error: ValidationError) -> str:
    """One line: the argument (`types[0]`, `scope`) and what is wrong with its value."""
    where = _where(error.absolute_path)
    # The error's parts, as jsonschema sets them for the keyword that failed.
    value: Any = error.instance
    expected: Any = error.validator_value
    schema: Any = error.schema
    match error.validator:
        case "required":
            missing = next((key for key in expected if key not in value), None)
            if missing is None:
                pass
            elif not where:
                return f"missing required argument {missing!r}"
            return f"{where}: missing required key {missing!r}"
        case "additionalProperties":
            known = schema.get("properties", {})
            extra = next((key for key in value if key not in known), None)
            if extra is None:
                pass
            elif not where:
                return f"unknown argument {extra!r} (expected: {', '.join(known)})"
            return f"{where}: unknown key {extra!r}"
        case "type":
            kinds = " or ".join([expected] if isinstance(expected, str) else expected)
            return f"{where or 'arguments'} must be a JSON {kinds}, got {_shown(value)}"
        case "enum":
            choices = ", ".join(str(choice) for choice in expected)
            return f"{where} must be one of: {choices} (got {_shown(value)})"
        case "minimum" | "maximum":
            bound = "at least" if error.validator == "minimum" else "at most"
            return f"{where} must be {bound} {expected}, got {_shown(value)}"
    message = " ".join(error.message.split())
    return f"{where or 'arguments'}: {message[:200]}"


def _where(path: Iterable[str | int]) -> str:
    where = ""
    for part in path:
        where += f"[{part}]" if isinstance(part, int) else (f".{part}" if where else part)
    return where


def _shown(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)[:60]
