"""The layers' header helpers give exactly what Starlette's Headers objects give."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from starlette.datastructures import Headers, MutableHeaders

from mock_server.layers.fields import (
    request_field,
    request_fields,
    response_field,
    set_field,
    set_fields,
)

NAMES = st.sampled_from([b"vary", b"etag", b"api-version", b"content-type", b"link"])
VALUES = st.sampled_from([b"a", b"b", b"Accept", b""])
RAW = st.lists(st.tuples(NAMES, VALUES), max_size=8)


@given(raw=RAW, name=NAMES)
def test_reading_matches_headers(raw: list[tuple[bytes, bytes]], name: bytes) -> None:
    scope = {"headers": list(raw)}
    headers = Headers(raw=list(raw))
    found = headers.get(name.decode())
    assert request_field(scope, name) == (found.encode() if found is not None else None)
    assert response_field(scope, name) == request_field(scope, name)
    assert request_fields(scope, name) == [v.encode() for v in headers.getlist(name.decode())]


@given(raw=RAW, fields=st.dictionaries(NAMES, VALUES, max_size=3))
def test_setting_matches_mutable_headers(
    raw: list[tuple[bytes, bytes]], fields: dict[bytes, bytes]
) -> None:
    expected = {"headers": list(raw)}
    for name, value in fields.items():
        MutableHeaders(scope=expected)[name.decode()] = value.decode()
    one_by_one = {"headers": tuple(raw)}  # a tuple, as some servers hand over
    for name, value in fields.items():
        set_field(one_by_one, name, value)
    at_once = {"headers": list(raw)}
    set_fields(at_once, fields)
    assert list(one_by_one["headers"]) == at_once["headers"] == expected["headers"]
