"""Byte ranges on the CSV report: 206 + Content-Range, multipart, 416, If-Range."""

from __future__ import annotations

import email.parser
import email.policy
import gzip
from collections.abc import AsyncIterator

import httpx
import pytest

from mock_server import create_app
from mock_server.app import MockApp
from mock_server.http import ranges
from mock_server.http.ranges import ByteRange
from mock_server.layers.ranges import if_range_holds
from mock_server.serving import BackgroundServer
from tests.mock_server.conftest import ADMIN, asgi_client, make_settings


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("bytes=0-9", [(0, 9)]),
        ("bytes=5-", [(5, None)]),
        ("bytes=-3", [(None, 3)]),
        ("BYTES = 0-1, 4-5", [(0, 1), (4, 5)]),  # units are case-insensitive
        ("bytes=0-1, 4-5", [(0, 1), (4, 5)]),
        ("bytes=0-1,,2-3", [(0, 1), (2, 3)]),
        ("bytes=9-2", None),
        ("bytes=-", None),
        ("bytes=a-b", None),
        ("bytes=\u0660-\u0665", None),  # Arabic-Indic digits: int() reads them, HTTP does not
        ("items=0-1", None),
        ("bytes=", None),
        ("0-1", None),
    ],
)
def test_parse_range(value: str, expected: list[tuple[int | None, int | None]] | None) -> None:
    assert ranges.parse_range(value) == expected


@pytest.mark.parametrize(
    ("value", "status", "resolved"),
    [
        (None, 200, ()),
        ("bytes=0-9", 206, (ByteRange(0, 9),)),
        ("bytes=90-200", 206, (ByteRange(90, 99),)),
        ("bytes=-10", 206, (ByteRange(90, 99),)),
        ("bytes=-1000", 206, (ByteRange(0, 99),)),
        ("bytes=95-", 206, (ByteRange(95, 99),)),
        ("bytes=100-", 416, ()),
        ("bytes=-0", 416, ()),
        ("bytes=200-300, 0-0", 206, (ByteRange(0, 0),)),
        ("bytes=garbage", 200, ()),
        ("bytes=" + ",".join(["0-0"] * 11), 200, ()),
    ],
)
def test_answer(value: str | None, status: int, resolved: tuple[ByteRange, ...]) -> None:
    decision = ranges.answer(value, 100)
    assert decision.status == status
    assert decision.ranges == resolved


@pytest.fixture
async def report(client: httpx.AsyncClient, app: MockApp) -> bytes:
    app.service.jobs.duration = 0
    await client.post("/reports", headers=ADMIN)
    response = await client.get("/reports/1", headers=ADMIN)
    assert response.status_code == 200
    return response.content


async def _get(client: httpx.AsyncClient, **headers: str) -> httpx.Response:
    return await client.get("/reports/1", headers={**ADMIN, **headers})


async def test_single_range(client: httpx.AsyncClient, report: bytes) -> None:
    response = await _get(client, Range="bytes=0-9")
    assert response.status_code == 206
    assert response.content == report[:10]
    assert response.headers["content-range"] == f"bytes 0-9/{len(report)}"
    assert response.headers["content-length"] == "10"
    assert response.headers["accept-ranges"] == "bytes"


async def test_open_and_suffix_ranges(client: httpx.AsyncClient, report: bytes) -> None:
    tail = await _get(client, Range="bytes=-5")
    assert tail.content == report[-5:]
    assert (
        tail.headers["content-range"] == f"bytes {len(report) - 5}-{len(report) - 1}/{len(report)}"
    )
    rest = await _get(client, Range=f"bytes={len(report) - 3}-")
    assert rest.content == report[-3:]


async def test_multiple_ranges_are_multipart(client: httpx.AsyncClient, report: bytes) -> None:
    response = await _get(client, Range="bytes=0-4, 10-14")
    assert response.status_code == 206
    content_type = response.headers["content-type"]
    assert content_type.startswith("multipart/byteranges; boundary=")
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        b"Content-Type: " + content_type.encode() + b"\r\n\r\n" + response.content
    )
    parts = list(message.iter_parts())
    assert [p["Content-Range"] for p in parts] == [
        f"bytes 0-4/{len(report)}",
        f"bytes 10-14/{len(report)}",
    ]
    assert [p.get_payload(decode=True) for p in parts] == [report[0:5], report[10:15]]


async def test_unsatisfiable_is_416(client: httpx.AsyncClient, report: bytes) -> None:
    response = await _get(client, Range=f"bytes={len(report)}-")
    assert response.status_code == 416
    assert response.headers["content-range"] == f"bytes */{len(report)}"
    assert response.headers["content-type"] == "application/problem+json; charset=utf-8"


