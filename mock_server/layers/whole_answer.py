"""A layer's way to read an answer whole before deciding what goes out.

The conditional layer (to tag a 200 and answer 304 or 412) and the range layer (to cut
a 206 or 416) each need a 200's whole body before they can decide; every other answer
goes through untouched, as it comes. :func:`read_whole` runs the app with that split:
``wanted`` looks at the answer's start, and an answer it wants is held (start and body,
its chunks joined) and handed to ``finish``, which sends what goes out instead.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["read_whole"]


async def read_whole(
    app: ASGIApp,
    scope: Scope,
    receive: Receive,
    send: Send,
    wanted: Callable[[Message], bool],
    finish: Callable[[Message, bytes], Awaitable[None]],
) -> None:
    """Run ``app``; an answer whose start ``wanted`` accepts goes to ``finish`` whole
    (its start and its body), any other straight to ``send``."""
    start: Message | None = None
    chunks: list[bytes] = []
    passing = False

    async def capture(message: Message) -> None:
        nonlocal start, passing
        if passing:
            await send(message)
        elif message["type"] == "http.response.start":
            if wanted(message):
                start = message
            else:
                passing = True
                await send(message)
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                assert start is not None
                await finish(start, b"".join(chunks))
        else:
            await send(message)

    await app(scope, receive, capture)
