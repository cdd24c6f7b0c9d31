"""HAR 1.2: what restwalk writes passes the spec's structure and a HAR reader; what browsers
and other tools write is read back (files in tests/explorer/data/har, sources in its README)."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import jsonschema
import orjson
import pytest
from haralyzer import HarEntry, HarParser

from explorer.core.carry.har import HarError, har_bytes, har_document, read_har
from explorer.core.http.client import Client
from explorer.core.http.exchange import CacheNote, Exchange, ReceivedResponse, SentRequest, Timings
from explorer.core.http.request import LoginFlow, RequestSpec
from explorer.core.storage.history import HistoryStore
from mock_server import Settings, create_app
from tests.mock_server.conftest import TEST_HOSTS

DATA = Path(__file__).resolve().parents[1] / "data" / "har"
SCHEMA = json.loads((DATA / "har-1.2.schema.json").read_text())


def validate(document: dict[str, object]) -> None:
    jsonschema.Draft202012Validator(SCHEMA).validate(document)


async def mock_exchanges() -> list[Exchange]:
    """A walk on the mock: JSON, a redirect, a POST with a body, XML, a binary body, a login."""
    async with Client(
        transport=httpx.ASGITransport(app=create_app(Settings(allowed_hosts=TEST_HOSTS)))
    ) as client:
        made = []
        client.observers.append(made.append)
        await client.send(RequestSpec(url="http://mock/customers?limit=2"))
        await client.send(RequestSpec(url="http://mock/clients"))  # 301 to /customers
        await client.send(
            RequestSpec(
                url="http://mock/orders",
                auth=LoginFlow("http://mock/auth/token", "alice", "wonderland"),
            )
        )
        await client.send(
            RequestSpec(
                method="POST",
                url="http://mock/anything",
                headers=(("Content-Type", "application/json"),),
                body='{"a": 1}',
            )
        )
        await client.send(RequestSpec(url="http://mock/bytes/64"))
        await client.send(
            RequestSpec(url="http://mock/customers/1", headers=(("Accept", "application/xml"),))
        )
        return made


async def test_restwalk_writes_valid_har_that_a_reader_opens() -> None:
    exchanges = await mock_exchanges()
    document = har_document([(e, 1_790_000_000.0 + n) for n, e in enumerate(exchanges)])
    validate(document)
    data = har_bytes(document)
    parsed = HarParser(orjson.loads(data))
    entries = [HarEntry(entry) for entry in parsed.har_data["entries"]]
    assert len(entries) == len(exchanges) + 1  # the 301 hop is an entry of its own
    methods = [entry.request.method for entry in entries]
    assert methods.count("POST") == 2  # the login and the /anything
    statuses = [entry.response.status for entry in entries]
    assert 301 in statuses
    assert parsed.creator["name"] == "restwalk"
    redirect = next(e for e in parsed.har_data["entries"] if e["response"]["status"] == 301)
    assert redirect["response"]["redirectURL"].endswith("/customers")
    binary = next(
        e for e in parsed.har_data["entries"] if e["request"]["url"].endswith("/bytes/64")
    )
    assert binary["response"]["content"]["encoding"] == "base64"


async def test_a_restwalk_har_comes_back_as_it_went() -> None:
    exchanges = await mock_exchanges()
    found = read_har(har_bytes(har_document([(e, 1_790_000_000.5) for e in exchanges])))
    assert found.skipped == []
    assert found.creator == "restwalk"
    finals = list(exchanges)
    back = [e for e, _ in found.exchanges if e.response.status != 301]
    assert len(back) == len(finals)
    for before, after in zip(finals, back, strict=True):
        assert after.request.method == before.final.method
        assert after.request.url == before.final.url
        assert after.request.headers == before.final.headers
        assert after.request.body == before.final.body
        assert after.response.status == before.response.status
        assert after.response.headers == before.response.headers
        assert after.response.body == before.response.body
    assert found.exchanges[0][1] == 1_790_000_000.5


def test_a_chrome_devtools_har_is_read() -> None:
    found = read_har((DATA / "chrome.har").read_bytes())
    assert found.creator == "WebInspector"
    assert found.skipped == [
        "entry 2: no answer (status 0: blocked, cancelled or failed in the browser)"
    ]
    page, image = (e for e, _ in found.exchanges)
    assert page.request.url == "https://mitmproxy.org/"
    assert page.request.http_version == "HTTP/2"
    assert page.response.status == 304
    assert all(not name.startswith(":") for name, _ in page.request.headers)
    assert image.response.body.startswith(b"\x89PNG")  # base64 decoded


def test_a_chrome_post_and_an_insomnia_har_are_read() -> None:
    ((post, at),) = read_har((DATA / "chrome-post.har").read_bytes()).exchanges
    assert post.request.method == "POST"
    assert post.request.body.startswith(b'{"metadata":')
    assert at == pytest.approx(1689428246.093)
    ((insomnia, _),) = read_har((DATA / "insomnia.har").read_bytes()).exchanges
    assert insomnia.response.body.startswith(b'<div class="container">')
    assert insomnia.timings.total == pytest.approx(0.070402)


def test_imported_into_the_history_and_masked(tmp_path: Path) -> None:
    store = HistoryStore.in_directory(tmp_path)
    found = read_har((DATA / "chrome.har").read_bytes())
    assert store.add_many(found.exchanges, source="har").kept == 2
    entries = store.search()
    assert {e.source for e in entries} == {"har"}
    image = next(e for e in entries if "googlelogo" in e.url)
    kept = store.load(image.id)
    assert kept is not None
    cookies = [v for k, v in kept.request.headers if k.lower() == "cookie"]
    assert cookies
    assert all(value.count("=****") == value.count("=") for value in cookies)


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b"not json", "not JSON"),
        (b"[]", 'no "log" object'),
        (b'{"log": {"version": "1.2"}}', 'no "entries" list'),
    ],
)
def test_what_is_not_har_is_named(data: bytes, says: str) -> None:
    with pytest.raises(HarError, match=says):
        read_har(data)


def test_broken_entries_are_skipped_with_their_reason() -> None:
    document = {
        "log": {
            "entries": [
                {"request": {"method": "GET", "url": "ws://x/"}, "response": {"status": 101}},
                {"request": {"url": "http://x/"}, "response": {"status": 200}},
                "nonsense",
            ]
        }
    }
    found = read_har(orjson.dumps(document))
    assert found.exchanges == []
    assert [line.split(":")[0] for line in found.skipped] == ["entry 1", "entry 2", "entry 3"]


def test_a_cache_hit_is_written_and_read_as_one() -> None:
    request = SentRequest("GET", "http://api.test/cache/60", (("Accept", "*/*"),))
    response = ReceivedResponse(
        200, "OK", "HTTP/1.1", (("Content-Type", "application/json"),), b'{"n": 1}', request.url, 8
    )
    fresh = CacheNote("fresh", "from the cache: fresh for another 42 s (max-age=60)")
    revalidated = CacheNote("revalidated", "revalidated: 304 Not Modified, body from the cache")
    items = [
        (Exchange(request, request, response, timings=Timings(0.001, 0.001), cache=fresh), 5.0),
        (Exchange(request, request, response, timings=Timings(0.02, 0.03), cache=revalidated), 6.0),
        (Exchange(request, request, response, timings=Timings(0.02, 0.03)), 7.0),
    ]
    document = har_document(items)
    validate(document)
    hit, again, sent = document["log"]["entries"]
    assert hit["_fromCache"] == "memory"  # as Chrome's devtools write a cache hit
    assert hit["comment"].startswith("from restwalk's cache: nothing was sent")
    assert hit["response"]["bodySize"] == 0  # nothing came over the wire
    assert hit["timings"]["wait"] == 0
    assert "_fromCache" not in again
    assert again["comment"].startswith("from restwalk's cache, revalidated")
    assert again["response"]["bodySize"] == 0  # the 304 had no body
    assert "_fromCache" not in sent
    assert "comment" not in sent
    assert sent["response"]["bodySize"] == 8
    back = [exchange for exchange, _ in read_har(har_bytes(document)).exchanges]
    assert [e.cache.outcome if e.cache else None for e in back] == ["fresh", None, None]
