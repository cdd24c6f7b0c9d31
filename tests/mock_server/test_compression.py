"""gzip: Accept-Encoding q-values, threshold, Vary, ETags, HEAD = GET, what is left alone."""

from __future__ import annotations

import gzip
import zlib
from collections.abc import AsyncIterator, Iterator

import httpx
import pytest
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route, Router

from mock_server import BackgroundServer
from mock_server.http.etag import strong_etag
from mock_server.http.preconditions import gzip_etag
from mock_server.layers.compression import MIN_SIZE, CompressionLayer, choose, merge_vary
from mock_server.service import Service
from mock_server.store import Store
from tests.mock_server.conftest import ADMIN, BASE, make_settings


@pytest.mark.parametrize(
    ("accept_encoding", "gzipped", "forced"),
    [
        (None, False, False),
        ("", False, False),
        ("gzip", True, False),
        ("GZIP", True, False),
        ("x-gzip", True, False),
        ("gzip, deflate, br", True, False),
        ("*", True, False),
        ("gzip;q=0", False, False),
        ("*;q=0", False, False),
        ("br", False, False),
        ("gzip;q=0.5, identity", False, False),
        ("gzip;q=0.5, identity;q=0.5", True, False),
        ("gzip, identity;q=0", True, True),
        ("gzip;q=0.1, *;q=0", True, True),
        ("*, identity;q=0", True, True),
        ("identity;q=0", False, False),
        ("gzip;q=nonsense", True, False),
    ],
)
def test_choose(accept_encoding: str | None, gzipped: bool, forced: bool) -> None:
    choice = choose(accept_encoding)
    assert (choice.gzip, choice.forced) == (gzipped, forced)


def test_merge_vary() -> None:
    assert merge_vary(None, "Accept-Encoding") == "Accept-Encoding"
    assert merge_vary("Accept", "Accept-Encoding") == "Accept, Accept-Encoding"
    assert merge_vary("accept-encoding, Accept", "Accept-Encoding") == "accept-encoding, Accept"
    assert merge_vary("*", "Accept-Encoding") == "*"


async def raw_get(client: httpx.AsyncClient, path: str, **headers: str) -> httpx.Response:
    """A GET whose body is kept as sent (not decoded)."""
    async with client.stream("GET", path, headers=headers) as response:
        response._content = b"".join([chunk async for chunk in response.aiter_raw()])
    return response


async def test_gzip_when_accepted(client: httpx.AsyncClient) -> None:
    plain = await raw_get(client, "/customers", **{"Accept-Encoding": "identity"})
    packed = await raw_get(client, "/customers", **{"Accept-Encoding": "gzip"})
    assert "content-encoding" not in plain.headers
    assert packed.headers["content-encoding"] == "gzip"
    assert gzip.decompress(packed.content) == plain.content
    assert int(packed.headers["content-length"]) == len(packed.content) < len(plain.content)
    for response in (plain, packed):
        vary = [v.strip().lower() for v in response.headers["vary"].split(",")]
        assert vary.count("accept-encoding") == 1
    # Each coding has its own strong ETag (RFC 9110 section 8.8.3).
    assert plain.headers["etag"] == strong_etag(plain.content)
    assert packed.headers["etag"] == gzip_etag(plain.headers["etag"]) != plain.headers["etag"]
    again = await raw_get(client, "/customers", **{"Accept-Encoding": "gzip"})
    assert again.content == packed.content  # deterministic: no timestamp in the header


async def test_httpx_default_client_decodes_it(client: httpx.AsyncClient) -> None:
    response = await client.get("/products")
    assert response.headers["content-encoding"] == "gzip"
    assert response.json()["total"] == 10


