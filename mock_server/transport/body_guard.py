"""Request bodies under Hypercorn (``--http2``): the deadlines, and read to the end.

The uvicorn protocols of :mod:`mock_server.transport.h11_protocol` bound a request body
twice: ``408`` when nothing arrives for ``keep_alive_seconds`` (a stall), and
``408`` when the whole body has not arrived ``body_timeout_seconds`` after the
head. Hypercorn has neither, so :class:`BodyGuard` wraps the app it serves
and applies both to ``receive``: a late message raises a 408 problem, which
the app answers like any other.

It also works around what Hypercorn 0.18 does with an HTTP/2 request answered
before its body was read (a ``401`` or ``413`` decided from the head): once
the response has ended, Hypercorn forgets the stream, and the next ``DATA``
frame the client sends for it ends the whole connection (a ``KeyError`` in
its frame handler). So on HTTP/2 the guard sends the response's bytes at
once, but ends the stream only after reading what is left of the request
body, within the same deadlines.
"""

from __future__ import annotations

import asyncio
import contextlib
from http import HTTPStatus

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mock_server.http.problems import Problem
from mock_server.settings import Settings


class BodyTimeout(Problem):
    """A request body that stalled or outlasted its deadline."""

    def __init__(self, detail: str) -> None:
        super().__init__(HTTPStatus.REQUEST_TIMEOUT, detail, headers={"Connection": "close"})


class BodyGuard:
    """The request body within the deadlines of ``settings``, and on HTTP/2 read to its end."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.stall = settings.keep_alive_seconds
        self.deadline = settings.body_timeout_seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.deadline
        complete = False

        async def receive_in_time() -> Message:
            nonlocal complete
            if complete:  # after the body: only the disconnect is left, unbounded
                return await receive()
            left = deadline - loop.time()
            try:
                async with asyncio.timeout(max(0.0, min(self.stall, left))):
                    message = await receive()
            except TimeoutError:
                complete = True
                if left <= self.stall:
                    raise BodyTimeout(
                        f"The request body did not arrive within {self.deadline:g} s."
                    ) from None
                raise BodyTimeout(
                    f"The request body stalled: nothing arrived for {self.stall:g} s."
                ) from None
            complete = message["type"] != "http.request" or not message.get("more_body", False)
            return message

        async def send_after_the_body(message: Message) -> None:
            if message["type"] != "http.response.body" or message.get("more_body", False):
                await send(message)
                return
            if not complete:
                await send({**message, "more_body": True})
                message = {"type": "http.response.body", "body": b"", "more_body": False}
                with contextlib.suppress(BodyTimeout):
                    while not complete:
                        await receive_in_time()
            await send(message)

        http2 = scope.get("http_version") == "2"
        await self.app(scope, receive_in_time, send_after_the_body if http2 else send)
