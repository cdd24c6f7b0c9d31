"""A server a test starts in a thread leaves the process's logging as it found it.

pytest gives each test that asks for ``capsys`` a stderr of its own and closes it when the
test ends. uvicorn's default ``log_config`` runs ``logging.config.dictConfig`` at every
``uvicorn.Config()``, and its handlers take ``sys.stderr`` as it is then: a test's. Once
that test ended, every warning of any uvicorn in the process (a thread-served mock's
"Invalid HTTP request received.", logged to ``uvicorn.error``) was written to a closed
stream, and Python printed "--- Logging error ---" in the CI log. Neither the mock
(:class:`mock_server.BackgroundServer`) nor the servers of the tests configure logging:
their records go to whoever listens (pytest's capture, or the last resort: the stderr
of the moment).
"""

from __future__ import annotations

import contextlib
import io
import logging
import socket
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path

import pytest

from mock_server import BackgroundServer, Settings
from tests.explorer.origin_servers import OriginServer
from tests.explorer.servers import HypercornServer
from tests.explorer.wild.served import Served

#: A request head h11 refuses: uvicorn warns "Invalid HTTP request received.", then the
#: mock answers 400.
BAD_HEAD = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nNo colon here\r\n\r\n"


def handlers() -> dict[str, list[logging.Handler]]:
    """Every logger's handlers, by logger name ("" for the root)."""
    loggers = [("", logging.getLogger())]
    for name, logger in logging.root.manager.loggerDict.items():
        if isinstance(logger, logging.Logger):
            loggers.append((name, logger))
    return {name: list(logger.handlers) for name, logger in loggers if logger.handlers}


def mock(**settings: object) -> AbstractContextManager[object]:
    return BackgroundServer(Settings(host="127.0.0.1", port=0, **settings))  # type: ignore[arg-type]


async def _nothing(scope: object, receive: object, send: object) -> None:
    """An ASGI app that is never asked anything."""


SERVERS: dict[str, Callable[[Path], AbstractContextManager[object]]] = {
    "mock": lambda _: mock(),
    "mock-h11": lambda _: mock(http_parser="h11"),
    "mock-http2": lambda _: mock(http2=True),
    "origin": lambda _: OriginServer(),
    "recordings": lambda _: Served("tastypie", "http://localhost:18601"),
    "hypercorn": lambda tmp_path: HypercornServer(_nothing, tls=False, tmp_path=tmp_path),
}


@pytest.mark.parametrize("server", SERVERS.values(), ids=SERVERS.keys())
def test_starting_a_server_in_a_thread_adds_no_log_handler(
    server: Callable[[Path], AbstractContextManager[object]], tmp_path: Path
) -> None:
    before = handlers()
    with server(tmp_path):
        assert handlers() == before
    assert handlers() == before


@contextlib.contextmanager
def a_finished_test_s_stderr() -> Iterator[None]:
    """Within it, ``sys.stderr`` is a stream closed when it ends, as capsys's at a test's
    end."""
    stream = io.StringIO()
    with contextlib.redirect_stderr(stream):
        yield
    stream.close()


def test_a_mock_s_warning_after_the_test_that_started_it_ended_is_no_logging_error(
    capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    with contextlib.ExitStack() as servers:
        with a_finished_test_s_stderr():
            server = servers.enter_context(BackgroundServer(Settings(host="127.0.0.1", port=0)))
            servers.enter_context(OriginServer())
            servers.enter_context(Served("tastypie", "http://localhost:18601"))
        host, port = server.url.removeprefix("http://").rsplit(":", 1)
        with socket.create_connection((host, int(port)), timeout=10) as connection:
            connection.sendall(BAD_HEAD)
            # uvicorn logs its warning before the answer goes: once it came, it was logged.
            answer = connection.recv(64)
    assert answer.startswith(b"HTTP/1.1 400 ")
    assert "Logging error" not in capsys.readouterr().err
    assert "Invalid HTTP request received." in caplog.messages
