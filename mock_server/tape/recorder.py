"""``--record URL --tape F.har``: a proxy to the real API that keeps every exchange.

Each request is sent on to the upstream as it came (its method, path below
the upstream's base path, query, headers, body; the hop-by-hop fields
dropped, ``Host`` the upstream's), and the upstream's answer goes back to the
client as it came, decoded (the mock's compression layer encodes it again
for a client that asks). Redirects are not followed: a ``Location`` on the
upstream points back at the mock. An answer is kept whole: one that never
ends (an event stream: 501), outgrows :data:`MAX_ANSWER_BYTES` (502) or takes
over :data:`UPSTREAM_TIMEOUT` in all (504) is a problem, not recorded. The
exchange is masked (:mod:`.masking`)
and the tape rewritten whole, atomically, after each one: a recording stopped
at any moment is a complete HAR file. Recording onto an existing tape adds to
it. An upstream that cannot be reached is a 502 problem, not recorded.

OPTIONS and TRACE are the mock's own answers (the method layer gives them
before any route): they are not proxied.
"""

from __future__ import annotations

import asyncio
import os
import time
from http import HTTPStatus
from pathlib import Path
from urllib.parse import urlsplit

import httpx
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from mock_server.http.problems import Problem
from mock_server.tape.har import Exchange, TapeError, har_bytes, read_tape
from mock_server.tape.masking import mask_exchange
from mock_server.userdata.datafile import write_atomically

#: Fields that belong to one connection, never forwarded (RFC 9110 section 7.6.1).
HOP_BY_HOP = frozenset(
    {
        "connection",
        "keep-alive",
        "proxy-connection",
        "te",
        "trailer",
        "transfer-encoding",
        "upgrade",
        "proxy-authenticate",
        "proxy-authorization",
    }
)
#: Request fields the proxy sets itself.
_REQUEST_DROPS = HOP_BY_HOP | {"host", "content-length", "accept-encoding"}
#: Response fields that described the upstream's bytes, not the decoded body sent on.
_RESPONSE_DROPS = HOP_BY_HOP | {"content-length", "content-encoding", "date", "server"}
PROXIED_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")
#: How long the upstream may take to answer, its whole body included.
UPSTREAM_TIMEOUT = 30.0
#: The largest answer a recording keeps (decoded).
MAX_ANSWER_BYTES = 64 * 1024 * 1024
#: Answers that do not end: proxied, they would hold the request (and grow) forever.
STREAM_TYPES = frozenset({"text/event-stream"})


