"""uvicorn's httptools protocol, fast, with every refusal answered as the h11 one does.

llhttp (through httptools) parses HTTP/1.1 about three times faster than h11,
but it refuses more than h11 does, and differently: an unknown method token
(``BREW / HTTP/1.1``) or an odd version (``HTTP/2.5``) is a parse error to it,
where the mock server must answer 501 and 505 from the application; it has no
limit on the size of a request head; and uvicorn answers its errors with a
bare ``400`` in text/plain.

:class:`MockHttpToolsProtocol` keeps llhttp for requests it accepts and, for
the rest, **hands the connection over** to
:class:`~mock_server.transport.h11_protocol.MockH11Protocol`:
while a request head is being read, its bytes are kept, and when llhttp
refuses the head, or the head grows past the size h11 would buffer, the h11
protocol takes the transport and is fed those bytes. Whatever it answers
(the app's 501 or 505, its own 400, 414 or 431 problem bodies) is what the
h11 server answered before, by the same code. A connection handed over stays
with h11; such requests are rare and never the fast path.

Past the head, llhttp's decisions stand, and this class answers them with the
same problem bodies as the h11 protocol: a malformed chunked body (400), a
body cut short by the client closing its side (400, saying how much arrived),
a head that does not complete in time (408), a body that stalls (408) or does
not complete within the overall deadline (408).

Pipelined requests whose head begins in the same read as the end of the
previous request are parsed fine; only if llhttp refuses such a head is the
original unknown, and the answer is a generic 400 problem.
"""

from __future__ import annotations

import asyncio
import re
from http import HTTPStatus
from typing import Any, Literal, cast
from urllib.parse import unquote

import httptools
import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.server import ServerState

from mock_server.http.statuses import use_rfc9110_phrases_in_httptools
from mock_server.settings import Settings
from mock_server.transport.http1 import GENERIC_DETAIL, MockConfig, problem_bytes
from mock_server.transport.lingering import LingeringTransport

# uvicorn writes status lines from Python's HTTPStatus, whose names for 413, 414, 416
# and 422 changed in 3.13: the mock says RFC 9110's names on every Python.
use_rfc9110_phrases_in_httptools()

#: Where in a request the parser is: before a request, in its head, in its body.
_State = Literal["idle", "head", "body"]
_CHUNK_ERROR = re.compile(r"chunk", re.IGNORECASE)
#: The versions llhttp's reading is trusted for; h11 reads any other request line.
_PARSED_VERSIONS = frozenset({"1.0", "1.1"})


class _Refuse(Exception):
    """Raised in a parser callback: stop, and let h11 read this request head."""


def _as_h11_would(version: str, headers: list[tuple[bytes, bytes]]) -> bool:
    """True when h11 would accept a head llhttp accepted (the rest go to h11).

    llhttp reads ``GET /`` as HTTP/0.9 and takes ``HTTP/2.0``; it lets a request
    without ``Host``, or with two, through; and it refuses an unknown transfer
    coding only after the head, when the request is under way. h11 answers all
    of these as the mock server always did (400, 501, or the app's 505).
    """
    if version not in _PARSED_VERSIONS:
        return False
    hosts = 0
    framing = 0
    for name, value in headers:
        if name == b"host":
            hosts += 1
        elif name == b"transfer-encoding":
            if value.strip().lower() != b"chunked":
                return False
            framing += 1
        elif name == b"content-length":
            framing += 1
    return hosts <= 1 and (hosts == 1 or version == "1.0") and framing <= 1


