"""Faults below HTTP: what a client sees when the connection itself misbehaves.

HTTP status codes cannot express these, so a fault writes to the connection
directly. What each one does, and what httpx raises for it:

=========  ====================================================  =========================
kind       the server ...                                        httpx raises
=========  ====================================================  =========================
reset      resets the connection (TCP RST) before any byte       ``ReadError``
close      starts a chunked 200, sends part of it, closes        ``RemoteProtocolError``
length     says ``Content-Length: N``, sends fewer bytes, closes  ``RemoteProtocolError``
trickle    sends a valid 200 one byte every ``interval`` s       ``ReadTimeout`` (if sooner)
hang       reads the request and never answers                   ``ReadTimeout`` (if sooner)
=========  ====================================================  =========================

``trickle`` and ``hang`` are bounded (:data:`MAX_TRICKLE_SECONDS`,
:data:`MAX_HANG_SECONDS`) and end when the client goes away, so a server
shutting down never waits on them for long.

The connection is found through the ASGI server: uvicorn's ``send`` is a
method of its per-request cycle, which holds the transport (see
:func:`transport_of`). Servers that give no such handle (Hypercorn, httpx's
``ASGITransport``) cannot drop a connection on purpose: there ``reset``,
``close`` and ``length`` answer 501 with a problem body saying so.
"""

from __future__ import annotations

import asyncio
import socket
import struct
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from starlette.types import Receive, Scope, Send

from mock_server.http.problems import Problem

#: The scope extension under which the connection's transport travels.
EXTENSION = "restwalk.transport"

KINDS: tuple[str, ...] = ("reset", "close", "length", "trickle", "hang")
#: What each kind does, for the docs and the ``/faults`` index.
DESCRIPTIONS: dict[str, str] = {
    "reset": "The connection is reset (TCP RST) before any byte of an answer.",
    "close": "A chunked 200 starts, part of the body is sent, then the connection closes.",
    "length": "Content-Length promises more bytes than are sent; then the connection closes.",
    "trickle": "A valid 200 whose body arrives one byte every ?interval= seconds (default 1).",
    "hang": "The request is read and never answered; the connection closes after "
    "?seconds= (default 30) or when the client leaves.",
}
#: Kinds that need the raw connection (the others are valid HTTP, only slow).
RAW_KINDS = frozenset({"reset", "close", "length"})

TRICKLE_BODY = b"trickle...\n"
DEFAULT_TRICKLE_INTERVAL = 1.0
MAX_TRICKLE_SECONDS = 60.0
DEFAULT_HANG_SECONDS = 30.0
MAX_HANG_SECONDS = 300.0
_PARTIAL_BODY = b'{"message": "this body is cut sh'


def transport_of(send: Any) -> asyncio.Transport | None:
    """The connection's transport behind uvicorn's ``send``; None under other servers."""
    transport = getattr(getattr(send, "__self__", None), "transport", None)
    return transport if isinstance(transport, asyncio.BaseTransport) else None  # type: ignore[return-value]


@dataclass(frozen=True)
class FaultOptions:
    """The knobs of a fault: the trickle's interval and the hang's length, in seconds."""

    interval: float = DEFAULT_TRICKLE_INTERVAL
    seconds: float = DEFAULT_HANG_SECONDS


def parse_options(query: dict[str, str]) -> FaultOptions:
    """``interval`` (0 to 10 s) and ``seconds`` (0 to 300 s); a 400 problem if bad."""
    bounds = {"interval": 10.0, "seconds": MAX_HANG_SECONDS}
    values: dict[str, float] = {}
    for name, raw in query.items():
        if name not in bounds:
            raise Problem(
                HTTPStatus.BAD_REQUEST,
                f"Unknown query parameter {name!r}; faults take interval and seconds.",
                extra={"parameter": name},
            )
        try:
            value = float(raw)
        except ValueError:
            value = -1.0
        if not 0 <= value <= bounds[name]:
            raise Problem(
                HTTPStatus.BAD_REQUEST,
                f"{name} must be a number of seconds from 0 to {bounds[name]:g}, got {raw!r}.",
                extra={"parameter": name},
            )
        values[name] = value
    return FaultOptions(**values)


async def _wait_for_disconnect(receive: Receive, seconds: float) -> bool:
    """Wait until the client is gone (True) or ``seconds`` have passed (False)."""

    async def until_gone() -> None:
        while (await receive())["type"] != "http.disconnect":
            pass

    try:
        await asyncio.wait_for(until_gone(), seconds)
    except TimeoutError:
        return False
    return True


def _head(status: str, *fields: str) -> bytes:
    lines = [f"HTTP/1.1 {status}", "Server: restwalk-mock", *fields, "", ""]
    return "\r\n".join(lines).encode("ascii")


async def perform(
    kind: str, scope: Scope, receive: Receive, send: Send, options: FaultOptions
) -> None:
    """Answer the request in ``scope`` with fault ``kind`` (one of :data:`KINDS`)."""
    if kind == "trickle":
        await _trickle(receive, send, options.interval)
        return
    if kind == "hang":
        await _wait_for_disconnect(receive, options.seconds)
        transport = scope.get("extensions", {}).get(EXTENSION)
        if isinstance(transport, asyncio.BaseTransport):
            transport.close()
            await _wait_for_disconnect(receive, 1.0)
        return
    transport = scope.get("extensions", {}).get(EXTENSION)
    if not isinstance(transport, asyncio.Transport):
        raise Problem(
            HTTPStatus.NOT_IMPLEMENTED,
            f"The fault {kind!r} needs a real connection to break; this server "
            "(not restwalk-mock's own HTTP/1.1 server) gives none.",
        )
    if kind == "reset":
        sock = transport.get_extra_info("socket")
        if sock is not None:
            # Linger on, timeout 0: closing sends RST instead of FIN.
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        transport.abort()
    elif kind == "close":
        chunk = _PARTIAL_BODY
        transport.write(
            _head("200 OK", "Content-Type: application/json", "Transfer-Encoding: chunked")
            + f"{len(chunk) * 2:x}\r\n".encode("ascii")
            + chunk
        )
        transport.close()
    else:  # length
        transport.write(
            _head(
                "200 OK",
                "Content-Type: application/json",
                f"Content-Length: {len(_PARTIAL_BODY) * 2}",
            )
            + _PARTIAL_BODY
        )
        transport.close()
    # The server learns the connection is gone, and does not answer for us.
    await _wait_for_disconnect(receive, 5.0)


async def _trickle(receive: Receive, send: Send, interval: float) -> None:
    body = TRICKLE_BODY[: max(1, int(MAX_TRICKLE_SECONDS / interval))] if interval else TRICKLE_BODY
    await send(
        {
            "type": "http.response.start",
            "status": HTTPStatus.OK,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-length", str(len(body)).encode("ascii")),
                (b"cache-control", b"no-store, no-transform"),
            ],
        }
    )
    for index in range(len(body)):
        if index and await _wait_for_disconnect(receive, interval):
            return
        await send(
            {
                "type": "http.response.body",
                "body": body[index : index + 1],
                "more_body": index < len(body) - 1,
            }
        )
