"""The request of the page shown for another tool: every format, a login flow's token in
it, the protocol the client speaks now, and a format that cannot say it left out."""

from __future__ import annotations

from dataclasses import replace

import httpx

from explorer.core.http.client import Client
from explorer.core.http.request import BasicAuth, CookieSession, LoginFlow, RequestSpec
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


async def test_what_the_menu_shows_of_an_export_has_its_credentials_masked() -> None:
    """QA: the copy menu's HTTPie line showed ``-a eyJleHAiOjE3OTY2...``, the token, where
    every other view of the request shows ``Bearer ****``. The copy keeps it: it must work."""
    flow = LoginFlow(url="http://api.test/login", user="ann", password="s3cret-pw")
    spec = RequestSpec(
        url="http://api.test/orders",
        auth=flow,
        headers=(("X-API-Key", "key-123456"), ("Accept", "application/json")),
        query=(("api_key", "q-987654"),),
    )

    def long_token(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"access_token": "eyJleHAiOjE3OTY2NzA3"})

    async with Client(transport=httpx.MockTransport(long_token)) as client:
        await client.login(flow)
        exported = request_exports(spec, client)
        basic = request_exports(replace(spec, auth=BasicAuth("ann", "s3cret-pw")), client)
    for e in [*exported, *basic]:
        for secret in ("eyJleHAiOjE3OTY2NzA3", "s3cret-pw", "key-123456", "q-987654"):
            assert secret not in e.preview, (e.key, e.preview)
        assert "****" in e.preview
        assert "application/json" in e.preview
    assert all("eyJleHAiOjE3OTY2NzA3" in e.text for e in exported)
    assert all("key-123456" in e.text for e in exported)
    assert all("YW5uOnMzY3JldC1wdw" not in e.preview for e in basic)  # base64("ann:s3cret-pw")


async def test_the_preview_masks_a_cookie_session_as_the_journal_does() -> None:
    """The preview and the journal mask by one function (``sent_secrets``): a session id
    is masked, a short cookie such as ``theme=dark`` is not (the preview masked ``dark``
    everywhere, the journal nowhere)."""
    cookies = CookieSession((("sessionid", "a1b2c3d4e5f6"), ("theme", "dark")))
    spec = RequestSpec(url="http://api.test/dark/orders", auth=cookies)
    async with Client(transport=httpx.MockTransport(answer)) as client:
        exported = request_exports(spec, client)
    for e in exported:
        assert "a1b2c3d4e5f6" in e.text
        assert "a1b2c3d4e5f6" not in e.preview, (e.key, e.preview)
        assert "theme=dark" in e.preview, (e.key, e.preview)
        assert "/dark/orders" in e.preview