class MockHttpToolsProtocol(HttpToolsProtocol):
    """llhttp for the requests it accepts; the h11 protocol for the ones it refuses."""

    def __init__(
        self,
        config: uvicorn.Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.settings = config.settings if isinstance(config, MockConfig) else Settings()
        # uvicorn annotates the timeout as int, but only hands it to loop.call_later,
        # which takes fractions of a second: tests use short ones.
        self.timeout_keep_alive = cast(int, self.settings.keep_alive_seconds)
        self.max_head_size = config.h11_max_incomplete_event_size or 16 * 1024
        self.state: _State = "idle"
        # The bytes of the head being read, for the h11 protocol if llhttp refuses it
        # (None: the head began inside a read, after a pipelined request: unknown).
        self.head_parts: list[bytes] | None = None
        self.head_size = 0
        self.body_received = 0
        self.body_timer: asyncio.TimerHandle | None = None
        self.body_deadline: asyncio.TimerHandle | None = None
        #: Bytes llhttp refused after a request whose answer is still under way (a
        #: POST without Content-Length, its body right behind it): that answer goes
        #: out first, then this 400, and the connection closes.
        self.refusal_after: str | None = None

    # Connection ----------------------------------------------------------------------

    def connection_made(  # type: ignore[override]
        self, transport: asyncio.Transport
    ) -> None:
        self.lingering_transport = LingeringTransport(
            transport, self._client_may_be_sending, self.loop
        )
        super().connection_made(self.lingering_transport)
        # uvicorn starts the keep-alive timer only after a response; a client that
        # connects and never sends a request is idle too.
        self._arm_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        self.lingering_transport.finish()
        self._stop_body_timers()

    def _unsupported_upgrade_warning(self) -> None:
        # As in MockH11Protocol: RFC 9110 §7.8 lets a server ignore Upgrade.
        self.logger.debug("Upgrade to %r ignored: answering in HTTP/1.1", self._get_upgrade())

    def _client_may_be_sending(self) -> bool:
        """True when closing now could reset the connection under the client's feet."""
        return self.state != "idle"

    def data_received(self, data: bytes) -> None:
        if self.lingering_transport.lingering or self.refusal_after is not None:
            return  # the rest of a request already answered, or refused: discarded
        # Unlike uvicorn, bytes alone do not stop the keep-alive timer: a complete
        # request head does (on_headers_complete).
        if self.state == "idle":
            self.head_parts = [data]
            self.head_size = len(data)
        elif self.state == "head":
            if self.head_parts is not None:
                self.head_parts.append(data)
            self.head_size += len(data)
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserUpgrade:
            self._unsupported_upgrade_warning()
        except httptools.HttpParserError as error:
            self._refused(error)
            return
        if self.state == "head" and self.head_size > self.max_head_size:
            self._refused(None)
            return
        self._watch_body()

    def eof_received(self) -> None:
        """The client closed its sending side: if a body was still due, say so."""
        if self.lingering_transport.lingering:
            self.lingering_transport.finish()
        elif self.state == "body":
            expected = self._content_length()
            if expected is None:
                detail = "The connection ended before the request was complete."
            else:
                detail = (
                    f"The connection ended after {self.body_received} of the {expected} "
                    "body bytes that Content-Length announced."
                )
            self._answer_and_close(HTTPStatus.BAD_REQUEST, detail)

    # Parser callbacks ------------------------------------------------------------------

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self.state != "idle" or self.head_parts is None:
            self.head_parts = None  # began after a pipelined request, inside one read
        self.state = "head"
        self.body_received = 0

    def on_headers_complete(self) -> None:
        if not _as_h11_would(self.parser.get_http_version(), self.headers):
            raise _Refuse
        super().on_headers_complete()
        self.state = "body"
        self.head_parts = None
        self.head_size = 0
        self._unset_keepalive_if_required()
        if not self.url.startswith(b"/") and self.url != b"*":
            # An absolute-form target (RFC 9112 §3.2.2): uvicorn keeps only its path;
            # the mock's protocol-limits layer wants all of it, as h11 gives it.
            raw_path, _, _ = self.url.partition(b"?")
            self.scope["raw_path"] = raw_path
            self.scope["path"] = unquote(raw_path.decode("ascii"))
        if self._content_length() != 0:
            self.body_deadline = self.loop.call_later(
                self.settings.body_timeout_seconds, self._body_too_slow
            )

    def on_body(self, body: bytes) -> None:
        self.body_received += len(body)
        super().on_body(body)

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self.state = "idle"
        self.head_parts = None
        self.head_size = 0
        self._stop_body_timers()

    # Refusals --------------------------------------------------------------------------

    def _refused(self, error: httptools.HttpParserError | None) -> None:
        """llhttp refused the request (or its head grew too large): h11 decides the head."""
        previous_done = self.cycle is None or self.cycle.response_complete
        if self.state in ("idle", "head") and self.head_parts is not None and previous_done:
            self._hand_over(b"".join(self.head_parts))
            return
        detail = GENERIC_DETAIL
        if error is not None and self.state == "body" and _CHUNK_ERROR.search(str(error)):
            detail = "The chunked body is malformed."
        if self.state != "body" and not previous_done:
            self.refusal_after = detail  # after the answer under way (on_response_complete)
            self._stop_body_timers()
            return
        self.state = "body" if self.state == "body" else "head"
        self._answer_and_close(HTTPStatus.BAD_REQUEST, detail)

    def on_response_complete(self) -> None:
        detail, self.refusal_after = self.refusal_after, None
        if detail is None:
            super().on_response_complete()
            return
        self.server_state.total_requests += 1
        self.state = "head"
        self._answer_and_close(HTTPStatus.BAD_REQUEST, detail)

    def _hand_over(self, head: bytes) -> None:
        """Let the h11 protocol serve this connection, from the start of this head on."""
        self._unset_keepalive_if_required()
        self._stop_body_timers()
        self.connections.discard(self)
        # Imported with the first request llhttp refuses (rare): h11 and uvicorn's h11
        # protocol are some 9 ms of every start otherwise (see mock_server.transport.http1).
        from mock_server.transport.h11_protocol import MockH11Protocol

        transport = self.lingering_transport.inner
        protocol = MockH11Protocol(self.config, self.server_state, self.app_state, self.loop)
        transport.set_protocol(protocol)
        protocol.connection_made(transport)
        protocol.data_received(head)

    def _content_length(self) -> int | None:
        """The announced body length: None for chunked, 0 for none."""
        length = 0
        for name, value in self.headers:
            if name == b"transfer-encoding":
                return None
            if name == b"content-length" and value.isdigit():
                length = int(value)  # llhttp lets only a valid one through
        return length

    def _answer_and_close(self, status: int, detail: str) -> None:
        """Write a problem response (unless an answer is under way) and close."""
        cycle = self.cycle
        if self.state == "body":
            answered = cycle is not None and cycle.response_started
        else:
            # A head of a new request: the previous response must be complete first.
            answered = cycle is not None and not cycle.response_complete
        if cycle is not None and not cycle.response_complete:
            # The application may still be reading the body: it gets a disconnect,
            # and whatever it sends later is dropped.
            cycle.disconnected = True
            cycle.message_event.set()
        if not answered:
            self.transport.write(problem_bytes(status, detail))
        self._stop_body_timers()
        self.transport.close()

    # Timers ----------------------------------------------------------------------------

    def _arm_timer(self) -> None:
        self._unset_keepalive_if_required()
        self.timeout_keep_alive_task = self.loop.call_later(
            self.timeout_keep_alive, self.timeout_keep_alive_handler
        )

    def timeout_keep_alive_handler(self) -> None:
        """Idle too long: close, with a 408 if part of a request head had arrived."""
        if self.transport.is_closing():
            return
        if self.state == "head" or (self.state == "idle" and self.head_size):
            self.state = "head"
            self._answer_and_close(
                HTTPStatus.REQUEST_TIMEOUT,
                f"The request head did not arrive within {self.settings.keep_alive_seconds:g} s.",
            )
            return
        super().timeout_keep_alive_handler()

    def _watch_body(self) -> None:
        """While a body is due, the client must keep sending: each chunk restarts the clock.

        Not while the client waits for ``100 Continue``, nor while reading is paused
        because the application has not consumed what came (uvicorn's flow control).
        """
        if self.body_timer is not None:
            self.body_timer.cancel()
            self.body_timer = None
        waiting = self.cycle is not None and self.cycle.waiting_for_100_continue
        if (
            self.state == "body"
            and not waiting
            and not self.flow.read_paused
            and not self.transport.is_closing()
        ):
            self.body_timer = self.loop.call_later(self.timeout_keep_alive, self._body_stalled)

    def _stop_body_timers(self) -> None:
        for timer in (self.body_timer, self.body_deadline):
            if timer is not None:
                timer.cancel()
        self.body_timer = self.body_deadline = None

    def _body_stalled(self) -> None:
        self.body_timer = None
        if self.state == "body" and not self.transport.is_closing():
            self._answer_and_close(
                HTTPStatus.REQUEST_TIMEOUT,
                "The request body stalled: nothing arrived for "
                f"{self.settings.keep_alive_seconds:g} s.",
            )

    def _body_too_slow(self) -> None:
        self.body_deadline = None
        if self.state == "body" and not self.transport.is_closing():
            self._answer_and_close(
                HTTPStatus.REQUEST_TIMEOUT,
                f"The request body did not arrive within {self.settings.body_timeout_seconds:g} s.",
            )
