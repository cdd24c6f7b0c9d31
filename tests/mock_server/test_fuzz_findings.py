"""What fuzzing the mock with its own OpenAPI document found, kept found.

Each test is one request schemathesis made that once answered 500.
"""

from __future__ import annotations

import httpx
import pytest

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
