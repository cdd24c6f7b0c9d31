"""Connection-level faults over a real socket, each seen by httpx as the right error."""

from __future__ import annotations

import random
from collections.abc import Iterator

import httpx
import pytest

from mock_server import BackgroundServer, create_app
from mock_server.http.problems import Problem
from mock_server.transport.connection_faults import KINDS, FaultOptions, parse_options
from tests.mock_server.conftest import asgi_client, make_settings


@pytest.fixture(scope="module", params=["httptools", "h11"])
def server(request: pytest.FixtureRequest) -> Iterator[BackgroundServer]:
    with BackgroundServer(make_settings(http_parser=request.param)) as running:
        yield running


def test_reset_is_a_read_error(server: BackgroundServer) -> None:
    with pytest.raises(httpx.ReadError):
        httpx.get(f"{server.url}/faults/reset")


def test_close_mid_body_is_a_protocol_error(server: BackgroundServer) -> None:
    with pytest.raises(httpx.RemoteProtocolError, match="incomplete chunked read"):
        httpx.get(f"{server.url}/faults/close")


def test_wrong_length_is_a_protocol_error(server: BackgroundServer) -> None:
    with pytest.raises(httpx.RemoteProtocolError, match="expected 64"):
        httpx.post(f"{server.url}/faults/length", json={"any": "method"})


def test_trickle_is_a_read_timeout_for_an_impatient_client(server: BackgroundServer) -> None:
    timeout = httpx.Timeout(5.0, read=0.2)
    with pytest.raises(httpx.ReadTimeout):
        httpx.get(f"{server.url}/faults/trickle?interval=2", timeout=timeout)


def test_trickle_arrives_whole_for_a_patient_client(server: BackgroundServer) -> None:
    response = httpx.get(f"{server.url}/faults/trickle?interval=0.01")
    assert response.status_code == 200
    assert response.text == "trickle...\n"


def test_hang_is_a_read_timeout(server: BackgroundServer) -> None:
    with pytest.raises(httpx.ReadTimeout):
        httpx.get(f"{server.url}/faults/hang", timeout=httpx.Timeout(5.0, read=0.2))


def test_hang_is_bounded_then_closes(server: BackgroundServer) -> None:
    with pytest.raises(httpx.RemoteProtocolError, match="without sending a response"):
        httpx.get(f"{server.url}/faults/hang?seconds=0.1", timeout=5.0)


def test_the_server_serves_on_after_every_fault(server: BackgroundServer) -> None:
    assert httpx.get(f"{server.url}/faults").status_code == 200
    assert httpx.get(f"{server.url}/customers/1").status_code == 200


def test_fault_kind_mixes_connection_faults_into_answers() -> None:
    settings = make_settings(fault_rate=1.0, fault_kinds=("reset",))
    with BackgroundServer(settings) as server, pytest.raises(httpx.ReadError):
        httpx.get(f"{server.url}/customers")


def test_fault_kinds_may_mix_statuses_and_faults() -> None:
    settings = make_settings(fault_rate=1.0, fault_kinds=("503", "close"))
    with BackgroundServer(settings) as server:
        server.app.service.rng = random.Random(3)
        seen: set[str] = set()
        for _ in range(12):
            try:
                seen.add(str(httpx.get(f"{server.url}/products").status_code))
            except httpx.RemoteProtocolError:
                seen.add("close")
    assert seen == {"503", "close"}


async def test_faults_without_a_connection_are_a_501_problem() -> None:
    async with asgi_client(create_app(make_settings())) as client:
        response = await client.get("/faults/reset")
        assert response.status_code == 501
        assert response.headers["content-type"] == "application/problem+json; charset=utf-8"
        unknown = await client.get("/faults/explode")
        assert unknown.status_code == 404
        index = await client.get("/faults")
    assert {link["href"] for link in index.json()["_links"]["item"]} == {
        f"/faults/{kind}" for kind in KINDS
    }


def test_fault_options_are_bounded() -> None:
    assert parse_options({"interval": "0.5"}) == FaultOptions(interval=0.5)
    for bad in ({"interval": "11"}, {"seconds": "-1"}, {"seconds": "nan"}, {"wait": "1"}):
        with pytest.raises(Problem) as caught:
            parse_options(bad)
        assert caught.value.status == 400
