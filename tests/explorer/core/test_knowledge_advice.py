"""advise(): next steps read from the response's own headers, then the code's advice."""

from __future__ import annotations

from collections.abc import Iterator

from explorer.core.knowledge import advise
from explorer.core.knowledge import field_values as fv

DATE = "Sun, 22 Nov 2026 03:00:00 GMT"
CHALLENGE = 'Bearer realm="restwalk", Basic realm="restwalk"'
#: The mock names itself in every answer: its own advice is given on its answers.
ON_MOCK = ("Server", "restwalk-mock/0.1.0")


def joined(steps: list[str]) -> str:
    return "\n".join(steps)


def test_401_lists_both_challenges_of_one_value() -> None:
    steps = advise(401, [ON_MOCK, ("WWW-Authenticate", CHALLENGE)], "GET")
    text = joined(steps)
    assert "2 schemes (Bearer, Basic)" in steps[0]
    assert 'Bearer (realm "restwalk")' in text
    assert "POST /auth/token" in text
    assert 'Basic (realm "restwalk")' in text
    assert "Basic <base64 of user:password>" in text
    assert "Read `WWW-Authenticate`" not in text  # the general step is covered already


def test_401_with_invalid_token_says_the_token_was_rejected() -> None:
    value = (
        'Bearer realm="restwalk", error="invalid_token", '
        'error_description="The access token expired", Basic realm="restwalk"'
    )
    steps = advise(401, [("www-authenticate", value)], "GET")
    text = joined(steps)
    assert "The token you sent was rejected" in text
    assert "get a new one" in text
    assert '"The access token expired"' in text
    assert "Basic" in text


def test_an_unclosed_quoted_string_is_shown_as_sent_and_called_malformed() -> None:
    steps = advise(401, [("WWW-Authenticate", 'Bearer realm="unterminated')], "GET")
    assert steps[0].startswith("WWW-Authenticate is malformed")
    assert "realm" in steps[0]
    assert 'Bearer (realm "unterminated): get a token' in steps[1]
    assert '""' not in " ".join(steps)
    said = advise(401, [("WWW-Authenticate", 'Bearer error="invalid_token", error_description="x')])
    assert said[1].endswith('The server says: "x.')
    assert "error_description" in said[0]


def test_401_challenges_over_several_field_lines() -> None:
    headers = [("WWW-Authenticate", 'Bearer realm="a"'), ("WWW-Authenticate", "Basic")]
    assert "2 schemes (Bearer, Basic)" in advise(401, headers)[0]


def test_401_after_sending_credentials_says_they_were_refused() -> None:
    steps = advise(
        401,
        [("WWW-Authenticate", 'Basic realm="restwalk", charset="UTF-8"')],
        "GET",
        request_headers=[("Authorization", "Basic c2VjcmV0")],
    )
    text = joined(steps)
    assert "encoded as UTF-8" in text
    assert "You sent Authorization: Basic ... and it was refused" in text
    assert "c2VjcmV0" not in text  # credentials are never repeated


def test_401_without_challenge_points_out_the_missing_header() -> None:
    steps = advise(401, [], "GET")
    assert "carries no WWW-Authenticate" in steps[0]
    assert any("POST /auth/token" in step for step in steps)


def test_403_insufficient_scope() -> None:
    value = 'Bearer error="insufficient_scope", scope="orders:write"'
    steps = advise(403, [("WWW-Authenticate", value)], "POST")
    assert 'scope "orders:write"' in steps[0]


def test_407_reads_proxy_authenticate() -> None:
    steps = advise(407, [("Proxy-Authenticate", 'Basic realm="corp"')], "GET")
    assert "Proxy-Authorization: Basic" in steps[0]


def test_other_schemes_are_described() -> None:
    text = joined(
        advise(401, [("WWW-Authenticate", 'Digest realm="x", nonce="a,b", Negotiate abc==')])
    )
    assert "Digest" in text
    assert "nonce" in text
    assert "Negotiate" in text


def test_429_retry_after_seconds_and_rate_limit_fields() -> None:
    headers = [
        ON_MOCK,
        ("Retry-After", "7"),
        ("RateLimit-Limit", "100"),
        ("RateLimit-Remaining", "0"),
        ("RateLimit-Reset", "7"),
    ]
    steps = advise(429, headers, "GET")
    assert steps[0] == "Retry-After: 7: wait 7 s before trying again."
    assert steps[1] == "Rate limit: 0 of 100 requests left, the window resets in 7 s."
    assert not any("Watch `RateLimit-Remaining`" in step for step in steps)
    assert any("100 requests per 10 s" in step for step in steps)


