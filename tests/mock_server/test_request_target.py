"""A request target that is not a path is a 400 problem on every engine (RFC 9112 §3.2).

``GET foo`` and ``GET 127.0.0.1:80`` were an IndexError in the version layer and a
500 on uvicorn (both parsers) and Hypercorn alike; an HTTP/2 ``:path`` without
``/`` too. Absolute-form stays served (RFC 9112 §3.2.2), ``*`` stays OPTIONS's.
"""

from __future__ import annotations

from collections.abc import Iterator

import orjson
import pytest

from mock_server import BackgroundServer
from tests.mock_server.conftest import make_settings
from tests.mock_server.rawhttp import Reader, connect, exchange, h2_exchange, request

#: Every engine serving HTTP/1.1: uvicorn with each parser, and Hypercorn (--http2).
ENGINES = ("httptools", "h11", "hypercorn")


@pytest.fixture(params=ENGINES)
def server(request: pytest.FixtureRequest) -> Iterator[BackgroundServer]:
    """The mock on a free port, served by each engine in turn."""
    engine: str = request.param
    settings = (
        make_settings(http2=True) if engine == "hypercorn" else make_settings(http_parser=engine)
    )
    with BackgroundServer(settings) as served:
        yield served


@pytest.mark.parametrize("method", ["GET", "OPTIONS", "POST"])
@pytest.mark.parametrize("target", ["foo", "127.0.0.1:80", "customers/1", "http:///customers"])
def test_a_target_that_is_not_a_path_is_a_400(
    server: BackgroundServer, method: str, target: str
) -> None:
    response = exchange(server.url, request(method, target))
    assert response.status == 400
    problem = response.problem()
    assert f"The request target {target!r} is not a path" in str(problem["detail"])
    assert "instance" not in problem  # the target is no URI reference to name it by
    assert exchange(server.url, request("GET", "/customers/1")).status == 200


def test_absolute_form_and_the_asterisk_are_still_served(server: BackgroundServer) -> None:
    absolute = exchange(server.url, request("GET", f"{server.url}/customers/1"))
    assert absolute.status == 200
    assert orjson.loads(absolute.body)["id"] == 1
    assert exchange(server.url, request("OPTIONS", "*")).status == 204
    assert exchange(server.url, request("GET", "*")).status == 400  # * is OPTIONS's alone


def test_a_long_bad_target_is_quoted_in_part(server: BackgroundServer) -> None:
    response = exchange(server.url, request("GET", "x" * 1000))
    assert response.status == 400
    assert "x" * 100 + "..." in str(response.problem()["detail"])
    assert "x" * 101 not in str(response.problem()["detail"])


@pytest.mark.parametrize("path", ["foo", "127.0.0.1:80"])
def test_an_http2_path_without_a_slash_is_a_400(path: str) -> None:
    with BackgroundServer(make_settings(http2=True)) as served:
        response = h2_exchange(served.url, path)
        assert response.status == 400
        assert "is not a path" in str(response.problem()["detail"])
        assert h2_exchange(served.url, "/customers/1").status == 200


def test_the_connection_is_left_usable(server: BackgroundServer) -> None:
    with connect(server.url) as sock:
        reader = Reader(sock)
        sock.sendall(request("GET", "foo"))
        assert reader.response().status == 400
        sock.sendall(request("GET", "/customers/2"))
        assert reader.response().status == 200
