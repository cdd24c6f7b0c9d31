"""What ``restwalk serve`` lets in, rule by rule: the Host a request names, the page a
websocket comes from, the browser's messages, the URLs a session may open, and what
a session's process is given (no web server here)."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from explorer.cli.commands.serve import restwalk_arguments, session_argv
from explorer.cli.errors import UsageError
from explorer.cli.serving import TEXTUAL_WEB_DRIVER, WEB_DRIVER
from explorer.cli.serving.guard import (
    DEFAULT_SIZE,
    Focus,
    HostGuard,
    Keys,
    Ping,
    Resize,
    browser_message,
    font_size,
    opens_in_browser,
    terminal_size,
)
from explorer.cli.serving.session import BrowserSession
from explorer.cli.tui import check_terminal
from explorer.core.bundled.port import PORT_ENV
from explorer.core.paths import DATA_ENV

LOOPBACK = HostGuard.serving("127.0.0.1", 8643, loopback=True)
NETWORK = HostGuard.serving("0.0.0.0", 8643, loopback=False)


@pytest.mark.parametrize(
    "host", ["127.0.0.1:8643", "localhost:8643", "LOCALHOST:8643", "[::1]:8643"]
)
def test_the_loopback_s_own_names_are_served(host: str) -> None:
    assert LOOPBACK.host_refusal(host) is None


@pytest.mark.parametrize(
    "host",
    [
        "rebound.example:8643",  # a site's name made to resolve to 127.0.0.1
        "127.0.0.1:8000",  # another port
        "127.0.0.1",  # port 80, which this is not
        "127.0.0.2:8643",
    ],
)
def test_another_name_or_port_on_the_loopback_is_refused(host: str) -> None:
    refusal = LOOPBACK.host_refusal(host)
    assert refusal is not None
    assert "http://127.0.0.1:8643/" in refusal


def test_the_host_given_is_one_of_the_names() -> None:
    guard = HostGuard.serving("::1", 8643, loopback=True)
    assert guard.host_refusal("[::1]:8643") is None
    on_80 = HostGuard.serving("localhost", 80, loopback=True)
    assert on_80.host_refusal("localhost") is None
    assert on_80.host_refusal("localhost:80") is None


@pytest.mark.parametrize("host", ["192.168.1.5:8643", "classroom.local:8643", "[fe80::1]:8643"])
def test_on_a_network_any_name_is_served(host: str) -> None:
    assert NETWORK.host_refusal(host) is None


@pytest.mark.parametrize(
    "host",
    [None, "", "a b", 'x"><script>', "user@host:1", "host/path", "host:port", "host:123456"],
)
def test_a_missing_or_malformed_host_is_refused_everywhere(host: str | None) -> None:
    assert LOOPBACK.host_refusal(host) is not None
    assert NETWORK.host_refusal(host) is not None


def test_a_websocket_from_this_server_s_page_or_from_no_browser_is_opened() -> None:
    assert LOOPBACK.origin_refusal("http://127.0.0.1:8643", "127.0.0.1:8643") is None
    assert LOOPBACK.origin_refusal("http://LOCALHOST:8643", "localhost:8643") is None
    assert NETWORK.origin_refusal("https://class.example", "class.example") is None
    assert LOOPBACK.origin_refusal(None, "127.0.0.1:8643") is None  # not a browser


@pytest.mark.parametrize(
    "origin",
    [
        "http://attacker.example",  # another site's script in the same browser
        "http://127.0.0.1:8000",  # another server on this machine
        "null",  # a sandboxed frame, a file
        "file://",
        "http://127.0.0.1:8643/path",
        "ws://127.0.0.1:8643",
    ],
)
def test_a_websocket_from_another_page_is_refused(origin: str) -> None:
    assert LOOPBACK.origin_refusal(origin, "127.0.0.1:8643") is not None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('["stdin", "q"]', Keys("q")),
        ('["resize", {"width": 120, "height": 40}]', Resize(120, 40)),
        ('["resize", {"width": "100", "height": "30"}]', Resize(100, 30)),
        ('["ping", "1700000000000"]', Ping("1700000000000")),
        ('["focus"]', Focus(focused=True)),
        ('["blur"]', Focus(focused=False)),
    ],
)
def test_the_browser_s_messages_are_read(text: str, message: object) -> None:
    assert browser_message(text) == message


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "{}",
        "[]",
        '"stdin"',
        '["stdin"]',
        '["stdin", 7]',
        '["resize", {"width": 0, "height": 40}]',
        '["resize", {"width": 100000, "height": 40}]',
        '["resize", {"width": true, "height": 40}]',
        '["resize", {"width": "wide", "height": 40}]',
        '["resize", [120, 40]]',
        '["ping", {"a": 1}]',
        json.dumps(["ping", "x" * 101]),
        '["quit"]',
        '["open_url", {"url": "javascript:alert(1)"}]',
    ],
)
def test_anything_else_from_a_browser_is_dropped(text: str) -> None:
    assert browser_message(text) is None


def test_the_first_size_and_the_font_size_are_bounded() -> None:
    assert terminal_size("132", "43") == (132, 43)
    assert terminal_size(None, "43") == DEFAULT_SIZE
    assert terminal_size("-1", "43") == DEFAULT_SIZE
    assert terminal_size("9" * 40, "43") == DEFAULT_SIZE
    assert font_size("20") == 20
    assert font_size("<script>") == font_size(None) == font_size("4000") == 16


@pytest.mark.parametrize(
    ("url", "opened"),
    [
        ("https://www.rfc-editor.org/rfc/rfc9110", True),
        ("http://127.0.0.1:8642/customers", True),
        ("javascript:alert(document.cookie)", False),
        ("JavaScript:alert(1)", False),
        ("data:text/html,<script>alert(1)</script>", False),
        ("file:///etc/passwd", False),
        ("/relative", False),
        ("http://a b/", False),
        ("http://example.com/\njavascript:", False),
        (None, False),
    ],
)
def test_only_an_http_url_opens_in_the_browser(url: object, opened: bool) -> None:
    assert opens_in_browser(url) is opened


def test_each_tab_runs_this_python_s_restwalk_with_the_arguments_built() -> None:
    assert restwalk_arguments(None, course=False, lessons=None, config=None) == []
    assert restwalk_arguments(
        "http://127.0.0.1:8000/", course=False, lessons=None, config=None
    ) == ["http://127.0.0.1:8000/"]
    assert session_argv(["http://h/"]) == [sys.executable, "-m", "explorer", "http://h/"]


def test_the_course_is_restwalk_learn_with_its_lessons_and_url() -> None:
    assert restwalk_arguments(None, course=True, lessons=None, config=None) == ["learn"]
    assert restwalk_arguments(
        "http://127.0.0.1:8000/", course=True, lessons="/srv/lessons", config="/etc/rw.toml"
    ) == [
        "learn",
        "--config",
        "/etc/rw.toml",
        "--lessons",
        "/srv/lessons",
        "http://127.0.0.1:8000/",
    ]


def _session(tmp_path: Path, said: list[str]) -> BrowserSession:
    async def write_bytes(data: bytes) -> None:
        said.append(data.decode())

    async def write_str(text: str) -> None:
        said.append(text)

    async def close() -> None:
        said.append("closed")

    return BrowserSession(
        ["restwalk"], tmp_path, write_bytes=write_bytes, write_str=write_str, close=close
    )


def test_a_session_has_its_own_data_and_mock_and_no_display(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.setenv("WAYLAND_DISPLAY", "wayland-0")
    monkeypatch.setenv(PORT_ENV, "8642")
    environment = _session(tmp_path, [])._build_environment(100, 30)
    assert environment[DATA_ENV] == str(tmp_path)
    assert environment[PORT_ENV] == "0"
    assert "DISPLAY" not in environment
    assert "WAYLAND_DISPLAY" not in environment
    assert environment["TEXTUAL_DRIVER"] == WEB_DRIVER == "explorer.ui.web_driver:WebDriver"


async def test_a_session_opens_only_http_urls_and_delivers_no_file(tmp_path: Path) -> None:
    said: list[str] = []
    session = _session(tmp_path, said)

    def meta(**fields: object) -> bytes:
        return json.dumps(fields).encode()

    await session.on_meta(meta(type="open_url", url="javascript:alert(1)", new_tab=False))
    await session.on_meta(
        meta(
            type="deliver_file_start",
            key="k",
            path="/etc/passwd",
            open_method="browser",
            mime_type="text/html",
            encoding="utf-8",
        )
    )
    assert said == []
    await session.on_meta(meta(type="open_url", url="https://example.com/", new_tab=True))
    assert said == ['["open_url", {"url": "https://example.com/", "new_tab": true}]']
    await session.on_meta(meta(type="exit"))
    assert said[-1] == "closed"


def test_the_tui_runs_without_a_terminal_only_under_textual_s_web_driver(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    monkeypatch.delenv("TEXTUAL_DRIVER", raising=False)
    with pytest.raises(UsageError, match="the TUI needs a terminal"):
        check_terminal()
    for driver in (WEB_DRIVER, TEXTUAL_WEB_DRIVER):  # restwalk serve's, textual-serve's
        monkeypatch.setenv("TEXTUAL_DRIVER", driver)
        check_terminal()
    monkeypatch.setenv("TEXTUAL_DRIVER", "textual.drivers.linux_driver:LinuxDriver")
    with pytest.raises(UsageError, match="the TUI needs a terminal"):
        check_terminal()