def test_503_retry_after_http_date_counts_from_date() -> None:
    headers = [("Date", DATE), ("Retry-After", "Sun, 22 Nov 2026 03:05:00 GMT")]
    steps = advise(503, headers, "GET")
    assert "wait 300 s (5 min) before trying again" in steps[0]
    assert "counted from the response's Date" in steps[0]


def test_retry_after_date_without_date_header_and_in_the_past() -> None:
    later = advise(503, [("Retry-After", "Sun, 22 Nov 2026 03:05:00 GMT")])[0]
    assert "wait until then" in later
    assert "no Date" in later
    past = advise(503, [("Date", DATE), ("Retry-After", "Sun, 22 Nov 2026 02:00:00 GMT")])[0]
    assert "you may retry now" in past
    bad = advise(503, [("Retry-After", "soon")])[0]
    assert "neither seconds nor an HTTP-date" in bad


def test_413_retry_after_and_closed_connection() -> None:
    steps = advise(413, [("Retry-After", "3600"), ("Connection", "close")], "POST")
    assert "closed the connection" in steps[0]
    assert "wait 3600 s (1 h) before trying again" in steps[1]


def test_503_without_retry_after_backs_off() -> None:
    steps = advise(503, [])
    assert "gave no hint of when to retry" in steps[0]
    assert "back off" in steps[0]
    assert not any("`Retry-After`" in step for step in steps)


def test_429_advises_only_from_the_fields_it_carries() -> None:
    bare = advise(429, [("Content-Type", "text/plain")], "GET")
    assert "gave no hint of when to retry" in bare[0]
    assert not any("RateLimit" in step or "`Retry-After`" in step for step in bare)
    waited = advise(429, [("Retry-After", "5")], "GET")
    assert waited[0] == "Retry-After: 5: wait 5 s before trying again."
    assert not any("RateLimit" in step for step in waited)
    counted = [("X-RateLimit-Limit", "10"), ("X-RateLimit-Remaining", "0")]
    uncounted = advise(429, counted)
    assert "Rate limit: 0 of 10 requests left." in uncounted
    assert "gave no hint of when to retry" in uncounted[0]
    reset = advise(429, [*counted, ("X-RateLimit-Reset", "30")])
    assert reset == ["Rate limit: 0 of 10 requests left, the window resets in 30 s."]


def test_rate_limit_variants() -> None:
    single = advise(200, [("RateLimit", '"default";r=5;t=30')])[0]
    assert single == "Rate limit: 5 left, the window resets in 30 s."
    epoch = advise(
        200,
        [("Date", DATE), ("X-RateLimit-Remaining", "0"), ("X-RateLimit-Reset", "1795316460")],
    )[0]
    assert "resets in 60 s" in epoch
    assert "last request before 429" in epoch


def test_rate_limit_is_quiet_while_plenty_is_left() -> None:
    plenty = [("RateLimit-Limit", "100"), ("RateLimit-Remaining", "99"), ("RateLimit-Reset", "9")]
    assert not any(step.startswith("Rate limit") for step in advise(200, plenty))
    low = [("RateLimit-Limit", "100"), ("RateLimit-Remaining", "10"), ("RateLimit-Reset", "9")]
    assert advise(200, low)[0] == "Rate limit: 10 of 100 requests left, the window resets in 9 s."


def test_405_lists_allow_and_the_method_sent() -> None:
    steps = advise(405, [("Allow", "GET, HEAD"), ("Allow", "OPTIONS")], "delete")
    assert steps[0] == "This URL allows GET, HEAD, OPTIONS. You sent DELETE. Use one of those."
    assert not any("Use one of the methods in `Allow`" in step for step in steps)
    assert "Allow is empty" in advise(405, [("Allow", "")], "PUT")[0]
    assert "No Allow header" in advise(405, [], "PUT")[0]


def test_406_lists_the_alternates_the_links_offer() -> None:
    link = ", ".join(
        f'</customers>; rel="alternate"; type="{media}"'
        for media in ("application/hal+json", "application/xml")
    )
    headers = [("Content-Type", "application/problem+json"), ("Vary", "Accept"), ("Link", link)]
    steps = advise(406, headers, "GET", body=b'{"detail": "try text/csv"}')
    assert steps[0] == (
        'The server offers: application/hal+json, application/xml (Link rel="alternate"). '
        "Ask for one in Accept."
    )
    assert steps[1] == "The choice depends on Accept (Vary)."
    elsewhere = (
        '</c.xml>; rel="alternate"; type="application/xml", '
        '</c>; rel="alternate"; type="application/json"'
    )
    assert (
        "application/xml at /c.xml, application/json at /c" in advise(406, [("Link", elsewhere)])[0]
    )


