"""Collections: paging bounds, filters, sort, unknown parameters, the envelope, the Link header."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

import httpx
import pytest

from mock_server import create_app
from mock_server.domain.collection_query import Listing, Page, Query
from mock_server.representations.link_header import link_header as link_header_value
from mock_server.representations.model import Link
from tests.mock_server.conftest import ADMIN, asgi_client, make_settings

_LINK = re.compile(r'<([^>]*)>; rel="([^"]*)"')


def link_header(response: httpx.Response) -> dict[str, str]:
    """rel -> href of the response's Link header."""
    return {rel: href for href, rel in _LINK.findall(response.headers["link"])}


async def test_envelope_shape(client: httpx.AsyncClient) -> None:
    body = (await client.get("/customers")).json()
    assert set(body) == {"count", "total", "limit", "offset", "_embedded", "_links", "_templates"}
    assert body["total"] == 11  # one of the 12 is held: neither listed nor counted
    assert body["limit"] == 20
    assert body["offset"] == 0
    assert body["count"] == len(body["_embedded"]["customers"]) == 11


@pytest.fixture
async def big_client() -> AsyncIterator[httpx.AsyncClient]:
    """A client for an app seeded three times over (36 customers)."""
    async with asgi_client(create_app(make_settings(seed_size=3))) as c:
        yield c


async def test_default_limit_is_20(big_client: httpx.AsyncClient) -> None:
    body = (await big_client.get("/products")).json()
    assert body["count"] == 20
    assert body["total"] == 30
    # The held customer is neither counted nor listed: the page is full.
    customers = (await big_client.get("/customers")).json()
    assert (customers["count"], customers["total"]) == (20, 35)


@pytest.mark.parametrize(
    ("query", "parameter"),
    [
        ("limit=0", "limit"),
        ("limit=101", "limit"),
        ("limit=-1", "limit"),
        ("limit=ten", "limit"),
        ("limit=1.5", "limit"),
        ("offset=-1", "offset"),
        ("offset=x", "offset"),
        ("offset=99999999999999999999", "offset"),
    ],
)
async def test_paging_bounds_are_400(client: httpx.AsyncClient, query: str, parameter: str) -> None:
    response = await client.get(f"/products?{query}")
    assert response.status_code == 400
    assert response.headers["content-type"] == "application/problem+json; charset=utf-8"
    body = response.json()
    assert body["parameter"] == parameter
    assert parameter in body["detail"]
    bound = "from 1 to 100" if parameter == "limit" else f"from 0 to {2**53 - 1}"
    assert bound in body["detail"]
    given = query.partition("=")[2]
    assert body["detail"].endswith(f", got {given!r}.")  # quoted alike, in range or not


async def test_limit_100_is_allowed(client: httpx.AsyncClient) -> None:
    assert (await client.get("/products?limit=100")).status_code == 200


async def test_offset_past_the_end_is_an_empty_page(client: httpx.AsyncClient) -> None:
    response = await client.get("/products?offset=500")
    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 0
    assert body["_embedded"]["products"] == []
    assert body["total"] == 10
    links = link_header(response)
    assert links["prev"] == "/products?limit=20&offset=0"
    assert "next" not in links


async def test_links_in_body_and_header_agree(client: httpx.AsyncClient) -> None:
    response = await client.get("/products?limit=3&offset=3")
    header = link_header(response)
    body = response.json()["_links"]
    assert header == {
        "self": "/products?limit=3&offset=3",
        "first": "/products?limit=3&offset=0",
        "prev": "/products?limit=3&offset=0",
        "next": "/products?limit=3&offset=6",
        "last": "/products?limit=3&offset=9",
    }
    for rel, href in header.items():
        assert body[rel]["href"] == href


async def test_first_page_has_no_prev_last_page_has_no_next(client: httpx.AsyncClient) -> None:
    first = link_header(await client.get("/products?limit=5"))
    assert "prev" not in first
    assert first["next"] == "/products?limit=5&offset=5"
    last = link_header(await client.get(first["last"]))
    assert "next" not in last
    assert last["prev"] == "/products?limit=5&offset=0"


