"""What fuzzing the mock with its own OpenAPI document found, kept found.

Each test is one request schemathesis made that once answered 500.
"""

from __future__ import annotations

import re
import sys

import httpx
import pytest

from mock_server.openapi.schemas import TEXT
from tests.mock_server.conftest import ADMIN


@pytest.mark.parametrize("op", [{}, [], 3, None])
async def test_json_patch_op_that_is_not_a_string_is_400(
    client: httpx.AsyncClient, op: object
) -> None:
    response = await client.patch(
        "/customers/1",
        json=[{"op": op, "path": "/address", "value": "0"}],
        headers={**ADMIN, "Content-Type": "application/json-patch+json"},
    )
    assert response.status_code == 400
    assert "'op' must be one of" in response.json()["detail"]


async def test_offset_beyond_what_json_can_carry_is_400(client: httpx.AsyncClient) -> None:
    response = await client.get("/v1/products", params={"offset": "32589158477190044730"})
    assert response.status_code == 400
    assert response.json()["parameter"] == "offset"


async def test_redirect_to_a_non_ascii_path(client: httpx.AsyncClient) -> None:
    response = await client.delete("/redirect-to", params={"url": "/Ãoĕ¶"})
    assert response.status_code == 302
    assert response.headers["location"] == "/%C3%83o%C4%95%C2%B6"


def test_the_documented_text_pattern_strips_like_the_server() -> None:
    """A name of U+001C alone passed the schema's ``\\S`` but the server strips it: 422."""
    pattern = re.compile(TEXT["pattern"])
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        assert bool(pattern.search(char)) is (not char.isspace()), hex(code)


async def test_a_long_v2_address_survives_a_v1_round_trip(client: httpx.AsyncClient) -> None:
    """Four 200-character parts make a v1 line longer than a v1 write may send: reading it
    back unchanged (PUT what was read, or an empty patch) must still work."""
    address = {"streetAddress": "s" * 150, "city": "c" * 60, "state": "ST", "zipCode": "1"}
    put = await client.put(
        "/v2/customers/1", json={"name": "Ada", "address": address}, headers=ADMIN
    )
    assert put.status_code == 200
    read = (await client.get("/v1/customers/1")).json()
    assert len(read["address"]) > 200
    again = await client.put(
        "/v1/customers/1", json={"name": read["name"], "address": read["address"]}, headers=ADMIN
    )
    assert again.status_code == 200
    patched = await client.patch(
        "/v1/customers/1",
        content=b"[]",
        headers={**ADMIN, "Content-Type": "application/json-patch+json"},
    )
    assert patched.status_code == 200
    assert (await client.get("/v2/customers/1")).json()["address"] == address
    too_long = await client.put(
        "/v1/customers/1", json={"name": "Ada", "address": "x" * 201}, headers=ADMIN
    )
    assert too_long.status_code == 422


async def test_merge_patch_removing_an_absent_member_is_a_no_op(client: httpx.AsyncClient) -> None:
    response = await client.patch(
        "/v2/products/1",
        content=b'{"": null, "colour": null}',
        headers={**ADMIN, "Content-Type": "application/merge-patch+json"},
    )
    assert response.status_code == 200
