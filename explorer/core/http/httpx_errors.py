"""httpx's exceptions (and the OS's and ssl's under them) turned into restwalk's errors.

:func:`from_httpx` picks the :mod:`~explorer.core.http.errors` class for an exception, by its
httpx class first and then by what lies underneath (a refused connection, a name not
resolved, a TLS record that was plain HTTP), and words it for a person: the server's
bytes in a protocol error shown as text, a message-less exception said in words, and
"try https://" offered only where it fits (:class:`ConnectionFacts`).
"""

from __future__ import annotations

import socket
import ssl
from dataclasses import dataclass

import httpx

from explorer.core.http.errors import (
    ConnectError,
    ConnectionRefused,
    ConnectTimeout,
    DecodingError,
    InvalidRequest,
    InvalidURL,
    NameNotResolved,
    NetworkError,
    PoolTimeout,
    ProtocolError,
    ReadTimeout,
    RequestError,
    RestwalkError,
    Timeout,
    TLSError,
    TooManyRedirects,
    UnsupportedProtocol,
    WriteTimeout,
)
from explorer.core.http.malformed import malformed_answer, readable_detail

__all__ = ["ConnectionFacts", "from_httpx"]


# Most specific first: the first httpx class an exception is an instance of wins.
_HTTPX_TO_OURS: tuple[tuple[type[Exception], type[RestwalkError]], ...] = (
    (httpx.ConnectTimeout, ConnectTimeout),
    (httpx.ReadTimeout, ReadTimeout),
    (httpx.WriteTimeout, WriteTimeout),
    (httpx.PoolTimeout, PoolTimeout),
    (httpx.TimeoutException, Timeout),
    (httpx.ConnectError, ConnectError),
    (httpx.NetworkError, NetworkError),
    (httpx.RemoteProtocolError, ProtocolError),
    (httpx.LocalProtocolError, InvalidRequest),
    (httpx.ProtocolError, ProtocolError),
    (httpx.UnsupportedProtocol, UnsupportedProtocol),
    (httpx.DecodingError, DecodingError),
    (httpx.TooManyRedirects, TooManyRedirects),
    (httpx.InvalidURL, InvalidURL),
    (httpx.TransportError, NetworkError),
    (httpx.RequestError, RequestError),
)

# Phrases in h11/httpcore messages that mean the server hung up before the end.
_CLOSED_EARLY = (
    "peer closed connection",
    "server disconnected",
    "connection closed",
    "closed connection",
    "incomplete",
    "without sending complete message",
)


def _causes(exc: BaseException) -> list[BaseException]:
    """The exception and everything it was raised from or during, outermost first."""
    seen: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in seen:
        seen.append(current)
        current = current.__cause__ or current.__context__
    return seen


def _connect_kind(exc: BaseException) -> type[RestwalkError]:
    """Tell DNS failure, refusal and TLS failure apart by the underlying error."""
    causes = _causes(exc)
    if any(isinstance(c, ssl.SSLError | ssl.CertificateError) for c in causes):
        return TLSError
    if any(isinstance(c, socket.gaierror) for c in causes):
        return NameNotResolved
    if any(isinstance(c, ConnectionRefusedError) for c in causes):
        return ConnectionRefused
    text = " ".join(str(c) for c in causes).lower()
    if "certificate" in text or "ssl" in text or "tls" in text:
        return TLSError
    if (
        "name or service not known" in text
        or "nodename nor servname" in text
        or "temporary failure in name resolution" in text
        or "getaddrinfo" in text
    ):
        return NameNotResolved
    if "refused" in text or "errno 111" in text or "errno 61" in text:
        return ConnectionRefused
    return ConnectError


@dataclass(frozen=True)
class ConnectionFacts:
    """What the client knows of the connection a failed request went out on: the same
    failure means another thing on a connection kept alive since an earlier answer."""

    #: True: opened for an earlier request and kept alive; False: opened for this one;
    #: None: the transport did not say.
    reused: bool | None = None
    #: The server answered an earlier request of this client.
    answered_before: bool = False
    #: The request was sent again already, after the kept-alive connection closed.
    retried: bool = False


def _closed_without_answer(
    detail: str, url: str | None, connection: ConnectionFacts
) -> ProtocolError:
    """The server closed the connection before any byte of an answer: what that means
    depends on the connection (see :mod:`explorer.core.http.retry`)."""
    if connection.retried:
        return ProtocolError(
            "The server closed the connection without answering, twice: the kept-alive "
            "one as the request went out, then the new one it was sent again on.",
            hint="The server may be restarting or overloaded: try again in a moment.",
            detail=detail,
            url=url,
        )
    if connection.reused:
        return ProtocolError(
            "The server closed the kept-alive connection as the request went out, "
            "without answering.",
            hint=(
                "Servers close a connection left idle for a few seconds. restwalk sends "
                "GET, HEAD, PUT, DELETE, OPTIONS and TRACE again by itself, but not this "
                "method: the server may have acted on it. Check, then send it again."
            ),
            detail=detail,
            url=url,
        )
    first_contact = not connection.answered_before
    if first_contact and url is not None and url.lower().startswith("http:"):
        hint = "It may have dropped the request, or it speaks only HTTPS: try https://."
    else:
        hint = "It may have dropped the request: try again."
    return ProtocolError(
        "The server closed the connection without answering.", hint=hint, detail=detail, url=url
    )


