"""The pure parts of ``--openapi``: values generated from schemas, parameters read by style."""

from __future__ import annotations

import re
from typing import Any

import pytest

from mock_server.contract.generate import generate, validator
from mock_server.contract.negotiate import preferences
from mock_server.contract.operations import Parameter
from mock_server.contract.params import MISSING, RequestParts, read_parameter
from mock_server.contract.patterns import matching
from mock_server.http.problems import Problem

SCHEMAS: list[dict[str, Any]] = [
    {"type": "string", "format": "date-time"},
    {"type": "string", "format": "date"},
    {"type": "string", "format": "email"},
    {"type": "string", "format": "uuid"},
    {"type": "string", "format": "uri"},
    {"type": "string", "format": "ipv4"},
    {"type": "string", "format": "ipv6"},
    {"type": "string", "format": "hostname"},
    {"type": "string", "pattern": "^[A-Z]{2}-\\d{3,5}(-[a-z]+)?$"},
    {"type": "string", "pattern": "^(?:#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6})$"},
    {"type": "string", "minLength": 12, "maxLength": 14},
    {"type": "string", "maxLength": 2},
    {"type": "integer", "minimum": 10, "maximum": 12},
    {"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 3},
    {"type": "integer", "multipleOf": 7, "minimum": 20},
    {"type": "integer", "format": "int32", "minimum": -5},
    {"type": "number", "minimum": 0.5, "maximum": 0.75},
    {"type": "number", "multipleOf": 0.25, "maximum": -10},
    {"enum": ["red", "green", None]},
    {"const": {"fixed": True}},
    {
        "type": "array",
        "items": {"type": "integer", "minimum": 0, "maximum": 3},
        "minItems": 3,
        "uniqueItems": True,
    },
    {
        "type": "array",
        "prefixItems": [{"type": "string"}, {"type": "boolean"}],
        "items": False,
        "minItems": 2,
    },
    {"type": "object", "minProperties": 3, "additionalProperties": {"type": "integer"}},
    {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a", "b"]},
    {
        "allOf": [
            {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]},
            {"properties": {"b": {"type": "string", "enum": ["x"]}}, "required": ["b"]},
        ]
    },
    {"oneOf": [{"type": "string", "maxLength": 3}, {"type": "integer"}]},
    {"anyOf": [{"type": "null"}, {"type": "string", "format": "email"}]},
    {"type": ["null", "string"], "format": "date"},
    {
        "$defs": {
            "Node": {
                "type": "object",
                "properties": {"next": {"$ref": "#/$defs/Node"}},
                "required": ["value"],
            }
        },
        "$ref": "#/$defs/Node",
    },
    {"type": "object", "properties": {"bad": {"type": "integer", "example": "not a number"}}},
]


@pytest.mark.parametrize("schema", SCHEMAS, ids=[str(i) for i in range(len(SCHEMAS))])
def test_every_generated_value_fits_its_schema(schema: dict[str, Any]) -> None:
    check = validator({"$schema": "https://json-schema.org/draft/2020-12/schema", **schema})
    for seed in range(12):
        value = generate(schema, f"seed-{seed}", check=check)
        assert check.is_valid(value), (schema, value, [e.message for e in check.iter_errors(value)])


def test_the_same_seed_gives_the_same_value() -> None:
    schema = {
        "type": "object",
        "properties": {"id": {"type": "string", "format": "uuid"}, "n": {"type": "integer"}},
    }
    assert generate(schema, "a") == generate(schema, "a")
    assert generate(schema, "a") != generate(schema, "b")


@pytest.mark.parametrize(
    "pattern", ["^\\d{4}-\\d{2}$", "[a-f\\d]{24}", "^(foo|bar)+baz?$", "^[^0-9]{3}\\.x$", "(a)\\1"]
)
def test_a_pattern_is_matched(pattern: str) -> None:
    import random

    for seed in range(10):
        assert re.search(pattern, matching(pattern, random.Random(seed)))


def parameter(name: str, location: str, schema: dict[str, Any], **kwargs: Any) -> Parameter:
    style = kwargs.pop(
        "style", {"path": "simple", "query": "form", "header": "simple"}.get(location, "form")
    )
    return Parameter(
        name=name,
        location=location,
        required=False,
        schema=schema,
        style=style,
        explode=kwargs.pop("explode", style == "form"),
        **kwargs,
    )


ARRAY = {"type": "array", "items": {"type": "integer"}}
OBJECT = {"type": "object", "properties": {"role": {"type": "string"}, "n": {"type": "integer"}}}


@pytest.mark.parametrize(
    ("param", "parts", "expected"),
    [
        (parameter("id", "query", ARRAY), {"query": [("id", "3"), ("id", "4")]}, [3, 4]),
        (parameter("id", "query", ARRAY, explode=False), {"query": [("id", "3,4,5")]}, [3, 4, 5]),
        (
            parameter("id", "query", ARRAY, style="pipeDelimited", explode=False),
            {"query": [("id", "3|4")]},
            [3, 4],
        ),
        (
            parameter("id", "query", ARRAY, style="spaceDelimited", explode=False),
            {"query": [("id", "3 4")]},
            [3, 4],
        ),
        (
            parameter("id", "query", OBJECT),
            {"query": [("role", "admin"), ("n", "2")]},
            {"role": "admin", "n": 2},
        ),
        (
            parameter("id", "query", OBJECT, style="deepObject", explode=True),
            {"query": [("id[role]", "admin"), ("id[n]", "5")]},
            {"role": "admin", "n": 5},
        ),
        (
            parameter("id", "query", OBJECT, explode=False),
            {"query": [("id", "role,admin,n,1")]},
            {"role": "admin", "n": 1},
        ),
        (parameter("id", "path", ARRAY), {"path": {"id": "3,4"}}, [3, 4]),
        (
            parameter("id", "path", OBJECT, explode=True),
            {"path": {"id": "role=admin,n=2"}},
            {"role": "admin", "n": 2},
        ),
        (parameter("id", "path", ARRAY, style="label"), {"path": {"id": ".3,4"}}, [3, 4]),
        (
            parameter("id", "path", ARRAY, style="label", explode=True),
            {"path": {"id": ".3.4"}},
            [3, 4],
        ),
        (
            parameter("id", "path", {"type": "integer"}, style="matrix"),
            {"path": {"id": ";id=5"}},
            5,
        ),
        (
            parameter("id", "path", ARRAY, style="matrix", explode=True),
            {"path": {"id": ";id=3;id=4"}},
            [3, 4],
        ),
        (parameter("X-Flag", "header", {"type": "boolean"}), {"headers": {"x-flag": "true"}}, True),
        (parameter("n", "query", {"type": "integer"}), {"query": [("n", "ten")]}, "ten"),
        (parameter("n", "query", {"type": "integer"}), {"query": []}, MISSING),
        (
            parameter("f", "query", {"type": "object"}, media_type="application/json"),
            {"query": [("f", '{"a": 1}')]},
            {"a": 1},
        ),
        (parameter("c", "cookie", {"type": "number"}), {"cookies": {"c": "1.5"}}, 1.5),
    ],
)
def test_parameters_are_read_as_their_style_says(
    param: Parameter, parts: dict[str, Any], expected: Any
) -> None:
    request = RequestParts(
        path=parts.get("path", {}),
        query=parts.get("query", []),
        headers=parts.get("headers", {}),
        cookies=parts.get("cookies", {}),
    )
    assert read_parameter(request, param) == expected


def test_prefer_is_read_as_prism_reads_it() -> None:
    found = preferences('code=404, example="cat"; dynamic=true, respond-async')
    assert (found.code, found.example, found.dynamic) == ("404", "cat", True)
    assert preferences("code=500, respond-async").code == "500"
    assert preferences(None).applied() is None


def test_prefer_values_that_cannot_be_honoured_are_problems() -> None:
    with pytest.raises(Problem) as raised:
        preferences("code=101")
    assert raised.value.status == 400
    assert "interim" in raised.value.detail
