"""The HTTP message text of requests and responses."""

from __future__ import annotations

import pytest

from explorer.core.bodies.media import is_text
from explorer.core.http.exchange import ReceivedResponse, SentRequest
from explorer.core.http.wire import (
    body_text,
    mask_header,
    request_target,
    request_text,
    response_text,
)


def make_response(
    body: bytes, content_type: str | None = "application/json", **fields: object
) -> ReceivedResponse:
    headers = (("Content-Type", content_type),) if content_type else ()
    values: dict[str, object] = {
        "status": 200,
        "reason": "OK",
        "http_version": "HTTP/1.1",
        "headers": (*headers, ("Content-Length", str(len(body)))),
        "body": body,
        "url": "http://127.0.0.1:8000/customers/1",
    }
    values.update(fields)
    return ReceivedResponse(**values)  # type: ignore[arg-type]


def test_request_text_is_the_http_message() -> None:
    request = SentRequest(
        method="POST",
        url="http://127.0.0.1:8000/customers?limit=2&name=a%20b",
        headers=(
            ("Host", "127.0.0.1:8000"),
            ("Content-Type", "application/json"),
            ("Content-Length", "15"),
        ),
        body=b'{"name": "Zo\xc3\xab"}',
    )
    assert request_text(request) == (
        "POST /customers?limit=2&name=a%20b HTTP/1.1\n"
        "Host: 127.0.0.1:8000\n"
        "Content-Type: application/json\n"
        "Content-Length: 15\n"
        "\n"
        '{"name": "Zoë"}'
    )


def test_crlf_gives_the_exact_wire_form() -> None:
    request = SentRequest("GET", "http://127.0.0.1/", (("Host", "127.0.0.1"),))
    assert request_text(request, newline="\r\n") == "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


def test_response_text_is_the_http_message() -> None:
    response = make_response(b'{"id": 1}')
    assert response_text(response) == (
        'HTTP/1.1 200 OK\nContent-Type: application/json\nContent-Length: 9\n\n{"id": 1}'
    )


def test_http2_messages_show_their_version() -> None:
    response = make_response(b"", http_version="HTTP/2", status=204, reason="No Content")
    assert response_text(response).startswith("HTTP/2 204 No Content\n")


def test_a_response_without_reason_has_a_bare_status_line() -> None:
    assert response_text(make_response(b"", reason="", status=599)).startswith("HTTP/1.1 599\n")


def test_binary_bodies_are_summarised() -> None:
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256))
    response = make_response(png, content_type="image/png")
    assert response_text(response).endswith(f"\n\n[{len(png)} bytes of image/png]")


def test_bad_utf8_is_replaced_not_raised() -> None:
    assert body_text(b"caf\xe9 ok", "text/plain") == "caf\ufffd ok"


def test_the_declared_charset_is_used() -> None:
    assert body_text(b"caf\xe9", "text/plain; charset=ISO-8859-1") == "café"
    assert body_text(b"caf\xc3\xa9", 'text/plain; charset="nonsense"') == "café"


def test_body_limit_cuts_and_says_how_much_is_left() -> None:
    text = body_text(b"x" * 100, "text/plain", limit=10)
    assert text == "x" * 10 + "\n[... 90 more bytes]"
    assert body_text(b"short", "text/plain", limit=10) == "short"


def test_body_limit_in_response_text() -> None:
    text = response_text(make_response(b"a" * 50), body_limit=20)
    assert text.endswith("\n\n" + "a" * 20 + "\n[... 30 more bytes]")


@pytest.mark.parametrize(
    ("body", "media_type", "binary"),
    [
        (b"", "image/png", False),
        (b'{"a":1}', "application/hal+json", False),
        (b"<a/>", "application/atom+xml", False),
        (b"plain", "text/csv", False),
        (b"\x00\x01", None, True),
        (b"\xff\xfe\xfa", None, True),
        (b"text", "application/octet-stream", True),
        (b"PK\x03\x04", "application/zip", True),
        ("naïve".encode(), None, False),
        (b"\x00data", "application/x-unknown", True),
    ],
)
def test_is_binary(body: bytes, media_type: str | None, binary: bool) -> None:
    assert is_text(media_type, body) is not binary


def test_credentials_are_masked_by_default() -> None:
    request = SentRequest(
        "GET",
        "http://127.0.0.1/orders",
        (
            ("Authorization", "Bearer eyJ.secret"),
            ("Cookie", "session=abc123; theme=dark"),
            ("Accept", "*/*"),
        ),
    )
    text = request_text(request)
    assert "Authorization: Bearer ****" in text
    assert "Cookie: session=****; theme=****" in text
    assert "secret" not in text
    assert "abc123" not in text
    assert "Bearer eyJ.secret" in request_text(request, mask=False)


def test_set_cookie_values_are_masked_but_attributes_stay() -> None:
    response = make_response(
        b"", headers=(("Set-Cookie", "session=s3cr3t; HttpOnly; SameSite=Lax; Path=/"),)
    )
    assert "Set-Cookie: session=****; HttpOnly; SameSite=Lax; Path=/" in response_text(response)


def test_mask_header() -> None:
    assert mask_header("authorization", "Basic YWxpY2U6d29uZGVybGFuZA==") == "Basic ****"
    assert mask_header("Proxy-Authorization", "token") == "****"
    assert mask_header("Accept", "text/html") == "text/html"


@pytest.mark.parametrize(
    ("url", "target"),
    [
        ("http://127.0.0.1:8000", "/"),
        ("http://127.0.0.1:8000/a/b?c=d", "/a/b?c=d"),
        ("http://127.0.0.1/%7Euser/x%20y", "/%7Euser/x%20y"),
        ("http://127.0.0.1/p#frag", "/p"),
    ],
)
def test_request_target(url: str, target: str) -> None:
    assert request_target(url) == target


def test_a_character_cut_by_the_limit_is_left_out() -> None:
    assert body_text("aé".encode(), "text/plain", limit=2) == "a\n[... 1 more byte]"
