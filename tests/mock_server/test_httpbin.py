"""httpbin's endpoints answer as httpbin does: same paths, same JSON field names."""

from __future__ import annotations

import httpx
import pytest

from mock_server import BackgroundServer
from tests.mock_server.conftest import make_settings


async def test_every_endpoint_is_linked_from_the_index(client: httpx.AsyncClient) -> None:
    root = (await client.get("/")).json()["_links"]
    assert root["rw:httpbin"]["href"] == "/httpbin"
    links = (await client.get("/httpbin")).json()["_links"]
    paths = {
        link["href"].split("{")[0].rstrip("/") for rel, link in links.items() if rel != "curies"
    }
    for path in (
        "/anything",
        "/headers",
        "/ip",
        "/user-agent",
        "/cookies",
        "/basic-auth",
        "/bearer",
        "/delay",
        "/drip",
        "/bytes",
        "/stream",
        "/cache",
        "/etag",
        "/response-headers",
    ):
        assert path in paths, path
    for rel, link in links.items():
        if rel == "curies":
            continue
        assert (await client.get(f"/docs/rels/{rel.removeprefix('rw:')}")).status_code == 200, rel
        if not link.get("templated"):
            token = {"Authorization": "Bearer t"} if rel == "rw:bearer" else {}
            assert (await client.get(link["href"], headers=token)).status_code == 200, rel


async def test_anything_echoes_method_url_args_headers_and_json(client: httpx.AsyncClient) -> None:
    response = await client.put(
        "/anything/deep/path?a=1&a=2&b=x", json={"k": [1, 2]}, headers={"X-Test": "yes"}
    )
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json; charset=utf-8"
    body = response.json()
    assert body["method"] == "PUT"
    assert body["url"] == "http://mock.test/anything/deep/path?a=1&a=2&b=x"
    assert body["args"] == {"a": ["1", "2"], "b": "x"}
    assert body["headers"]["X-Test"] == "yes"
    assert body["json"] == {"k": [1, 2]}
    assert body["data"] == '{"k":[1,2]}'
    assert body["form"] == {}
    assert body["files"] == {}
    assert body["origin"] == "127.0.0.1"


async def test_anything_reads_forms_and_files(client: httpx.AsyncClient) -> None:
    form = await client.post("/anything", data={"a": "1", "b": "two"})
    assert form.json()["form"] == {"a": "1", "b": "two"}
    assert form.json()["json"] is None
    upload = await client.post(
        "/anything",
        data={"note": "hi"},
        files={"doc": ("doc.txt", b"hello"), "blob": ("b.bin", b"\xff\x00", "image/png")},
    )
    body = upload.json()
    assert body["form"] == {"note": "hi"}
    assert body["files"]["doc"] == "hello"
    assert body["files"]["blob"] == "data:image/png;base64,/wA="


async def test_anything_answers_json_whatever_accept_says(client: httpx.AsyncClient) -> None:
    response = await client.get("/anything", headers={"Accept": "text/html"})
    assert response.status_code == 200
    assert response.json()["headers"]["Accept"] == "text/html"


async def test_headers_ip_user_agent(client: httpx.AsyncClient) -> None:
    headers = (await client.get("/headers", headers={"X-One": "1"})).json()["headers"]
    assert headers["X-One"] == "1"
    assert headers["Host"] == "mock.test"
    assert (await client.get("/ip")).json() == {"origin": "127.0.0.1"}
    agent = await client.get("/user-agent", headers={"User-Agent": "tester/1"})
    assert agent.json() == {"user-agent": "tester/1"}


async def test_cookies_are_set_shown_and_deleted(client: httpx.AsyncClient) -> None:
    set_ = await client.get("/cookies/set?flavour=oat&size=big")
    assert set_.status_code == 302
    assert set_.headers["location"] == "/cookies"
    assert (await client.get("/cookies")).json() == {"cookies": {"flavour": "oat", "size": "big"}}
    await client.get("/cookies/set/extra/1")
    deleted = await client.get("/cookies/delete?size", follow_redirects=True)
    assert deleted.json() == {"cookies": {"flavour": "oat", "extra": "1"}}


@pytest.mark.parametrize(
    "path", ["/cookies/set?bad%20name=1", "/cookies/set/a/b%0Ac", "/etag/a%22b", "/cache/x"]
)
async def test_bad_names_and_values_are_problems(client: httpx.AsyncClient, path: str) -> None:
    response = await client.get(path)
    assert response.status_code == 400
    assert response.headers["content-type"] == "application/problem+json; charset=utf-8"


