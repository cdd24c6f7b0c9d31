"""Secrets are masked before anything is kept: headers, cookies, JSON and form fields, URLs."""

from __future__ import annotations

import orjson
from hypothesis import given
from hypothesis import strategies as st

from explorer.core.http.exchange import Exchange, Hop, ReceivedResponse, SentRequest
from explorer.core.http.masking import (
    MASK,
    is_secret_name,
    mask_body,
    mask_exchange,
    mask_headers,
    mask_url,
    masked_fields,
)


def test_credentials_keep_their_scheme_and_lose_their_value() -> None:
    headers = (
        ("Authorization", "Bearer eyJhbGciOi.x.y"),
        ("Proxy-Authorization", "Basic dXNlcjpwYXNz"),
        ("Accept", "application/json"),
    )
    assert mask_headers(headers) == (
        ("Authorization", f"Bearer {MASK}"),
        ("Proxy-Authorization", f"Basic {MASK}"),
        ("Accept", "application/json"),
    )


def test_cookies_keep_their_names_and_attributes() -> None:
    headers = (
        ("Cookie", "session=abc123; theme=dark"),
        ("Set-Cookie", "session=abc123; Path=/; HttpOnly; SameSite=Lax"),
    )
    assert mask_headers(headers) == (
        ("Cookie", f"session={MASK}; theme={MASK}"),
        ("Set-Cookie", f"session={MASK}; Path=/; HttpOnly; SameSite=Lax"),
    )


def test_token_fields_of_json_bodies_at_any_depth() -> None:
    body = orjson.dumps(
        {
            "access_token": "AT",
            "refresh_token": "RT",
            "id_token": "IT",
            "token_type": "Bearer",
            "expires_in": 3600,
            "user": {"name": "alice", "password": "wonderland", "github_token": "gh"},
            "clients": [{"client_id": "c1", "client_secret": "s1"}],
        }
    )
    masked = orjson.loads(mask_body(body, "application/json; charset=utf-8"))
    assert masked == {
        "access_token": MASK,
        "refresh_token": MASK,
        "id_token": MASK,
        "token_type": "Bearer",
        "expires_in": 3600,
        "user": {"name": "alice", "password": MASK, "github_token": MASK},
        "clients": [{"client_id": "c1", "client_secret": MASK}],
    }


def test_a_masked_json_body_keeps_its_layout() -> None:
    body = b'{\n  "user": "alice",\n  "private_key" : "-----BEGIN",\n  "otp": 123456\n}'
    assert mask_body(body, "application/json") == (
        b'{\n  "user": "alice",\n  "private_key" : "****",\n  "otp": "****"\n}'
    )


def test_a_form_login_and_a_problem_json_are_masked_too() -> None:
    assert mask_body(
        b"username=alice&password=wonderland", "application/x-www-form-urlencoded"
    ) == (b"username=alice&password=****")
    problem = mask_body(b'{"token": "x"}', "application/problem+json")
    assert orjson.loads(problem) == {"token": MASK}


def test_bodies_without_secrets_are_kept_byte_for_byte() -> None:
    pretty = b'{\n  "name": "Ada",\n  "tokens_left": 3\n}'
    assert mask_body(pretty, "application/json") is pretty
    assert mask_body(b"not json {", "application/json") == b"not json {"
    assert mask_body(b"\x89PNG password", "image/png") == b"\x89PNG password"


def test_urls_lose_passwords_and_secret_parameters() -> None:
    assert mask_url("https://u:p@api.test/x?api_key=k&page=2") == (
        f"https://u:{MASK}@api.test/x?api_key={MASK}&page=2"
    )
    assert mask_url("http://api.test/x?page=2") == "http://api.test/x?page=2"


def test_secret_names() -> None:
    for name in ("access_token", "Refresh-Token", "PASSWORD", "client_secret", "x_api_key"):
        assert is_secret_name(name)
    for name in ("token_type", "name", "expires_in", "tokens_left"):
        assert not is_secret_name(name)


def test_every_message_of_an_exchange_is_masked() -> None:
    login = SentRequest(
        "POST",
        "http://api.test/login",
        (("Content-Type", "application/json"),),
        b'{"username": "alice", "password": "wonderland"}',
    )
    hop = Hop(
        login,
        ReceivedResponse(
            303, "See Other", "HTTP/1.1", (("Set-Cookie", "sid=s1; Path=/"),), b"", login.url
        ),
    )
    final = SentRequest("GET", "http://api.test/me", (("Cookie", "sid=s1"),))
    response = ReceivedResponse(
        200,
        "OK",
        "HTTP/1.1",
        (("Content-Type", "application/json"),),
        b'{"access_token": "secret-token"}',
        final.url,
    )
    masked = mask_exchange(Exchange(login, final, response, hops=(hop,)))
    text = repr(masked)
    for secret in ("wonderland", "s1", "secret-token"):
        assert secret not in text


@given(st.dictionaries(st.text(max_size=12), st.text(max_size=12), max_size=6))
def test_masking_json_keeps_it_json_with_the_same_keys(document: dict[str, str]) -> None:
    body = orjson.dumps({**document, "password": "p"})
    masked = orjson.loads(mask_body(body, "application/json"))
    assert masked.keys() == orjson.loads(body).keys()
    assert masked["password"] == MASK


