"""The ASGI app behind ``restwalk listen``: every request received, bounded, and answered.

Each request's body is read up to ``max_body`` bytes and within ``max_time``
seconds; with a secret, its Standard Webhooks signature is checked
(:mod:`.signature`). Then it is handed to ``on_request`` (the command prints it)
and answered:

=====================================  ==========================================
the body passed ``max_body``           413 Content Too Large (the rest unread)
the body took longer than ``max_time``  408 Request Timeout
a secret was given, and the signature  401 Unauthorized (a sender retries: its
does not verify                        delivery did not count)
anything else                          the status asked for (204 No Content)
=====================================  ==========================================

Refusals carry an RFC 9457 problem document saying why. The app opens no
socket and keeps nothing once a request is handed on.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, MutableMapping
from http import HTTPStatus
from typing import Any

import orjson

from explorer.core.listening.received import ReceivedRequest
from explorer.core.listening.signature import check_signature
from explorer.core.text.sizes import size_text

__all__ = ["DEFAULT_MAX_BODY", "DEFAULT_MAX_TIME", "Endpoint"]

#: Bytes of a request body kept.
DEFAULT_MAX_BODY = 10_000_000
#: Seconds a request's body may take to come.
DEFAULT_MAX_TIME = 30.0

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


class Endpoint:
    """An ASGI app that hands each request it receives to ``on_request`` (see above)."""

    def __init__(
        self,
        on_request: Callable[[ReceivedRequest], None],
        *,
        secret: str | None = None,
        status: int = HTTPStatus.NO_CONTENT,
        max_body: int = DEFAULT_MAX_BODY,
        max_time: float = DEFAULT_MAX_TIME,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.on_request = on_request
        self.secret = secret
        self.status = status
        self.max_body = max_body
        self.max_time = max_time
        self._clock = clock
        #: Requests received so far.
        self.received = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await _lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        body, cut, late = await self._body(receive)
        headers = tuple(
            (name.decode("latin-1"), value.decode("latin-1")) for name, value in scope["headers"]
        )
        signature = None
        if self.secret is not None and not cut and not late:
            signature = check_signature(self.secret, headers, body)
        forged = signature.detail if signature is not None and not signature.valid else ""
        status, reason = self._answer(cut, late, forged)
        self.received += 1
        client = scope.get("client") or ("?", 0)
        query = scope.get("query_string", b"")
        target = scope.get("raw_path", scope["path"].encode())
        self.on_request(
            ReceivedRequest(
                number=self.received,
                at=self._clock(),
                client=f"{client[0]}:{client[1]}",
                method=scope["method"],
                target=(target + (b"?" + query if query else b"")).decode("latin-1"),
                http_version=f"HTTP/{scope.get('http_version', '1.1')}",
                headers=headers,
                body=body,
                cut=cut,
                signature=signature,
                status=status,
                reason=reason,
            )
        )
        await _answer(send, status, reason)

    async def _body(self, receive: Receive) -> tuple[bytes, int, bool]:
        """The body (at most ``max_body`` bytes), the bytes of it left out, and whether it
        took longer than ``max_time``."""
        chunks: list[bytes] = []
        size = 0
        try:
            async with asyncio.timeout(self.max_time):
                while True:
                    message = await receive()
                    if message["type"] != "http.request":
                        break  # the client went away
                    chunk: bytes = message.get("body", b"")
                    size += len(chunk)
                    if size > self.max_body:
                        chunks.append(chunk[: len(chunk) - (size - self.max_body)])
                        return b"".join(chunks), size - self.max_body, False
                    chunks.append(chunk)
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            return b"".join(chunks), 0, True
        return b"".join(chunks), 0, False

    def _answer(self, cut: int, late: bool, forged: str) -> tuple[int, str]:
        if cut:
            return HTTPStatus.REQUEST_ENTITY_TOO_LARGE, (
                f"The body is larger than {size_text(self.max_body)}, the most this endpoint "
                "keeps (--max-body)."
            )
        if late:
            return HTTPStatus.REQUEST_TIMEOUT, (
                f"The body took longer than {self.max_time:g} s to come."
            )
        if forged:
            finding = forged.removeprefix("NOT valid: ")
            return (
                HTTPStatus.UNAUTHORIZED,
                f"The Standard Webhooks signature does not verify: {finding}.",
            )
        return self.status, ""


async def _answer(send: Send, status: int, reason: str) -> None:
    headers = [(b"cache-control", b"no-store")]
    body = b""
    if reason:
        problem = {"title": HTTPStatus(status).phrase, "status": status, "detail": reason}
        body = orjson.dumps(problem)
        headers += [(b"content-type", b"application/problem+json"), (b"connection", b"close")]
    if status not in (HTTPStatus.NO_CONTENT, HTTPStatus.NOT_MODIFIED) and status >= 200:
        headers.append((b"content-length", str(len(body)).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _lifespan(receive: Receive, send: Send) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return
