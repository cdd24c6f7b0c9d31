"""The host check: a request calling the server by a name it does not know is a 421.

``curl -u admin:admin -H 'Host: rebind.attacker.example:8642'
http://127.0.0.1:8642/_journal`` answered 200: a web page that points its own
name at 127.0.0.1 (DNS rebinding) could read the mock. Over real sockets on
every engine, HTTP/2's ``:authority`` included, and the rule itself.
"""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from mock_server import BackgroundServer, create_app
from mock_server.cli import settings_from_args
from mock_server.cli_parser import build_parser
from mock_server.http.hosts import BadHost, HostRule, host_of
from tests.mock_server.conftest import ADMIN, make_settings
from tests.mock_server.rawhttp import exchange, h2_exchange, request

AUTH = f"Authorization: {ADMIN['Authorization']}"
REBOUND = "rebind.attacker.example"


@pytest.fixture(params=("httptools", "h11", "hypercorn"))
def server(request: pytest.FixtureRequest) -> Iterator[BackgroundServer]:
    """The mock with its default hosts (no test names), served by each engine in turn."""
    engine: str = request.param
    options = {"http2": True} if engine == "hypercorn" else {"http_parser": engine}
    with BackgroundServer(make_settings(allowed_hosts=(), **options)) as served:
        yield served


def port_of(server: BackgroundServer) -> str:
    return server.url.rsplit(":", 1)[1]


def test_a_rebound_name_cannot_read_the_journal(server: BackgroundServer) -> None:
    port = port_of(server)
    response = exchange(server.url, request("GET", "/_journal", f"Host: {REBOUND}:{port}", AUTH))
    assert response.status == 421
    problem = response.problem()
    assert problem["host"] == REBOUND
    assert "DNS rebinding" in str(problem["detail"])
    assert f"--allowed-host {REBOUND}" in str(problem["detail"])
    assert problem["allowedHosts"] == ["localhost", "127.0.0.1", "[::1]"]
    assert b"Authorization" not in response.body


@pytest.mark.parametrize(
    "host", ["127.0.0.1", "localhost", "LocalHost.", "127.8.9.10", "[::1]", "[::ffff:127.0.0.1]"]
)
def test_the_loopback_names_are_answered(server: BackgroundServer, host: str) -> None:
    response = exchange(server.url, request("GET", "/_journal", f"Host: {host}:{port_of(server)}"))
    assert response.status == 401  # answered: the journal asks for the admin


@pytest.mark.parametrize("host", ["evil.localhost", "localhost.attacker.example", "10.0.0.1"])
def test_other_names_are_not(server: BackgroundServer, host: str) -> None:
    assert exchange(server.url, request("GET", "/", f"Host: {host}")).status == 421


def test_an_absolute_target_names_the_host(server: BackgroundServer) -> None:
    # RFC 9112 3.2.2: the target's authority is the host, whatever Host says.
    target = f"http://{REBOUND}:{port_of(server)}/_journal"
    rebound = exchange(server.url, request("GET", target, "Host: 127.0.0.1", AUTH))
    assert rebound.status == 421
    loopback = exchange(server.url, request("GET", f"{server.url}/", f"Host: {REBOUND}"))
    assert loopback.status == 200


def test_a_malformed_host_is_a_400(server: BackgroundServer) -> None:
    response = exchange(server.url, request("GET", "/", "Host: [::1"))
    assert response.status == 400
    assert "Host" in str(response.problem()["detail"])


def test_connect_is_still_refused_as_no_proxy(server: BackgroundServer) -> None:
    response = exchange(server.url, request("CONNECT", f"{REBOUND}:443", f"Host: {REBOUND}:443"))
    assert response.status == 405


def test_http2_authority_is_the_host() -> None:
    with BackgroundServer(make_settings(allowed_hosts=(), http2=True)) as served:
        credential = ("authorization", ADMIN["Authorization"])
        rebound = h2_exchange(served.url, "/_journal", credential, authority=REBOUND)
        assert rebound.status == 421
        assert rebound.problem()["host"] == REBOUND
        assert h2_exchange(served.url, "/customers/1", authority="localhost").status == 200


def test_allowed_hosts_are_answered() -> None:
    settings = make_settings(allowed_hosts=("mock.lan",))
    with BackgroundServer(settings) as served:
        assert exchange(served.url, request("GET", "/", "Host: MOCK.lan:8000")).status == 200
        assert exchange(served.url, request("GET", "/", "Host: other.lan")).status == 421


async def test_a_server_on_every_address_answers_the_address_reached() -> None:
    # In-process, ASGI's "server" is the URL's host: as the address a connection reached.
    app = create_app(make_settings(host="0.0.0.0", allowed_hosts=()))
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://10.1.2.3") as client:
        assert (await client.get("/")).status_code == 200
        assert (await client.get("/", headers={"Host": "10.9.9.9"})).status_code == 421
        assert (await client.get("/", headers={"Host": "localhost"})).status_code == 200
    async with httpx.AsyncClient(transport=transport, base_url="http://mock.lan") as client:
        assert (await client.get("/")).status_code == 421  # names need --allowed-host


@pytest.mark.parametrize(
    ("value", "host"),
    [
        ("localhost", "localhost"),
        ("LOCALHOST.:80", "localhost"),
        ("[::1]:8642", "::1"),
        ("[::1]", "::1"),
        ("127.0.0.1:8642", "127.0.0.1"),
        ("mock.lan", "mock.lan"),
        ("", ""),
    ],
)
def test_host_of_reads_a_host_value(value: str, host: str) -> None:
    assert host_of(value) == host


@pytest.mark.parametrize("value", ["[::1", "[127.0.0.1]", "a b", "host:port", "[::1]x", "a/b"])
def test_host_of_refuses_what_is_no_host(value: str) -> None:
    with pytest.raises(BadHost):
        host_of(value)


def test_the_rule_follows_the_listened_host() -> None:
    assert HostRule.for_server("127.0.0.1").names == frozenset({"127.0.0.1"})
    named = HostRule.for_server("mock.lan", ["Other.Lan."])
    assert named.allows("mock.lan")
    assert named.allows("other.lan")
    assert not named.allows("third.lan")
    by_address = HostRule.for_server("192.168.1.20")
    assert by_address.allows("192.168.1.20")
    assert not by_address.allows("192.168.1.21")
    every = HostRule.for_server("::")
    assert every.every_address
    assert every.names == frozenset()
    assert every.allows("192.168.1.20", "192.168.1.20")
    assert not every.allows("192.168.1.20", "10.0.0.1")
    assert not every.allows("mock.lan", "10.0.0.1")
    assert every.allows("::1")
    assert every.allows("127.0.0.2")
    assert every.allows("")


def test_the_allowed_host_flag() -> None:
    parse = build_parser().parse_args
    assert settings_from_args(parse([])).allowed_hosts == ()
    args = parse(
        ["--allowed-host", "Mock.Lan", "--allowed-host", "[::2]", "--allowed-host", "mock.lan"]
    )
    assert settings_from_args(args).allowed_hosts == ("mock.lan", "::2")