def test_406_without_links_reads_media_types_from_the_body() -> None:
    body = (
        b'{"type": "about:blank", "detail": "image/png is not available.", '
        b'"available": ["application/hal+json", "application\\/vnd.siren+json"]}'
    )
    steps = advise(
        406,
        [("Content-Type", "application/problem+json")],
        "GET",
        body=body,
        request_headers=[("Accept", "image/png")],
    )
    assert steps[0] == (
        "The server offers: application/hal+json, application/vnd.siren+json "
        "(named in the body). Ask for one in Accept."
    )


def test_415_names_accept_post_and_accept_patch() -> None:
    headers = [("Accept-Patch", "application/merge-patch+json, application/json-patch+json")]
    steps = advise(415, headers, "PATCH")
    assert "application/merge-patch+json, application/json-patch+json" in steps[0]
    post = advise(415, [("Accept-Post", "application/json")], "POST")[0]
    assert post.startswith("POST bodies may be: application/json")
    assert "names no accepted types" in advise(415, [], "POST")[0]


def test_redirects_say_where_and_with_which_method() -> None:
    kept = advise(307, [("Location", "/v2/customers/1")], "PUT")[0]
    assert kept.startswith("Send the same PUT, with the same body, to /v2/customers/1")
    permanent = advise(308, [("Location", "/x")], "POST")[0]
    assert "method is kept" in permanent
    assert "update bookmarks" in permanent
    see_other = advise(303, [("Location", "/reports/1")], "POST")[0]
    assert see_other.startswith("GET /reports/1: a 303 turns the next request into a GET")
    moved = advise(301, [("Location", "/customers/1")], "POST")[0]
    assert "follow a 301 after a POST with GET" in moved
    found = advise(302, [("Location", "/elsewhere")], "GET")[0]
    assert found == "GET /elsewhere (Location)."
    assert "nowhere to follow" in advise(302, [], "GET")[0]
    assert "obsolete" in advise(305, [("Location", "http://proxy")])[0]


def test_304_means_use_the_cached_copy() -> None:
    steps = advise(304, [("ETag", '"v1"')], "GET")
    assert steps[0] == 'ETag "v1" still matches: the copy you hold is current.'
    assert "Use the copy you already have" in steps[1]


def test_412_and_428_ask_for_if_match() -> None:
    assert 'If-Match: "v9"' in advise(412, [("ETag", '"v9"')], "PUT")[0]
    assert "If-Match: <ETag>" in advise(428, [], "PATCH")[0]


def test_412_and_428_without_etag_say_get_it_once() -> None:
    for status in (412, 428):
        steps = advise(status, [], "PUT")
        about_getting = [step for step in steps if step.startswith("GET the resource")]
        assert len(about_getting) == 1, steps


def test_415_naming_no_types_offers_none_from_the_response() -> None:
    steps = advise(415, [], "POST")
    assert "names no accepted types" in steps[0]
    assert not any("a type the response offers" in step for step in steps), steps


def test_405_with_the_method_sent_in_allow_reads_as_a_sentence() -> None:
    (step,) = advise(405, [("Allow", "GET, HEAD, OPTIONS")], "GET")
    assert step.startswith("Allow lists GET, HEAD, OPTIONS, the GET you sent among them, ")


def test_416_reads_the_complete_length() -> None:
    step = advise(416, [("Content-Range", "bytes */5000")], "GET")[0]
    assert "complete length is 5000 bytes" in step
    assert "0-4999" in step
    assert "empty" in advise(416, [("Content-Range", "bytes */0")])[0]


def test_206_says_which_part_and_the_next_range() -> None:
    step = advise(206, [("Content-Range", "bytes 0-1023/5000"), ("ETag", '"e"')])[0]
    assert step.startswith("These are bytes 0-1023 of 5000. Next: Range: bytes=1024-")
    assert 'If-Range: "e"' in step
    assert "last part" in advise(206, [("Content-Range", "bytes 4000-4999/5000")])[0]