@pytest.mark.parametrize("coding", ["gzip", "identity"])
async def test_a_206_and_a_304_vary_as_the_200_does(
    client: httpx.AsyncClient, report: bytes, coding: str
) -> None:
    # QA: the 206 left Accept-Encoding out of the Vary its 200 has; RFC 9110 15.3.7 (206)
    # and 15.4.5 (304) send the Vary a 200 to the same request would, and caches key by it.
    whole = await _get(client, **{"Accept-Encoding": coding})
    vary = whole.headers["vary"]
    assert "Accept-Encoding" in vary
    answers = [
        await _get(client, **{"Accept-Encoding": coding, "Range": "bytes=0-9"}),
        await _get(client, **{"Accept-Encoding": coding, "Range": "bytes=0-4, 10-14"}),
        await _get(client, **{"Accept-Encoding": coding, "If-None-Match": whole.headers["etag"]}),
    ]
    assert [answer.status_code for answer in answers] == [206, 206, 304]
    assert [answer.headers["vary"] for answer in answers] == [vary] * 3


async def test_the_status_demo_206_varies_as_its_200(client: httpx.AsyncClient) -> None:
    whole = await client.get("/status/206")
    part = await client.get("/status/206", headers={"Range": "bytes=0-15"})
    assert part.status_code == 206
    assert part.headers["vary"] == whole.headers["vary"]


async def test_bad_range_is_ignored(client: httpx.AsyncClient, report: bytes) -> None:
    response = await _get(client, Range="lines=1-2")
    assert response.status_code == 200
    assert response.content == report


async def test_if_range(client: httpx.AsyncClient, report: bytes) -> None:
    whole = await _get(client)
    etag, modified = whole.headers["etag"], whole.headers["last-modified"]
    assert (await _get(client, Range="bytes=0-0", **{"If-Range": etag})).status_code == 206
    assert (await _get(client, Range="bytes=0-0", **{"If-Range": modified})).status_code == 206
    stale = await _get(client, Range="bytes=0-0", **{"If-Range": '"other"'})
    assert stale.status_code == 200
    assert stale.content == report


@pytest.mark.parametrize(
    ("condition", "holds"),
    [
        (None, True),
        ('"a-gzip"', True),
        ('"a"', False),  # the identity tag does not name the gzip bytes
        ('W/"a-gzip"', False),  # If-Range compares strongly
        ("Mon, 07 Dec 2026 10:00:00 GMT", True),
        ("Mon, 07 Dec 2026 10:00:01 GMT", False),
    ],
)
def test_if_range_holds(condition: str | None, holds: bool) -> None:
    assert if_range_holds(condition, '"a-gzip"', "Mon, 07 Dec 2026 10:00:00 GMT") is holds


async def _raw(client: httpx.AsyncClient, **headers: str) -> httpx.Response:
    """A GET of the report whose body is kept as sent (gzip stays gzip)."""
    async with client.stream("GET", "/reports/1", headers={**ADMIN, **headers}) as response:
        response._content = b"".join([chunk async for chunk in response.aiter_raw()])
    return response


#: Refuses identity: gzip whatever the size.
GZIP_ONLY = {"Accept-Encoding": "gzip, identity;q=0"}
GZIP = {"Accept-Encoding": "gzip"}


@pytest.fixture
async def big() -> AsyncIterator[httpx.AsyncClient]:
    """A client of a server whose report 1 is large enough to be gzipped (70 kB)."""
    large = create_app(make_settings(seed_size=200))
    large.service.jobs.duration = 0
    async with asgi_client(large, headers=ADMIN) as client:
        await client.post("/reports")
        yield client


async def test_a_range_for_a_gzip_client_is_of_the_identity_bytes_throughout(
    big: httpx.AsyncClient,
) -> None:
    # QA: the 206 to a gzip client carried the identity ETag while its 200 is gzip with the
    # gzip ETag. The part is of the identity bytes (a middle range of gzip bytes cannot be
    # decoded), and says so in every field: its ETag, Content-Range, no Content-Encoding.
    packed = await _raw(big, **GZIP)
    plain = await _raw(big, **{"Accept-Encoding": "identity"})
    assert packed.headers["content-encoding"] == "gzip"
    assert packed.headers["etag"] != plain.headers["etag"]
    part = await _raw(big, **GZIP, Range="bytes=100-199")
    assert part.status_code == 206
    assert part.content == plain.content[100:200]
    assert "content-encoding" not in part.headers
    assert part.headers["etag"] == plain.headers["etag"]
    assert part.headers["content-range"] == f"bytes 100-199/{len(plain.content)}"
    for field in ("vary", "cache-control", "expires", "last-modified"):  # RFC 9110 15.3.7
        assert part.headers[field] == packed.headers[field], field
    resumed = await _raw(big, **GZIP, Range="bytes=200-", **{"If-Range": plain.headers["etag"]})
    assert resumed.status_code == 206
    assert part.content + resumed.content == plain.content[100:]
    # the gzip 200's tag names other bytes: the whole representation, as If-Range asks
    stale = await _raw(big, **GZIP, Range="bytes=200-", **{"If-Range": packed.headers["etag"]})
    assert stale.status_code == 200
    assert stale.content == plain.content


