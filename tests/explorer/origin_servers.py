"""Two origins for the tests of where secrets go: servers that keep what reaches them.

:class:`OriginServer` serves, on a free 127.0.0.1 port of its own (so an origin of
its own), the pages a test gives it: HAL JSON with links, or any status, headers
and body. It keeps the header fields of every request that reaches it as the
server read them off the socket (uvicorn's parser), so a test asserts on what
went over the wire, not on what restwalk says it sent.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import orjson
import uvicorn

#: Headers that carry a secret in these tests, as a server reads them.
SECRET_HEADERS = ("authorization", "cookie", "x-api-key", "private-token", "x-auth-token")


@dataclass(frozen=True)
class Seen:
    """One request as the server read it."""

    method: str
    target: str
    headers: dict[str, str]


@dataclass
class Page:
    status: int = 200
    headers: list[tuple[str, str]] = field(default_factory=list)
    body: bytes = b""


class OriginServer:
    """An ASGI server in a thread; ``pages`` by path, ``seen`` every request."""

    def __init__(self) -> None:
        self.pages: dict[str, Page] = {}
        self.seen: list[Seen] = []
        self._sock = socket.socket()
        self._sock.bind(("127.0.0.1", 0))
        self.port = int(self._sock.getsockname()[1])
        self.url = f"http://127.0.0.1:{self.port}"
        # log_config=None: uvicorn's own would bind its handlers to the sys.stderr of the
        # test that starts the server, closed when that test ends (test_servers_logging).
        config = uvicorn.Config(
            self._app, log_config=None, log_level="warning", lifespan="off", interface="asgi3"
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._run, daemon=True)

    def hal(self, path: str, **links: str) -> str:
        """Serve a HAL document at ``path`` whose ``_links`` are ``links`` (rel → href);
        returns the page's URL."""
        document = {"_links": {rel: {"href": href} for rel, href in links.items()}}
        self.page(path, body=orjson.dumps(document), content_type="application/hal+json")
        return self.url + path

    def page(
        self,
        path: str,
        *,
        status: int = 200,
        body: bytes = b"{}",
        content_type: str = "application/json",
        headers: tuple[tuple[str, str], ...] = (),
    ) -> str:
        """Serve ``body`` (or any status and headers) at ``path``; returns its URL."""
        self.pages[path] = Page(status, [("content-type", content_type), *headers], body)
        return self.url + path

    def reset(self) -> None:
        """No page served, no request seen: as a fresh server, without its start and stop
        (uvicorn's shutdown waits 0.1 to 0.2 s)."""
        self.pages.clear()
        self.seen.clear()

    def received(self, header: str) -> list[str]:
        """The values of ``header`` in every request that reached this server."""
        return [seen.headers[header] for seen in self.seen if header in seen.headers]

    def secrets_received(self) -> dict[str, list[str]]:
        """What of :data:`SECRET_HEADERS` reached this server."""
        return {name: self.received(name) for name in SECRET_HEADERS if self.received(name)}

    async def _app(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        assert scope["type"] == "http"
        while (await receive()).get("more_body"):
            pass
        headers: dict[str, str] = {}
        for raw_name, raw_value in scope["headers"]:
            name, value = raw_name.decode("latin-1").lower(), raw_value.decode("latin-1")
            headers[name] = f"{headers[name]}, {value}" if name in headers else value
        query = scope["query_string"].decode("latin-1")
        target = scope["path"] + (f"?{query}" if query else "")
        self.seen.append(Seen(scope["method"], target, headers))
        page = self.pages.get(scope["path"], Page(404, [("content-type", "text/plain")], b"no"))
        raw = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in page.headers]
        await send({"type": "http.response.start", "status": page.status, "headers": raw})
        await send({"type": "http.response.body", "body": page.body})

    def _run(self) -> None:
        try:
            self._server.run(sockets=[self._sock])
        finally:
            self._sock.close()

    def __enter__(self) -> OriginServer:
        self._thread.start()
        while not self._server.started:
            if not self._thread.is_alive():
                raise RuntimeError("the test server stopped while starting")
            self._thread.join(0.005)
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._server.should_exit = True
        self._thread.join(10)


@contextmanager
def two_origins() -> Iterator[tuple[OriginServer, OriginServer]]:
    """Two servers, two origins: ``a`` where the secrets are given, ``b`` elsewhere."""
    with OriginServer() as a, OriginServer() as b:
        yield a, b
