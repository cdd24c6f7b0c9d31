"""Everything that can go wrong when the explorer makes a request, as our own types.

Every error carries ``explanation`` (what happened, in words a person reads) and
``hint`` (what to try next). The client turns each httpx exception into one of these
with :func:`from_httpx`, so no view ever shows an httpx class name or a traceback.

Our exception hierarchy::

    RestwalkError
    ├── InvalidRequest              the request cannot be built: nothing was sent
    │   ├── InvalidURL              not an http(s) URL, no host, bad port
    │   ├── InvalidMethod           not an RFC 9110 token
    │   ├── InvalidHeader           bad name, or a value with a line break
    │   └── InvalidBody             the body cannot be read
    └── RequestError                we tried, and the exchange failed
        ├── ConnectError            no connection was made
        │   ├── NameNotResolved     DNS does not know the host
        │   └── ConnectionRefused   nobody listens on that port
        ├── Timeout                 the server was too slow
        │   ├── ConnectTimeout
        │   ├── ReadTimeout
        │   ├── WriteTimeout
        │   ├── PoolTimeout
        │   └── DeadlineExceeded    the whole exchange took longer than --max-time
        ├── TLSError                the TLS handshake or certificate check failed
        ├── NetworkError            the connection broke while reading or writing
        ├── ProtocolError           the server broke HTTP: closed mid-body, malformed
        │   └── DecodingError       the body's Content-Encoding could not be undone
        ├── BodyTooLarge            the body (decoded) is larger than --max-body
        ├── UnsupportedProtocol     a scheme other than http or https
        │   └── RedirectRefused     a redirect to another scheme, or to no port at all
        ├── TooManyRedirects        redirects went on past the limit
        └── LoginFailed             the login step answered without a token

``InvalidRequest`` means bad input (the command line exits 2); ``RequestError``
means the request itself failed (exit 1).
"""

from __future__ import annotations

import socket
import ssl
from dataclasses import dataclass
from typing import TYPE_CHECKING

import httpx

from explorer.core.malformed import malformed_answer, readable_detail

if TYPE_CHECKING:
    from explorer.core.exchange import Hop

__all__ = [
    "BodyTooLarge",
    "ConnectError",
    "ConnectTimeout",
    "ConnectionFacts",
    "ConnectionRefused",
    "DeadlineExceeded",
    "DecodingError",
    "InvalidBody",
    "InvalidHeader",
    "InvalidMethod",
    "InvalidRequest",
    "InvalidURL",
    "LoginFailed",
    "NameNotResolved",
    "NetworkError",
    "PoolTimeout",
    "ProtocolError",
    "ReadTimeout",
    "RedirectRefused",
    "RequestError",
    "RestwalkError",
    "TLSError",
    "Timeout",
    "TooManyRedirects",
    "UnsupportedProtocol",
    "WriteTimeout",
    "from_httpx",
]


class RestwalkError(Exception):
    """Base class: an error with a plain explanation and a hint for what to do next.

    ``str(error)`` is one line: the explanation, then the detail the library
    gave (if any) in parentheses.
    """

    explanation = "Something went wrong."
    hint = ""

    def __init__(
        self,
        explanation: str | None = None,
        *,
        hint: str | None = None,
        detail: str = "",
        url: str | None = None,
    ) -> None:
        if explanation is not None:
            self.explanation = explanation
        if hint is not None:
            self.hint = hint
        self.detail = detail
        self.url = url
        super().__init__(self.message)

    @property
    def message(self) -> str:
        """The one-line message: explanation, plus the low-level detail if any."""
        text = self.explanation
        if self.detail and self.detail not in text:
            text = f"{text} ({self.detail})"
        return " ".join(text.split())


class InvalidRequest(RestwalkError):
    """The request cannot be built from what was given; nothing was sent."""

    explanation = "The request is not valid, so it was not sent."
    hint = "Check the method, URL and headers."


class InvalidURL(InvalidRequest):
    """The URL is not an absolute http(s) URL with a host."""

    explanation = "The URL is not valid."
    hint = "Give an absolute URL such as http://127.0.0.1:8000/customers."


class InvalidMethod(InvalidRequest):
    """The method is not an RFC 9110 token (letters, digits and !#$%&'*+-.^_`|~)."""

    explanation = "The method is not a valid HTTP method token."
    hint = "A method is one word without spaces or separators, such as GET or PATCH."


class InvalidHeader(InvalidRequest):
    """A header name is not a token, or a value holds a line break or NUL."""

    explanation = "A header is not valid."
    hint = "Write headers as 'Name: value'; names are one token, values one line."


