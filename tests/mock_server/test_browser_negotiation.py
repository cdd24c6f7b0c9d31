"""A browser opening a page gets the default representation, not XML.

Browsers ask for ``text/html`` first and ``application/xml;q=0.9`` before
``*/*;q=0.8``: strictly negotiated, the mock answered them XML. The mock has no
HTML, so a request that wants a page above everything offered takes its lesser
choices as no preference (design: mock-server.md, "Browsers"). A client that
asks for XML itself still gets XML.
"""

from __future__ import annotations

from http import HTTPStatus

import httpx
import pytest

from mock_server.contract.negotiate import chosen_content
from mock_server.contract.operations import Content, ResponseSpec
from mock_server.http.negotiation import parse_accept, select_for_reader, wants_a_page
from mock_server.representations.renderers import OFFERED
from tests.mock_server.conftest import ADMIN

HAL = "application/hal+json"
JSON = "application/json"
XML = "application/xml"

FIREFOX = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
CHROME = (
    "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,"
    "image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7"
)
OLD_EDGE = "text/html, application/xhtml+xml, image/jxr, */*"
BROWSERS = [FIREFOX, CHROME, OLD_EDGE]


@pytest.mark.parametrize("accept", [FIREFOX, CHROME])
def test_a_browsers_navigation_wants_a_page(accept: str) -> None:
    assert wants_a_page(parse_accept(accept), OFFERED)


@pytest.mark.parametrize("accept", BROWSERS)
def test_a_browser_gets_the_default(accept: str) -> None:
    # Old Edge takes everything at q=1: the default wins the tie without the rule.
    assert select_for_reader(accept, OFFERED) == HAL


@pytest.mark.parametrize(
    ("accept", "expected"),
    [
        (None, HAL),
        ("*/*", HAL),
        (XML, XML),
        ("application/xml, */*;q=0.1", XML),
        # XML as wanted as HTML, or more: the client asked for XML itself.
        ("text/html, application/xml", XML),
        ("text/html;q=0.5, application/xml", XML),
        # HTML first, then only XML: XML is all it takes.
        ("text/html, application/xml;q=0.9", XML),
        # HTML first, then only plain JSON: the first offered type it takes.
        ("text/html, application/json;q=0.5", JSON),
        # HTML alone: nothing offered is acceptable (406).
        ("text/html", None),
        ("application/xhtml+xml", None),
    ],
)
def test_other_accepts_are_negotiated_as_before(accept: str | None, expected: str | None) -> None:
    assert select_for_reader(accept, OFFERED) == expected


@pytest.mark.parametrize("accept", BROWSERS)
@pytest.mark.parametrize("path", ["/", "/customers", "/customers/1", "/products?limit=2"])
async def test_a_browser_reads_json(client: httpx.AsyncClient, accept: str, path: str) -> None:
    response = await client.get(path, headers={"Accept": accept})
    assert response.status_code == HTTPStatus.OK
    assert response.headers["content-type"].split(";")[0] == HAL
    assert "_links" in response.json()
    assert "Accept" in response.headers["vary"]


async def test_a_browser_reads_orders_as_json_with_a_credential(client: httpx.AsyncClient) -> None:
    response = await client.get("/orders", headers={"Accept": FIREFOX, **ADMIN})
    assert response.status_code == HTTPStatus.OK
    assert response.headers["content-type"].split(";")[0] == HAL


@pytest.mark.parametrize("path", ["/", "/customers", "/customers/1"])
async def test_xml_asked_for_is_still_xml(client: httpx.AsyncClient, path: str) -> None:
    response = await client.get(path, headers={"Accept": XML})
    assert response.status_code == HTTPStatus.OK
    assert response.headers["content-type"].split(";")[0] == XML
    assert response.text.startswith("<?xml")


async def test_html_alone_is_still_406(client: httpx.AsyncClient) -> None:
    response = await client.get("/customers", headers={"Accept": "text/html"})
    assert response.status_code == HTTPStatus.NOT_ACCEPTABLE


def _answer(*media_types: str) -> ResponseSpec:
    contents = tuple(Content(media, {"type": "object"}) for media in media_types)
    return ResponseSpec("200", "ok", contents, (), ())


@pytest.mark.parametrize("accept", [FIREFOX, CHROME])
def test_your_api_shows_a_browser_json(accept: str) -> None:
    # Documented XML first, JSON second: a browser still reads JSON, as Prism shows it.
    chosen = chosen_content(_answer(XML, JSON), accept)
    assert chosen is not None
    assert chosen.media_type == JSON


def test_your_api_gives_xml_to_who_asks_for_it() -> None:
    chosen = chosen_content(_answer(JSON, XML), XML)
    assert chosen is not None
    assert chosen.media_type == XML
    # Without JSON documented, a browser gets what there is.
    only_xml = chosen_content(_answer(XML), FIREFOX)
    assert only_xml is not None
    assert only_xml.media_type == XML