def test_206_with_an_invalid_content_range_says_so() -> None:
    # QA: "bytes 999-1/5" read as "These are bytes 999-1 of 5. Next: Range: bytes=2-".
    # RFC 9110 14.4: a last position before the first, or a complete length not past the
    # last, makes the field invalid, and the part cannot be placed.
    for value in ("bytes 999-1/5", "bytes 0-99/50", "bytes 0-99/99"):
        (step,) = advise(206, [("Content-Range", value)])
        assert step.startswith(f"Content-Range: {value} is invalid"), step
        assert "Next:" not in step
    assert fv.parse_content_range("bytes 999-1/5") is None
    assert fv.parse_content_range("bytes 0-99/99") is None
    last = fv.parse_content_range("bytes 0-99/100")
    assert last is not None
    assert last.last == 99


def test_426_and_101_read_upgrade() -> None:
    assert "TLS/1.3, HTTP/1.1" in advise(426, [("Upgrade", "TLS/1.3, HTTP/1.1")])[0]
    assert "now speaks websocket" in advise(101, [("Upgrade", "websocket")])[0]


def test_451_names_who_blocks() -> None:
    link = '<https://example.org/legal>; rel="blocked-by", </customers>; rel="up"'
    assert advise(451, [("Link", link)])[0] == (
        'Blocked by https://example.org/legal (Link rel="blocked-by").'
    )
    assert "RFC 7725" in advise(451, [])[0]


def test_201_and_202_point_at_the_new_resource_and_the_monitor() -> None:
    created = advise(201, [("Location", "/customers/42"), ("ETag", '"a"')], "POST")
    assert created[:2] == [
        "The new resource is at /customers/42: GET it to see it as stored.",
        'Its ETag is "a": send If-Match: "a" when you update it.',
    ]
    accepted = advise(202, [("Location", "/jobs/3"), ("Retry-After", "2")], "POST")
    assert accepted[0].startswith("Check on the work at /jobs/3")
    assert accepted[1] == "Retry-After: 2: wait 2 s before asking again."
    monitor = advise(202, [("Content-Location", "/jobs/4")], "POST")[0]
    assert "/jobs/4" in monitor


def test_deprecation_and_sunset() -> None:
    headers = [
        ("Deprecation", "@1796083200"),
        ("Sunset", "Thu, 31 Dec 2026 23:59:59 GMT"),
        ("Link", '</v2/customers>; rel="successor-version"'),
    ]
    step = advise(200, headers)[0]
    assert step.startswith("This resource is deprecated (since 2026-12-01 00:00 UTC)")
    assert "Sunset" in step
    assert "/v2/customers (rel=successor-version)" in step


def test_501_names_the_unknown_method() -> None:
    assert advise(501, [], "BREW")[0].startswith("BREW is not a standard method")


def test_plain_codes_get_their_own_next_steps() -> None:
    steps = advise(200, [("ETag", '"a"')], "GET")
    assert steps[0].startswith("Read the body and follow its links")
    assert any("If-None-Match" in step for step in steps)
    assert advise(418, [])[0].startswith("Nothing to fix")


def test_unknown_codes_fall_back_to_their_class() -> None:
    assert "treat it as 400 (4xx Client Error)" in advise(460, [])[0]
    assert "treat it as 500" in advise(599, [])[0]
    assert "not a valid status code" in advise(700, [])[0]
    assert advise(399, [("Location", "/x")], "GET")[0] == "GET /x (Location)."


def test_advice_never_repeats_a_step() -> None:
    for code in (200, 201, 301, 401, 429, 503):
        steps = advise(code, [("Retry-After", "1"), ("Location", "/x")], "POST")
        assert len(steps) == len(set(steps))


# -- a 200's validators and freshness follow the response (QA 1, item 14) -------------------

_GENERAL_ETAG = "Note `ETag`"
_GENERAL_CC = "Check `Cache-Control`"


def test_a_200_with_no_cache_headers_names_none() -> None:
    text = joined(advise(200, [("Content-Type", "application/json")], "GET"))
    assert "ETag" not in text
    assert "Cache-Control" not in text
    assert "Read the body and follow its links" in text


def test_a_no_store_token_answer_gets_no_validator_advice() -> None:
    """POST /auth/token on the mock: Cache-Control: no-store, no ETag."""
    headers = [("Cache-Control", "no-store"), ("Content-Type", "application/json")]
    for method in ("POST", "GET"):
        text = joined(advise(200, headers, method))
        assert "ETag" not in text
        assert "If-None-Match" not in text
        assert "Cache-Control" not in text


def test_a_200_with_max_age_and_etag_says_both_after_reading_the_body() -> None:
    headers = [("Cache-Control", "max-age=60"), ("ETag", '"b59"'), ("Date", DATE)]
    steps = advise(200, headers, "GET")
    assert steps[0].startswith("Read the body")  # the status line shows the first one
    text = joined(steps)
    assert "Reuse this copy for 60 s (1 min) without asking (Cache-Control: max-age=60)" in text
    assert 'If-None-Match: "b59"' in text
    assert _GENERAL_ETAG not in text
    assert _GENERAL_CC not in text