async def test_no_body_statuses_are_never_compressed(client: httpx.AsyncClient) -> None:
    gz = {"Accept-Encoding": "gzip"}
    deleted = await client.delete("/customers/3", headers={**ADMIN, **gz})
    assert deleted.status_code == 204
    assert "content-encoding" not in deleted.headers
    etag = (await client.get("/customers/1", headers=gz)).headers["etag"]
    not_modified = await client.get("/customers/1", headers={**gz, "If-None-Match": etag})
    assert not_modified.status_code == 304
    assert "content-encoding" not in not_modified.headers


async def test_problem_bodies_are_encoded_too(client: httpx.AsyncClient) -> None:
    forced = {"Accept-Encoding": "gzip, identity;q=0"}
    response = await raw_get(client, "/customers?limit=nope", **forced)
    assert response.status_code == 400
    assert response.headers["content-encoding"] == "gzip"
    assert b'"status":400' in gzip.decompress(response.content)


# Edge cases against a tiny app ---------------------------------------------------------

BIG = b"x" * (MIN_SIZE + 100)


async def _small(request: Request) -> Response:
    return Response(b"tiny", media_type="text/plain")


async def _big(request: Request) -> Response:
    return Response(BIG, media_type="text/plain", headers={"ETag": strong_etag(BIG)})


async def _untagged(request: Request) -> Response:
    return Response(BIG, media_type="text/plain")


async def _no_store(request: Request) -> Response:
    return Response(BIG, media_type="text/plain", headers={"Cache-Control": "no-store"})


async def _image(request: Request) -> Response:
    return Response(BIG, media_type="image/png")


async def _no_transform(request: Request) -> Response:
    return Response(BIG, media_type="text/plain", headers={"Cache-Control": "no-transform"})


async def _encoded(request: Request) -> Response:
    return Response(
        gzip.compress(BIG), media_type="text/plain", headers={"Content-Encoding": "gzip"}
    )


async def _partial(request: Request) -> Response:
    return Response(BIG, status_code=206, headers={"Content-Range": f"bytes 0-{len(BIG) - 1}/9999"})


async def _ranged(request: Request) -> Response:
    return Response(BIG, media_type="text/csv", headers={"Accept-Ranges": "bytes"})


async def _stream(request: Request) -> StreamingResponse:
    async def chunks() -> AsyncIterator[bytes]:
        for _ in range(3):
            yield BIG

    return StreamingResponse(chunks(), media_type="text/csv", headers={"ETag": '"s"'})


@pytest.fixture
async def tiny() -> AsyncIterator[httpx.AsyncClient]:
    router = Router(
        [
            Route("/small", _small),
            Route("/big", _big),
            Route("/image", _image),
            Route("/image-free", _untagged),
            Route("/no-store", _no_store),
            Route("/no-transform", _no_transform),
            Route("/encoded", _encoded),
            Route("/partial", _partial),
            Route("/stream", _stream),
            Route("/ranged", _ranged),
        ]
    )
    app = CompressionLayer(router, Service(make_settings(), Store()))
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url=BASE) as client:
        yield client


async def test_small_bodies_stay_but_vary(tiny: httpx.AsyncClient) -> None:
    response = await raw_get(tiny, "/small", **{"Accept-Encoding": "gzip"})
    assert response.content == b"tiny"
    assert response.headers["vary"] == "Accept-Encoding"


async def test_refusing_identity_forces_gzip(tiny: httpx.AsyncClient) -> None:
    response = await raw_get(tiny, "/small", **{"Accept-Encoding": "gzip, identity;q=0"})
    assert response.headers["content-encoding"] == "gzip"
    assert gzip.decompress(response.content) == b"tiny"


async def test_accepting_nothing_available_gets_identity(tiny: httpx.AsyncClient) -> None:
    response = await raw_get(tiny, "/big", **{"Accept-Encoding": "br, identity;q=0"})
    assert response.status_code == 200
    assert response.content == BIG


