"""``restwalk serve`` over real sockets: the page and what else is served (and not), the
Host and Origin checks, a tab's session spoken to as its page speaks, two tabs that do
not share a mock or data, the bound on sessions, quitting, ctrl+c, and one-line errors.

The browser itself opens the page in ``test_serve_browser.py``.
"""

from __future__ import annotations

import asyncio
import re
import shutil
import socket
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import httpx
import pytest

from explorer.cli import main
from explorer.cli.commands.serve import announcement
from mock_server import BackgroundServer, Settings
from tests.explorer.serving import (
    Serving,
    child_env,
    environ_of,
    gone,
    serving,
    terminal,
    wait_until,
)

CUSTOMER = {"name": "Ann Onymous", "address": "1 Main St, Springfield, IL 62701"}


@pytest.fixture(scope="module")
def served() -> Iterator[Serving]:
    """One ``restwalk serve`` for the tests that open no session."""
    with serving() as running:
        yield running


def test_the_page_loads_nothing_from_another_site_and_may_not_be_framed(served: Serving) -> None:
    with httpx.Client(base_url=served.url, timeout=30) as client:
        page = client.get("/")
        assert page.status_code == 200
        policy = page.headers["content-security-policy"]
        for rule in ("default-src 'none'", "script-src 'self'", "frame-ancestors 'none'"):
            assert rule in policy
        assert page.headers["x-frame-options"] == "DENY"
        assert page.headers["x-content-type-options"] == "nosniff"
        assert f'data-session-websocket-url="ws://127.0.0.1:{served.port}/ws"' in page.text
        loaded = re.findall(r'(?:src|href)="([^"]+)"|url\("([^"]+)"\)', page.text)
        paths = [src or url for src, url in loaded]
        assert "/static/js/textual.js" in paths
        for path in paths:  # every one is this server's, and is there
            assert path.startswith("/"), path
            assert client.get(path).status_code == 200, path
        assert client.get("/", params={"fontsize": "<script>"}).text.count("<script") == 1


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("GET", "/static/", 403),  # no listing of textual-serve's files
        ("GET", "/static/js/", 403),
        ("GET", "/static/..%2f..%2fserver.py", 404),
        ("GET", "/static/%2e%2e/%2e%2e/app_service.py", 404),
        ("GET", "/download/anything", 404),  # textual-serve's download route is not served
        ("GET", "/ws", 400),  # a websocket, or nothing
        ("POST", "/", 405),
    ],
)
def test_only_the_page_its_files_and_the_websocket_are_served(
    method: str, path: str, status: int, served: Serving
) -> None:
    with socket.create_connection(("127.0.0.1", served.port), timeout=30) as sock:
        sock.sendall(
            f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n"
            "Content-Length: 0\r\nConnection: close\r\n\r\n".encode()
        )
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    assert answer.split(b"\r\n", 1)[0].split(b" ")[1] == str(status).encode(), answer[:300]
    assert b"Traceback" not in answer


@pytest.mark.parametrize(
    "host", ["rebound.example:{port}", "127.0.0.1:1", "localhost.example:{port}", "a b"]
)
def test_a_request_naming_another_host_is_refused(host: str, served: Serving) -> None:
    named = host.format(port=served.port)
    answer = httpx.get(served.url, headers={"Host": named}, timeout=30)
    assert answer.status_code == 400
    assert f"served at http://127.0.0.1:{served.port}/ only" in answer.text or (
        "Host header" in answer.text
    )
    assert httpx.get(f"http://localhost:{served.port}/", timeout=30).status_code == 200


async def test_a_websocket_from_another_site_starts_nothing(served: Serving) -> None:
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        async with terminal(served, origin="http://attacker.example"):
            pass
    assert refused.value.status == 403
    async with httpx.AsyncClient(timeout=30) as client:
        answer = await client.get(served.url)  # it still serves, and started nothing
    assert answer.status_code == 200
    assert served.lines.empty()


async def test_a_tab_gets_restwalk_s_first_screen_and_its_keys() -> None:
    with serving() as served:
        async with terminal(served) as tab:
            await tab.shows("Links (")  # the links panel of the mock's root
            await tab.shows("? Help")
            # What is not a browser's message is dropped, and the session goes on.
            for junk in ("not json", '["stdin"]', '["resize", {"width": 1e9}]', "[]"):
                await tab.websocket.send_str(junk)
            await tab.websocket.send_bytes(b"\x00binary")
            await tab.send("ping", "42")
            await tab.until(lambda: '["pong", "42"]' in tab.texts, "the pong")
            await tab.press("?")
            await tab.shows("Walking an API")
        assert not any("Traceback" in line for line in served.said)


async def _customer_seen(origin: str, name: str) -> bool:
    async with httpx.AsyncClient(base_url=origin, timeout=30) as client:
        found = await client.get("/customers", params={"name": name})
        found.raise_for_status()
        return name in found.text


