"""The mock server never imports the terminal UI, and loads what it rarely needs late."""

from __future__ import annotations

import subprocess
import sys


def _python(code: str) -> None:
    """Run ``code`` in a fresh interpreter; its failure fails the test."""
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr


def test_importing_mock_server_does_not_import_textual() -> None:
    _python(
        "import sys, mock_server, mock_server.resources, mock_server.app; "
        "assert 'textual' not in sys.modules, 'textual was imported'"
    )


def test_serving_json_loads_neither_xml_nor_the_openapi_builder() -> None:
    """They load with the first XML answer or /openapi.json: the explorer's start,
    which serves the root in HAL, does not wait for them."""
    _python(
        "import sys, urllib.request; from mock_server import BackgroundServer; "
        "server = BackgroundServer(); url = server.start(); "
        "urllib.request.urlopen(url + '/').read(); server.stop(); "
        "late = {'xml.etree.ElementTree', 'mock_server.openapi', "
        "'mock_server.representations.xml'} & set(sys.modules); "
        "assert not late, late"
    )


def test_authlib_loads_with_the_first_oauth_request_not_at_start() -> None:
    """A start that never sees OAuth (the explorer's bundled mock) does not pay for it:
    not the root, not a 401 (which names the OAuth metadata)."""
    _python(
        "import sys, urllib.request, urllib.error; from mock_server import BackgroundServer\n"
        "server = BackgroundServer(); url = server.start()\n"
        "urllib.request.urlopen(url + '/').read()\n"
        "try: urllib.request.urlopen(url + '/orders')\n"
        "except urllib.error.HTTPError as error: assert error.code == 401, error.code\n"
        "early = {'authlib', 'joserfc'} & set(sys.modules)\n"
        "urllib.request.urlopen(url + '/oauth/jwks').read(); server.stop()\n"
        "assert not early, early\n"
        "assert 'authlib' in sys.modules"
    )


def test_the_root_loads_what_it_does_not_need_late_and_each_works_on_first_use() -> None:
    """What the explorer's first answer (the root, from the bundled mock) does not need
    loads with its first use: h11 with the first request llhttp refuses, sse-starlette
    with the first event stream, the ``--data`` file's modules and sqlite3 with
    ``--data``, the TLS module with TLS, the OAuth state with the OAuth server, email's
    policies with a multipart body, anyio's locks with the first login, the byte ranges
    with the first report; nor is the installed distributions' metadata read. The first
    request handed to h11 and the first stream are then answered."""
    _python(
        "import socket, sys, urllib.request; from mock_server import BackgroundServer\n"
        "server = BackgroundServer(); url = server.start()\n"
        "urllib.request.urlopen(url + '/').read()\n"
        "late = {'h11', 'mock_server.transport.h11_protocol', 'sse_starlette', "
        "'mock_server.events.stream', 'mock_server.resources.live_stream', "
        "'mock_server.userdata.store', 'mock_server.userdata.model', "
        "'mock_server.userdata.entity', 'mock_server.userdata.datafile', 'sqlite3', "
        "'mock_server.transport.tls', 'mock_server.oauth.state', 'email.policy', "
        "'importlib.metadata', 'anyio._core._synchronization', 'mock_server.http.ranges'}\n"
        "late &= set(sys.modules)\n"
        "host, port = url.removeprefix('http://').split(':')\n"
        "with socket.create_connection((host, int(port))) as sock:\n"
        "    head = f'BREW / HTTP/1.1\\r\\nHost: {host}:{port}\\r\\nConnection: close\\r\\n'\n"
        "    sock.sendall(head.encode() + b'\\r\\n')\n"
        "    answer = b''.join(iter(lambda: sock.recv(65536), b''))\n"
        "assert answer.startswith(b'HTTP/1.1 501 '), answer[:100]\n"
        "asked = urllib.request.Request(url + '/events', headers={'Accept': 'text/event-stream'})\n"
        "with urllib.request.urlopen(asked) as stream:\n"
        "    assert stream.headers['Content-Type'].startswith('text/event-stream')\n"
        "    assert stream.readline().startswith(b': restwalk-mock: every change')\n"
        "server.stop()\n"
        "assert not late, sorted(late)\n"
        "assert {'h11', 'sse_starlette'} <= set(sys.modules)"
    )
