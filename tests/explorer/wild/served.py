"""The recorded answers of one framework, served again over a real socket on a free port.

A tiny Starlette app answers each recorded request path (and query) with its
recorded status, headers and body, so that restwalk walks a framework as it would
the live server: through its own client, a socket and HTTP/1.1. The recorded
origin (``http://localhost:18601``) is written as the served one in every body
and header, as ``recorders/record.py --as`` does; an unrecorded path is a 404
the test sees. The server runs in a thread and stops on leaving the ``with``.
"""

from __future__ import annotations

import socket
import threading
from types import TracebackType

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from tests.explorer.wild.recordings import Recorded, recordings

__all__ = ["Served"]

#: Headers the server writes itself, for the body it sends.
_OWN = frozenset({"content-length", "transfer-encoding", "content-encoding", "connection"})


class Served:
    """``with Served("tastypie", "http://localhost:18601") as served: served.url("/api/v1/")``."""

    def __init__(self, name: str, origin: str) -> None:
        self.name = name
        self.origin = origin.rstrip("/")
        self._sock = socket.socket()
        self._sock.bind(("127.0.0.1", 0))
        self.served = f"http://127.0.0.1:{self._sock.getsockname()[1]}"
        self.asked: list[str] = []
        self._answers = {
            entry.url.removeprefix(self.origin): entry
            for entry in recordings(name)
            if entry.url.startswith(self.origin + "/")
        }
        app = Starlette(routes=[Route("/{path:path}", self._answer)])
        # log_config=None: uvicorn's own would bind its handlers to the sys.stderr of the
        # test that starts the server, closed when that test ends (test_servers_logging);
        # at "warning" no access line is logged.
        self._server = uvicorn.Server(
            uvicorn.Config(app, log_config=None, log_level="warning", lifespan="off")
        )
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [self._sock]}, daemon=True
        )

    def url(self, path: str) -> str:
        """The served URL of the recorded ``path`` (``/books?page=2``)."""
        return self.served + path

    def _moved(self, text: str) -> str:
        return text.replace(self.origin, self.served).replace(
            self.origin.split("://", 1)[1], self.served.split("://", 1)[1]
        )

    async def _answer(self, request: Request) -> Response:
        target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        self.asked.append(target)
        entry: Recorded | None = self._answers.get(target)
        if entry is None:
            return Response(f"{target} was not recorded", status_code=404)
        headers = [
            (name, self._moved(value)) for name, value in entry.headers if name.lower() not in _OWN
        ]
        body = self._moved(entry.body.decode("utf-8")).encode("utf-8")
        response = Response(body, status_code=entry.status)
        response.raw_headers = [
            *((name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in headers),
            (b"content-length", str(len(body)).encode()),
        ]
        return response

    def __enter__(self) -> Served:
        self._thread.start()
        while not self._server.started:
            if not self._thread.is_alive():
                raise RuntimeError(f"the server of {self.name}'s recordings did not start")
            self._thread.join(0.005)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._server.should_exit = True
        self._thread.join(5)
        self._sock.close()
