"""The resources over a real socket: the same answers as in-process."""

from __future__ import annotations

import socket
from urllib.parse import urlsplit

import httpx

from mock_server import BackgroundServer
from tests.mock_server.conftest import ADMIN


def test_read_a_page_over_the_network(live_server: BackgroundServer) -> None:
    with httpx.Client(base_url=live_server.url) as client:
        response = client.get("/products", params={"limit": 2})
    assert response.status_code == 200
    assert response.json()["count"] == 2
    assert 'rel="next"' in response.headers["link"]
    assert response.headers["api-version"] == "1"


def test_create_read_delete_over_the_network(live_server: BackgroundServer) -> None:
    with httpx.Client(base_url=live_server.url, headers=ADMIN) as client:
        created = client.post("/v2/products", json={"name": "Socket", "cost": 1})
        assert created.status_code == 201
        location = created.headers["location"]
        assert client.get(location).json()["currency"] == "USD"
        assert client.delete(location).status_code == 204
        assert client.get(location).status_code == 410


def test_transition_over_the_network(live_server: BackgroundServer) -> None:
    with httpx.Client(base_url=live_server.url, headers=ADMIN) as client:
        assert client.post("/orders/2/ship").json()["status"] == "shipped"
        assert client.post("/orders/2/ship").status_code == 409


def test_post_without_content_length_is_411(live_server: BackgroundServer) -> None:
    parts = urlsplit(live_server.url)
    assert parts.hostname is not None
    assert parts.port is not None
    auth = ADMIN["Authorization"]
    request = (
        "POST /customers HTTP/1.1\r\n"
        f"Host: {parts.hostname}\r\n"
        f"Authorization: {auth}\r\n"
        "Content-Type: application/json\r\n"
        "Connection: close\r\n\r\n"
    ).encode()
    with socket.create_connection((parts.hostname, parts.port), timeout=5) as sock:
        sock.sendall(request)
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
    assert received.startswith(b"HTTP/1.1 411 ")
    assert b"application/problem+json" in received
