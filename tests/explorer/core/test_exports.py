"""The request of the page shown for another tool: every format, a login flow's token in
it, the protocol the client speaks now, and a format that cannot say it left out."""

from __future__ import annotations

import httpx

from explorer.core.http.client import Client
from explorer.core.http.request import BasicAuth, LoginFlow, RequestSpec
from explorer.core.session.exports import request_exports

FLOW = LoginFlow(url="http://api.test/login", user="ann", password="pw")


def answer(request: httpx.Request) -> httpx.Response:
    return httpx.Response(200, json={"access_token": "t0k"})


async def test_every_format_with_its_key_and_title() -> None:
    spec = RequestSpec(method="POST", url="http://api.test/orders", body=b'{"n": 1}')
    async with Client(transport=httpx.MockTransport(answer)) as client:
        exported = request_exports(spec, client)
    assert [(e.key, e.what) for e in exported] == [
        ("c", "the request as curl"),
        ("i", "the request as HTTPie"),
        ("t", "the request as a .http file's text"),
    ]
    curl = exported[0].text
    assert curl.startswith("curl ")
    assert "http://api.test/orders" in curl


async def test_a_login_flow_goes_as_the_token_it_got_and_not_before() -> None:
    spec = RequestSpec(url="http://api.test/orders", auth=FLOW)
    async with Client(transport=httpx.MockTransport(answer)) as client:
        before = request_exports(spec, client)
        await client.login(FLOW)
        after = request_exports(spec, client)
    assert all("t0k" not in e.text for e in before)
    assert all("pw" not in e.text for e in before)
    assert len(after) == 3
    assert all("t0k" in e.text for e in after)


async def test_a_basic_credential_and_the_protocol_spoken_now() -> None:
    spec = RequestSpec(url="http://api.test/", auth=BasicAuth("ann", "pw"))
    async with Client(transport=httpx.MockTransport(answer), http2=True) as client:
        exported = {e.key: e for e in request_exports(spec, client)}
    assert "--http2" in exported["c"].text
    assert "HTTPie has no HTTP/2" in exported["i"].what  # said, not silently dropped
