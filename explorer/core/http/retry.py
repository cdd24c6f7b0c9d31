"""Sending a request once more when the kept-alive connection it went out on was closed.

A server closes a keep-alive connection it finds idle when it likes (uvicorn after
5 s, nginx after 75 s). When that close crosses a request the client sends on the
connection, the request meets a closed socket: the client reads the end of the
stream before any byte of an answer (httpcore: "Server disconnected without sending
a response"), or a reset. Nothing says whether the server read the request.

RFC 9112 §9.3.1 lets a client send such a request again by itself when its method
is idempotent (RFC 9110 §9.2.2: doing it twice is doing it once), never otherwise;
browsers, curl and urllib3 do so once, on a new connection. So does
:class:`RetryTransport`, a transport stacked on the one that sends:

==========================================  ==================================
the connection was reused, no answer came,  sent again once, on a new
the method is idempotent, the body can be   connection
sent again
anything else (a new connection, a POST,    the error stands
a partial answer, a streamed body)
==========================================  ==================================

Whether a connection was new or reused, and whether an answer's head came, is
read from httpcore's ``trace`` extension, which reports each step it takes. The
transport reports what it did the same way, to the trace the caller gave: an
:class:`Attempts` there knows, success or failure, whether the last attempt went
out on a kept-alive connection and why the request was sent twice. The retry
stays inside the caller's deadline: it is one more await in the same task.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import httpx

__all__ = ["IDEMPOTENT", "RETRY_COMPLETE", "RETRY_STARTED", "Attempts", "RetryTransport"]

#: RFC 9110 §9.2.2: the methods whose effect is the same however often they are sent.
IDEMPOTENT = frozenset({"GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE"})

#: The trace events this transport reports, as httpcore names its own: a second attempt
#: begins (``{"reason": ...}``), and it ended (``{"note": ...}``, a sentence on why).
RETRY_STARTED = "retry.started"
RETRY_COMPLETE = "retry.complete"
# httpcore's trace events: a connection being opened, an answer's head received.
_CONNECTING = ("connection.connect_tcp.started", "connection.connect_unix_socket.started")
_HEAD_RECEIVED = "receive_response_headers.complete"

Trace = Callable[[str, dict[str, Any]], Awaitable[None]]


class Attempts:
    """A ``trace`` callback: what httpcore and :class:`RetryTransport` reported while one
    request was sent (events of other callers' traces are passed on to ``passed_on``)."""

    def __init__(self, passed_on: Trace | None = None) -> None:
        #: httpcore's events of the last attempt.
        self.events: list[str] = []
        #: Why the request was sent a second time (a sentence), or None.
        self.retried: str | None = None
        self._passed_on = passed_on

    async def __call__(self, name: str, info: dict[str, Any]) -> None:
        if name == RETRY_STARTED:
            self.events = []  # what follows is the second attempt's
        elif name == RETRY_COMPLETE:
            self.retried = str(info.get("note", ""))
        else:
            self.events.append(name)
        if self._passed_on is not None:  # a trace the caller set sees every event too
            await self._passed_on(name, info)

    @property
    def reused(self) -> bool | None:
        """True when the last attempt went out on a connection opened before it; None when
        nothing was reported (a transport that is no connection pool, a cache's reuse)."""
        if not self.events:
            return None
        return not any(name in _CONNECTING for name in self.events)

    @property
    def answered(self) -> bool:
        """True when the head of an answer came."""
        return any(name.endswith(_HEAD_RECEIVED) for name in self.events)


class RetryTransport(httpx.AsyncBaseTransport):
    """``transport``, with a request sent once more on a new connection when the kept-alive
    one was closed before any answer came and the method is idempotent.

    Raises what ``transport`` raises (the second attempt's failure, when there was one).
    """

    def __init__(self, transport: httpx.AsyncBaseTransport) -> None:
        self.transport = transport

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        caller: Trace | None = request.extensions.get("trace")
        response, attempt, failure = await self._attempt(request, caller)
        if response is not None:
            return response
        assert failure is not None
        if not _worth_retrying(request, attempt, failure):
            raise failure
        reason = " ".join(str(failure).split()) or "the connection was reset"
        if caller is not None:
            await caller(RETRY_STARTED, {"reason": reason})
        response, again, failure = await self._attempt(request, caller)
        where = ", on a new connection" if again.reused is False else ""
        note = (
            f"the server closed the kept-alive connection as the request went out, before any "
            f"answer ({reason}); {request.method} is idempotent, so it was sent again, "
            f"once{where}."
        )
        if caller is not None:
            await caller(RETRY_COMPLETE, {"note": note})
        if response is None:
            assert failure is not None
            raise failure
        return response

    async def _attempt(
        self, request: httpx.Request, caller: Trace | None
    ) -> tuple[httpx.Response | None, Attempts, httpx.TransportError | None]:
        """Send ``request`` once: the response (or the failure), and what httpcore reported."""
        attempt = Attempts(caller)
        request.extensions["trace"] = attempt
        try:
            return await self.transport.handle_async_request(request), attempt, None
        except httpx.TransportError as exc:
            return None, attempt, exc
        finally:
            if caller is None:
                del request.extensions["trace"]
            else:
                request.extensions["trace"] = caller

    async def aclose(self) -> None:
        await self.transport.aclose()


def _closed_before_answer(attempt: Attempts, exc: httpx.TransportError) -> bool:
    """True when the connection was closed or reset before an answer's head came, not
    that the server broke HTTP: an end of stream, a reset, a broken pipe."""
    if attempt.answered:
        return False
    if isinstance(exc, httpx.RemoteProtocolError):
        return "server disconnected" in str(exc).lower()
    return isinstance(exc, httpx.ReadError | httpx.WriteError)


def _worth_retrying(request: httpx.Request, attempt: Attempts, exc: httpx.TransportError) -> bool:
    return (
        attempt.reused is True
        and _closed_before_answer(attempt, exc)
        and request.method in IDEMPOTENT
        and isinstance(request.stream, httpx.ByteStream)  # a body that can be sent again
    )