def test_a_200_with_only_last_modified_offers_if_modified_since() -> None:
    modified = "Thu, 01 Jan 2026 00:00:00 GMT"
    text = joined(advise(200, [("Last-Modified", modified)], "GET"))
    assert f"If-Modified-Since: {modified}" in text
    assert "If-None-Match" not in text


def test_no_cache_and_max_age_zero_ask_before_each_reuse() -> None:
    assert "ask the server before each reuse" in joined(
        advise(200, [("Cache-Control", "no-cache")], "GET")
    )
    assert "stale at once" in joined(advise(200, [("Cache-Control", "max-age=0")], "GET"))


def test_a_post_answer_gets_no_conditional_get_advice() -> None:
    headers = [("ETag", '"1"'), ("Cache-Control", "max-age=60")]
    text = joined(advise(200, headers, "POST"))
    assert "If-None-Match" not in text
    assert "Reuse this copy" not in text


# --- a 400 or 422's refused fields, and advice for another server than the mock ----------------

FASTAPI_422 = (
    b'{"detail": [{"type": "string_too_short", "loc": ["body", "name"], '
    b'"msg": "String should have at least 1 character"}, {"type": "greater_than", '
    b'"loc": ["body", "price"], "msg": "Input should be greater than 0"}]}'
)
UVICORN = [("server", "uvicorn"), ("content-type", "application/json")]


def test_422_names_the_fields_the_server_refused_and_why() -> None:
    steps = advise(422, UVICORN, "POST", body=FASTAPI_422)
    assert steps == [
        "The server refused: name: String should have at least 1 character; "
        "price: Input should be greater than 0. Fix those and send again."
    ]


def test_a_400_with_drf_s_field_errors_names_them_and_the_rest_are_counted() -> None:
    body = b"{" + b", ".join(b'"f%d": ["bad"]' % n for n in range(7)) + b"}"
    steps = advise(400, [], "POST", body=body)
    assert steps[0] == (
        "The server refused: f0: bad; f1: bad; f2: bad; f3: bad; f4: bad; and 2 more in "
        "the body. Fix those and send again."
    )


def test_a_422_without_field_errors_keeps_the_general_advice() -> None:
    steps = advise(422, [], "POST", body=b'{"detail": "nope"}')
    assert steps[0].startswith("Read the field errors")


def test_the_mock_s_own_advice_is_left_out_for_a_server_that_names_itself_otherwise() -> None:
    mock = [("Server", "restwalk-mock/0.1.0")]
    assert any(s.startswith("On restwalk-mock") for s in advise(404, mock, "GET"))
    assert any(s.startswith("On restwalk-mock") for s in advise(404, [], "GET"))  # unnamed
    assert not any("restwalk-mock" in s for s in advise(404, UVICORN, "GET"))
    bearer = [*UVICORN, ("WWW-Authenticate", "Bearer")]
    text = joined(advise(401, bearer, "GET"))
    assert "restwalk-mock" not in text
    assert "its OpenAPI description names it: tokenUrl" in text
    assert "POST /auth/token" in joined(advise(401, [*mock, ("WWW-Authenticate", "Bearer")]))
    # a sentence or an aside about the mock within a step goes too, the rest stays
    keyed = [("X-API-Key", "k")]
    assert advise(403, UVICORN, "GET", request_headers=keyed)[0] == (
        "Use an account with the needed rights."
    )
    assert "restwalk-mock" in advise(403, mock, "GET", request_headers=keyed)[0]
    assert advise(451, UVICORN, "GET")[-1] == "Nothing in your request can fix it."
    for status in (400, 401, 403, 404, 405, 406, 409, 415, 422, 428, 429, 451, 500, 501, 503):
        assert "restwalk-mock" not in joined(advise(status, UVICORN, "GET"))


def test_fastapi_s_api_key_challenge_says_where_a_key_goes() -> None:
    steps = advise(401, [*UVICORN, ("WWW-Authenticate", "APIKey")], "GET")
    assert "`X-API-Key`" in steps[0]
    assert "Authorization: APIKey" not in joined(steps)


def test_501_to_a_standard_method_says_the_server_lacks_it_not_to_use_a_standard_one() -> None:
    steps = advise(501, [("Server", "SimpleHTTP/0.6 Python/3.11.7")], "DELETE")
    assert steps == [
        "DELETE is a standard method, but this server does not implement it for any URL "
        "(a static file server, for one, only reads): send `OPTIONS` to ask what it "
        "offers, or change the resource another way the API documents."
    ]
    assert not any("Use a standard method" in step for step in advise(501, [], "BREW"))


