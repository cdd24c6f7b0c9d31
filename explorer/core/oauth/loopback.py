"""Where the browser comes back: the redirect URI on the loopback interface (RFC 8252 7.3).

A native app receives the authorization response by listening on
``http://127.0.0.1:PORT/callback``, a port the system chose: the server accepts any
port on a loopback redirect URI. :class:`LoopbackRedirect` is that listener, the one
socket restwalk listens on, only while a login waits, only on the loopback address,
for one answer. The browser's request is read with h11 (bounded in bytes and time),
and answered with a short page saying whether the login went through, which
escapes everything the server put in the redirect.

When the browser cannot reach it (it runs on another machine, over SSH), the person
pastes the URL the browser was sent to, or only the code: :func:`read_pasted`
reads either. :func:`read_callback` reads what came back, both ways.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlsplit

import h11

from explorer.core.oauth.errors import OAuthSettingsError

__all__ = [
    "DEFAULT_PATH",
    "Callback",
    "LoopbackRedirect",
    "loopback_target",
    "read_callback",
    "read_pasted",
]

#: The path of the redirect URI restwalk listens on when none is given.
DEFAULT_PATH = "/callback"
#: The most bytes of the browser's request read.
MAX_REQUEST = 16_384
#: Seconds a connection may take to send its request.
READ_TIMEOUT = 10.0
_LOOPBACK_BINDS = {"127.0.0.1": "127.0.0.1", "localhost": "127.0.0.1", "[::1]": "::1"}


@dataclass(frozen=True)
class Callback:
    """What came back to the redirect URI: a code, or an error (RFC 6749 4.1.2)."""

    code: str = ""
    state: str | None = None
    #: The issuer, when the server says who sent the browser back (RFC 9207).
    iss: str | None = None
    error: str = ""
    error_description: str = ""
    #: True when the person pasted only the code (no state, no issuer to check).
    bare: bool = False

    def __repr__(self) -> str:
        return (
            f"Callback(code={'****' if self.code else ''!r}, state=..., iss={self.iss!r}, "
            f"error={self.error!r})"
        )


def read_callback(query: str) -> Callback | None:
    """The authorization response in a redirect's query; None when it is neither a code
    nor an error."""
    try:
        pairs = dict(parse_qsl(query, keep_blank_values=True, max_num_fields=50))
    except ValueError:
        return None
    if not pairs.get("code") and not pairs.get("error"):
        return None
    return Callback(
        code=pairs.get("code", ""),
        state=pairs.get("state"),
        iss=pairs.get("iss"),
        error=pairs.get("error", ""),
        error_description=pairs.get("error_description", ""),
    )


def read_pasted(text: str) -> Callback | None:
    """What a person pasted: the URL the browser was sent to, or only the code; None when
    it is neither."""
    text = text.strip()
    if not text:
        return None
    if "://" in text or text.startswith(("?", "/")):
        parts = urlsplit(text)
        return read_callback(parts.query or parts.fragment)
    if any(char.isspace() for char in text) or "=" in text or len(text) > 4096:
        return read_callback(text) if "code=" in text or "error=" in text else None
    return Callback(code=text, bare=True)


def loopback_target(redirect_url: str) -> tuple[str, int, str] | None:
    """The address, port and path to listen on for ``redirect_url`` (empty: restwalk's
    own on a free port); None when it is not on the loopback interface (then the
    person pastes the redirected URL)."""
    if not redirect_url:
        return "127.0.0.1", 0, DEFAULT_PATH
    parts = urlsplit(redirect_url)
    host = parts.netloc.rpartition("@")[2]
    host, _, port_text = host.rpartition(":") if not host.endswith("]") else (host, "", "")
    if not host:
        host, port_text = port_text, ""
    bind = _LOOPBACK_BINDS.get(host.lower())
    if parts.scheme != "http" or bind is None:
        return None
    try:
        port = int(port_text) if port_text else 0
    except ValueError:
        raise OAuthSettingsError(f"The redirect URL {redirect_url!r} has a bad port.") from None
    return bind, port, parts.path or "/"


def _page(title: str, text: str) -> bytes:
    """A small page of our own words (and the server's, escaped)."""
    return (
        "<!DOCTYPE html><html><head><meta charset='utf-8'>"
        f"<title>{html.escape(title)}</title></head><body>"
        f"<h1>{html.escape(title)}</h1><p>{html.escape(text)}</p></body></html>"
    ).encode()


_SUCCESS = _page("Logged in", "restwalk has the answer: you can close this tab.")
_NOT_FOUND = _page("Not found", "This is where restwalk waits for a login's answer.")
_NOT_OURS = _page(
    "Not this login", "This answer is not for the login restwalk is waiting for: it is ignored."
)


class LoopbackRedirect:
    """Listens at the redirect URI for one authorization response (see the module
    docstring). Start it with :meth:`start`, wait with :meth:`wait`, close with
    :meth:`aclose` (or ``async with``)."""

    def __init__(self, host: str, path: str, shown_host: str) -> None:
        self._host = host
        self._path = path
        self._shown_host = shown_host
        self._server: asyncio.Server | None = None
        self._answer: asyncio.Future[Callback] = asyncio.get_running_loop().create_future()
        self._accept: Callable[[Callback], bool] = lambda _callback: True
        self.port = 0

    @classmethod
    async def start(cls, redirect_url: str = "") -> LoopbackRedirect:
        """A listener for ``redirect_url`` (empty: ``http://127.0.0.1:PORT/callback`` on a
        free port). Raises :class:`OAuthSettingsError` when it is not a loopback URL or
        its port is taken."""
        target = loopback_target(redirect_url)
        if target is None:
            raise OAuthSettingsError(f"{redirect_url} is not on the loopback interface.")
        host, port, path = target
        shown = urlsplit(redirect_url).hostname if redirect_url else host
        listener = cls(host, path, shown or host)
        try:
            listener._server = await asyncio.start_server(listener._serve, host, port)
        except OSError as exc:
            raise OAuthSettingsError(
                f"Cannot listen at {redirect_url or 'a loopback port'} for the browser's "
                f"answer: {exc.strerror or exc}.",
                hint="Another program holds that port: close it, or change the redirect URL.",
            ) from None
        listener.port = listener._server.sockets[0].getsockname()[1]
        return listener

    @property
    def redirect_uri(self) -> str:
        """The redirect URI to give the server, with the port listened on."""
        host = f"[{self._shown_host}]" if ":" in self._shown_host else self._shown_host
        return f"http://{host}:{self.port}{self._path}"

    async def wait(self, accept: Callable[[Callback], bool]) -> Callback:
        """The first answer ``accept`` takes (one for another login is answered and ignored)."""
        self._accept = accept
        return await asyncio.shield(self._answer)

    async def aclose(self) -> None:
        """Stop listening."""
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 1)
            self._server = None
        if not self._answer.done():
            self._answer.cancel()

    async def __aenter__(self) -> LoopbackRedirect:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.aclose()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connection = h11.Connection(h11.SERVER, max_incomplete_event_size=MAX_REQUEST)
        try:
            request = await asyncio.wait_for(self._read(reader, connection), READ_TIMEOUT)
            if request is not None:
                status, page = self._answer_for(request)
                await self._write(writer, connection, status, page)
        except (TimeoutError, h11.ProtocolError, OSError):
            pass
        finally:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    @staticmethod
    async def _read(reader: asyncio.StreamReader, connection: h11.Connection) -> h11.Request | None:
        """The browser's request (None when the connection closed before one came)."""
        while True:
            event = connection.next_event()
            if event is h11.NEED_DATA:
                connection.receive_data(await reader.read(MAX_REQUEST))
                continue
            return event if isinstance(event, h11.Request) else None

    def _answer_for(self, request: h11.Request) -> tuple[int, bytes]:
        parts = urlsplit(request.target.decode("ascii", "replace"))
        if request.method != b"GET" or parts.path != self._path:
            return 404, _NOT_FOUND
        callback = read_callback(parts.query)
        if callback is None or self._answer.done() or not self._accept(callback):
            return 400, _NOT_OURS
        self._answer.set_result(callback)
        if callback.error:
            said = callback.error_description or callback.error
            return 200, _page("Not logged in", f"The server said: {said[:300]}")
        return 200, _SUCCESS

    @staticmethod
    async def _write(
        writer: asyncio.StreamWriter, connection: h11.Connection, status: int, page: bytes
    ) -> None:
        headers = [
            (b"Content-Type", b"text/html; charset=utf-8"),
            (b"Content-Length", str(len(page)).encode()),
            (b"Cache-Control", b"no-store"),
            (b"Content-Security-Policy", b"default-src 'none'"),
            (b"Referrer-Policy", b"no-referrer"),
            (b"Connection", b"close"),
        ]
        data = connection.send(h11.Response(status_code=status, headers=headers)) or b""
        data += connection.send(h11.Data(data=page)) or b""
        data += connection.send(h11.EndOfMessage()) or b""
        writer.write(data)
        await writer.drain()
