"""Broken servers and redirect chains: explained on screen, never a crash."""

from __future__ import annotations

import socket
import threading
from http import HTTPStatus
from pathlib import Path

import httpx

from explorer.core.http.client import Client
from explorer.core.http.errors import TLSError
from explorer.ui.app import create_app
from explorer.ui.widgets.body_view import BodyView
from explorer.ui.widgets.trip_view import TripView
from mock_server import Settings
from mock_server import create_app as create_mock_app
from tests.explorer.servers import HypercornServer, IdleClosingServer, RawServer, read_head
from tests.explorer.ui.conftest import SIZE, AppFactory, settle
from tests.explorer.ui.test_browse import status_text


def answer(raw: bytes) -> RawServer:
    """A server that reads one request head, writes ``raw`` and closes."""

    def handler(conn: socket.socket) -> None:
        read_head(conn)
        conn.sendall(raw)
        conn.close()

    return RawServer(handler)


async def test_server_closing_mid_body_is_explained() -> None:
    head = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n"
    with answer(head + b'{"partial": ') as server:
        app = create_app(server.url + "/", client=Client(timeout=5))
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            page = app.browser.session.shown
            assert page is not None
            assert page.error is not None
            text = status_text(app)
            assert "request failed" in text
            assert "closed the connection before the whole response arrived" in text


async def test_a_reload_on_a_connection_the_server_closed_is_retried_and_said() -> None:
    """r after the server dropped the idle keep-alive connection: the page comes, and t
    says it was sent again (QA 1, item 4)."""
    with IdleClosingServer() as server:
        app = create_app(server.url + "/", client=Client(timeout=5))
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await pilot.press("r")
            await settle(pilot)
            page = app.browser.session.shown
            assert page is not None
            assert page.error is None
            assert page.exchange is not None
            assert page.exchange.response.status == 200
            await pilot.press("t")
            await settle(pilot)
            # The words, wherever the pane's width breaks their lines (the Trip tab is
            # laid out again once its width is known: read before, the lines were whole).
            trip = " ".join(str(app.browser.query_one(TripView).render()).split())
            assert "Retried: GET " in trip
            assert "on a new connection" in trip


async def test_timeout_is_explained() -> None:
    release = threading.Event()

    def silent(conn: socket.socket) -> None:
        read_head(conn)
        release.wait(5)

    with RawServer(silent) as server:
        app = create_app(server.url + "/", client=Client(timeout=0.3))
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            release.set()
            text = status_text(app)
            assert "no answer in time" in text
            assert "Press r to try again" in text


async def test_bad_json_and_bad_utf8_bodies_are_shown_not_fatal() -> None:
    body = b'{"name": "caf\xe9", broken'
    head = (
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
        b"Content-Length: " + str(len(body)).encode() + b"\r\nConnection: close\r\n\r\n"
    )
    with answer(head + body) as server:
        app = create_app(server.url + "/", client=Client(timeout=5))
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            page = app.browser.session.shown
            assert page is not None
            assert page.status == HTTPStatus.OK
            view = app.browser.query_one("#body-view", BodyView)
            shown = "\n".join(view.row_text(row) for row in range(view.line_count))
            assert "broken" in shown
            assert "200 OK" in status_text(app)


async def test_redirect_chain_is_explained_hop_by_hop(make_app: AppFactory) -> None:
    app = make_app("http://mock/clients/1")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        page = app.browser.session.shown
        assert page is not None
        assert page.exchange is not None
        assert page.exchange.hops
        assert page.exchange.response.url == "http://mock/customers/1"
        assert "after 1 redirect (301): t shows each" in status_text(app)
        await pilot.press("t")
        await pilot.pause()
        trip = " ".join(str(app.browser.query_one(TripView).render()).split())  # its words
        assert "Redirects: 1" in trip
        assert "301 Moved Permanently → /customers/1" in trip
        assert "`" not in trip  # the knowledge base's Markdown is not shown raw
        assert "HTTP/1.1" in trip


async def test_an_untrusted_certificate_and_plain_http_on_https_are_explained(
    tmp_path: Path,
) -> None:
    """Two TLS failures a person meets: a self-signed test server, and https:// to a
    port that speaks plain HTTP. Each is explained with what to try."""
    mock = create_mock_app(Settings(rate_limit=None))
    with HypercornServer(mock, tls=True, tmp_path=tmp_path) as server:
        app = create_app(server.url + "/", client=Client(timeout=5))
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            page = app.browser.session.shown
            assert page is not None
            assert isinstance(page.error, TLSError)
            text = status_text(app)
            assert "certificate could not be verified" in text
            assert "self-signed" in text
    with RawServer(lambda conn: conn.sendall(b"HTTP/1.1 400 Bad Request\r\n\r\n")) as plain:
        url = plain.url.replace("http://", "https://") + "/"
        app = create_app(url, client=Client(timeout=5))
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            text = status_text(app)
            assert "plain HTTP" in text
            assert "http:// instead of https://" in text


async def test_too_many_redirects_shows_the_hops_followed(make_app: AppFactory) -> None:
    app = make_app("http://mock/redirect/20")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "Too many redirects" in status_text(app)
        # the command line's flag means nothing here: the hint names the Trip tab
        assert "--no-redirects" not in status_text(app)
        assert "Trip tab (t)" in status_text(app)
        await pilot.press("t")
        await settle(pilot)
        trip = " ".join(str(app.browser.query_one(TripView).render()).split())  # its words
        assert "Redirects: 11" in trip
        assert "went on past the limit" in trip


async def test_a_refused_redirect_names_the_trip_tab_which_shows_it() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(HTTPStatus.FOUND, headers={"Location": "javascript:alert(1)"})

    app = create_app("http://api.test/", client=Client(transport=httpx.MockTransport(handler)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        text = status_text(app)
        assert "javascript: URL" in text
        assert "--no-redirects" not in text
        assert "Trip tab (t)" in text
        await pilot.press("t")
        await settle(pilot)
        trip = " ".join(str(app.browser.query_one(TripView).render()).split())  # its words
        assert "javascript:alert(1)" in trip
        assert "the last redirect was refused" in trip
