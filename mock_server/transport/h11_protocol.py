"""uvicorn's h11 protocol, answering what it refuses with problem bodies.

uvicorn parses HTTP/1.1 with h11 and answers a request h11 cannot parse
(malformed request line, header line without a colon, bad or conflicting
``Content-Length``, unsupported ``Transfer-Encoding``, a head too large) with
a bare ``400 Bad Request`` in text/plain. :class:`MockH11Protocol` keeps
uvicorn's behaviour but answers with the status h11 suggests (400, 414, 431,
501) and an RFC 9457 problem body, like every other error of the mock server.

It also closes three gaps of the stock protocol:

- **Slow clients.** uvicorn's keep-alive timer runs only between requests and
  stops at the first byte received, so a client that connects and sends
  nothing, or dribbles a request head byte by byte, holds a connection
  forever. Here the timer starts when the connection opens and after each
  response, and only a *complete* request head stops it: a silent client is
  disconnected after ``keep_alive_seconds``, a client that sent part of a head
  gets ``408 Request Timeout``. Likewise a body that stops arriving for that
  long (the client is not waiting for ``100 Continue``) gets a 408.
- **Closing before the request is read** (a 413 by ``Content-Length``, a
  parse error): the connection closes in two steps
  (:mod:`mock_server.transport.lingering`), so the client reads the answer instead of
  a connection reset.
- **Truncated bodies.** When a client half-closes its side before sending all
  of the body it announced, h11 learns of the end of input and the client gets
  a ``400`` explaining how much arrived, instead of a silent close.

The protocol reads the settings from :class:`~mock_server.transport.http1.MockConfig`,
uvicorn's ``Config`` with the mock server's :class:`~mock_server.settings.Settings`
attached. The httptools protocol hands it what llhttp refuses, and imports it then.
"""

from __future__ import annotations

import asyncio
import re
import sys
from http import HTTPStatus
from typing import Any, cast

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.server import ServerState

from mock_server.http.statuses import use_rfc9110_phrases_in_h11
from mock_server.settings import Settings
from mock_server.transport.http1 import GENERIC_DETAIL, MockConfig, problem_bytes
from mock_server.transport.lingering import LingeringTransport

# uvicorn writes status lines from Python's HTTPStatus, whose names for 413, 414, 416
# and 422 changed in 3.13: the mock says RFC 9110's names on every Python.
use_rfc9110_phrases_in_h11()

#: h11's error messages (by prefix) and what the client is told instead. h11's
#: own text is never echoed: it can quote a header line, credentials included.
_DETAILS: tuple[tuple[str, str], ...] = (
    ("illegal request line", "The request line is malformed; expected 'METHOD target HTTP/1.1'."),
    ("no request line", "The request has no request line."),
    ("illegal header line", "A header line is malformed; each must be 'Name: value'."),
    ("continuation line", "Header lines must not be folded (obsolete line folding)."),
    ("Illegal header", "A header name or value contains characters HTTP does not allow."),
    ("bad Content-Length", "Content-Length must be a single non-negative whole number."),
    (
        "conflicting Content-Length",
        "Content-Length is given twice, with different values.",
    ),
    ("Missing mandatory Host", "An HTTP/1.1 request must carry a Host header."),
    ("Found multiple Host", "The request carries more than one Host header."),
    ("multiple Transfer-Encoding", "Transfer-Encoding is given more than once."),
    ("Only Transfer-Encoding", "The only transfer coding this server understands is chunked."),
    ("illegal chunk header", "The chunked body is malformed (bad chunk size line)."),
    ("malformed chunk footer", "The chunked body is malformed (chunk not followed by CRLF)."),
    ("Illegal method", "The method is not a valid token."),
    ("Illegal target", "The request target contains characters HTTP does not allow."),
)
_TRUNCATED = re.compile(r"received (\d+) bytes, expected (\d+)")


def describe(error: h11.ProtocolError, settings: Settings, head: bytes) -> tuple[int, str]:
    """The status and problem detail for an h11 parsing error.

    ``head`` is what h11 has buffered of the request; for a head too large it
    tells a long request line (414) from a large header section (431).
    """
    message = str(error)
    if error.error_status_hint == HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE:
        line_end = head.find(b"\r\n")
        line_length = len(head) if line_end < 0 else line_end
        if line_length > settings.max_uri_length:
            return (
                HTTPStatus.REQUEST_URI_TOO_LONG,
                f"The request target is longer than {settings.max_uri_length} bytes.",
            )
        return (
            HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE,
            f"The request head is larger than {settings.max_header_size} bytes.",
        )
    truncated = _TRUNCATED.search(message)
    if truncated:
        got, expected = truncated.groups()
        return (
            HTTPStatus.BAD_REQUEST,
            f"The connection ended after {got} of the {expected} body bytes that "
            "Content-Length announced.",
        )
    if "closed" in message:
        return HTTPStatus.BAD_REQUEST, "The connection ended before the request was complete."
    status = (
        HTTPStatus.NOT_IMPLEMENTED
        if error.error_status_hint == HTTPStatus.NOT_IMPLEMENTED
        else HTTPStatus.BAD_REQUEST
    )
    for prefix, detail in _DETAILS:
        if message.startswith(prefix):
            return status, detail
    return status, GENERIC_DETAIL