def _malformed(detail: str, url: str | None) -> ProtocolError | None:
    """The error for an answer h11 could not read, in words, or None when not one."""
    words = malformed_answer(detail)
    return ProtocolError(words, url=url) if words is not None else None


def _protocol_error(
    detail: str, url: str | None, connection: ConnectionFacts | None = None
) -> ProtocolError:
    """A ProtocolError whose explanation says how the server broke off, or what it sent
    that is not HTTP, when we can tell; the server's bytes shown as text, never as the
    Python reprs the libraries write."""
    lowered = detail.lower()
    if "without sending a response" in lowered:
        return _closed_without_answer(detail, url, connection or ConnectionFacts())
    if any(phrase in lowered for phrase in _CLOSED_EARLY):
        return ProtocolError(
            "The server closed the connection before the whole response arrived.",
            detail=detail,
            url=url,
        )
    return _malformed(detail, url) or ProtocolError(detail=readable_detail(detail), url=url)


def _tls_error(detail: str, url: str | None) -> TLSError:
    """A TLSError that says whether the certificate or the protocol was the problem."""
    lowered = detail.lower()
    if "certificate verify failed" in lowered or "certificate" in lowered:
        return TLSError(
            "The server's TLS certificate could not be verified.",
            hint=(
                "It may be self-signed, expired, or for another host name; skip the "
                "check only for a test server you trust."
            ),
            detail=detail,
            url=url,
        )
    if "wrong version number" in lowered or "record layer failure" in lowered:
        return TLSError(
            "The server did not answer in TLS: that port seems to speak plain HTTP.",
            hint="Try the same URL with http:// instead of https://.",
            detail=detail,
            url=url,
        )
    return TLSError(detail=detail, url=url)


#: What an exception that carries no message of its own meant, in words (its class
#: name, "ReadError", told a person nothing).
_SILENT = {
    "ReadError": "the connection ended while the answer was being read",
    "WriteError": "the connection ended while the request was being sent",
    "ReadTimeout": "no more of the answer came in time",
    "WriteTimeout": "the request could not be sent in time",
    "ConnectTimeout": "the connection could not be made in time",
    "PoolTimeout": "no connection was free in time",
    "RemoteProtocolError": "the server's bytes were not HTTP",
    "ConnectionResetError": "the server reset the connection",
    "BrokenPipeError": "the server closed the connection while the request was sent",
}


def from_httpx(
    exc: Exception, url: str | None = None, *, connection: ConnectionFacts | None = None
) -> RestwalkError:
    """Turn an httpx (or httpcore, or OS) exception into our own error type.

    The result keeps the original message as ``detail`` and the original
    exception as ``__cause__`` when raised with ``raise ... from exc``.
    ``connection`` says what the client knows of the connection it failed on.
    """
    if isinstance(exc, RestwalkError):
        return exc
    if url is None:
        url = _request_url(exc)
    detail = str(exc) or _SILENT.get(type(exc).__name__, "")
    kind = _kind_of(exc)
    explanation: str | None = None
    if kind is ProtocolError:
        return _protocol_error(detail, url, connection)
    if kind is TLSError:
        return _tls_error(detail, url)
    if kind is ConnectionRefused and url:
        explanation = f"{ConnectionRefused.explanation.rstrip('.')} ({_origin(url)})."
        detail = ""  # "All connection attempts failed" adds nothing to that
    return kind(explanation, detail=detail, url=url)


def _kind_of(exc: Exception) -> type[RestwalkError]:
    """Our class for ``exc``: by its httpx class, refined by what lies underneath."""
    kind = next((ours for theirs, ours in _HTTPX_TO_OURS if isinstance(exc, theirs)), None)
    if kind is None:  # not an httpx error: an OS or ssl error from a transport
        if isinstance(exc, ssl.SSLError | ssl.CertificateError):
            return TLSError
        if isinstance(exc, OSError):
            found = _connect_kind(exc)
            return NetworkError if found is ConnectError else found
        return InvalidRequest if isinstance(exc, ValueError) else RequestError
    if kind is ConnectError:
        return _connect_kind(exc)  # refused, DNS or TLS, as far as the causes tell
    if kind in (NetworkError, ProtocolError, RequestError) and _connect_kind(exc) is TLSError:
        return TLSError  # a TLS alert while reading or writing
    return kind


def _request_url(exc: Exception) -> str | None:
    """The URL of the request an httpx error belongs to, when it knows one."""
    if isinstance(exc, httpx.RequestError):
        try:
            return str(exc.request.url)
        except RuntimeError:
            return None
    return None


def _origin(url: str) -> str:
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, TypeError):
        return url
    port = f":{parsed.port}" if parsed.port is not None else ""
    return f"{parsed.scheme}://{parsed.host}{port}"