# --- a CORS preflight --------------------------------------------------------------------------

ASKED = [
    ("Origin", "http://example.com"),
    ("Access-Control-Request-Method", "PUT"),
    ("Access-Control-Request-Headers", "X-API-Key, Content-Type"),
]
STARLETTE_CORS = [
    ("server", "uvicorn"),
    ("access-control-allow-origin", "*"),
    ("access-control-allow-methods", "DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT"),
    ("access-control-allow-headers", "X-API-Key, Content-Type"),
    ("access-control-max-age", "600"),
]


def preflight(headers: list[tuple[str, str]], status: int = 200) -> list[str]:
    return advise(status, headers, "OPTIONS", request_headers=ASKED)


def test_a_preflight_that_passes_says_what_a_page_may_send_not_to_read_the_body() -> None:
    steps = preflight(STARLETTE_CORS)
    assert (
        steps[0] == "A CORS preflight that passes: a page at http://example.com may send PUT here."
    )
    assert "Access-Control-Max-Age" in steps[1]
    assert not any("follow its links" in step for step in steps)


def test_a_preflight_refused_says_why() -> None:
    no_origin = [h for h in STARLETTE_CORS if h[0] != "access-control-allow-origin"]
    assert "without Access-Control-Allow-Origin" in preflight(no_origin)[0]
    other = [("access-control-allow-origin", "http://other.example"), *no_origin]
    assert "is http://other.example, not http://example.com" in preflight(other)[0]
    get_only = [(k, "GET" if k == "access-control-allow-methods" else v) for k, v in STARLETTE_CORS]
    assert "PUT is not among Access-Control-Allow-Methods (GET)" in preflight(get_only)[0]
    no_headers = [h for h in STARLETTE_CORS if h[0] != "access-control-allow-headers"]
    assert "X-API-Key, Content-Type not among" in preflight(no_headers)[0]
    assert "answered 405" in joined(preflight([("allow", "GET")], 405))


def test_an_options_that_is_no_preflight_gets_the_usual_advice() -> None:
    steps = advise(200, [("Allow", "GET, PUT")], "OPTIONS")
    assert not any("CORS" in step for step in steps)


def test_an_answer_without_links_is_not_told_to_follow_them() -> None:
    assert advise(200, UVICORN, "GET", links=3)[0].startswith("Read the body and follow")
    assert advise(200, UVICORN, "GET")[0].startswith("Read the body and follow")  # not looked
    steps = advise(200, UVICORN, "GET", links=0)
    assert steps[0].startswith("Read the body: it links nowhere")
    assert not any("follow its links" in step for step in steps)


def test_a_step_about_what_a_header_says_needs_the_header() -> None:
    # QA 3: a FastAPI 403 ("Bad API key") carries no WWW-Authenticate.
    keyed = [("X-API-Key", "bad")]
    assert not any(
        "insufficient_scope" in step for step in advise(403, UVICORN, "GET", request_headers=keyed)
    )
    scoped = [*UVICORN, ("WWW-Authenticate", 'Bearer error="invalid_token"')]
    sent = [("Authorization", "Bearer x")]
    assert any(
        "insufficient_scope" in step for step in advise(403, scoped, "GET", request_headers=sent)
    )


# A Django REST Framework 3.18 answer (Django 5.2), as a ModelViewSet with TokenAuthentication
# gave it (a POST to /api/books/ of a QA pass's project: its own messages and validators').
DRF_400 = (
    b'{"title":["This field may not be blank."],"author":["Invalid hyperlink - Object does '
    b'not exist."],"isbn":["book with this isbn already exists."]}'
)
DRF_HEADERS = [("Server", "WSGIServer/0.2 CPython/3.11.7"), ("Content-Type", "application/json")]


def test_drf_s_messages_end_with_one_full_stop_between_them_and_at_the_end() -> None:
    steps = advise(400, DRF_HEADERS, "POST", body=DRF_400)
    assert steps[0] == (
        "The server refused: title: This field may not be blank; author: Invalid hyperlink "
        "- Object does not exist; isbn: book with this isbn already exists. Fix those and "
        "send again."
    )


