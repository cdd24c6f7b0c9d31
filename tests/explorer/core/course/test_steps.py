"""The check's vocabulary: each key of a step, patterns, references, and strictness."""

from __future__ import annotations

import pytest

from explorer.core.course.errors import FormatError
from explorer.core.course.facts import ExchangeFacts
from explorer.core.course.steps import parse_step
from tests.explorer.core.course.exchanges import exchange

NONE: frozenset[str] = frozenset()


def holds(
    table: dict[str, object],
    *args: object,
    bound: dict[str, ExchangeFacts] | None = None,
    **kwargs: object,
) -> bool:
    step = parse_step(table, "step", frozenset(bound or ()))
    return step.matches(ExchangeFacts(exchange(*args, **kwargs)), bound or {})  # type: ignore[arg-type]


def test_method_path_status() -> None:
    assert holds({"method": "GET", "path": "/customers/1", "status": 200}, "GET", "/customers/1")
    assert not holds({"method": "GET"}, "HEAD", "/customers/1")
    assert holds({"method": ["PUT", "PATCH"]}, "PATCH", "/x")
    assert holds({"status": "4xx"}, "GET", "/x", 404)
    assert holds({"status": [200, "3xx"]}, "GET", "/x", 304)
    assert not holds({"status": "2xx"}, "GET", "/x", 500)


def test_a_path_star_stays_in_its_segment_and_two_cross_it() -> None:
    assert holds({"path": "/customers/*"}, "GET", "/customers/7")
    assert not holds({"path": "/customers/*"}, "GET", "/customers/7/orders")
    assert holds({"path": "/customers/**"}, "GET", "/customers/7/orders")
    assert holds({"path": "/customers/1"}, "GET", "/customers/1?limit=2")  # no query in a path


def test_query_headers_and_json() -> None:
    assert holds({"query": {"limit": "5", "offset": "*"}}, "GET", "/c?limit=5&offset=0")
    assert not holds({"query": {"limit": "5"}}, "GET", "/c?limit=50")
    assert holds(
        {"request_headers": {"accept": "*xml*"}},
        "GET",
        "/",
        headers=(("Accept", "application/xml"),),
    )
    assert holds({"response_headers": {"ETag": "*"}}, "GET", "/", answer=(("etag", '"a"'),))
    assert not holds({"response_headers": {"ETag": "*"}}, "GET", "/")
    body = b'{"name": "Ann", "address": {"city": "Springfield"}, "cost": 12.5, "ok": true}'
    assert holds(
        {"json": {"name": "Ann", "address.city": "Spring*", "cost": 12.5, "ok": True}},
        "POST",
        "/c",
        body=body,
    )
    assert not holds({"json": {"ok": 1}}, "POST", "/c", body=body)  # true is not 1
    assert holds({"json": {"cost": "12.5"}}, "POST", "/c", body=body)  # a pattern over its text
    assert holds(
        {"response_json": {"_embedded.customers.1.id": 2}},
        "GET",
        "/c",
        answer_body=b'{"_embedded": {"customers": [{"id": 1}, {"id": 2}]}}',
    )
    assert not holds({"json": {"name": "*"}}, "POST", "/c", body=b"not json")


def test_version_redirects_cache_and_not() -> None:
    assert holds({"http_version": "HTTP/2"}, "GET", "/", version="HTTP/2")
    assert holds({"redirected": True}, "GET", "/clients/1", hops=1)
    assert holds({"cache": "none"}, "GET", "/")
    assert holds({"path": "/customers/*", "not": {"path": "/customers/1"}}, "GET", "/customers/2")
    assert not holds(
        {"path": "/customers/*", "not": {"path": "/customers/1"}}, "GET", "/customers/1"
    )


def test_a_reference_is_taken_literally() -> None:
    read = ExchangeFacts(exchange("GET", "/p/1", answer=(("ETag", '"*"'),)))
    step = {"request_headers": {"If-Match": "${read.response.ETag}"}}
    assert holds(step, "PATCH", "/p/1", headers=(("If-Match", '"*"'),), bound={"read": read})
    assert not holds(step, "PATCH", "/p/1", headers=(("If-Match", '"x"'),), bound={"read": read})
    # A reference with no value fails the step.
    bare = ExchangeFacts(exchange("GET", "/p/1"))
    assert not holds(step, "PATCH", "/p/1", headers=(("If-Match", '"x"'),), bound={"read": bare})


@pytest.mark.parametrize(
    ("table", "said"),
    [
        ({"methd": "GET"}, "unknown key 'methd'"),
        ({"status": "2XX"}, "is not a status"),
        ({"status": 99}, "is not a status"),
        ({"path": "customers"}, "a path starts with /"),
        ({"method": "G T"}, "give a method"),
        ({"json": {"a": [1]}}, "string pattern, a number or a boolean"),
        ({"cache": "hot"}, "is not one of"),
        ({"path": "${read.path}"}, "names no earlier step"),
        ({"path": "${read.colour}"}, "is not a field a reference names"),
        ({"path": "/x${read.path"}, "never closes"),
        ({}, "tests nothing"),
        ({"not": {"name": "x"}}, "unknown key 'name'"),
        ({"name": "two words", "method": "GET"}, "is not a name"),
    ],
)
def test_a_bad_step_says_what_is_wrong(table: dict[str, object], said: str) -> None:
    with pytest.raises(FormatError, match=said):
        parse_step(table, "check.steps[0]", NONE)