async def test_two_tabs_have_their_own_mock_and_their_own_data() -> None:
    with serving() as served:
        async with terminal(served) as first, terminal(served) as second:
            pids = [await asyncio.to_thread(served.session_started) for _ in range(2)]
            environments = [environ_of(pid) for pid in pids]
            data_dirs = [Path(env["RESTWALK_DATA_DIR"]) for env in environments]
            assert data_dirs[0] != data_dirs[1]
            assert all(path.is_dir() for path in data_dirs)
            assert all(env["RESTWALK_MOCK_PORT"] == "0" for env in environments)
            assert all("DISPLAY" not in env for env in environments)

            origins = [await first.mock_origin(), await second.mock_origin()]
            assert origins[0] != origins[1]
            async with httpx.AsyncClient(timeout=30) as client:
                made = await client.post(
                    f"{origins[0]}/customers", json=CUSTOMER, auth=("alice", "wonderland")
                )
            assert made.status_code == 201, made.text
            assert await _customer_seen(origins[0], CUSTOMER["name"])
            assert not await _customer_seen(origins[1], CUSTOMER["name"])
        # Each tab's session ends with it: its process, its mock and its data go.
        ended: set[str] = set()
        while len(ended) < 2:
            line = await asyncio.to_thread(served.until, lambda line: " ended " in line)
            ended.add(line.split(" ended ")[0])
        assert all(gone(pid) for pid in pids)
        assert not any(path.exists() for path in data_dirs)


async def test_quitting_restwalk_ends_the_tab_s_session() -> None:
    with serving() as served:
        async with terminal(served) as tab:
            pid = await asyncio.to_thread(served.session_started)
            await tab.shows("q Quit")
            await tab.press("q")
            await tab.until(tab.closed.is_set, "the server to close the tab's websocket")
        line = await asyncio.to_thread(served.until, lambda line: "ended" in line)
        assert "exit status 0" in line
        assert gone(pid)


async def test_a_killed_server_leaves_no_restwalk_behind() -> None:
    with serving() as served:
        async with terminal(served) as tab:
            pid = await asyncio.to_thread(served.session_started)
            data_dir = Path(environ_of(pid)["RESTWALK_DATA_DIR"])
            await tab.shows("Links (")
            served.process.kill()  # no ctrl+c: nothing ends the session but its input ending
            await tab.until(tab.closed.is_set, "the tab's websocket to close")
        wait_until(lambda: gone(pid), "the session's process to quit")
        # Its data stays in the server's private folder (mode 0700), as nobody removed it.
        assert oct(data_dir.parent.stat().st_mode & 0o777) == "0o700"
        shutil.rmtree(data_dir.parent)


async def test_tabs_beyond_max_sessions_are_turned_away() -> None:
    with serving("--max-sessions", "1") as served:
        async with terminal(served) as tab:
            await tab.shows("Links (")
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                async with terminal(served):
                    pass
            assert refused.value.status == 503
        await asyncio.to_thread(served.until, lambda line: "session 1 ended" in line)
        async with terminal(served) as again:  # its place is free again
            await again.shows("Links (")


async def test_ctrl_c_ends_every_session_and_removes_its_data() -> None:
    with serving() as served:
        async with terminal(served) as tab:
            pid = await asyncio.to_thread(served.session_started)
            data_dir = Path(environ_of(pid)["RESTWALK_DATA_DIR"])
            await tab.shows("Links (")
            code, said = await asyncio.to_thread(served.interrupt)
            await tab.until(tab.closed.is_set, "the tab's websocket to close")
        assert code == 0, said
        assert "stopped serving: 1 session served" in said
        assert "Traceback" not in said
        wait_until(lambda: gone(pid), "the session's process to end")
        assert not data_dir.parent.exists()  # the server's data folder, every session's


async def test_a_url_given_is_the_one_every_tab_opens() -> None:
    with (
        BackgroundServer(Settings(host="127.0.0.1", port=0, rate_limit=None)) as mock,
        serving(mock.url + "/products", env=child_env()) as served,
    ):
        assert f"'restwalk {mock.url}/products'" in served.said[0]
        async with terminal(served) as tab:
            await tab.shows(f"{mock.url}/products")


def test_a_busy_port_is_one_line_and_exit_1(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 1
    err = capsys.readouterr().err
    assert err == (
        f"restwalk: cannot listen on 127.0.0.1 port {port}: the port is in use "
        "(another restwalk serve?); choose another with --port\n"
    )


@pytest.mark.parametrize(
    ("host", "said"),
    [
        # TEST-NET-1: an address, never this machine's (nothing is sent to it).
        ("192.0.2.1", "192.0.2.1 is not an address of this machine (see --host)"),
        # A name no resolver is asked about: its label is longer than DNS allows.
        ("a" * 64 + ".test", "is not an address or a name of this machine"),
    ],
)
def test_a_host_that_is_not_this_machine_s_is_one_line(
    host: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--host", host, "--port", "0"]) in (1, 2)
    err = capsys.readouterr().err
    assert said in err
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--port", "70000"], "--port must be from 0 to 65535, not 70000"),
        (["--max-sessions", "0"], "--max-sessions must be 1 or more, not 0"),
        (["--lessons", "."], "--lessons is for the course: give --course too"),
        (["customers"], "'customers' is not a URL: give http://customers/"),
        (["/customers"], "is a path without a server"),
        (["--config", "/no/such/config.toml"], "--config: the config file"),
    ],
)
def test_bad_usage_is_one_line_and_exit_2(
    args: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", *args]) == 2
    err = capsys.readouterr().err
    assert said in err
    assert err.count("\n") == 1


def test_served_on_a_network_it_warns_that_anyone_there_can_use_it() -> None:
    lines = announcement(["learn"], "0.0.0.0", 8080, loopback=False)
    assert lines[0].startswith("serving 'restwalk learn' at http://")
    assert lines[0].endswith(":8080/ (ctrl+c stops)")
    assert lines[1].startswith("warning: anyone who can reach this machine at port 8080")
    assert "requests go out from this machine" in lines[1]
    assert announcement([], "127.0.0.1", 8643, loopback=True) == [
        "serving 'restwalk' at http://127.0.0.1:8643/ (ctrl+c stops)"
    ]
