"""Everything that can go wrong when the explorer makes a request, as our own types.

Every error carries ``explanation`` (what happened, in words a person reads) and
``hint`` (what to try next). The client turns each httpx exception into one of these
with :func:`~explorer.core.http.httpx_errors.from_httpx`, so no view ever shows an httpx
class name or a traceback.

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
        │   ├── RedirectRefused     a redirect to another scheme, or to no port at all
        │   └── BrokenLink          a link of the server's that is no http(s) URL
        ├── TooManyRedirects        redirects went on past the limit
        └── LoginFailed             the login step answered without a token

``InvalidRequest`` means bad input (the command line exits 2); ``RequestError``
means the request itself failed (exit 1).

A hint may name a command-line option (``--no-redirects``) the browser has no use
for; such an error has a ``browser_hint`` too, what a person can do there, and the
browser shows :attr:`RestwalkError.hint_in_browser`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from explorer.core.http.exchange import Hop

__all__ = [
    "BodyTooLarge",
    "BrokenLink",
    "ConnectError",
    "ConnectTimeout",
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
]


class RestwalkError(Exception):
    """Base class: an error with a plain explanation and a hint for what to do next.

    ``str(error)`` is one line: the explanation, then the detail the library
    gave (if any) in parentheses.
    """

    explanation = "Something went wrong."
    hint = ""
    #: What to try in the browser, where ``hint`` names a command-line option;
    #: empty: ``hint`` serves both.
    browser_hint = ""

    def __init__(
        self,
        explanation: str | None = None,
        *,
        hint: str | None = None,
        browser_hint: str | None = None,
        detail: str = "",
        url: str | None = None,
    ) -> None:
        if explanation is not None:
            self.explanation = explanation
        if hint is not None:
            self.hint = hint
        if browser_hint is not None:
            self.browser_hint = browser_hint
        self.detail = detail
        self.url = url
        super().__init__(self.message)

    @property
    def hint_in_browser(self) -> str:
        """The hint as the browser shows it: its own, or the command line's."""
        return self.browser_hint or self.hint

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


class BrokenLink(UnsupportedProtocol):
    """A link the server wrote that cannot be requested: another scheme
    (``javascript:``, ``file:``), no host, a bad port. Nothing was sent; the server's
    link is at fault, not what the person typed."""

    explanation = "The server's link cannot be followed."
    hint = "restwalk follows http:// and https:// links only: alt+left goes back."


class RedirectRefused(UnsupportedProtocol):
    """A redirect points where restwalk does not go: another scheme, or an impossible port.

    ``hops`` are the redirects followed, the refused one last.
    """

    hops: tuple[Hop, ...] = ()

    explanation = "The server redirected to a URL restwalk does not follow."
    hint = "--no-redirects shows the 3xx itself."
    browser_hint = "The Trip tab (t) shows the 3xx and its Location."


class TooManyRedirects(RequestError):
    """The server kept redirecting past the limit; ``hops`` are the redirects followed."""

    hops: tuple[Hop, ...] = ()

    explanation = "Too many redirects: the server kept sending the request elsewhere."
    hint = (
        "There may be a redirect loop. To see it hop by hop: "
        "restwalk request GET URL --no-redirects, then each Location in turn."
    )
    browser_hint = (
        "There may be a redirect loop: the Trip tab (t) lists each redirect followed "
        "and its Location; a URL that comes back is the loop."
    )

    @classmethod
    def past(cls, limit: int, visited: list[str], next_url: str, url: str) -> TooManyRedirects:
        """The error for a chain that went past ``limit`` redirects, ``visited`` the URLs
        asked for so far and ``next_url`` the one it would ask next: a URL asked for
        twice is a loop, said so; a chain with none is only longer than the limit."""
        error = cls(f"Too many redirects: more than {limit}, the last one to {next_url}.", url=url)
        asked = [*visited, next_url]
        again = next((u for i, u in enumerate(asked) if u in asked[:i]), None)
        if again is not None:
            error.hint = (
                f"It is a redirect loop: {again} came back. To see it hop by hop: "
                "restwalk request GET URL --no-redirects, then each Location in turn."
            )
            error.browser_hint = (
                f"It is a redirect loop: {again} came back. The Trip tab (t) lists each "
                "redirect and its Location."
            )
        else:
            error.hint = (
                f"No URL came back, so it is no loop: the chain is longer than {limit} "
                f"redirects. --max-redirects {max(limit * 2, 10)} follows more."
            )
            error.browser_hint = (
                f"No URL came back, so it is no loop: the chain is longer than {limit} "
                "redirects. The Trip tab (t) lists each one and its Location."
            )
        return error


class LoginFailed(RequestError):
    """The login step did not give back a token."""

    explanation = "Logging in failed: no token came back."
    hint = "Check the user name, password and login URL."
