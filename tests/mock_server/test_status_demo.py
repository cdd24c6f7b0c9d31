"""``/status/{code}``: every final code of the spec, with its implied headers; ``/problems``."""

from __future__ import annotations

import socket

import httpx
import pytest
from defusedxml import ElementTree

from mock_server.http.statuses import STATUSES
from mock_server.serving import BackgroundServer

FINAL = [code for code in STATUSES if code >= 200]
NO_BODY = {204, 205, 304}
RANGE = {"Range": "bytes=0-15"}


def test_the_table_has_every_code_of_the_spec() -> None:
    for code in (207, 208, 226, 305, 306, 418, 421, 423, 424, 451, 506, 507, 508, 510, 511):
        assert code in STATUSES
    assert len(STATUSES) == 61


@pytest.mark.parametrize("code", FINAL)
async def test_every_final_code_answers_as_itself(client: httpx.AsyncClient, code: int) -> None:
    response = await client.get(f"/status/{code}", headers=RANGE if code == 206 else {})
    assert response.status_code == code
    if code in NO_BODY:
        assert response.content == b""
    elif code >= 400:
        assert response.headers["content-type"] == "application/problem+json; charset=utf-8"
        problem = response.json()
        assert problem["status"] == code
        assert problem["type"] == f"/problems/{code}"
        assert str(code) in problem["detail"]
    elif code not in (206, 207):
        body = response.json()
        assert body["status"] == code
        assert body["rule"] == STATUSES[code].rule


@pytest.mark.parametrize("code", [301, 302, 303, 307, 308, 300])
async def test_redirects_carry_location(client: httpx.AsyncClient, code: int) -> None:
    response = await client.get(f"/status/{code}")
    assert response.headers["location"] == "/status/200"


@pytest.mark.parametrize(
    ("code", "header", "value"),
    [
        (401, "www-authenticate", 'Bearer realm="restwalk", Basic realm="restwalk"'),
        (407, "proxy-authenticate", 'Basic realm="restwalk-proxy"'),
        (405, "allow", "GET, HEAD, OPTIONS"),
        (426, "upgrade", "HTTP/2.0"),
        (429, "retry-after", "10"),
        (503, "retry-after", "30"),
        (416, "content-range", "bytes */71"),
        (206, "content-range", "bytes 0-15/71"),
        (206, "accept-ranges", "bytes"),
        (451, "link", '</docs/legal-hold>; rel="blocked-by"'),
        (226, "im", "feed"),
    ],
)
async def test_implied_headers(
    client: httpx.AsyncClient, code: int, header: str, value: str
) -> None:
    response = await client.get(f"/status/{code}", headers=RANGE if code == 206 else {})
    assert response.headers[header] == value


async def test_no_location_where_none_applies(client: httpx.AsyncClient) -> None:
    for code in (304, 305, 306):
        assert "location" not in (await client.get(f"/status/{code}")).headers


async def test_206_body_is_the_announced_range(client: httpx.AsyncClient) -> None:
    response = await client.get("/status/206", headers=RANGE)
    assert response.status_code == 206
    assert len(response.content) == 16
    assert response.headers["content-type"].startswith("text/plain")


async def test_206_without_a_range_request_is_200_explaining(client: httpx.AsyncClient) -> None:
    response = await client.get("/status/206")
    assert response.status_code == 200
    assert "Range: bytes=0-15" in response.json()["explanation"]
    assert response.headers["accept-ranges"] == "bytes"


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH", "DELETE"])
async def test_any_method(client: httpx.AsyncClient, method: str) -> None:
    response = await client.request(method, "/status/418", content=b"{}")
    assert response.status_code == 418
    assert response.json()["title"] == "I'm a teapot"


async def test_207_is_xml_by_default(client: httpx.AsyncClient) -> None:
    response = await client.get("/status/207")
    assert response.status_code == 207
    assert response.headers["content-type"].startswith("application/xml")
    root = ElementTree.fromstring(response.content)
    assert root.tag == "{DAV:}multistatus"
    statuses = [el.text for el in root.iter("{DAV:}status")]
    assert statuses == ["HTTP/1.1 200 OK", "HTTP/1.1 404 Not Found"]