async def test_ranges_are_read_by_a_client_that_decodes_gzip(big: httpx.AsyncClient) -> None:
    # httpx decodes a Content-Encoding whole: a middle range of gzip bytes failed.
    whole = await big.get("/reports/1", headers=GZIP)
    middle = await big.get("/reports/1", headers={**GZIP, "Range": "bytes=1000-1999"})
    assert middle.content == whole.content[1000:2000]


async def test_a_client_that_refused_identity_gets_the_whole_gzip_200(
    client: httpx.AsyncClient, report: bytes
) -> None:
    # A refused coding is never sent, and gzip bytes are never cut: Range is ignored.
    for value in ("bytes=0-9", "bytes=0-4, 10-14", f"bytes={len(report) * 100}-"):
        answer = await _raw(client, **GZIP_ONLY, Range=value)
        assert answer.status_code == 200, value
        assert answer.headers["content-encoding"] == "gzip"
        assert gzip.decompress(answer.content) == report


async def test_preconditions_come_before_the_range(
    client: httpx.AsyncClient, report: bytes
) -> None:
    # RFC 9110 13.2.2: a matching If-None-Match is a 304 even with Range (it was a 206).
    whole = await _get(client)
    again = await _get(client, Range="bytes=0-9", **{"If-None-Match": whole.headers["etag"]})
    assert again.status_code == 304
    assert again.headers["etag"] == whole.headers["etag"]


@pytest.mark.parametrize("coding", [GZIP, {"Accept-Encoding": "identity"}])
async def test_a_416_presents_none_of_the_200s_validators(
    big: httpx.AsyncClient, coding: dict[str, str]
) -> None:
    # QA: the 416 copied the 200's ETag, Last-Modified and max-age as its own.
    whole = await _raw(big, **coding)
    plain = await big.get("/reports/1", headers={"Accept-Encoding": "identity"})
    length = len(plain.content)
    refused = await _raw(big, **coding, Range=f"bytes={length}-")
    assert refused.status_code == 416
    assert refused.headers["content-range"] == f"bytes */{length}"
    assert refused.headers["content-type"] == "application/problem+json; charset=utf-8"
    assert refused.headers["cache-control"] == "no-store"
    for field in ("etag", "last-modified", "expires", "content-encoding", "content-disposition"):
        assert field not in refused.headers, field
    assert refused.headers["vary"] == whole.headers["vary"]
    assert refused.headers["accept-ranges"] == "bytes"


def test_ranges_over_a_real_socket() -> None:
    with BackgroundServer(make_settings()) as server:
        server.app.service.jobs.duration = 0
        with httpx.Client(base_url=server.url, headers=ADMIN) as http:
            http.post("/reports")
            whole = http.get("/reports/1")
            part = http.get("/reports/1", headers={"Range": "bytes=3-7"})
            assert part.status_code == 206
            assert part.content == whole.content[3:8]
            head = http.head("/reports/1", headers={"Range": "bytes=3-7"})
            assert head.headers["content-range"] == part.headers["content-range"]
            assert head.content == b""


@pytest.mark.parametrize(
    "fields",
    [
        [("Range", "bytes=0-9"), ("Range", "bytes=20-29")],
        [("Range", "0-9"), ("Range", "bytes=0-9")],
        [("Range", "bytes=0-9"), ("If-Range", '"a"'), ("If-Range", '"b"')],
    ],
)
async def test_a_range_field_sent_twice_gets_the_whole_report(
    client: httpx.AsyncClient, report: bytes, fields: list[tuple[str, str]]
) -> None:
    # Range and If-Range are no lists (RFC 9110 5.3): two are no valid request for a part.
    # The course's range lessons say "the server reads neither and sends it all".
    response = await client.get("/reports/1", headers=[*ADMIN.items(), *fields])
    assert response.status_code == 200
    assert response.content == report
