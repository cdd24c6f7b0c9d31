"""The body a PUT or PATCH of the resource shown starts from (no terminal)."""

from __future__ import annotations

import httpx

from explorer.core.http.client import Client
from explorer.core.http.request import RequestSpec
from explorer.core.session.editing import editable
from explorer.core.session.trail import Page

#: json-server 1.0.0-beta.15's GET /books/3, as a QA pass read it.
BOOK = b'{\n  "id": "3",\n  "title": "Book 3",\n  "authorId": "1",\n  "year": 1963\n}'


def answer(request: httpx.Request) -> httpx.Response:
    if request.url.path == "/books":
        return httpx.Response(200, json=[{"id": "3"}])
    if request.url.path == "/missing":
        return httpx.Response(404, json={"detail": "Not found."})
    return httpx.Response(200, content=BOOK, headers={"Content-Type": "application/json"})


async def page(method: str, url: str) -> Page:
    async with Client(transport=httpx.MockTransport(answer)) as client:
        spec = RequestSpec(method, url)
        return Page(spec, await client.send(spec))


async def test_a_put_or_patch_of_the_json_object_shown_starts_from_it() -> None:
    shown = editable(await page("GET", "http://js/books/3#top"))
    assert shown is not None
    assert shown.url == "http://js/books/3"
    assert (
        shown.body == '{\n  "id": "3",\n  "title": "Book 3",\n  "authorId": "1",\n  "year": 1963\n}'
    )
    assert shown.starts("put", " http://js/books/3 ", "")
    assert shown.starts("PATCH", "http://js/books/3", "  \n")
    assert not shown.starts("POST", "http://js/books/3", "")
    assert not shown.starts("PUT", "http://js/books/4", "")
    assert not shown.starts("PUT", "http://js/books/3", '{"year": 1}')  # typed: kept


async def test_nothing_to_start_from_but_a_json_object_read_whole() -> None:
    assert editable(None) is None
    assert editable(Page(RequestSpec(url="http://js/books/3"))) is None  # no answer yet
    assert editable(await page("GET", "http://js/books")) is None  # an array
    assert editable(await page("GET", "http://js/missing")) is None  # a 404's body
    assert editable(await page("DELETE", "http://js/books/3")) is None  # not read by GET