async def test_207_is_json_when_json_is_preferred(client: httpx.AsyncClient) -> None:
    response = await client.get("/status/207", headers={"Accept": "application/json"})
    assert response.headers["content-type"].startswith("application/json")
    assert [e["status"] for e in response.json()["multistatus"]] == [200, 404]


@pytest.mark.parametrize("code", [100, 101, 102, 199])
async def test_informational_codes_explain_instead(client: httpx.AsyncClient, code: int) -> None:
    response = await client.get(f"/status/{code}")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == code
    assert "never" in body["explanation"]
    assert "100-continue" in body["explanation"]


@pytest.mark.parametrize("raw", ["abc", "99", "600", "1000", "-1", "2OO", "0200x"])
async def test_bad_codes_are_400(client: httpx.AsyncClient, raw: str) -> None:
    response = await client.get(f"/status/{raw}")
    assert response.status_code == 400
    assert response.headers["content-type"] == "application/problem+json; charset=utf-8"
    assert "100 to 599" in response.json()["detail"]


async def test_unlisted_code_answers_generically(client: httpx.AsyncClient) -> None:
    response = await client.get("/status/299")
    assert response.status_code == 299
    assert "treats it as 200" in response.json()["explanation"]
    problem = (await client.get("/status/599")).json()
    assert problem["status"] == 599
    assert "treats it as 500" in problem["detail"]


async def test_4xx_as_problem_xml(client: httpx.AsyncClient) -> None:
    response = await client.get("/status/404", headers={"Accept": "application/xml"})
    assert response.headers["content-type"] == "application/problem+xml"


async def test_status_index_links_every_code(client: httpx.AsyncClient) -> None:
    body = (await client.get("/status")).json()
    hrefs = {link["href"] for link in body["_links"]["item"]}
    assert hrefs == {f"/status/{code}" for code in STATUSES}


async def test_problem_pages(client: httpx.AsyncClient) -> None:
    problem = (await client.get("/status/409")).json()
    page = await client.get(problem["type"])
    assert page.status_code == 200
    body = page.json()
    assert body["status"] == 409
    assert body["title"] == "Conflict"
    assert "conflicts" in body["description"]
    assert (await client.get("/problems/200")).status_code == 404
    assert (await client.get("/problems/teapot")).status_code == 404


def test_over_a_real_socket_headers_survive(live_server: BackgroundServer) -> None:
    with httpx.Client(base_url=live_server.url) as http:
        upgrade = http.get("/status/426")
        assert upgrade.status_code == 426
        assert upgrade.headers["upgrade"] == "HTTP/2.0"
        assert http.get("/status/299").status_code == 299
        assert http.get("/status/304").content == b""
        assert http.get("/status/418").reason_phrase == "I'm a Teapot"


def test_100_continue_is_really_sent(live_server: BackgroundServer) -> None:
    """What the 1xx explanation promises: Expect: 100-continue gets a 100 before the body."""
    host, port = live_server.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=5) as sock:
        sock.sendall(
            b"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
            b"Content-Length: 5\r\nExpect: 100-continue\r\n\r\n"
        )
        interim = sock.recv(4096)
        assert interim.startswith(b"HTTP/1.1 100 Continue\r\n")
        sock.sendall(b"hello")
        final = b""
        while b'"body":"hello"' not in final:
            chunk = sock.recv(4096)
            assert chunk, final
            final += chunk
    assert final.startswith(b"HTTP/1.1 200 OK\r\n")


async def test_rules_say_what_the_rfcs_say(client: httpx.AsyncClient) -> None:
    # The spec's table said a 503 "should not be cached" (RFC 9110 says nothing of it; RFC
    # 9111 lets a cache keep one marked so) and called 507 a configuration error (RFC 4918
    # section 11.5: storage).
    unavailable = (await client.get("/status/503")).json()["detail"]
    assert "cached" not in unavailable
    assert "Retry-After" in unavailable
    storage = (await client.get("/status/507")).json()["detail"]
    assert "cannot store what it needs" in storage
    assert "configuration" not in storage


async def test_the_pages_do_not_say_the_spec(client: httpx.AsyncClient) -> None:
    # A person cannot tell restwalk's own spec from an RFC.
    for path in ("/", "/status"):
        assert "the spec" not in (await client.get(path)).text