async def test_basic_auth_takes_exactly_the_credentials_in_the_path(
    client: httpx.AsyncClient,
) -> None:
    good = await client.get("/basic-auth/ann/s3cret", auth=("ann", "s3cret"))
    assert good.json() == {"authenticated": True, "user": "ann"}
    bad = await client.get("/basic-auth/ann/s3cret", auth=("ann", "nope"))
    assert bad.status_code == 401
    assert bad.headers["www-authenticate"] == 'Basic realm="Fake Realm"'
    assert bad.headers["content-type"] == "application/problem+json; charset=utf-8"


async def test_bearer_takes_any_token(client: httpx.AsyncClient) -> None:
    good = await client.get("/bearer", headers={"Authorization": "Bearer abc.def"})
    assert good.json() == {"authenticated": True, "token": "abc.def"}
    missing = await client.get("/bearer")
    assert missing.status_code == 401
    assert missing.headers["www-authenticate"] == "Bearer"


async def test_cache_and_etag(client: httpx.AsyncClient) -> None:
    cached = await client.get("/cache/30")
    assert cached.headers["cache-control"] == "public, max-age=30"
    assert (await client.get("/cache", headers={"If-None-Match": '"x"'})).status_code == 304
    assert (await client.get("/cache")).status_code == 200
    tagged = await client.get("/etag/v1")
    assert tagged.headers["etag"] == '"v1"'
    assert (await client.get("/etag/v1", headers={"If-None-Match": '"v1"'})).status_code == 304
    assert (await client.get("/etag/v1", headers={"If-Match": '"v0"'})).status_code == 412
    assert (await client.get("/etag/v1", headers={"If-Match": '"v1"'})).status_code == 200


async def test_a_304_carries_the_fields_its_200_would(client: httpx.AsyncClient) -> None:
    # RFC 9110 15.4.5: ETag, Vary, Date, Cache-Control and Expires, as the 200 has them.
    for path, condition in (("/etag/v1", '"v1"'), ("/cache", '"whatever"')):
        not_modified = await client.get(path, headers={"If-None-Match": condition})
        assert not_modified.status_code == 304
        for name in ("cache-control", "date", "expires", "etag"):
            assert name in not_modified.headers, (path, name)
        assert not_modified.headers["cache-control"] in ("max-age=60", "public, max-age=60")
        assert [v.strip() for v in not_modified.headers["vary"].split(",")] == [
            "Accept-Encoding",
            "Accept",
        ]
    assert not_modified.headers["etag"] != '"whatever"'  # /cache's own, as its 200 has


async def test_response_headers_are_sent_and_echoed(client: httpx.AsyncClient) -> None:
    response = await client.get("/response-headers?X-Color=blue&X-Color=red&Server-Timing=a")
    assert response.headers.get_list("x-color") == ["blue", "red"]
    assert response.json()["X-Color"] == ["blue", "red"]
    refused = await client.get("/response-headers?Content-Length=1")
    assert refused.status_code == 400


async def test_bytes_are_random_but_repeatable_with_a_seed(client: httpx.AsyncClient) -> None:
    one = await client.get("/bytes/64?seed=7")
    two = await client.get("/bytes/64?seed=7")
    assert one.headers["content-type"] == "application/octet-stream"
    assert len(one.content) == 64
    assert one.content == two.content
    assert (await client.get("/bytes/999999")).status_code == 400


async def test_delay_is_bounded(client: httpx.AsyncClient) -> None:
    quick = await client.get("/delay/0?x=1")
    assert quick.json()["args"] == {"x": "1"}
    too_long = await client.get("/delay/11")
    assert too_long.status_code == 400
    assert too_long.json()["parameter"] == "n"


async def test_stream_sends_json_lines(client: httpx.AsyncClient) -> None:
    response = await client.get("/stream/3")
    lines = [httpx.Response(200, content=line).json() for line in response.text.splitlines()]
    assert [line["id"] for line in lines] == [0, 1, 2]
    assert lines[0]["url"] == "http://mock.test/stream/3"


def test_drip_streams_over_a_socket() -> None:
    with BackgroundServer(make_settings()) as server, httpx.Client() as client:
        url = f"{server.url}/drip?duration=0.2&numbytes=4&code=202"
        with client.stream("GET", url) as response:
            chunks = list(response.iter_raw())
        assert response.status_code == 202
        assert response.headers["content-length"] == "4"
        assert b"".join(chunks) == b"****"
