"""The request journal: what was sent, filtered, bounded, clearable, admin-only."""

from __future__ import annotations

import httpx

from mock_server import create_app
from mock_server.app import MockApp
from mock_server.request_journal import MAX_BODY, HeaderFilter, RequestJournal, path_matches
from tests.mock_server.conftest import ADMIN, EDITOR, VIEWER, asgi_client, make_settings


async def test_journal_records_method_url_headers_body_and_status(
    client: httpx.AsyncClient,
) -> None:
    await client.get("/customers?limit=2", headers={"X-Trace": "abc"})
    await client.post(
        "/products", json={"name": "Pen", "cost": 1.5}, headers={**EDITOR, "X-Trace": "def"}
    )
    response = await client.get("/_journal", headers=ADMIN)
    assert response.status_code == 200
    assert response.headers["cache-control"] == "no-store"
    entries = response.json()["entries"]
    assert [(e["method"], e["url"], e["status"]) for e in entries] == [
        ("GET", "/customers?limit=2", 200),
        ("POST", "/products", 201),
    ]
    posted = entries[1]
    assert posted["headers"]["x-trace"] == "def"
    assert posted["headers"]["content-type"] == "application/json"
    assert posted["json"] == {"name": "Pen", "cost": 1.5}
    assert posted["bodySize"] == len(posted["body"])
    assert posted["bodyTruncated"] is False


async def test_journal_filters_by_method_path_and_header(client: httpx.AsyncClient) -> None:
    await client.get("/customers/1")
    await client.get("/products/1", headers={"X-Trace": "one"})
    await client.delete("/products/2", headers={**EDITOR, "X-Trace": "two"})

    async def urls(query: str) -> list[str]:
        response = await client.get(f"/_journal?{query}", headers=ADMIN)
        assert response.status_code == 200, response.text
        return [entry["url"] for entry in response.json()["entries"]]

    assert await urls("method=delete") == ["/products/2"]
    assert await urls("path=/products*") == ["/products/1", "/products/2"]
    assert await urls("path=/products") == []
    assert await urls("header=x-trace") == ["/products/1", "/products/2"]
    assert await urls("header=X-Trace:two") == ["/products/2"]
    assert await urls("header=x-trace&method=GET") == ["/products/1"]


async def test_journal_is_cleared_and_not_journaled_itself(client: httpx.AsyncClient) -> None:
    await client.get("/")
    assert (await client.delete("/_journal", headers=ADMIN)).status_code == 204
    response = await client.get("/_journal", headers=ADMIN)
    assert response.json()["entries"] == []


async def test_journal_is_for_the_admin_only(client: httpx.AsyncClient) -> None:
    assert (await client.get("/_journal")).status_code == 401
    assert (await client.get("/_journal", headers=VIEWER)).status_code == 403
    assert (await client.delete("/_journal", headers=EDITOR)).status_code == 403


async def test_bad_journal_query_is_a_problem(client: httpx.AsyncClient) -> None:
    for query in ("methd=GET", "header=:x", "path=/a&path=/b"):
        response = await client.get(f"/_journal?{query}", headers=ADMIN)
        assert response.status_code == 400, query
        assert response.headers["content-type"] == "application/problem+json; charset=utf-8"


async def test_journal_keeps_the_newest_entries_only() -> None:
    app = create_app(make_settings(journal_size=3))
    async with asgi_client(app) as client:
        for n in range(1, 6):
            await client.get(f"/customers/{n}")
        urls = [e.url for e in app.service.requests.entries()]
    assert urls == ["/customers/3", "/customers/4", "/customers/5"]


async def test_journal_sees_the_status_of_refused_requests(
    app: MockApp, client: httpx.AsyncClient
) -> None:
    await client.post("/products", content=b"{", headers={**EDITOR, "Content-Type": "text/csv"})
    await client.get("/products", headers={"Accept": "image/png"})
    assert [e.status for e in app.service.requests.entries()] == [415, 406]


def test_long_bodies_are_cut_but_counted() -> None:
    journal = RequestJournal(10)
    entry = journal.new_entry(time=0.0, method="PUT", path="/x", query="", headers=[], client=None)
    entry.add_body(b"a" * MAX_BODY)
    entry.add_body(b"\xff" * 10)
    assert len(entry.body) == MAX_BODY
    assert entry.to_dict()["bodyTruncated"] is True
    assert entry.to_dict()["bodySize"] == MAX_BODY + 10


def test_header_filters_and_path_patterns() -> None:
    journal = RequestJournal(10)
    entry = journal.new_entry(
        time=0.0,
        method="GET",
        path="/a",
        query="",
        headers=[(b"Accept", b"text/plain"), (b"accept", b"application/json")],
        client=None,
    )
    assert HeaderFilter.parse("Accept").keeps(entry)
    assert HeaderFilter.parse("accept: application/json").keeps(entry)
    assert HeaderFilter.parse("accept:text/plain, application/json").keeps(entry)
    assert not HeaderFilter.parse("accept:text/html").keeps(entry)
    assert path_matches("/a*", "/ab")
    assert not path_matches("/a", "/ab")
