"""Building httpx requests from a RequestSpec: methods, versions, auth, bodies."""

from __future__ import annotations

import base64

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.core.http.api_version import VersionStyle, base_path_misuse, under_base_path
from explorer.core.http.errors import (
    InvalidHeader,
    InvalidMethod,
    InvalidRequest,
    InvalidURL,
)
from explorer.core.http.field_syntax import is_token
from explorer.core.http.request import (
    USER_AGENT,
    BasicAuth,
    BearerAuth,
    CookieSession,
    LoginFlow,
    RequestSpec,
    build_request,
    guess_content_type,
)

BASE = "http://127.0.0.1:8000"


def build(**fields: object) -> httpx.Request:
    fields.setdefault("url", f"{BASE}/customers")
    return build_request(RequestSpec(**fields))  # type: ignore[arg-type]


# --- methods -----------------------------------------------------------------


@pytest.mark.parametrize(
    "method", ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT"]
)
def test_standard_methods_are_kept(method: str) -> None:
    assert build(method=method).method == method


@pytest.mark.parametrize("method", ["BREW", "PROPFIND", "M-SEARCH", "x!#$%&'*+.^_`|~9"])
def test_custom_method_tokens_are_sent_as_given(method: str) -> None:
    assert build(method=method).method == method


@pytest.mark.parametrize("method", ["", "GET POST", "GE(T", "GET\r\n", "ÄÖ", "a/b"])
def test_a_method_that_is_not_a_token_is_refused(method: str) -> None:
    with pytest.raises(InvalidMethod) as info:
        build(method=method)
    assert "token" in info.value.explanation
    assert isinstance(info.value, InvalidRequest)


def test_is_token() -> None:
    assert is_token("Content-Type")
    assert not is_token("Content Type")
    assert not is_token("")


# --- URL, query and headers ---------------------------------------------------


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("", "no scheme"),
        ("127.0.0.1:8000/x", "127.0.0.1"),
        ("ftp://127.0.0.1/x", "ftp://"),
        ("http:///path", "no host"),
        ("http://127.0.0.1:99999999/", "not valid"),
        # QA pass 2, 13: httpx says "Invalid port: ':1'"
        ("http://[::1", "the [ of its IPv6 address is never closed"),
        ("http://user@[fe80::1:8080/x?y", "the [ of its IPv6 address is never closed"),
        # Bytes of a .http file that are not UTF-8 (kept as surrogates): said so, shown
        # as U+FFFD, not as Python's codec error.
        ("http://h/\udcff\udcfe", "'http://h/\ufffd\ufffd' holds bytes that are not UTF-8"),
    ],
)
def test_bad_urls_are_refused_with_a_reason(url: str, words: str) -> None:
    with pytest.raises(InvalidURL) as info:
        build(url=url)
    assert words in info.value.message


def test_a_long_url_refused_is_quoted_short_so_the_reason_shows() -> None:
    # QA: a server's link to a 100,000-character URL was refused with all of it quoted,
    # which filled the status line: "(URL too long)" never showed.
    url = "http://127.0.0.1:8000/" + "b" * 100_000
    with pytest.raises(InvalidURL) as info:
        build(url=url)
    message = info.value.message
    assert len(message) < 400, message[:500]
    assert message.startswith("The URL 'http://127.0.0.1:8000/bbb")
    assert "(100,022 characters)" in message
    assert message.endswith("is not valid. (URL too long)")


def test_query_pairs_are_added_to_the_query_in_the_url() -> None:
    request = build(url=f"{BASE}/products?limit=5", query=(("name", "tea pot"), ("limit", "7")))
    assert request.url.query == b"limit=5&name=tea+pot&limit=7"


def test_a_url_query_is_left_exactly_as_typed_when_nothing_is_added() -> None:
    request = build(url=f"{BASE}/p?a=%20b&c")
    assert request.url.query == b"a=%20b&c"