async def test_a_resource_etag_gets_its_gzip_twin(tiny: httpx.AsyncClient) -> None:
    response = await raw_get(tiny, "/big", **{"Accept-Encoding": "gzip"})
    assert response.headers["content-encoding"] == "gzip"
    assert response.headers["etag"] == strong_etag(BIG)[:-1] + '-gzip"'
    plain = await raw_get(tiny, "/big", **{"Accept-Encoding": "identity"})
    assert plain.headers["etag"] == strong_etag(BIG)


async def test_a_gzipped_read_gets_the_gzip_twin_of_its_identity_etag(
    tiny: httpx.AsyncClient,
) -> None:
    response = await raw_get(tiny, "/image-free", **{"Accept-Encoding": "gzip"})
    assert response.headers["content-encoding"] == "gzip"
    assert response.headers["etag"] == gzip_etag(strong_etag(BIG))
    stored_not = await raw_get(tiny, "/no-store", **{"Accept-Encoding": "gzip"})
    assert stored_not.headers["content-encoding"] == "gzip"
    assert "etag" not in stored_not.headers


@pytest.mark.parametrize("path", ["/image", "/no-transform", "/encoded"])
async def test_left_alone(tiny: httpx.AsyncClient, path: str) -> None:
    response = await raw_get(tiny, path, **{"Accept-Encoding": "gzip"})
    expected = gzip.compress(BIG) if path == "/encoded" else BIG
    assert response.content == expected
    assert "vary" not in response.headers


@pytest.mark.parametrize("coding", ["gzip", "identity"])
async def test_partial_content_stays_but_varies_as_its_200(
    tiny: httpx.AsyncClient, coding: str
) -> None:
    # Ranges are of the identity bytes; but the 200 would vary on Accept-Encoding, and
    # RFC 9110 15.3.7 has a 206 send the Vary its 200 would.
    response = await raw_get(tiny, "/partial", **{"Accept-Encoding": coding})
    assert response.content == BIG
    assert "content-encoding" not in response.headers
    assert response.headers["vary"] == "Accept-Encoding"


async def test_streamed_bodies_are_compressed_as_they_go(tiny: httpx.AsyncClient) -> None:
    response = await raw_get(tiny, "/stream", **{"Accept-Encoding": "gzip"})
    assert response.headers["content-encoding"] == "gzip"
    assert "content-length" not in response.headers
    assert response.headers["etag"] == '"s-gzip"'
    assert zlib.decompress(response.content, 31) == BIG * 3


# HEAD over a real socket ---------------------------------------------------------------


@pytest.fixture
def server() -> Iterator[BackgroundServer]:
    with BackgroundServer(make_settings()) as running:
        yield running


@pytest.mark.parametrize("encoding", ["gzip", "identity"])
def test_head_has_the_headers_of_get(server: BackgroundServer, encoding: str) -> None:
    headers = {"Accept-Encoding": encoding}
    with httpx.Client(base_url=server.url) as client:
        got = client.get("/customers/1", headers=headers)
        head = client.head("/customers/1", headers=headers)
    assert head.content == b""
    for field in ("content-length", "content-encoding", "etag", "vary", "cache-control"):
        assert head.headers.get(field) == got.headers.get(field), field


async def test_a_200_to_be_cut_in_ranges_stays_identity(tiny: httpx.AsyncClient) -> None:
    # The range layer outside cuts ranges of the identity bytes (a middle range of gzip
    # bytes cannot be decoded); a client that refused identity still gets gzip.
    ranged = await raw_get(tiny, "/ranged", **{"Accept-Encoding": "gzip", "Range": "bytes=0-9"})
    assert ranged.content == BIG
    assert "content-encoding" not in ranged.headers
    assert ranged.headers["vary"] == "Accept-Encoding"
    whole = await raw_get(tiny, "/ranged", **{"Accept-Encoding": "gzip"})
    assert whole.headers["content-encoding"] == "gzip"
    forced = await raw_get(
        tiny, "/ranged", **{"Accept-Encoding": "gzip, identity;q=0", "Range": "bytes=0-9"}
    )
    assert forced.headers["content-encoding"] == "gzip"
