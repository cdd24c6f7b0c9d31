"""Reading a parameter from the request as its ``style`` and ``explode`` say.

A parameter arrives as text; its schema speaks of integers, arrays and
objects. :func:`read_parameter` finds it (path, query, header or cookie) and
turns the text into the value the schema describes, following OpenAPI's
serialization rules (``form``, ``simple``, ``label``, ``matrix``,
``spaceDelimited``, ``pipeDelimited``, ``deepObject``; a parameter given with
``content`` is parsed as that media type). Text that is not what the schema
wants (``limit=ten`` for an integer) is kept as text, so the validator, not
this module, names the rule it breaks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

from mock_server.contract.operations import Parameter
from mock_server.contract.schemas import referred

#: A parameter that is not in the request.
MISSING: Any = object()


@dataclass(frozen=True)
class RequestParts:
    """What of a request parameters are read from, decoded once."""

    path: dict[str, str]
    #: Query pairs in order, names and values percent-decoded.
    query: list[tuple[str, str]]
    #: Header fields by lower-case name; repeated fields joined with ", ".
    headers: dict[str, str]
    cookies: dict[str, str]


def types_of(schema: Any) -> list[str]:
    """The JSON types a parameter's schema names (its first ``$ref``, ``allOf`` part, branch)."""
    if not isinstance(schema, dict):
        return []
    defs = schema.get("$defs", {})
    schema = referred(schema, defs)
    kind = schema.get("type")
    if isinstance(kind, str):
        return [kind]
    if isinstance(kind, list):
        return [k for k in kind if isinstance(k, str)]
    for key in ("allOf", "anyOf", "oneOf"):
        for part in schema.get(key) or ():
            found = types_of({**part, "$defs": defs} if isinstance(part, dict) else part)
            if found:
                return found
    if "properties" in schema:
        return ["object"]
    if "items" in schema:
        return ["array"]
    return []


def item_schema(schema: Any) -> Any:
    if not isinstance(schema, dict):
        return None
    defs = schema.get("$defs", {})
    items = referred(schema, defs).get("items")
    return {**items, "$defs": defs} if isinstance(items, dict) else None


def _property_schemas(schema: Any) -> dict[str, Any]:
    if not isinstance(schema, dict):
        return {}
    defs = schema.get("$defs", {})
    found = referred(schema, defs).get("properties")
    if not isinstance(found, dict):
        return {}
    return {
        name: {**inner, "$defs": defs} if isinstance(inner, dict) else inner
        for name, inner in found.items()
    }


def scalar(text: str, schema: Any) -> Any:
    """``text`` as the scalar ``schema`` wants: an integer, a number, a boolean or text."""
    for kind in types_of(schema) or ["string"]:
        if kind == "integer":
            try:
                return int(text)
            except ValueError:
                continue
        elif kind == "number":
            try:
                number = float(text)
            except ValueError:
                continue
            if number == number and abs(number) != float("inf"):
                return int(number) if text.lstrip("-").isdigit() else number
        elif kind == "boolean" and text in ("true", "false"):
            return text == "true"
        elif kind == "null" and text in ("", "null"):
            return None
        elif kind == "string":
            return text
    return text


def _split_array(text: str, separator: str, schema: Any) -> list[Any]:
    if text == "":
        return []
    item = item_schema(schema)
    return [scalar(part, item) for part in text.split(separator)]


def _pairs_object(parts: list[str], schema: Any) -> dict[str, Any] | str:
    """``["role", "admin", "firstName", "Alex"]`` as an object (unexploded style)."""
    if len(parts) % 2:
        return ",".join(parts)
    properties = _property_schemas(schema)
    return {
        parts[i]: scalar(parts[i + 1], properties.get(parts[i])) for i in range(0, len(parts), 2)
    }


def _assigned_object(parts: list[str], schema: Any) -> dict[str, Any]:
    """``["role=admin", "firstName=Alex"]`` as an object (exploded style)."""
    properties = _property_schemas(schema)
    found: dict[str, Any] = {}
    for part in parts:
        name, _, value = part.partition("=")
        found[name] = scalar(value, properties.get(name))
    return found