def test_headers_keep_their_order_and_override_defaults() -> None:
    request = build(headers=(("Accept", "application/xml"), ("X-Trace", "1"), ("X-Trace", "2")))
    assert request.headers.get_list("accept") == ["application/xml"]
    assert request.headers.get_list("x-trace") == ["1", "2"]
    assert request.headers["user-agent"] == USER_AGENT
    assert request.headers["accept-encoding"] == "gzip, deflate"
    assert request.headers["host"] == "127.0.0.1:8000"


@pytest.mark.parametrize(
    "header", [("Bad Name", "v"), ("", "v"), ("X", "line\r\nInjected: 1"), ("X", "nul\x00")]
)
def test_bad_headers_are_refused(header: tuple[str, str]) -> None:
    with pytest.raises(InvalidHeader):
        build(headers=(header,))


# --- bodies ---------------------------------------------------------------------


def test_a_str_body_is_sent_as_utf8_with_its_content_type() -> None:
    request = build(method="POST", body='{"name": "Zoë"}', content_type="application/json")
    assert request.content == '{"name": "Zoë"}'.encode()
    assert request.headers["content-type"] == "application/json"
    assert request.headers["content-length"] == str(len(request.content))


def test_a_content_type_header_wins_over_the_spec_field() -> None:
    request = build(
        method="PATCH",
        body=b"{}",
        content_type="application/json",
        headers=(("Content-Type", "application/merge-patch+json"),),
    )
    assert request.headers.get_list("content-type") == ["application/merge-patch+json"]


def test_a_body_without_a_type_gets_a_guessed_one() -> None:
    assert build(method="POST", body='{"a": 1}').headers["content-type"] == "application/json"


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ('{"a": [1, 2]}', "application/json"),
        (b"[]", "application/json"),
        ("name=ann&city=Paris", "application/x-www-form-urlencoded"),
        ("hello there", "text/plain; charset=utf-8"),
    ],
)
def test_guess_content_type(body: str | bytes, expected: str) -> None:
    assert guess_content_type(body) == expected


def test_no_body_means_no_content_headers_on_get() -> None:
    request = build()
    assert "content-length" not in request.headers
    assert "content-type" not in request.headers


# --- versioning ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "base_path", "expected"),
    [
        ("/customers/1", "", "/v2/customers/1"),
        ("/v1/customers/1", "", "/v2/customers/1"),
        ("/api/v1/customers", "", "/api/v2/customers"),
        ("/api/customers", "/api", "/api/v2/customers"),
        ("/api/v1/customers", "/api/", "/api/v2/customers"),
        ("/other/customers", "/api", "/v2/other/customers"),
        ("/", "", "/v2"),
        ("", "", "/v2"),
        ("/customers/", "", "/v2/customers/"),
    ],
)
def test_uri_versioning_puts_the_segment_after_the_base_path(
    url: str, base_path: str, expected: str
) -> None:
    request = build(url=f"{BASE}{url}", api_version=2, version_style="uri", base_path=base_path)
    assert request.url.path == expected


@pytest.mark.parametrize(
    ("path", "base_path", "under"),
    [
        ("/api/customers", "/api", True),
        ("/api", "/api/", True),
        ("/api/v1/x", "api", True),
        ("/apis/customers", "/api", False),
        ("/other", "/api", False),
        ("/", "/api", False),
        ("/anything", "", True),
    ],
)
def test_a_path_is_under_a_base_path_by_whole_segments(
    path: str, base_path: str, under: bool
) -> None:
    assert under_base_path(path, base_path) is under


def test_a_url_not_under_the_base_path_is_said_so() -> None:
    assert base_path_misuse(f"{BASE}/api/customers?x=1", "/api") is None
    assert base_path_misuse(f"{BASE}/apis", "/api") == (
        "the URL's path /apis does not start with it"
    )
    assert base_path_misuse("http://h.test", "/api") == "the URL's path / does not start with it"


