"""Versions: four styles, precedence, conflicts, unsupported versions, headers, old URIs."""

from __future__ import annotations

import httpx
import pytest

from mock_server.http.versions import VARY
from tests.mock_server.conftest import ADMIN

HEADER = "Custom-Header"


def is_v2_customer(body: dict[str, object]) -> bool:
    return isinstance(body["address"], dict)


@pytest.mark.parametrize(
    ("url", "headers", "version"),
    [
        ("/customers/1", {}, 1),
        ("/v1/customers/1", {}, 1),
        ("/v2/customers/1", {}, 2),
        ("/customers/1?version=2", {}, 2),
        ("/customers/1?version=1", {}, 1),
        ("/customers/1", {HEADER: "api-version=2"}, 2),
        ("/customers/1", {HEADER: "api-version=1"}, 1),
    ],
)
async def test_four_styles_select_the_schema(
    client: httpx.AsyncClient, url: str, headers: dict[str, str], version: int
) -> None:
    response = await client.get(url, headers=headers)
    assert response.status_code == 200
    assert response.headers["api-version"] == str(version)
    assert response.headers["vary"] == VARY
    assert is_v2_customer(response.json()) == (version == 2)


async def test_old_uris_keep_the_v1_schema(client: httpx.AsyncClient) -> None:
    body = (await client.get("/customers/1")).json()
    assert body["address"] == "12 St James's Square, London, LDN SW1Y 4JH"
    products = (await client.get("/products")).json()["_embedded"]["products"]
    assert all("currency" not in p for p in products)


@pytest.mark.parametrize(
    ("url", "headers"),
    [
        ("/v2/customers/1?version=2", {HEADER: "api-version=2"}),
        ("/customers/1?version=2", {HEADER: "api-version=2"}),
    ],
)
async def test_agreeing_markers_are_fine(
    client: httpx.AsyncClient, url: str, headers: dict[str, str]
) -> None:
    response = await client.get(url, headers=headers)
    assert response.status_code == 200
    assert response.headers["api-version"] == "2"


@pytest.mark.parametrize(
    ("url", "headers", "named"),
    [
        ("/v2/customers/1?version=1", {}, ("/v2", "version=1")),
        ("/v1/customers/1", {HEADER: "api-version=2"}, ("/v1", "Custom-Header")),
        ("/customers/1?version=2", {HEADER: "api-version=1"}, ("version=2", "Custom-Header")),
    ],
)
async def test_conflicting_markers_are_400_naming_both(
    client: httpx.AsyncClient, url: str, headers: dict[str, str], named: tuple[str, str]
) -> None:
    response = await client.get(url, headers=headers)
    assert response.status_code == 400
    assert response.headers["content-type"] == "application/problem+json; charset=utf-8"
    detail = response.json()["detail"]
    assert all(part in detail for part in named)


async def test_unsupported_uri_version_is_404(client: httpx.AsyncClient) -> None:
    response = await client.get("/v3/customers/1")
    assert response.status_code == 404
    assert response.json()["supportedVersions"] == [1, 2]


@pytest.mark.parametrize(
    ("url", "headers"),
    [
        ("/customers/1?version=3", {}),
        ("/customers/1?version=two", {}),
        ("/customers/1", {HEADER: "api-version=9"}),
        ("/customers/1", {HEADER: "version 2"}),
    ],
)
async def test_unsupported_query_or_header_version_is_400(
    client: httpx.AsyncClient, url: str, headers: dict[str, str]
) -> None:
    response = await client.get(url, headers=headers)
    assert response.status_code == 400
    assert response.json()["supportedVersions"] == [1, 2]


async def test_errors_of_versioned_resources_carry_the_version(
    client: httpx.AsyncClient,
) -> None:
    response = await client.get("/v2/customers/999")
    assert response.status_code == 404
    assert response.headers["api-version"] == "2"
    assert response.headers["vary"] == VARY


@pytest.mark.parametrize(
    ("url", "headers", "self_href", "collection"),
    [
        ("/v2/customers/1", {}, "/v2/customers/1", "/v2/customers"),
        ("/customers/1?version=2", {}, "/customers/1?version=2", "/customers?version=2"),
        ("/customers/1", {HEADER: "api-version=2"}, "/customers/1", "/customers"),
    ],
)
async def test_links_keep_the_version_style(
    client: httpx.AsyncClient,
    url: str,
    headers: dict[str, str],
    self_href: str,
    collection: str,
) -> None:
    links = (await client.get(url, headers=headers)).json()["_links"]
    assert links["self"]["href"] == self_href
    assert links["collection"]["href"] == collection


async def test_writes_follow_the_version(client: httpx.AsyncClient) -> None:
    address = {"streetAddress": "1 Way", "city": "Here", "state": "HH", "zipCode": "1"}
    created = await client.post(
        "/customers",
        json={"name": "Header Two", "address": address},
        headers={**ADMIN, HEADER: "api-version=2"},
    )
    assert created.status_code == 201
    assert created.headers["api-version"] == "2"
    assert created.json()["address"] == address