async def test_following_next_visits_every_item_once(client: httpx.AsyncClient) -> None:
    seen: list[int] = []
    url: str | None = "/products?limit=3"
    while url:
        response = await client.get(url)
        seen += [p["id"] for p in response.json()["_embedded"]["products"]]
        url = link_header(response).get("next")
    assert seen == list(range(1, 11))


async def test_links_keep_filters_sort_and_version(client: httpx.AsyncClient) -> None:
    response = await client.get("/v2/customers?name=a&sort=-name&limit=2")
    links = link_header(response)
    assert links["next"] == "/v2/customers?name=a&sort=-name&limit=2&offset=2"
    query_style = link_header(await client.get("/customers?version=2&city=Cambridge&limit=1"))
    assert query_style["next"] == "/customers?city=Cambridge&limit=1&offset=1&version=2"


async def test_filter_values_are_encoded_in_links(client: httpx.AsyncClient) -> None:
    response = await client.get("/customers", params={"name": "a b&c", "limit": "1"})
    assert response.status_code == 200
    assert link_header(response)["self"] == "/customers?name=a%20b%26c&limit=1&offset=0"


@pytest.mark.parametrize(
    ("sort", "expected"),
    [
        ("cost", [0.0, 4.5, 9.99]),
        ("-cost", [229.0, 89.0, 59.0]),
    ],
)
async def test_sort(client: httpx.AsyncClient, sort: str, expected: list[float]) -> None:
    body = (await client.get("/products", params={"sort": sort, "limit": "3"})).json()
    assert [p["cost"] for p in body["_embedded"]["products"]] == expected


async def test_sort_by_name_then_ties_by_id(client: httpx.AsyncClient) -> None:
    body = (await client.get("/customers", params={"sort": "city,-id", "limit": "4"})).json()
    assert [c["id"] for c in body["_embedded"]["customers"]] == [2, 8, 7, 5]


async def test_unknown_sort_field_is_400(client: httpx.AsyncClient) -> None:
    response = await client.get("/products", params={"sort": "price"})
    assert response.status_code == 400
    assert response.json()["parameter"] == "sort"
    assert "cost" in response.json()["detail"]


@pytest.mark.parametrize("path", ["/customers", "/products", "/orders"])
async def test_unknown_parameter_is_400_naming_it(client: httpx.AsyncClient, path: str) -> None:
    response = await client.get(path, params={"mincost": "3"}, headers=ADMIN)
    assert response.status_code == 400
    assert response.json()["parameter"] == "mincost"
    assert "'mincost'" in response.json()["detail"]


async def test_repeated_parameter_is_400(client: httpx.AsyncClient) -> None:
    response = await client.get("/products?limit=2&limit=3")
    assert response.status_code == 400
    assert response.json()["parameter"] == "limit"


async def test_version_parameter_is_allowed(client: httpx.AsyncClient) -> None:
    assert (await client.get("/products?version=1&limit=1")).status_code == 200


async def test_search_template_lists_filters(client: httpx.AsyncClient) -> None:
    search = (await client.get("/products")).json()["_links"]["search"]
    assert search == {
        "href": "/products{?minCost,maxCost,name,sort,limit,offset}",
        "templated": True,
        "title": "Search products",
    }
    v2 = (await client.get("/products?version=2")).json()["_links"]["search"]
    assert v2["href"] == "/products?version=2{&minCost,maxCost,name,sort,limit,offset}"


def test_page_offsets_of_an_empty_collection() -> None:
    listing = Listing("/x", (), {})
    page = Page([], 0, Query(20, 0, (), ()))
    assert page.offsets() == {"first": 0, "last": 0}
    assert listing.template_variables() == ("sort", "limit", "offset")


def test_link_header_quotes_and_skips_templates() -> None:
    links = [
        Link("next", "/x?offset=2", title='say "hi" \\ bye'),
        Link("search", "/x{?q}", templated=True),
    ]
    assert link_header_value(links) == r'</x?offset=2>; rel="next"; title="say \"hi\" \\ bye"'
