"""How a ``.http`` request goes (:mod:`explorer.core.httpfile.sending`), without a terminal:
its directives over the command line's settings, and its own cookie jar."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx

from explorer.core.http.client import Client
from explorer.core.httpfile import parse_http
from explorer.core.httpfile.resolve import ResolvedRequest, resolve_request
from explorer.core.httpfile.sending import how_to_send, send_resolved
from explorer.core.httpfile.variables import VariableSources
from explorer.core.httpfile.versions import Protocol

HTTP1 = Protocol(http2=False)


def _resolve(text: str) -> ResolvedRequest:
    parsed = parse_http(text, "/tmp/api.http")
    assert parsed.problems == ()
    return resolve_request(parsed.requests[0], parsed, VariableSources())


def test_a_request_without_directives_goes_as_the_command_line_set_it() -> None:
    resolved = _resolve("GET http://h/a\n")
    how = how_to_send(resolved, resolved.spec, Client(timeout=7.0), HTTP1)
    assert (how.timeout, how.follow_redirects, how.protocol, how.own_jar) == (
        None,
        None,
        HTTP1,
        False,
    )


def test_its_timeouts_redirects_jar_and_version_are_its_own() -> None:
    resolved = _resolve("# @timeout 5\n# @no-redirect\n# @no-cookie-jar\nGET http://h/a HTTP/2\n")
    how = how_to_send(resolved, resolved.spec, Client(timeout=7.0), HTTP1)
    assert (how.timeout, how.follow_redirects, how.own_jar) == (5.0, False, True)
    assert how.protocol == Protocol(http2=True)


def test_a_connection_timeout_keeps_the_others_of_the_request_or_the_client() -> None:
    alone = _resolve("# @connection-timeout 2\nGET http://h/a\n")
    how = how_to_send(alone, alone.spec, Client(timeout=7.0), HTTP1)
    assert how.timeout == httpx.Timeout(7.0, connect=2.0)
    both = _resolve("# @timeout 4\n# @connection-timeout 2\nGET http://h/a\n")
    how = how_to_send(both, both.spec, Client(timeout=7.0), HTTP1)
    assert how.timeout == httpx.Timeout(4.0, connect=2.0)


async def test_a_request_without_the_jar_neither_sends_nor_keeps_the_runs_cookies() -> None:
    seen: list[str | None] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request.headers.get("cookie"))
        return httpx.Response(200, headers={"set-cookie": f"n={len(seen)}; Path=/"})

    transport = httpx.MockTransport(answer)

    @asynccontextmanager
    async def alone() -> AsyncIterator[Client]:
        async with Client(transport=transport) as other:
            yield other

    async with Client(transport=transport) as run:
        plain = _resolve("GET http://h/a\n")
        await send_resolved(how_to_send(plain, plain.spec, run, HTTP1), run, alone)
        jarless = _resolve("# @no-cookie-jar\nGET http://h/a\n")
        await send_resolved(how_to_send(jarless, jarless.spec, run, HTTP1), run, alone)
        await send_resolved(how_to_send(plain, plain.spec, run, HTTP1), run, alone)
    assert seen == [None, None, "n=1"]  # the run's cookie skipped the jarless one, and stayed