class InvalidBody(InvalidRequest):
    """The body could not be read (a file that is missing or unreadable)."""

    explanation = "The request body could not be prepared."
    hint = "Check the file name after @, or the body text."


class RequestError(RestwalkError):
    """The request was tried and the exchange failed."""

    explanation = "The request failed."
    hint = "Check that the server is running and the URL is right."


class ConnectError(RequestError):
    """No connection could be opened to the server."""

    explanation = "Could not connect to the server."
    hint = "Check the host and port, and that the server is running."


class NameNotResolved(ConnectError):
    """DNS does not know the host name."""

    explanation = "The host name could not be resolved: DNS does not know it."
    hint = "Check the spelling of the host, or your network and DNS settings."


class ConnectionRefused(ConnectError):
    """The host answered, but nothing listens on that port."""

    explanation = "The connection was refused: nothing is listening on that port."
    hint = "Start the server, or check the port number in the URL."


class Timeout(RequestError):
    """The server did not answer in time."""

    explanation = "The server took too long to answer."
    hint = "Try again, or allow more time (--timeout)."


class ConnectTimeout(Timeout):
    """Opening the connection took too long."""

    explanation = "Opening the connection timed out: the server did not accept it in time."
    hint = "Check that the host is reachable; a firewall may drop the packets."


class ReadTimeout(Timeout):
    """The server accepted the request but did not answer in time."""

    explanation = "The server accepted the request but sent no answer in time."
    hint = "The server may be busy or stuck; try again or allow more time (--timeout)."


class WriteTimeout(Timeout):
    """Sending the request took too long."""

    explanation = "Sending the request timed out: the server stopped reading it."
    hint = "The body may be too large for the server; try a smaller one."


class PoolTimeout(Timeout):
    """No connection from the pool became free in time."""

    explanation = "No connection became free in time (too many requests at once)."
    hint = "Wait for other requests to finish, then try again."


class DeadlineExceeded(Timeout):
    """The whole exchange (redirects and login included) took longer than allowed.

    The connect and read timeouts start again with each byte; this one does not, so
    a server sending a byte a second, or 1xx answers without end, is stopped too.
    """

    explanation = "The server took longer than the time allowed for the whole exchange."
    hint = "Allow more time with --max-time SECONDS, or try again later."


class TLSError(RequestError):
    """The TLS handshake or certificate check failed."""

    explanation = "The secure (TLS) connection could not be set up."
    hint = (
        "The certificate may be self-signed, expired or for another host; "
        "or the port speaks plain HTTP (try http://)."
    )


class NetworkError(RequestError):
    """The connection broke while the request or response was on the way."""

    explanation = "The connection broke during the exchange."
    hint = "Try again; if it keeps happening, the server or network is failing."


class ProtocolError(RequestError):
    """The server broke the HTTP rules: closed mid-body, malformed message."""

    explanation = "The server broke the HTTP protocol."
    hint = "The server is faulty or is not an HTTP server; try again or report it."


class DecodingError(ProtocolError):
    """The body could not be decoded with its Content-Encoding."""

    explanation = "The body could not be decoded: its Content-Encoding does not match the bytes."
    hint = "The server sent a broken compressed body."


class BodyTooLarge(RequestError):
    """The body is larger than the bound on what is kept in memory (counted decoded)."""

    explanation = "The response body is larger than restwalk keeps in memory."
    hint = "Allow more with --max-body SIZE (e.g. 500MB), or ask for less (a Range, a page)."


class UnsupportedProtocol(RequestError):
    """The URL's scheme is not http or https."""

    explanation = "Only http:// and https:// URLs can be requested."
    hint = "Start the URL with http:// or https://."


class RedirectRefused(UnsupportedProtocol):
    """A redirect points where restwalk does not go: another scheme, or an impossible port.

    ``hops`` are the redirects followed, the refused one last.
    """

    hops: tuple[Hop, ...] = ()

    explanation = "The server redirected to a URL restwalk does not follow."
    hint = "--no-redirects shows the 3xx itself."


class TooManyRedirects(RequestError):
    """The server kept redirecting past the limit; ``hops`` are the redirects followed."""

    hops: tuple[Hop, ...] = ()

    explanation = "Too many redirects: the server kept sending the request elsewhere."
    hint = (
        "There may be a redirect loop. To see it hop by hop: "
        "restwalk request GET URL --no-redirects, then each Location in turn."
    )


class LoginFailed(RequestError):
    """The login step did not give back a token."""

    explanation = "Logging in failed: no token came back."
    hint = "Check the user name, password and login URL."


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
    depends on the connection (see :mod:`explorer.core.retry`)."""
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
