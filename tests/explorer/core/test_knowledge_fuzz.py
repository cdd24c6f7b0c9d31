"""The knowledge base reads whatever a server sends: it never raises on odd headers."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.core.knowledge import (
    advise,
    explain,
    explain_caching,
    explain_response,
    header_names,
    search,
)
from explorer.core.knowledge import field_values as fv

# Header names the readers look at, plus random ones; values are arbitrary text with a
# bias towards the characters header grammars care about.
NAMES = st.sampled_from(
    [*header_names(), "X-RateLimit-Reset", "X-RateLimit-Remaining", "RateLimit"]
) | st.text(min_size=1, max_size=20)
GRAMMAR = st.sampled_from(
    [*list('",;=<>*/\\ @-0123456789'), "max-age", "Bearer", "realm", "bytes", "rel", "GMT"]
)
VALUES = st.lists(GRAMMAR | st.text(max_size=8), max_size=12).map("".join) | st.text()
HEADERS = st.lists(st.tuples(NAMES, VALUES), max_size=8)
STATUSES = st.integers(min_value=0, max_value=999) | st.sampled_from(
    [101, 201, 202, 206, 301, 303, 304, 307, 401, 405, 406, 407, 412, 415, 416, 426, 429, 451]
)
METHODS = st.none() | st.sampled_from(["GET", "POST", "PUT", "BREW", "delete", ""])


@settings(max_examples=150, deadline=None)
@given(STATUSES, HEADERS, METHODS, st.none() | st.binary(max_size=200), HEADERS)
def test_advise_never_raises(
    status: int,
    headers: list[tuple[str, str]],
    method: str | None,
    body: bytes | None,
    request_headers: list[tuple[str, str]],
) -> None:
    steps = advise(status, headers, method, body=body, request_headers=request_headers)
    assert steps
    assert all(isinstance(step, str) and step for step in steps)


@settings(max_examples=150, deadline=None)
@given(STATUSES, HEADERS, METHODS, HEADERS, st.lists(st.text(max_size=10), max_size=5))
def test_caching_and_response_facts_never_raise(
    status: int,
    headers: list[tuple[str, str]],
    method: str | None,
    request_headers: list[tuple[str, str]],
    rels: list[str],
) -> None:
    now = datetime(2026, 11, 22, 3, 0)  # naive: taken as UTC
    verdict = explain_caching(
        status, headers, method=method or "GET", request_headers=request_headers, now=now
    )
    assert verdict.summary
    assert verdict.freshness_lifetime is None or verdict.freshness_lifetime >= 0
    facts = explain_response(status, headers, rels, method=method or "GET")
    assert len(facts) >= 5


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_parsers_never_raise(value: str) -> None:
    fv.parse_challenges([value])
    fv.parse_links([value])
    fv.parse_content_range(value)
    fv.parse_directives([value])
    fv.split_list(value)
    when = fv.parse_http_date(value)
    assert when is None or when.tzinfo == UTC
    seconds = fv.parse_delta_seconds(value)
    assert seconds is None or 0 <= seconds <= fv.DELTA_SECONDS_MAX


@settings(max_examples=300, deadline=None)
@given(st.lists(GRAMMAR | st.text(max_size=8), max_size=12).map("".join) | st.text())
def test_any_challenge_is_read_and_an_unclosed_one_said_malformed(value: str) -> None:
    challenges = fv.parse_challenges([value])
    steps = advise(401, [("WWW-Authenticate", value)], "GET")
    assert steps
    if any(challenge.unclosed for challenge in challenges):
        assert steps[0].startswith("WWW-Authenticate is malformed")


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=30))
def test_explain_and_search_never_raise(topic: str) -> None:
    explanation = explain(topic)
    if explanation is not None:
        assert explanation.to_text()
    search(topic)


def test_huge_numbers_are_capped_not_fatal() -> None:
    huge = "9" * 5000
    assert fv.parse_delta_seconds(huge) == fv.DELTA_SECONDS_MAX
    assert fv.parse_content_range(f"bytes */{huge}") is None
    assert advise(503, [("Retry-After", huge)])[0].startswith("Retry-After:")
    assert advise(200, [("Deprecation", "@" + huge)])[0].startswith("This resource is deprecated")
    nested = b"[" * 100_000
    assert advise(406, [], "GET", body=nested)
