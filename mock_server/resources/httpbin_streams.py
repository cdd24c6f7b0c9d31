"""httpbin's slow and streaming endpoints, bounded so a server can always shut down.

- ``/delay/{n}``: waits n seconds (at most :data:`MAX_DELAY`), then echoes;
- ``/drip?duration=&numbytes=&code=&delay=``: ``numbytes`` asterisks spread
  over ``duration`` seconds, after ``delay``, with status ``code``;
- ``/bytes/{n}``: n random bytes (``?seed=`` makes them repeatable);
- ``/stream/{n}``: n JSON lines, one per chunk.

Out-of-bounds values answer 400 naming the parameter and its bounds, as the
collections do (httpbin clamps silently; a mock should say so).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from http import HTTPStatus

import orjson
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import BaseRoute, Route

from mock_server.http.problems import Problem
from mock_server.resources.httpbin import ANY_METHOD, echo, json_response
from mock_server.service import Service

MAX_DELAY = 10.0
MAX_DRIP_BYTES = 10 * 1024 * 1024
MAX_BYTES = 100 * 1024
MAX_LINES = 100
#: Streamed answers pass the conditional and compression layers as they come.
STREAMED = {"Cache-Control": "no-store, no-transform"}


def _bad(name: str, detail: str) -> Problem:
    return Problem(HTTPStatus.BAD_REQUEST, detail, extra={"parameter": name})


def seconds(raw: str, name: str, high: float = MAX_DELAY) -> float:
    """A number of seconds from 0 to ``high``; a 400 problem otherwise."""
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not 0 <= value <= high:
        raise _bad(name, f"{name} must be a number of seconds from 0 to {high:g}, got {raw!r}.")
    return value


def count(raw: str, name: str, high: int, low: int = 0) -> int:
    """A whole number from ``low`` to ``high``; a 400 problem otherwise."""
    if not raw.isascii() or not raw.isdigit() or not low <= int(raw) <= high:
        raise _bad(name, f"{name} must be a whole number from {low} to {high}, got {raw!r}.")
    return int(raw)


def _known(request: Request, allowed: tuple[str, ...]) -> None:
    for name in request.query_params:
        if name not in allowed:
            raise _bad(
                name,
                f"Unknown query parameter {name!r} for {request.url.path}; "
                f"it takes {', '.join(allowed) or 'none'}.",
            )


def routes(service: Service) -> list[BaseRoute]:
    """The streaming httpbin routes."""

    async def delay(request: Request) -> Response:
        wait = seconds(request.path_params["n"], "n")
        await asyncio.sleep(wait)
        document = await echo(request)
        del document["json"], document["method"]
        return json_response(document)

    async def drip(request: Request) -> Response:
        _known(request, ("duration", "numbytes", "code", "delay"))
        query = request.query_params
        duration = seconds(query.get("duration", "2"), "duration")
        numbytes = count(query.get("numbytes", "10"), "numbytes", MAX_DRIP_BYTES, low=1)
        code = count(query.get("code", "200"), "code", 599, low=200)
        wait = seconds(query.get("delay", "0"), "delay")
        await asyncio.sleep(wait)
        pause = duration / numbytes

        async def body() -> AsyncIterator[bytes]:
            for index in range(numbytes):
                if index and pause:
                    await asyncio.sleep(pause)
                yield b"*"

        headers = {**STREAMED, "Content-Length": str(numbytes)}
        return StreamingResponse(
            body(), code, headers=headers, media_type="application/octet-stream"
        )

    async def random_bytes(request: Request) -> Response:
        _known(request, ("seed",))
        size = count(request.path_params["n"], "n", MAX_BYTES)
        seed = request.query_params.get("seed")
        source = random.Random(count(seed, "seed", 2**63) if seed is not None else None)
        return Response(source.randbytes(size), media_type="application/octet-stream")

    async def stream(request: Request) -> Response:
        lines = count(request.path_params["n"], "n", MAX_LINES)
        document = await echo(request)
        shown = {key: document[key] for key in ("url", "args", "headers", "origin")}

        async def body() -> AsyncIterator[bytes]:
            for index in range(lines):
                yield orjson.dumps({**shown, "id": index}) + b"\n"

        return StreamingResponse(body(), headers=STREAMED, media_type="application/json")

    return [
        Route("/delay/{n}", delay, methods=ANY_METHOD),
        Route("/drip", drip, methods=["GET"]),
        Route("/bytes/{n}", random_bytes, methods=["GET"]),
        Route("/stream/{n}", stream, methods=["GET"]),
    ]