def test_uri_versioning_keeps_the_query() -> None:
    request = build(url=f"{BASE}/products?limit=2", api_version=2, version_style="uri")
    assert str(request.url) == f"{BASE}/v2/products?limit=2"


def test_query_versioning_sets_version_once() -> None:
    request = build(
        url=f"{BASE}/customers?version=1&limit=3",
        query=(("version", "9"),),
        api_version=2,
        version_style="query",
    )
    assert request.url.query == b"limit=3&version=2"
    assert request.url.path == "/customers"


def test_header_versioning_uses_the_spec_custom_header() -> None:
    request = build(
        headers=(("custom-header", "api-version=1"),), api_version=3, version_style="header"
    )
    assert request.headers.get_list("Custom-Header") == ["api-version=3"]
    assert request.url.path == "/customers"


def test_style_none_or_no_version_changes_nothing() -> None:
    plain = build(url=f"{BASE}/customers?x=1")
    for spec in (
        {"api_version": 2, "version_style": "none"},
        {"api_version": None, "version_style": "uri"},
    ):
        request = build(url=f"{BASE}/customers?x=1", **spec)
        assert request.url == plain.url
        assert "custom-header" not in request.headers


# --- auth ------------------------------------------------------------------------------


def test_bearer_auth() -> None:
    assert build(auth=BearerAuth("t0k")).headers["authorization"] == "Bearer t0k"


def test_a_token_goes_under_the_scheme_its_server_names() -> None:
    # Django REST Framework's TokenAuthentication reads "Token <key>"
    assert build(auth=BearerAuth("k3y", "Token")).headers["authorization"] == "Token k3y"
    with pytest.raises(InvalidRequest, match="scheme 'To ken' is not one word"):
        build(auth=BearerAuth("k3y", "To ken"))
    assert "k3y" not in repr(BearerAuth("k3y", "Token"))


def test_basic_auth() -> None:
    header = build(auth=BasicAuth("alice", "wonderland")).headers["authorization"]
    scheme, _, encoded = header.partition(" ")
    assert scheme == "Basic"
    assert base64.b64decode(encoded) == b"alice:wonderland"


def test_userinfo_in_the_url_becomes_basic_auth_and_leaves_the_url() -> None:
    request = build(url="http://bob:builder@127.0.0.1:8000/orders")
    assert request.headers["authorization"] == "Basic " + base64.b64encode(b"bob:builder").decode()
    assert str(request.url) == f"{BASE}/orders"


def test_an_explicit_authorization_header_wins() -> None:
    request = build(auth=BearerAuth("a"), headers=(("Authorization", "Bearer b"),))
    assert request.headers.get_list("authorization") == ["Bearer b"]


def test_cookie_session_joins_an_explicit_cookie_header() -> None:
    session = CookieSession((("session", "s1"), ("theme", "dark")))
    assert build(auth=session).headers["cookie"] == "session=s1; theme=dark"
    both = build(auth=session, headers=(("Cookie", "a=b"),))
    assert both.headers.get_list("cookie") == ["a=b; session=s1; theme=dark"]


def test_a_login_flow_must_be_resolved_by_the_client() -> None:
    with pytest.raises(InvalidRequest, match="login flow"):
        build(auth=LoginFlow(f"{BASE}/auth/token", "alice", "wonderland"))


def test_credentials_never_show_in_reprs() -> None:
    for auth in (
        BearerAuth("secret-token"),
        BasicAuth("alice", "secret-token"),
        CookieSession((("session", "secret-token"),)),
        LoginFlow(f"{BASE}/auth/token", "alice", "secret-token"),
    ):
        assert "secret-token" not in repr(auth)
        assert "secret-token" not in repr(RequestSpec(url=BASE, auth=auth))


# --- any input: a request or a clear error, never a crash ---------------------------------