def check_upstream(url: str) -> str:
    """``url`` without a trailing slash; ValueError unless it is an absolute http(s) URL."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"--record needs an http:// or https:// URL, got {url!r}")
    if parts.query or parts.fragment:
        raise ValueError(f"--record takes the API's base URL, without query or fragment: {url!r}")
    return url.rstrip("/")


def check_tape_writable(tape: Path) -> None:
    """A :class:`TapeError` (one line) unless ``tape`` can be recorded onto: a HAR file
    already there (a recording adds to it), or a new file in a folder that exists."""
    if tape.is_dir():
        raise TapeError(f"{tape}: is a folder, not a HAR file")
    if tape.exists():
        read_tape(tape)
        return
    folder = tape.parent
    if not folder.is_dir():
        raise TapeError(f"{tape}: cannot write it: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise TapeError(f"{tape}: cannot write it: the folder {folder} is not writable")


class Recorder:
    """Proxies every request to ``upstream`` and keeps the exchanges on ``tape``."""

    def __init__(self, upstream: str, tape: Path, version: str) -> None:
        self.upstream = check_upstream(upstream)
        self.tape = tape
        self.version = version
        self.exchanges: list[Exchange] = []
        if tape.exists():
            self.exchanges, _ = read_tape(tape)
        self._lock = asyncio.Lock()
        try:
            write_atomically(tape, har_bytes(self.exchanges, self.upstream, version).decode())
        except OSError as error:
            raise TapeError(f"{tape}: cannot write it: {error.strerror or error}") from None

    def routes(self) -> list[BaseRoute]:
        """One route taking every path."""
        return [Route("/{path:path}", self.proxy, methods=list(PROXIED_METHODS))]

    def write_target(self, method: str, path: str) -> str | None:
        return None

    def needs_credentials(self, path: str) -> bool:
        return False

    def not_found(self, request: Request) -> Problem | None:
        return None

    def reset(self) -> None:
        """Nothing to forget: the state is the upstream's."""

    async def proxy(self, request: Request) -> Response:
        """Send ``request`` on, keep the exchange, and answer with the upstream's answer."""
        body = await request.body()
        target = self.upstream + request.url.path
        if request.url.query:
            target += "?" + request.url.query
        headers = [
            (k.decode("latin-1"), v.decode("latin-1"))
            for k, v in request.scope["headers"]
            if k.decode("latin-1").lower() not in _REQUEST_DROPS
        ]
        headers.append(("Accept-Encoding", "gzip, deflate"))
        started = time.time()
        try:
            async with (
                asyncio.timeout(UPSTREAM_TIMEOUT),
                httpx.AsyncClient(timeout=UPSTREAM_TIMEOUT, follow_redirects=False) as client,
                client.stream(request.method, target, headers=headers, content=body) as answer,
            ):
                content = await self._whole(answer, request.url.path)
        except httpx.HTTPError as error:
            raise Problem(
                HTTPStatus.BAD_GATEWAY,
                f"The upstream {self.upstream} could not be reached: "
                f"{error or type(error).__name__}.",
            ) from None
        except TimeoutError:
            raise Problem(
                HTTPStatus.GATEWAY_TIMEOUT,
                f"The upstream {self.upstream} took over {UPSTREAM_TIMEOUT:g} s to answer "
                f"{request.method} {request.url.path} in whole; nothing was recorded.",
            ) from None
        answer_headers = [
            (k, v) for k, v in answer.headers.multi_items() if k.lower() not in _RESPONSE_DROPS
        ]
        exchange = Exchange(
            method=request.method,
            url=target,
            request_headers=tuple(headers),
            request_body=body,
            status=answer.status_code,
            reason=answer.reason_phrase,
            response_headers=tuple(answer_headers),
            response_body=content,
            started=started,
            time_ms=(time.time() - started) * 1000,
        )
        await self._keep(mask_exchange(exchange))
        sent = [(k, self._local(v) if k.lower() == "location" else v) for k, v in answer_headers]
        response = Response(content, status_code=answer.status_code)
        response.raw_headers = [
            *(h for h in response.raw_headers if h[0] == b"content-length"),
            *((k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in sent),
        ]
        return response

    async def _whole(self, answer: httpx.Response, path: str) -> bytes:
        """The upstream's whole body: a tape keeps whole answers, so an answer that never
        ends (an event stream) or outgrows :data:`MAX_ANSWER_BYTES` is a problem instead."""
        kind = answer.headers.get("content-type", "").partition(";")[0].strip().lower()
        if kind in STREAM_TYPES:
            raise Problem(
                HTTPStatus.NOT_IMPLEMENTED,
                f"The upstream answers {path} with a stream ({kind}), which does not end: "
                "a recording keeps whole answers, so --record cannot proxy it. Ask the "
                "upstream for it directly.",
            )
        chunks: list[bytes] = []
        size = 0
        async for chunk in answer.aiter_bytes():
            size += len(chunk)
            if size > MAX_ANSWER_BYTES:
                raise Problem(
                    HTTPStatus.BAD_GATEWAY,
                    f"The upstream's answer to {path} is over {MAX_ANSWER_BYTES} bytes, more "
                    "than a recording keeps; nothing was recorded.",
                )
            chunks.append(chunk)
        return b"".join(chunks)

    def _local(self, location: str) -> str:
        """A ``Location`` on the upstream, as a path on the mock."""
        if location.startswith(self.upstream + "/") or location == self.upstream:
            return location[len(self.upstream) :] or "/"
        return location

    async def _keep(self, exchange: Exchange) -> None:
        async with self._lock:
            self.exchanges.append(exchange)
            text = har_bytes(self.exchanges, self.upstream, self.version).decode()
            await asyncio.to_thread(write_atomically, self.tape, text)
