"""Bounded content decoding: bombs are counted as they inflate, and stopped."""

from __future__ import annotations

import gzip
import zlib

import pytest

from explorer.core.http.content_coding import (
    MAX_CODINGS,
    PIECE,
    BodyDecoder,
    BodyLimitExceeded,
    CodingError,
    too_many_codings,
)


def _decode_all(decoder: BodyDecoder, data: bytes, chunk: int = 65536) -> bytes:
    out: list[bytes] = []
    for start in range(0, len(data), chunk):
        out += decoder.decode(data[start : start + chunk])
    out += decoder.flush()
    return b"".join(out)


@pytest.mark.parametrize("coding", ["gzip", "x-gzip", "deflate", "GZip", "identity", None])
def test_a_body_comes_back_as_it_was(coding: str | None) -> None:
    body = b"hello " * 50_000
    wire = {"gzip": gzip.compress, "x-gzip": gzip.compress, "deflate": zlib.compress}.get(
        (coding or "").lower(), lambda b: b
    )(body)
    assert _decode_all(BodyDecoder(coding, 10**7), wire) == body


def test_raw_deflate_is_read_too() -> None:
    squeeze = zlib.compressobj(wbits=-zlib.MAX_WBITS)
    wire = squeeze.compress(b"raw " * 1000) + squeeze.flush()
    assert _decode_all(BodyDecoder("deflate", 10**6), wire) == b"raw " * 1000


def test_nested_codings_are_undone_last_first() -> None:
    wire = gzip.compress(zlib.compress(b"twice"))
    assert _decode_all(BodyDecoder("deflate, gzip", 100), wire) == b"twice"


def test_a_bomb_stops_at_the_limit() -> None:
    wire = gzip.compress(gzip.compress(bytes(64 << 20)))  # 64 MiB of zeros, twice gzipped
    decoder = BodyDecoder("gzip, gzip", 1 << 20)
    with pytest.raises(BodyLimitExceeded):
        _decode_all(decoder, wire)
    assert decoder.size <= (1 << 20) + PIECE  # counted as it inflated, not after


def test_no_piece_is_larger_than_a_piece() -> None:
    wire = gzip.compress(gzip.compress(bytes(8 << 20)))
    decoder = BodyDecoder("gzip, gzip", 10 << 20)
    pieces = decoder.decode(wire) + decoder.flush()
    assert max(len(piece) for piece in pieces) <= PIECE
    assert sum(len(piece) for piece in pieces) == 8 << 20


def test_codings_not_asked_for_are_kept_as_received() -> None:
    decoder = BodyDecoder("gzip, br", 100)
    assert decoder.kept_encoded
    assert decoder.decode(b"\x1f\x8bxyz") == [b"\x1f\x8bxyz"]


def test_broken_bytes_are_a_coding_error() -> None:
    with pytest.raises(CodingError):
        _decode_all(BodyDecoder("gzip", 100), b"not gzip at all")


def _layers(body: bytes, count: int) -> bytes:
    for _ in range(count):
        body = gzip.compress(body, 1)
    return body


def test_as_many_codings_as_curl_undoes_are_undone() -> None:
    decoder = BodyDecoder(", ".join(["gzip"] * MAX_CODINGS), 1000)
    assert not decoder.kept_encoded
    assert _decode_all(decoder, _layers(b"five", MAX_CODINGS)) == b"five"


@pytest.mark.parametrize("count", [MAX_CODINGS + 1, 1000, 100_000])
def test_more_codings_than_that_are_kept_as_received(count: int) -> None:
    """A thousand layers were a thousand nested generators (a RecursionError); past the
    bound none is undone, and the count is there to be said."""
    wire = _layers(b"many", min(count, 1000))
    decoder = BodyDecoder(", ".join(["gzip"] * count), 10**7)
    assert decoder.kept_encoded
    assert decoder.too_many == count
    assert _decode_all(decoder, wire) == wire
    assert too_many_codings(count) == (
        f"the server applied {count} content codings; restwalk undoes at most 5: "
        "body shown as received"
    )


def test_identity_and_empty_members_are_no_codings() -> None:
    listed = ", ".join(["gzip"] * MAX_CODINGS + ["identity", ""] * 10)
    decoder = BodyDecoder(listed, 1000)
    assert decoder.too_many == 0
    assert _decode_all(decoder, _layers(b"x", MAX_CODINGS)) == b"x"