@settings(max_examples=300, deadline=None)
@given(
    method=st.text(max_size=12),
    url=st.one_of(
        st.text(max_size=40),
        st.builds(lambda rest: f"http://127.0.0.1:8000/{rest}", st.text(max_size=30)),
    ),
    header=st.tuples(st.text(max_size=12), st.text(max_size=20)),
    query=st.lists(st.tuples(st.text(max_size=8), st.text(max_size=8)), max_size=3),
    version=st.one_of(st.none(), st.integers(min_value=0, max_value=10**6)),
    style=st.sampled_from(["none", "uri", "query", "header"]),
    body=st.one_of(st.none(), st.text(max_size=20), st.binary(max_size=20)),
)
def test_any_input_builds_or_raises_invalid_request(
    method: str,
    url: str,
    header: tuple[str, str],
    query: list[tuple[str, str]],
    version: int | None,
    style: str,
    body: str | bytes | None,
) -> None:
    spec = RequestSpec(
        method=method,
        url=url,
        headers=(header,),
        query=tuple(query),
        api_version=version,
        version_style=style,  # type: ignore[arg-type]
        body=body,
    )
    error: InvalidRequest | None = None
    try:
        request = build_request(spec)
    except InvalidRequest as exc:
        error = exc
    if error is not None:
        assert error.message
        assert "\n" not in error.message
    else:
        assert request.method == method
        assert request.url.scheme in ("http", "https")


# Versions as real APIs name them (issue 10, item 12).
@pytest.mark.parametrize(
    ("style", "name", "where", "expected"),
    [
        ("query", "api-version", "url", "http://api.test/items?api-version=3"),
        ("header", "Accept-Version", "Accept-Version", "3"),
        ("header", "X-API-Version", "X-API-Version", "3"),
        ("header", "Custom-Header: api-version={version}", "Custom-Header", "api-version=3"),
        ("header", "", "Custom-Header", "api-version=3"),
        (
            "media-type",
            "application/vnd.example+json; version={version}",
            "Accept",
            "application/vnd.example+json; version=3",
        ),
        (
            "media-type",
            "application/vnd.github+json",
            "Accept",
            "application/vnd.github+json; version=3",
        ),
        ("media-type", "", "Accept", "application/json; version=3"),
    ],
)
def test_versions_can_be_named_as_real_apis_name_them(
    style: VersionStyle, name: str, where: str, expected: str
) -> None:
    spec = RequestSpec(
        url="http://api.test/items", api_version=3, version_style=style, version_name=name
    )
    request = build_request(spec)
    if where == "url":
        assert str(request.url) == expected
    else:
        assert request.headers[where] == expected
        assert len(request.headers.get_list(where)) == 1  # the version's field replaces any other


@pytest.mark.parametrize(
    ("style", "name"), [("query", "a=b"), ("header", "Bad Header"), ("media-type", "json")]
)
def test_a_version_name_that_is_no_field_is_refused(style: VersionStyle, name: str) -> None:
    spec = RequestSpec(
        url="http://api.test/", api_version=2, version_style=style, version_name=name
    )
    with pytest.raises(InvalidRequest):
        build_request(spec)


def test_a_version_may_be_a_date_or_a_name_as_many_apis_use() -> None:
    from explorer.core.http.api_version import parse_version

    assert parse_version("2") == 2
    assert parse_version(" 2024-10-21 ") == "2024-10-21"
    assert parse_version("") is None
    with pytest.raises(InvalidRequest):
        parse_version("2 & x=1")
    spec = RequestSpec(
        url="http://api.test/items",
        api_version="2024-10-21",
        version_style="query",
        version_name="api-version",
    )
    assert str(build_request(spec).url) == "http://api.test/items?api-version=2024-10-21"
    spec = RequestSpec(
        url="http://api.test/",
        api_version="2022-11-28",
        version_style="header",
        version_name="X-GitHub-Api-Version",
    )
    assert build_request(spec).headers["X-GitHub-Api-Version"] == "2022-11-28"
