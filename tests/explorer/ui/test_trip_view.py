"""The trip tab's sizes and timings say what went over the wire: nothing for a cache hit,
and "compressed" only for a body that was (a masked copy is not)."""

from __future__ import annotations

from explorer.core.http.exchange import CacheNote, Exchange, ReceivedResponse, SentRequest, Timings
from explorer.core.http.masking import mask_exchange
from explorer.ui.widgets.trip_view import trip_text

URL = "http://api.test/auth/token"


def exchange(
    body: bytes,
    *,
    wire: int | None = None,
    headers: tuple[tuple[str, str], ...] = (("Content-Type", "application/json"),),
    cache: CacheNote | None = None,
) -> Exchange:
    request = SentRequest(
        "POST", URL, (("Content-Type", "application/json"),), b'{"password": "wonderland"}'
    )
    response = ReceivedResponse(
        200, "OK", "HTTP/1.1", headers, body, URL, len(body) if wire is None else wire
    )
    return Exchange(request, request, response, timings=Timings(0.012, 0.015), cache=cache)


def test_a_masked_body_is_not_said_to_be_compressed() -> None:
    token = b'{"access_token": "' + b"e" * 140 + b'", "token_type": "Bearer"}'
    kept = mask_exchange(exchange(token))
    assert kept.masked
    text = trip_text(kept).plain
    assert "compressed" not in text
    assert f"body           {len(kept.response.body)} B as kept (its secrets masked)" in text
    assert f"as received    {len(token)} B" in text


def test_a_compressed_body_says_so() -> None:
    text = trip_text(exchange(b"x" * 3000, wire=120, headers=(("Content-Encoding", "gzip"),))).plain
    assert "on the wire    120 B (compressed)" in text
    assert "body           3 KB\n" in text


def test_an_uncompressed_body_has_no_wire_line() -> None:
    text = trip_text(exchange(b"x" * 300)).plain
    assert "on the wire" not in text
    assert "headers after      12.0 ms" in text


def test_a_fresh_cache_hit_says_nothing_was_sent() -> None:
    note = CacheNote("fresh", "from the cache: fresh for another 42 s (max-age=60)")
    text = trip_text(exchange(b"x" * 600, wire=628, cache=note)).plain
    assert "Nothing was sent: the session's cache answered" in text
    assert "headers after" not in text
    assert "complete after" not in text
    assert "on the wire    nothing" in text
    assert "compressed" not in text
    assert "body           600 B (from the cache)" in text
    assert "request body" not in text


def test_a_revalidated_answer_says_what_went_and_came() -> None:
    note = CacheNote("revalidated", "revalidated: 304 Not Modified, body from the cache")
    text = trip_text(exchange(b"x" * 600, wire=0, cache=note)).plain
    assert "headers after      12.0 ms" in text  # the conditional request was sent
    assert "body           600 B (from the cache)" in text
    assert "on the wire    a 304 Not Modified, without a body" in text