def test_drf_s_token_challenge_says_the_scheme_and_where_a_key_comes_from() -> None:
    challenged = [*DRF_HEADERS, ("WWW-Authenticate", "Token")]
    steps = advise(401, challenged, "POST")
    assert steps[0].startswith("Token: send `Authorization: Token <key>`, the key as it is")
    assert "/api-token-auth/" in steps[0]
    # nothing was sent: no step speaks of a token refused, nor of Bearer
    assert not any("refused" in step or "Bearer" in step for step in steps)


def test_a_token_sent_and_refused_is_said_once() -> None:
    challenged = [*DRF_HEADERS, ("WWW-Authenticate", "Token")]
    sent = [("Authorization", "Token 0123")]
    steps = advise(401, challenged, "GET", request_headers=sent)
    assert [step for step in steps if "refused" in step] == [
        "You sent Authorization: Token ... and it was refused: check the user name and "
        "password, or get a fresh token."
    ]


def test_a_401_without_a_challenge_speaks_of_a_credential_only_if_one_was_sent() -> None:
    step = "If you sent `Authorization`, it was refused: get a fresh token."
    assert step in advise(401, DRF_HEADERS, "GET")
    assert step not in advise(401, [*DRF_HEADERS, ("WWW-Authenticate", "Token")], "GET")


# Django REST Framework 3.18's OPTIONS answer (SimpleMetadata) for a ModelViewSet's list,
# to a user allowed to POST (the QA pass's project; its long integer limits left out).
DRF_OPTIONS = (
    b'{"name":"Book List","description":"","renders":["application/json","text/html"],'
    b'"parses":["application/json","application/x-www-form-urlencoded","multipart/form-data"],'
    b'"actions":{"POST":{"url":{"type":"field","required":false,"read_only":true,"label":"Url"},'
    b'"id":{"type":"integer","required":false,"read_only":true,"label":"ID"},'
    b'"title":{"type":"string","required":true,"read_only":false,"label":"Title",'
    b'"max_length":200},"author":{"type":"field","required":true,"read_only":false,'
    b'"label":"Author"},"year":{"type":"integer","required":true,"read_only":false,'
    b'"label":"Year"},"isbn":{"type":"string","required":true,"read_only":false,'
    b'"label":"Isbn","max_length":13},"owner":{"type":"field","required":false,'
    b'"read_only":true,"label":"Owner"}}}}'
)
DRF_ALLOW = [*DRF_HEADERS, ("Allow", "GET, POST, HEAD, OPTIONS")]


def test_options_says_what_allow_lists_and_the_fields_drf_describes() -> None:
    steps = advise(
        200, DRF_ALLOW, "OPTIONS", body=DRF_OPTIONS, request_headers=[("Authorization", "T")]
    )
    assert steps == [
        "This URL allows GET, POST, HEAD, OPTIONS (`Allow`).",
        "POST takes: title (string, required), author (required), year (integer, required), "
        "isbn (string, required); read-only (the server sets them): url, id, owner (the "
        "body's actions, Django REST Framework's metadata).",
    ]


def test_drf_s_options_without_actions_says_they_come_to_a_user_allowed() -> None:
    body = b'{"name":"Book List","description":"","renders":["application/json"],"parses":[]}'
    steps = advise(200, DRF_ALLOW, "OPTIONS", body=body, links=0)
    assert steps[1] == (
        "The body lists no actions: Django REST Framework describes the fields a POST or PUT "
        "takes only to a user allowed to send them: log in and ask again."
    )
    assert not any("links" in step for step in steps)  # no "follow its links"
    sent = advise(200, DRF_ALLOW, "OPTIONS", body=body, request_headers=[("Authorization", "T")])
    assert "which this credential's user is not" in sent[1]


def test_options_of_another_kind_and_other_methods_are_left_alone() -> None:
    assert advise(204, [("Allow", "GET, HEAD")], "OPTIONS") == [
        "This URL allows GET, HEAD (`Allow`)."
    ]
    assert not any("(`Allow`)" in s for s in advise(200, DRF_ALLOW, "GET", body=DRF_OPTIONS))
    hostile = b'{"actions": {"POST": {"\\u001b[31mx": {"type": "' + b"s" * 90 + b'"}}}}'
    step = advise(200, [], "OPTIONS", body=hostile)[0]
    assert "\x1b" not in step
    assert "␛[31mx (sssss" in step
    assert "…" in step


# json-server 1.0.0-beta.15's answer to POST /books (tinyhttp: no Server, no Location).
JSON_SERVER = [
    ("X-Powered-By", "tinyhttp"),
    ("Access-Control-Allow-Origin", "*"),
    ("Content-Type", "application/json"),
]


