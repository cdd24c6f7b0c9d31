"""The API's description looked for from a tab (``O``, ``a``, ``restwalk openapi``), as
plain tests: found by its link or where frameworks serve it, read, its token URL.

On the mock server's ASGI app, or an ``httpx.MockTransport`` playing a FastAPI-like
server that links to its description from nowhere.
"""

from __future__ import annotations

from http import HTTPStatus

import httpx
import pytest

from explorer.core.carry.openapi import OpenApiError
from explorer.core.http.client import Client
from explorer.core.http.request import RequestSpec
from explorer.core.hypermedia.link import Link
from explorer.core.session.tab import Tab
from explorer.core.session.trail import Page
from tests.explorer.password_api import DESCRIPTION

MOCK = "http://mock"


@pytest.fixture
def client(mock_client: Client) -> Client:
    """The client on the mock server (tests/explorer/core/conftest.py)."""
    return mock_client


async def shown(tab: Tab, url: str) -> Page:
    """Open ``url`` as a typed URL and take it in, read."""
    page = await tab.read(await tab.load(RequestSpec(url=url), typed=True))
    return tab.arrive(page).page


async def test_the_description_is_found_from_any_page_of_the_api(client: Client) -> None:
    tab = Tab(client)
    page = await shown(tab, f"{MOCK}/customers/1")
    description = await tab.fetch_description(page.url, page)
    assert description is not None
    assert any(op.path == "/customers/{id}" for op in description.operations)


async def test_an_answer_that_is_the_description_is_read_as_it_is(client: Client) -> None:
    tab = Tab(client, given=RequestSpec(url=f"{MOCK}/openapi.json"))
    page = await tab.load(RequestSpec(url=f"{MOCK}/openapi.json"))
    description = await tab.fetch_description(page.url, page, itself=True)
    assert description is not None
    assert description.operations


def described_nowhere(mounted: str = "") -> tuple[Client, list[str]]:
    """A FastAPI-like server: JSON without links, its description at
    ``{mounted}/openapi.json`` linked from nowhere, a catch-all JSON 200 at
    ``/v3/api-docs``; and the paths it was asked for."""
    asked: list[str] = []
    document = {
        "openapi": "3.1.0",
        "info": {"title": "Shop API", "version": "1.2.0"},
        "paths": {"/items": {"get": {"summary": "List Items"}}},
    }

    def answer(request: httpx.Request) -> httpx.Response:
        asked.append(request.url.path)
        if request.url.path == f"{mounted}/openapi.json":
            return httpx.Response(HTTPStatus.OK, json=document)
        if request.url.path in ("/v3/api-docs", f"{mounted}/items"):
            return httpx.Response(HTTPStatus.OK, json={"items": []})
        return httpx.Response(HTTPStatus.NOT_FOUND, json={"detail": "Not Found"})

    return Client(transport=httpx.MockTransport(answer)), asked


@pytest.mark.parametrize("mounted", ["", "/api/v1"])
async def test_a_description_nothing_links_to_is_found_where_frameworks_serve_it(
    mounted: str,
) -> None:
    client, asked = described_nowhere(mounted)
    tab = Tab(client)
    page = await shown(tab, f"http://shop{mounted}/items")
    told: list[Link] = []
    description = await tab.fetch_description(page.url, page, found=told.append)
    assert description is not None
    assert description.title == "Shop API"
    assert [link.href for link in told] == [f"http://shop{mounted}/openapi.json"]
    assert told[0].guess
    assert asked[-1] == f"{mounted}/openapi.json"  # the search stops there


async def test_no_description_anywhere_is_none_after_the_guesses() -> None:
    client, asked = described_nowhere("/elsewhere")
    tab = Tab(client)
    page = await shown(tab, "http://shop/")
    assert await tab.fetch_description(page.url, page) is None
    # /v3/api-docs answered JSON that is no description: passed over, not an error
    assert "/v3/api-docs" in asked
    assert asked[-1] == "/swagger.json"


async def test_looking_for_the_description_is_restwalk_s_own_not_the_person_s() -> None:
    """The guesses (each a 404), the links at the root, the document: none is told to
    the client's observers (the history's recorder), as `a` and `O` look (QA 2, item 5);
    the person's requests before and after are."""
    client, asked = described_nowhere("/elsewhere")
    observed: list[str] = []
    client.observers.append(lambda exchange: observed.append(exchange.final.url))
    tab = Tab(client)
    page = await shown(tab, "http://shop/items")
    assert observed == ["http://shop/items"]
    assert await tab.fetch_description(page.url, page) is None
    assert await tab.token_url(page.url, page) is None
    assert len(asked) > 1 + len(observed)  # requests were sent, and not observed
    assert observed == ["http://shop/items"]
    await shown(tab, "http://shop/")
    assert observed == ["http://shop/items", "http://shop/"]
    found, _ = described_nowhere()
    found.observers.append(lambda exchange: observed.append(exchange.final.url))
    shop = Tab(found)
    page = await shown(shop, "http://shop/items")
    assert await shop.fetch_description(page.url, page) is not None
    assert observed[-1] == "http://shop/items"


async def test_a_page_asked_to_be_a_description_names_the_places_tried() -> None:
    client, _ = described_nowhere("/elsewhere")
    tab = Tab(client, given=RequestSpec(url="http://shop/"))
    page = await tab.load(RequestSpec(url="http://shop/"))
    with pytest.raises(OpenApiError) as info:
        await tab.fetch_description(page.url, page, itself=True)
    assert "none is at /openapi.json, /v3/api-docs" in info.value.message


