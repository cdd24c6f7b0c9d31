"""Content negotiation: q-values, specificity (RFC 9110 §12.5.1), 406, error bodies."""

from __future__ import annotations

from http import HTTPStatus

import httpx
import pytest
from defusedxml import ElementTree

from mock_server.http.negotiation import parse_accept, quality, select
from mock_server.representations.renderers import OFFERED
from tests.mock_server.conftest import ADMIN

HAL = "application/hal+json"
JSON = "application/json"
SIREN = "application/vnd.siren+json"
JSONAPI = "application/vnd.api+json"
XML = "application/xml"


@pytest.mark.parametrize(
    ("accept", "expected"),
    [
        (None, HAL),
        ("", HAL),
        ("*/*", HAL),
        ("*", HAL),
        ("application/*", HAL),
        (JSON, JSON),
        (XML, XML),
        (SIREN, SIREN),
        (JSONAPI, JSONAPI),
        ("text/html, application/xml;q=0.9, */*;q=0.1", XML),
        ("application/json;q=0.5, application/vnd.siren+json", SIREN),
        # The most specific range decides a type's q, not the first or the largest.
        ("*/*, application/hal+json;q=0", JSON),
        ("application/*;q=0.2, application/xml;q=0.8", XML),
        ("application/*;q=0.9, */*;q=1, application/hal+json;q=0.1", JSON),
        # Ties go to the server's preference.
        ("application/xml, application/vnd.api+json", JSONAPI),
        ("application/xml;q=0.5, application/json;q=0.5", JSON),
        # q=0 refuses; nothing else offered -> None (406).
        ("application/hal+json;q=0", None),
        ("text/html", None),
        ("text/*, image/png", None),
        ("*/*;q=0", None),
        # Case and spacing do not matter; garbage elements are skipped.
        ("  Application/XML ; Q=1 ", XML),
        ("nonsense, application/xml", XML),
        ("nonsense", HAL),
        ("application/json;q=abc", JSON),
    ],
)
def test_select(accept: str | None, expected: str | None) -> None:
    assert select(accept, OFFERED) == expected


def test_offered_order_starts_with_hal() -> None:
    assert OFFERED == (HAL, JSON, SIREN, JSONAPI, XML)


def test_specificity_of_parameters_beats_bare_type() -> None:
    # RFC 9110's own example: text/plain;format=flowed is more specific than text/plain.
    ranges = parse_accept("text/plain;q=0.3, text/plain;format=flowed;q=0.9, */*;q=0.1")
    assert quality("text/plain", ranges) == 0.9
    assert quality("text/html", ranges) == 0.1
    assert quality("image/png", parse_accept("text/*")) == 0.0


def test_params_after_q_are_extensions() -> None:
    (media_range,) = parse_accept("application/xml;q=0.4;level=1")
    assert media_range.q == 0.4
    assert media_range.params == ()


@pytest.mark.parametrize("media", [HAL, JSON, SIREN, JSONAPI, XML])
async def test_root_answers_in_each_offered_type(client: httpx.AsyncClient, media: str) -> None:
    response = await client.get("/", headers={"Accept": media})
    assert response.status_code == 200
    assert response.headers["content-type"].split(";")[0] == media
    assert "Accept" in response.headers["vary"]


async def test_default_is_hal(client: httpx.AsyncClient) -> None:
    response = await client.get("/", headers={"Accept": "*/*"})
    assert response.headers["content-type"].startswith(HAL)
    assert "_links" in response.json()


async def test_json_is_the_hal_body(client: httpx.AsyncClient) -> None:
    hal = await client.get("/", headers={"Accept": HAL})
    plain = await client.get("/", headers={"Accept": JSON})
    assert hal.json() == plain.json()


async def test_406_lists_what_is_offered(client: httpx.AsyncClient) -> None:
    response = await client.get("/", headers={"Accept": "text/html"})
    assert response.status_code == 406
    assert response.headers["content-type"] == "application/problem+json; charset=utf-8"
    problem = response.json()
    assert problem["status"] == 406
    assert problem["available"] == list(OFFERED)
    assert "text/html" in problem["detail"]
    links = response.headers["link"]
    for media in OFFERED:
        assert f'<{"/"}>; rel="alternate"; type="{media}"' in links


async def test_406_link_keeps_the_version_segment(client: httpx.AsyncClient) -> None:
    response = await client.get("/v2/customers", headers={"Accept": "image/png", **ADMIN})
    assert response.status_code == 406
    assert '</v2/customers>; rel="alternate"' in response.headers["link"]


async def test_refusing_everything_is_406(client: httpx.AsyncClient) -> None:
    response = await client.get("/", headers={"Accept": "*/*;q=0"})
    assert response.status_code == 406


async def test_error_body_follows_accept_xml(client: httpx.AsyncClient) -> None:
    response = await client.get("/no-such-thing", headers={"Accept": XML})
    assert response.status_code == 404
    assert response.headers["content-type"] == "application/problem+xml"
    root = ElementTree.fromstring(response.content)
    assert root.tag == "{urn:ietf:rfc:7807}problem"
    assert root.find("{urn:ietf:rfc:7807}status").text == "404"


async def test_406_body_is_xml_when_xml_is_preferred_but_refused_elsewhere(
    client: httpx.AsyncClient,
) -> None:
    # text/xml is not offered (application/xml is), but the error body may be XML.
    response = await client.get("/", headers={"Accept": "text/xml"})
    assert response.status_code == 406
    assert response.headers["content-type"] == "application/problem+xml"


@pytest.mark.parametrize(
    "accept",
    [
        # Firefox's and Chrome's Accept for a page: HTML first, XML only at 0.9.
        "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
        "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,"
        "image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7",
        "application/xhtml+xml",  # nothing the mock offers: 406, in JSON
        "application/xml, application/json",  # a tie: JSON, the default
    ],
)
async def test_a_browser_gets_problem_json_never_xml(
    client: httpx.AsyncClient, accept: str
) -> None:
    response = await client.get("/no-such-thing", headers={"Accept": accept})
    assert response.status_code in (HTTPStatus.NOT_FOUND, HTTPStatus.NOT_ACCEPTABLE)
    assert response.headers["content-type"] == "application/problem+json; charset=utf-8"


async def test_xml_asked_for_first_gets_problem_xml(client: httpx.AsyncClient) -> None:
    for accept in ("application/problem+xml", "text/xml, */*;q=0.5", "application/xml"):
        response = await client.get("/no-such-thing", headers={"Accept": accept})
        assert response.headers["content-type"] == "application/problem+xml", accept


async def test_error_body_defaults_to_problem_json(client: httpx.AsyncClient) -> None:
    response = await client.get("/no-such-thing", headers={"Accept": "application/xml;q=0.1, */*"})
    assert response.headers["content-type"] == "application/problem+json; charset=utf-8"


async def test_options_is_not_negotiated(client: httpx.AsyncClient) -> None:
    response = await client.options("/", headers={"Accept": "text/html"})
    assert response.status_code != 406
