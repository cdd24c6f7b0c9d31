"""Sending a request once more when the kept-alive connection it went out on was closed.

A server closes a keep-alive connection it finds idle when it likes (uvicorn after
5 s, nginx after 75 s). When that close crosses a request the client sends on the
connection, the request meets a closed socket: the client reads the end of the
stream before any byte of an answer (httpcore: "Server disconnected without sending
a response"), or a reset. Nothing says whether the server read the request.

RFC 9112 §9.3.1 lets a client send such a request again by itself when its method
is idempotent (RFC 9110 §9.2.2: doing it twice is doing it once), never otherwise;
browsers, curl and urllib3 do so once, on a new connection. So does :func:`send`:

==========================================  ==================================
the connection was reused, no answer came,  sent again once, on a new
the method is idempotent, the body can be   connection; the request says so
sent again                                  (:func:`retried`)
anything else (a new connection, a POST,    the error stands
a partial answer, a streamed body)
==========================================  ==================================

Whether a connection was new or reused, and whether an answer's head came, is
read from httpcore's ``trace`` extension, which reports each step it takes. The
retry stays inside the caller's deadline: it is one more await in the same task.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import httpx

__all__ = ["IDEMPOTENT", "connection_reused", "forget", "retried", "send"]

#: RFC 9110 §9.2.2: the methods whose effect is the same however often they are sent.
IDEMPOTENT = frozenset({"GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE"})

# Request extensions: what the retry did (a sentence), and whether the last attempt
# went out on a connection opened before it (True), a new one (False), or unknown.
_RETRIED = "restwalk.retried"
_REUSED = "restwalk.reused"
# httpcore's trace events: a connection being opened, an answer's head received.
_CONNECTING = ("connection.connect_tcp.started", "connection.connect_unix_socket.started")
_HEAD_RECEIVED = "receive_response_headers.complete"

_Trace = Callable[[str, dict[str, Any]], Awaitable[None]]


class _Attempt:
    """What httpcore reported while one attempt was sent (its ``trace`` extension)."""

    def __init__(self, passed_on: _Trace | None) -> None:
        self.events: list[str] = []
        self._passed_on = passed_on

    async def __call__(self, name: str, info: dict[str, Any]) -> None:
        self.events.append(name)
        if self._passed_on is not None:  # a trace the caller set sees every event too
            await self._passed_on(name, info)

    @property
    def reused(self) -> bool | None:
        """True when the request went out on a connection opened before it; None when
        nothing was reported (a transport that is no connection pool)."""
        if not self.events:
            return None
        return not any(name in _CONNECTING for name in self.events)

    @property
    def answered(self) -> bool:
        """True when the head of an answer came."""
        return any(name.endswith(_HEAD_RECEIVED) for name in self.events)


async def _attempt(
    http: httpx.AsyncClient, request: httpx.Request
) -> tuple[httpx.Response | None, _Attempt, httpx.TransportError | None]:
    """Send ``request`` once: the response (or the failure), and what httpcore reported."""
    passed_on = request.extensions.get("trace")
    attempt = _Attempt(passed_on)
    request.extensions["trace"] = attempt
    try:
        return await http.send(request, stream=True, follow_redirects=False), attempt, None
    except httpx.TransportError as exc:
        return None, attempt, exc
    finally:
        request.extensions[_REUSED] = attempt.reused
        if passed_on is None:
            del request.extensions["trace"]
        else:
            request.extensions["trace"] = passed_on


def _closed_before_answer(attempt: _Attempt, exc: httpx.TransportError) -> bool:
    """True when the connection was closed or reset before an answer's head came, not
    that the server broke HTTP: an end of stream, a reset, a broken pipe."""
    if attempt.answered:
        return False
    if isinstance(exc, httpx.RemoteProtocolError):
        return "server disconnected" in str(exc).lower()
    return isinstance(exc, httpx.ReadError | httpx.WriteError)


def _worth_retrying(request: httpx.Request, attempt: _Attempt, exc: httpx.TransportError) -> bool:
    return (
        attempt.reused is True
        and _closed_before_answer(attempt, exc)
        and request.method in IDEMPOTENT
        and isinstance(request.stream, httpx.ByteStream)  # a body that can be sent again
    )


async def send(http: httpx.AsyncClient, request: httpx.Request) -> httpx.Response:
    """Send ``request`` through ``http`` (streamed, no redirects followed), once more on
    a new connection when the kept-alive one was closed before any answer came and
    the method is idempotent. :func:`retried` says afterwards whether it was.

    Raises what httpx raises (the second attempt's failure, when there was one).
    """
    forget(request)
    response, attempt, failure = await _attempt(http, request)
    if response is not None:
        return response
    assert failure is not None
    if not _worth_retrying(request, attempt, failure):
        raise failure
    reason = " ".join(str(failure).split()) or "the connection was reset"
    response, again, failure = await _attempt(http, request)
    where = ", on a new connection" if again.reused is False else ""
    request.extensions[_RETRIED] = (
        f"the server closed the kept-alive connection as the request went out, before any "
        f"answer ({reason}); {request.method} is idempotent, so it was sent again, "
        f"once{where}."
    )
    if response is None:
        assert failure is not None
        raise failure
    return response


def forget(request: httpx.Request) -> None:
    """Drop what an earlier send recorded on ``request``: a redirect's next hop copies
    the extensions of the hop before it, and a cache's reuse sends nothing."""
    request.extensions.pop(_RETRIED, None)
    request.extensions.pop(_REUSED, None)


def retried(request: httpx.Request) -> str | None:
    """Why :func:`send` sent ``request`` a second time (a clause: "the server closed
    the kept-alive connection …"), or None when it did not."""
    note = request.extensions.get(_RETRIED)
    return note if isinstance(note, str) else None


def connection_reused(request: httpx.Request) -> bool | None:
    """Whether the last attempt to send ``request`` went out on a connection opened
    before it (None: the transport did not say)."""
    reused = request.extensions.get(_REUSED)
    return reused if isinstance(reused, bool) else None
