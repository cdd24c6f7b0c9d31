"""Host check layer: a request naming a host this server is not known by gets 421.

The rule is :class:`mock_server.http.hosts.HostRule` (loopback names, the
``--host`` listened on, ``--allowed-host``): it is what keeps a web page that
rebinds its own name to 127.0.0.1 from reading the mock. Modelled on
Starlette's ``TrustedHostMiddleware``, but the answer is ``421 Misdirected
Request`` with a problem body naming the hosts answered, IPv6 hosts are read
whole, and a malformed or repeated ``Host`` is a 400 (RFC 9112 §3.2).

Right inside the protocol limits, which make an absolute-form target's
authority the ``Host`` (RFC 9112 §3.2.2); over HTTP/2 Hypercorn gives
``:authority`` as ``Host``, so one check covers both. ``CONNECT`` passes: its
target and ``Host`` name the tunnel's far end, not this server, and the method
policy refuses it (405) whatever they say.
"""

from __future__ import annotations

from http import HTTPStatus

from starlette.types import ASGIApp, Receive, Scope, Send

from mock_server.http.hosts import BadHost, HostRule, host_of
from mock_server.http.problems import Problem
from mock_server.service import Service

#: Host values decided, kept so a server pays the parsing once per name it is called by.
DECIDED_LIMIT = 256


class HostCheckLayer:
    """Answers 421 to a request whose ``Host`` is not one of the server's names."""

    def __init__(self, app: ASGIApp, service: Service) -> None:
        self.app = app
        settings = service.settings
        self.rule = HostRule.for_server(settings.host, settings.allowed_hosts)
        self._decided: dict[tuple[bytes, str | None], Problem | None] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] == "CONNECT":
            await self.app(scope, receive, send)
            return
        values = [value for name, value in scope["headers"] if name == b"host"]
        problem: Problem | None
        if len(values) > 1:
            problem = Problem(
                HTTPStatus.BAD_REQUEST, "The request has more than one Host header; send one."
            )
        elif not values:
            problem = None  # HTTP/1.0 needs none; h11 refuses an HTTP/1.1 request without
        else:
            problem = self._decide(values[0], scope.get("server"))
        if problem is None:
            await self.app(scope, receive, send)
            return
        await problem.response(scope)(scope, receive, send)

    def _decide(self, value: bytes, server: object) -> Problem | None:
        """The problem with ``Host: value`` on a connection that reached ``server``."""
        local = server[0] if isinstance(server, tuple | list) and server else None
        reached = local if self.rule.every_address and isinstance(local, str) else None
        key = (value, reached)
        if key in self._decided:
            return self._decided[key]
        found = self._problem(value.decode("latin-1"), reached)
        if len(self._decided) >= DECIDED_LIMIT:
            self._decided.clear()
        self._decided[key] = found
        return found

    def _problem(self, value: str, reached: str | None) -> Problem | None:
        try:
            host = host_of(value)
        except BadHost as error:
            return Problem(HTTPStatus.BAD_REQUEST, f"The Host header is malformed: {error}.")
        if self.rule.allows(host, reached):
            return None
        answered = self.rule.described()
        return Problem(
            HTTPStatus.MISDIRECTED_REQUEST,
            f"This server does not answer to the name {host!r}; it answers to "
            f"{', '.join(answered)}. A name it does not know is how a web page reaches "
            "a server on your machine (DNS rebinding); if the name is yours, start the "
            f"server with --allowed-host {host}.",
            extra={"host": host, "allowedHosts": answered},
        )