# --- the names the secret scanners read, and the values sent ------------------------------------


def test_every_secret_header_is_masked_whole() -> None:
    headers = (
        ("X-Api-Key", "k"),
        ("Private-Token", "glpat-x"),
        ("X-Amz-Security-Token", "st"),
        ("Idempotency-Key", "not-a-secret"),
        ("Location", "https://app.test/cb?code=c0de&state=s"),
    )
    assert mask_headers(headers) == (
        ("X-Api-Key", MASK),
        ("Private-Token", MASK),
        ("X-Amz-Security-Token", MASK),
        ("Idempotency-Key", "not-a-secret"),
        ("Location", f"https://app.test/cb?code={MASK}&state=s"),
    )


def test_a_multipart_form_loses_its_secret_fields_not_its_files() -> None:
    content_type = "multipart/form-data; boundary=XyZ"
    body = (
        b'--XyZ\r\nContent-Disposition: form-data; name="user"\r\n\r\nalice\r\n'
        b'--XyZ\r\nContent-Disposition: form-data; name="password"\r\n\r\nwonder\r\nland\r\n'
        b'--XyZ\r\nContent-Disposition: form-data; name="token"; filename="token.txt"\r\n'
        b"Content-Type: text/plain\r\n\r\nfile bytes\r\n"
        b"--XyZ--\r\n"
    )
    masked = mask_body(body, content_type)
    assert masked == body.replace(b"wonder\r\nland", MASK.encode())
    assert masked_fields(masked, content_type) == ["password"]


def test_query_parameters_a_url_only_names_as_secrets() -> None:
    url = "https://s3.test/o?X-Amz-Signature=a1&sig=b2&code=c3&key=d4&page=2#access_token=e5"
    assert mask_url(url) == (
        f"https://s3.test/o?X-Amz-Signature={MASK}&sig={MASK}&code={MASK}&key={MASK}&page=2"
        f"#access_token={MASK}"
    )
    error = b'{"code": "NOT_FOUND", "key": "color"}'
    assert mask_body(error, "application/json") is error  # JSON's code and key are no secrets


def test_a_value_sent_as_a_secret_is_masked_where_it_comes_back() -> None:
    sent = SentRequest(
        "GET",
        "http://api.test/anything?api_key=query-key-1",
        (
            ("Authorization", "Basic YWxpY2U6d29uZGVybGFuZA=="),
            ("X-Api-Key", "header-key-2"),
            ("Cookie", "sid=session-cookie-3; theme=dark"),
        ),
    )
    echo = (
        b'{"url": "http://api.test/anything?api_key=query-key-1", "echo": "header-key-2", '
        b'"cookies": {"sid": "session-cookie-3", "theme": "dark"}, '
        b'"basic": "YWxpY2U6d29uZGVybGFuZA==", "said": "wonderland", "slash": "session-cookie-3"}'
    )
    response = ReceivedResponse(
        200,
        "OK",
        "HTTP/1.1",
        (("Content-Type", "application/json"), ("X-Echo", "header-key-2")),
        echo,
        sent.url,
        wire_body=b"gzip of the echo",
    )
    masked = mask_exchange(Exchange(sent, sent, response))
    text = repr(masked)
    for secret in ("query-key-1", "header-key-2", "session-cookie-3", "YWxpY2U6", "wonderland"):
        assert secret not in text
    assert b'"theme": "dark"' in masked.response.body  # a short cookie value is kept
    assert masked.response.header("X-Echo") == MASK
    assert masked.response.wire_body is None  # the body as it came would hold them


def test_headers_named_like_credentials_and_their_echo_are_masked() -> None:
    """Issue 23 checked again: ``X-Session-Id``, ``X-Auth`` and ``X-Jwt-Assertion`` were kept
    in clear in the history, and so was their echo in a body (``X-Auth``'s value came back
    half masked: another secret's value inside it)."""
    sent = SentRequest(
        "GET",
        "http://api.test/anything?auth=AUTHV",
        (
            ("X-Session-Id", "session-id-1"),
            ("X-Auth", "XAUTHV"),
            ("X-Jwt-Assertion", "eyJ.jwt.assertion"),
            ("X-Auth-User", "alice"),
        ),
    )
    echo = orjson.dumps({"headers": dict(sent.headers)})
    response = ReceivedResponse(
        200, "OK", "HTTP/1.1", (("Content-Type", "application/json"),), echo, sent.url
    )
    masked = mask_exchange(Exchange(sent, sent, response))
    assert masked.request.headers == (
        ("X-Session-Id", MASK),
        ("X-Auth", MASK),
        ("X-Jwt-Assertion", MASK),
        ("X-Auth-User", "alice"),
    )
    assert orjson.loads(masked.response.body)["headers"] == dict(masked.request.headers)


def test_a_jwt_or_a_passcode_in_a_query_is_masked() -> None:
    """Issue 23 checked again: ``?jwt=`` was kept in clear in the history."""
    url = "https://api.test/embed?jwt=eyJ.a.b&passcode=1234&page=2"
    assert mask_url(url) == f"https://api.test/embed?jwt={MASK}&passcode={MASK}&page=2"
