"""Request bodies that are not UTF-8: a 400 naming the first bad byte and its offset.

orjson checks UTF-8 before it parses, and says "str is not valid UTF-8: surrogates
not allowed: line 1 column 1 (char 0)" for any such byte; the mock said that
(QA pass 3, defect 9). Every body reader says the same thing instead: JSON
writes (POST, PUT, both PATCH types, the batch), the token login (JSON and form),
the maintenance switch (form) and the report request.
"""

from __future__ import annotations

import httpx
import pytest

from tests.mock_server.conftest import ADMIN, EDITOR

JSON = "application/json"
FORM = "application/x-www-form-urlencoded"

#: (method, path, Content-Type, credentials) of each reader of a body.
READERS = [
    ("POST", "/customers", JSON, EDITOR),
    ("PUT", "/customers/1", JSON, EDITOR),
    ("PATCH", "/customers/1", "application/merge-patch+json", EDITOR),
    ("PATCH", "/customers/1", "application/json-patch+json", EDITOR),
    ("POST", "/customers/batch", JSON, EDITOR),
    ("POST", "/auth/token", JSON, {}),
    ("POST", "/auth/token", FORM, {}),
    ("POST", "/admin/maintenance", FORM, ADMIN),
    ("POST", "/admin/maintenance", JSON, ADMIN),
    ("POST", "/reports", JSON, ADMIN),
]


@pytest.mark.parametrize(("method", "path", "content_type", "credentials"), READERS)
@pytest.mark.parametrize(
    ("body", "byte", "offset"),
    [
        (b"\xff\xfe", 0xFF, 0),  # the QA's curl --data-binary $'\xff\xfe' (a UTF-16 BOM)
        ('{"name": "Zoë"}'.encode("cp1252"), 0xEB, 12),  # a Windows-1252 client
        (b'{"name": "ab\xc3"}', 0xC3, 12),  # a sequence cut short
    ],
)
async def test_a_body_that_is_not_utf8_is_a_400_naming_the_byte(
    client: httpx.AsyncClient,
    method: str,
    path: str,
    content_type: str,
    credentials: dict[str, str],
    body: bytes,
    byte: int,
    offset: int,
) -> None:
    response = await client.request(
        method, path, content=body, headers={**credentials, "Content-Type": content_type}
    )
    assert response.status_code == 400
    assert response.headers["content-type"] == "application/problem+json; charset=utf-8"
    problem = response.json()
    what = "The form body" if content_type == FORM else "The request body"
    assert problem["detail"] == f"{what} is not UTF-8 (byte 0x{byte:02x} at offset {offset})."
    assert problem["offset"] == offset
    assert "surrogates" not in response.text


async def test_json_that_is_utf8_but_not_json_still_says_where_the_syntax_broke(
    client: httpx.AsyncClient,
) -> None:
    response = await client.post(
        "/customers", content=b'{"name": "Zo\xc3\xab",', headers={**EDITOR, "Content-Type": JSON}
    )
    assert response.status_code == 400
    assert response.json()["detail"].startswith("The request body is not valid JSON: ")
    assert "offset" not in response.json()


async def test_a_form_whose_escapes_are_not_utf8_is_a_400(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/auth/token", content=b"username=%ff&password=x", headers={"Content-Type": FORM}
    )
    assert response.status_code == 400
    assert response.json()["detail"] == (
        "The form body is not UTF-8 once its %-escapes are decoded (byte 0xff)."
    )
    assert response.headers["cache-control"] == "no-store"