class MockH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with problem bodies, a head timeout and truncation answers."""

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
        self.body_timer: asyncio.TimerHandle | None = None
        self.body_deadline: asyncio.TimerHandle | None = None

    def connection_made(  # type: ignore[override]
        self, transport: asyncio.Transport
    ) -> None:
        self.lingering_transport = LingeringTransport(
            transport, self._client_may_be_sending, self.loop
        )
        super().connection_made(self.lingering_transport)
        self._arm_timer()

    def _unsupported_upgrade_warning(self) -> None:
        # RFC 9110 §7.8: a server may ignore Upgrade. The mock answers every request
        # in HTTP/1.1 (no WebSocket, no h2c upgrade; h2 is for TLS servers), so an
        # ``Upgrade`` header from curl --http2 or a WebSocket client is no warning.
        self.logger.debug("Upgrade to %r ignored: answering in HTTP/1.1", self._get_upgrade())

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        self.lingering_transport.finish()
        self._stop_body_timer()
        self._stop_body_deadline()

    def data_received(self, data: bytes) -> None:
        if self.lingering_transport.lingering:
            return  # the rest of a request already answered: discarded
        # Unlike uvicorn, bytes alone do not stop the timer: a complete request
        # head does (uvicorn's handle_events stops it on each h11.Request).
        self.conn.receive_data(data)
        self.handle_events()
        self._watch_body()

    def eof_received(self) -> None:
        """The client closed its sending side: if a body was still due, say so."""
        if self.lingering_transport.lingering:
            self.lingering_transport.finish()
        elif self.conn.their_state is h11.SEND_BODY:
            self.conn.receive_data(b"")
            self.handle_events()

    def _client_may_be_sending(self) -> bool:
        """True when closing now could reset the connection under the client's feet."""
        return self.conn.their_state in (h11.SEND_BODY, h11.ERROR)

    def send_400_response(self, msg: str) -> None:
        """Answer an h11 parsing error with a problem body (called in an except block)."""
        error = sys.exc_info()[1]
        if isinstance(error, h11.ProtocolError):
            head, _ = self.conn.trailing_data
            status, detail = describe(error, self.settings, head)
        else:
            status, detail = HTTPStatus.BAD_REQUEST, GENERIC_DETAIL
        self._answer_and_close(status, detail)

    def timeout_keep_alive_handler(self) -> None:
        """Idle too long: close, with a 408 if part of a request head had arrived."""
        if self.transport.is_closing():
            return
        pending, _ = self.conn.trailing_data
        if pending and self.conn.their_state is h11.IDLE:
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
        self._stop_body_timer()
        sending = self.conn.their_state is h11.SEND_BODY
        if sending and self.body_deadline is None:
            self.body_deadline = self.loop.call_later(
                self.settings.body_timeout_seconds, self._body_too_slow
            )
        elif not sending and self.body_deadline is not None:
            self.body_deadline.cancel()
            self.body_deadline = None
        waiting = self.cycle is not None and self.cycle.waiting_for_100_continue
        if (
            sending
            and not waiting
            and not self.flow.read_paused
            and not self.transport.is_closing()
        ):
            self.body_timer = self.loop.call_later(self.timeout_keep_alive, self._body_stalled)

    def _stop_body_timer(self) -> None:
        if self.body_timer is not None:
            self.body_timer.cancel()
            self.body_timer = None

    def _stop_body_deadline(self) -> None:
        if self.body_deadline is not None:
            self.body_deadline.cancel()
            self.body_deadline = None

    def _body_too_slow(self) -> None:
        self.body_deadline = None
        if self.conn.their_state is h11.SEND_BODY and not self.transport.is_closing():
            self._answer_and_close(
                HTTPStatus.REQUEST_TIMEOUT,
                f"The request body did not arrive within {self.settings.body_timeout_seconds:g} s.",
            )

    def _body_stalled(self) -> None:
        self.body_timer = None
        if self.conn.their_state is h11.SEND_BODY and not self.transport.is_closing():
            self._answer_and_close(
                HTTPStatus.REQUEST_TIMEOUT,
                "The request body stalled: nothing arrived for "
                f"{self.settings.keep_alive_seconds:g} s.",
            )

    def _arm_timer(self) -> None:
        self._unset_keepalive_if_required()
        self.timeout_keep_alive_task = self.loop.call_later(
            self.timeout_keep_alive, self.timeout_keep_alive_handler
        )

    def _answer_and_close(self, status: int, detail: str) -> None:
        """Write a problem response (unless one is under way) and close the connection."""
        # h11 tracks our side even after the client's error: past SEND_RESPONSE,
        # this request already has (part of) an answer, and a second one would lie.
        answered = self.conn.our_state not in (h11.IDLE, h11.SEND_RESPONSE)
        cycle = self.cycle
        if cycle is not None and not cycle.response_complete:
            # The application may still be reading the body: it gets a disconnect,
            # and whatever it sends later is dropped.
            cycle.disconnected = True
            cycle.message_event.set()
        if not answered:
            self.transport.write(problem_bytes(status, detail))
        self.transport.close()