def password_api(asked: list[str]) -> Client:
    """FastAPI's OAuth2PasswordBearer(tokenUrl="token"), its description at
    /openapi.json linked from nowhere; ``asked`` gets each path asked for."""

    def answer(request: httpx.Request) -> httpx.Response:
        asked.append(request.url.path)
        if request.url.path == "/openapi.json":
            return httpx.Response(HTTPStatus.OK, json=DESCRIPTION)
        return httpx.Response(HTTPStatus.UNAUTHORIZED, json={"detail": "Not authenticated"})

    return Client(transport=httpx.MockTransport(answer))


async def test_the_token_url_of_a_password_flow_is_found_once_per_origin() -> None:
    asked: list[str] = []
    tab = Tab(password_api(asked))
    page = await shown(tab, "http://shop/users/me")
    assert await tab.token_url(page.url, page) == "http://shop/token"
    count = len(asked)
    assert await tab.token_url("http://shop/items", page) == "http://shop/token"
    assert len(asked) == count  # remembered, not looked for again


async def test_a_token_url_found_is_the_login_url_a_offers() -> None:
    asked: list[str] = []
    tab = Tab(password_api(asked))
    page = await shown(tab, "http://shop/users/me")
    offer = tab.login_offer(page.url)
    assert (offer.kind, offer.login_url) == ("bearer", None)  # not looked for yet
    assert asked == ["/users/me"]  # (offering sends nothing)
    await tab.token_url(page.url, page)
    offer = tab.login_offer(page.url)
    assert (offer.kind, offer.login_url) == ("token", "http://shop/token")


async def test_no_token_url_where_the_description_has_no_password_flow() -> None:
    client, _ = described_nowhere()
    tab = Tab(client)
    page = await shown(tab, "http://shop/items")
    assert await tab.token_url(page.url, page) is None


async def test_a_s_search_for_a_login_url_is_polite_and_says_what_it_tried() -> None:
    """QA: ``a`` on a server that is not the mock sent a GET to each of six framework
    paths (eight under a folder). It reads the root's links, then tries two places."""
    client, asked = described_nowhere("/elsewhere")
    tab = Tab(client)
    page = await shown(tab, "http://shop/items/3")
    said: list[str] = []
    assert await tab.token_url(page.url, page, told=said.append) is None
    assert asked == ["/items/3", "/", "/openapi.json", "/v3/api-docs"]
    assert said == ["No OpenAPI description linked, nor at /openapi.json, /v3/api-docs."]
    assert await tab.token_url(page.url, page, told=said.append) is None
    assert len(asked) == 4  # remembered per origin, and said again
    assert said[1] == said[0]


async def test_a_s_search_stops_at_the_first_description_found() -> None:
    asked: list[str] = []
    tab = Tab(password_api(asked))
    page = await shown(tab, "http://shop/users/me")
    said: list[str] = []
    assert await tab.token_url(page.url, page, told=said.append) == "http://shop/token"
    assert asked == ["/users/me", "/", "/openapi.json"]
    assert said == ["Login URL: the tokenUrl of the OpenAPI description /openapi.json"]


async def test_the_mock_s_description_is_found_by_its_root_s_link(client: Client) -> None:
    # The mock (not the bundled one: a server of its own) links its description from its
    # root (service-desc); the description gives no OAuth 2.0 password flow, and says so.
    tab = Tab(client)
    page = await shown(tab, f"{MOCK}/customers/1")
    said: list[str] = []
    await tab.token_url(page.url, page, told=said.append)
    assert len(said) == 1
    assert said == ["The OpenAPI description /openapi.json names no password login."]


async def test_a_s_search_reads_a_service_desc_link_header_at_the_root() -> None:
    # RFC 8631 with RFC 8288: the root's Link header names the description; no guess sent.
    asked: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        asked.append(request.url.path)
        if request.url.path == "/":
            return httpx.Response(
                HTTPStatus.OK, json={}, headers={"Link": '</spec/v1.json>; rel="service-desc"'}
            )
        if request.url.path == "/spec/v1.json":
            return httpx.Response(HTTPStatus.OK, json=DESCRIPTION)
        return httpx.Response(HTTPStatus.UNAUTHORIZED, json={"detail": "Not authenticated"})

    tab = Tab(Client(transport=httpx.MockTransport(answer)))
    page = await shown(tab, "http://shop/users/me")
    said: list[str] = []
    assert await tab.token_url(page.url, page, told=said.append) == "http://shop/token"
    assert asked == ["/users/me", "/", "/spec/v1.json"]
    assert said == ["Login URL: the tokenUrl of the OpenAPI description /spec/v1.json"]


async def test_a_service_desc_that_is_no_description_is_said_so() -> None:
    asked: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        asked.append(request.url.path)
        if request.url.path == "/":
            return httpx.Response(
                HTTPStatus.OK, json={}, headers={"Link": '</docs>; rel="service-desc"'}
            )
        return httpx.Response(HTTPStatus.OK, text="<html>API docs</html>")

    tab = Tab(Client(transport=httpx.MockTransport(answer)))
    page = await shown(tab, "http://shop/users/me")
    said: list[str] = []
    assert await tab.token_url(page.url, page, told=said.append) is None
    assert asked == ["/users/me", "/", "/docs"]  # a link followed: no guess after it
    assert said == ["/docs, linked as the API's description, is none."]