async def test_root_under_v2_links_collections_in_v2(client: httpx.AsyncClient) -> None:
    links = (await client.get("/v2/")).json()["_links"]
    assert links["rw:customers"]["href"] == "/v2/customers"
    assert links["rw:auth"]["href"] == "/auth"  # authentication is not versioned


@pytest.mark.parametrize(
    ("url", "location"),
    [
        ("/v2/customers/", "/v2/customers"),
        ("/v2/customers/1/?limit=5", "/v2/customers/1?limit=5"),
        ("/customers/?version=2", "/customers?version=2"),
        ("/customers/", "/customers"),
    ],
)
async def test_trailing_slash_redirect_keeps_the_version(
    client: httpx.AsyncClient, url: str, location: str
) -> None:
    response = await client.get(url)
    assert response.status_code == 308
    assert response.headers["location"] == location


async def test_post_to_a_trailing_slash_under_v2_lands_in_v2(client: httpx.AsyncClient) -> None:
    address = {"streetAddress": "1 Way", "city": "Here", "state": "HH", "zipCode": "1"}
    response = await client.post(
        "/v2/customers/", json={"name": "Slash Two", "address": address}, headers=ADMIN
    )
    assert response.status_code == 308
    followed = await client.post(
        response.headers["location"], json={"name": "Slash Two", "address": address}, headers=ADMIN
    )
    assert followed.status_code == 201
    assert followed.json()["address"] == address


async def test_unknown_path_with_a_trailing_slash_is_still_404(client: httpx.AsyncClient) -> None:
    response = await client.get("/nothing/")
    assert response.status_code == 404
    assert response.headers["content-type"] == "application/problem+json; charset=utf-8"


@pytest.mark.parametrize(
    ("method", "url", "headers", "instance", "named"),
    [
        ("GET", "/v2/customers/999", {}, "/v2/customers/999", None),
        ("GET", "/v2/nothing", {}, "/v2/nothing", "/v2/nothing"),
        ("DELETE", "/v2/customers", ADMIN, "/v2/customers", "/v2/customers"),
        (
            "PATCH",
            "/v2/customers/1",
            {**ADMIN, "Content-Type": "text/plain"},
            "/v2/customers/1",
            "/v2/customers/1",
        ),
        (
            "PATCH",
            "/v2/customers/1",
            {**ADMIN, "If-Match": '"x"', "Content-Type": "application/merge-patch+json"},
            "/v2/customers/1",
            "/v2/customers/1",
        ),
    ],
)
async def test_problems_under_v2_name_the_v2_uri(
    client: httpx.AsyncClient,
    method: str,
    url: str,
    headers: dict[str, str],
    instance: str,
    named: str | None,
) -> None:
    # The version layer strips /v2 for the resources; the client asked for /v2/...
    response = await client.request(method, url, headers=headers, content=b"{}")
    assert response.status_code >= 400
    body = response.json()
    assert body["instance"] == instance
    if named is not None:
        assert named in body["detail"]


@pytest.mark.parametrize(
    ("url", "headers", "search", "customers"),
    [
        ("/v2/", {}, "/v2/products{?minCost,maxCost,name,sort,limit,offset}", "/v2/customers"),
        (
            "/?version=2",
            {},
            "/products?version=2{&minCost,maxCost,name,sort,limit,offset}",
            "/customers?version=2",
        ),
        (
            "/",
            {HEADER: "api-version=2"},
            "/products{?minCost,maxCost,name,sort,limit,offset}",
            "/customers",
        ),
    ],
)
async def test_root_links_and_search_templates_keep_the_version(
    client: httpx.AsyncClient,
    url: str,
    headers: dict[str, str],
    search: str,
    customers: str,
) -> None:
    response = await client.get(url, headers=headers)
    assert response.status_code == 200
    assert response.headers["api-version"] == "2"
    links = response.json()["_links"]
    assert links["rw:product-search"]["href"] == search
    assert links["rw:customers"]["href"] == customers


async def test_root_refuses_an_unsupported_version_like_every_resource(
    client: httpx.AsyncClient,
) -> None:
    assert (await client.get("/?version=3")).status_code == 400
    assert (await client.get("/", headers={HEADER: "api-version=9"})).status_code == 400


@pytest.mark.parametrize(
    ("url", "headers"),
    [
        ("/customers/1?version=%C2%B2", {}),  # "²": str.isdigit() says yes, int() says no
        ("/customers/1?version=%D9%A2", {}),  # "٢" (Arabic-Indic two): int() reads 2
        ("/customers/1?version=1234567890123", {}),  # longer than any version
        ("/customers/1", {HEADER: "api-version=²".encode("latin-1")}),
    ],
)
async def test_a_version_is_ascii_digits_only(
    client: httpx.AsyncClient, url: str, headers: dict[str, bytes]
) -> None:
    response = await client.get(url, headers=headers)
    assert response.status_code == 400
    assert response.headers["content-type"].startswith("application/problem+json")
    assert "must be a whole number" in response.json()["detail"]


async def test_a_non_ascii_digit_is_no_uri_version(client: httpx.AsyncClient) -> None:
    response = await client.get("/v%D9%A2/customers/1")
    assert response.status_code == 404
    assert response.headers["content-type"].startswith("application/problem+json")