def test_a_201_without_location_says_where_the_body_puts_the_new_item() -> None:
    body = b'{\n  "id": "e2f1",\n  "title": "X",\n  "authorId": "1",\n  "year": 2000\n}'
    steps = advise(201, JSON_SERVER, "POST", body=body)
    assert steps == [
        'No `Location`; the body\'s "id" is e2f1: after a POST to a collection the new item '
        "is most likely at the collection's URL followed by /e2f1 (as json-server and many "
        "plain JSON APIs say it, in the body only)."
    ]
    with_url = b'{"url": "http://h/api/books/16/", "id": 16}'
    assert advise(201, JSON_SERVER, "POST", body=with_url)[0] == (
        'No `Location`; the body\'s "url" says where the new resource is: '
        "http://h/api/books/16/. GET it to see it as stored."
    )
    bare = advise(201, [*JSON_SERVER, ("ETag", '"1"')], "POST", body=b"[]")
    assert bare == [
        "No `Location`: RFC 9110 then takes the URL you sent the request to as the new "
        "resource's; the body or the API's documentation may say otherwise.",
        'Its ETag is "1": send If-Match: "1" when you update it.',
    ]  # and no general step about a Location or ETag that is not there twice


def test_a_server_that_names_itself_nowhere_gets_no_advice_about_the_mock() -> None:
    assert not any("restwalk-mock" in s for s in advise(500, JSON_SERVER, "POST"))
    assert any("restwalk-mock" in s for s in advise(500, [ON_MOCK], "POST"))
    assert any("restwalk-mock" in s for s in advise(500, [], "POST"))  # a status alone


def test_a_token_sent_under_a_scheme_the_server_does_not_offer_is_said_so() -> None:
    challenged = [*DRF_HEADERS, ("WWW-Authenticate", "Token")]
    steps = advise(401, challenged, "GET", request_headers=[("Authorization", "Bearer k")])
    assert steps[-1] == (
        "You sent Authorization: Bearer ..., a scheme this server does not offer (Token): "
        "the same key may do under the scheme it names (restwalk's --token-scheme, or the "
        "scheme field of the login)."
    )
    basic = advise(401, challenged, "GET", request_headers=[("Authorization", "Basic YTpi")])
    assert basic[-1].startswith("You sent Authorization: Basic ... and it was refused")


def test_a_403_to_a_request_without_a_credential_says_to_log_in_first() -> None:
    # Django REST Framework 3.18 with SessionAuthentication first: no challenge, so 403
    body = b'{"detail":"Authentication credentials were not provided."}'
    steps = advise(403, DRF_HEADERS, "POST", body=body)
    assert steps == [
        "You sent no credential, so this 403 most likely means: log in first. A server whose "
        "login sends no `WWW-Authenticate` challenge answers 403 where RFC 9110 says 401 "
        "(Django REST Framework does when its first authentication is a session's); which "
        "credential it takes (a session cookie, `Authorization: Token <key>`, Basic) its "
        "documentation says."
    ]
    for sent in ("Authorization", "Cookie", "X-Auth-Token", "Private-Token", "Api-Key"):
        steps = advise(403, DRF_HEADERS, "POST", body=body, request_headers=[(sent, "x")])
        assert steps == ["Use an account with the needed rights."], sent
    assert not any("You sent no credential" in s for s in advise(403, DRF_HEADERS))  # no request


class _CountedHeaders(list[tuple[str, str]]):
    """Headers that count how often they are read through."""

    walks = 0

    def __iter__(self) -> Iterator[tuple[str, str]]:
        self.walks += 1
        return super().__iter__()


def test_a_response_s_facts_read_its_headers_once() -> None:
    """Each field the readers ask of a response (some fifteen a page) is found in an index
    of the first values, made once: not a walk through every header, each name lowered."""
    from explorer.core.knowledge.response_facts import ResponseFacts

    headers = _CountedHeaders(
        [("Content-Type", "application/json"), ("ETag", ' "a" '), ("etag", '"b"')]
    )
    facts = ResponseFacts(200, headers, "GET", b"{}", ())
    assert facts.first("etag") == '"a"'  # the first, stripped, whatever its case
    assert facts.first("CONTENT-TYPE") == "application/json"
    assert facts.first("Date") is None
    assert facts.first("ETag") == fv.first(headers, "ETag")
    assert headers.walks == 2  # (the index, then field_values' own walk just above)


def test_501_to_get_or_head_is_no_server_lacking_what_every_server_has() -> None:
    for method in ("GET", "HEAD"):
        (step,) = advise(501, [], method)
        assert step.startswith(f"{method} is a method every general-purpose server must support")
        assert "does not implement it for any URL" not in step