def _simple(text: str, parameter: Parameter) -> Any:
    """``simple`` (path and header), and the text after a ``label`` or ``matrix`` prefix."""
    kinds = types_of(parameter.schema)
    if "array" in kinds:
        return _split_array(text, ",", parameter.schema)
    if "object" in kinds:
        parts = text.split(",") if text else []
        if parameter.explode:
            return _assigned_object(parts, parameter.schema)
        return _pairs_object(parts, parameter.schema)
    return scalar(text, parameter.schema)


def _path_value(text: str, parameter: Parameter) -> Any:
    style = parameter.style
    if style == "label":
        if not text.startswith("."):
            return text
        text = text[1:]
        if parameter.explode and "array" in types_of(parameter.schema):
            return _split_array(text, ".", parameter.schema)
        return _simple(text.replace(".", ",") if parameter.explode else text, parameter)
    if style == "matrix":
        prefix = f";{parameter.name}="
        if parameter.explode and "array" in types_of(parameter.schema):
            values = [part.removeprefix(f"{parameter.name}=") for part in text.split(";")[1:]]
            return [scalar(v, item_schema(parameter.schema)) for v in values]
        if parameter.explode and "object" in types_of(parameter.schema):
            return _assigned_object(text.split(";")[1:], parameter.schema)
        if not text.startswith(prefix):
            return text
        return _simple(text[len(prefix) :], parameter)
    return _simple(text, parameter)


def _query_value(parts: RequestParts, parameter: Parameter) -> Any:
    name = parameter.name
    kinds = types_of(parameter.schema)
    if parameter.style == "deepObject":
        prefix = f"{name}["
        found = {
            key[len(prefix) : -1]: value
            for key, value in parts.query
            if key.startswith(prefix) and key.endswith("]")
        }
        if not found:
            return MISSING
        properties = _property_schemas(parameter.schema)
        return {key: scalar(value, properties.get(key)) for key, value in found.items()}
    if "object" in kinds and parameter.explode and parameter.style == "form":
        properties = _property_schemas(parameter.schema)
        exploded = {k: scalar(v, properties.get(k)) for k, v in parts.query if k in properties}
        return exploded if exploded else MISSING
    values = [value for key, value in parts.query if key == name]
    if not values:
        return MISSING
    if "array" in kinds:
        separator = {"spaceDelimited": " ", "pipeDelimited": "|"}.get(parameter.style, ",")
        if parameter.explode and parameter.style == "form":
            item = item_schema(parameter.schema)
            return [scalar(value, item) for value in values]
        return _split_array(values[-1], separator, parameter.schema)
    if "object" in kinds:
        return _pairs_object(values[-1].split(",") if values[-1] else [], parameter.schema)
    return scalar(values[-1], parameter.schema)


def _from_content(text: str, parameter: Parameter) -> Any:
    if parameter.media_type is not None and "json" in parameter.media_type:
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:
            return text
    return text


def read_parameter(parts: RequestParts, parameter: Parameter) -> Any:
    """The value of ``parameter`` in the request, or :data:`MISSING`."""
    location = parameter.location
    text: str | None
    if location == "query":
        if parameter.media_type is not None:
            text = next((v for k, v in parts.query if k == parameter.name), None)
            return MISSING if text is None else _from_content(text, parameter)
        return _query_value(parts, parameter)
    if location == "path":
        raw = parts.path.get(parameter.name)
        if raw is None:
            return MISSING
        text = raw  # the router decoded it
        if parameter.media_type is not None:
            return _from_content(text, parameter)
        return _path_value(text, parameter)
    if location == "header":
        text = parts.headers.get(parameter.name.lower())
    else:
        text = parts.cookies.get(parameter.name)
    if text is None:
        return MISSING
    if parameter.media_type is not None:
        return _from_content(text, parameter)
    if location == "cookie":
        kinds = types_of(parameter.schema)
        if "array" in kinds:
            return _split_array(text, ",", parameter.schema)
        return scalar(text, parameter.schema)
    return _simple(text.strip(), parameter)
