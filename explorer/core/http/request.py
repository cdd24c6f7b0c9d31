"""A request as a person describes it, and how it becomes an httpx request.

:class:`RequestSpec` is plain, frozen data (the composer edits copies of it);
:func:`build_request` checks it and applies the API version and the credential.
No I/O happens here: a :class:`LoginFlow`'s login request and the token read from
its answer are :mod:`explorer.core.http.login`'s; the client runs the request
between the two. An :class:`OAuthBearer` names an
OAuth 2.0 login whose token the client asks for when it sends the request. How
the version is said is :mod:`explorer.core.http.api_version`'s.
"""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal, TypeAlias
from urllib.parse import parse_qsl, urlencode

import httpx
import orjson

from explorer import __version__
from explorer.core.http.api_version import Version, VersionStyle, apply_version
from explorer.core.http.errors import (
    InvalidBody,
    InvalidHeader,
    InvalidMethod,
    InvalidRequest,
    InvalidURL,
)
from explorer.core.http.field_syntax import breaks_a_line, is_token
from explorer.core.text.quoting import quoted
from explorer.core.text.terminal_text import visible_line

if TYPE_CHECKING:
    from explorer.core.http.upload import FileReader, FormPart

# What a body read from a file or a form needs (explorer.core.http.upload) is imported
# when a request with one is built: the TUI's first page sends none.

__all__ = [
    "DEFAULT_TOKEN_FIELD",
    "LOGIN_STYLES",
    "STANDARD_METHODS",
    "USER_AGENT",
    "Auth",
    "BasicAuth",
    "BearerAuth",
    "CookieSession",
    "LoginFlow",
    "LoginStyle",
    "OAuthBearer",
    "RequestSpec",
    "build_request",
    "check_url",
    "credential_headers",
    "guess_content_type",
    "mark_version",
    "place_query_and_version",
    "with_scheme",
]

LoginStyle = Literal["json", "form", "basic"]

LOGIN_STYLES: tuple[LoginStyle, ...] = ("json", "form", "basic")

#: The nine methods RFC 9110 and RFC 5789 define; any other token is a custom method.
STANDARD_METHODS: tuple[str, ...] = (
    "GET",
    "HEAD",
    "POST",
    "PUT",
    "PATCH",
    "DELETE",
    "OPTIONS",
    "TRACE",
    "CONNECT",
)

USER_AGENT = f"restwalk/{__version__}"

_MAX_PORT = 65535
#: Characters no host name or address holds (httpx percent-encodes them instead of refusing).
_NOT_IN_HOST = re.compile(r"[%\s<>\"{}|\\^`]")
#: A URL's authority (RFC 3986: after ``scheme://``, up to the path, query or fragment).
_AUTHORITY = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://([^/?#]*)")
#: A lone surrogate: a byte that is not UTF-8, kept by ``surrogateescape``.
_SURROGATE = re.compile("[\udc80-\udcff]")
#: Schemes written without ``//`` (``mailto:ann@x``): typed so, a URL of one is no
#: ``host:port`` and is kept, to be refused by name.
_OPAQUE_SCHEMES = frozenset(
    {"mailto", "javascript", "vbscript", "data", "tel", "sms", "urn", "about", "blob", "news"}
)


@dataclass(frozen=True)
class BearerAuth:
    """``Authorization: Bearer <token>``, or under the scheme the server's challenge names:
    Django REST Framework's ``TokenAuthentication`` reads ``Authorization: Token <key>``."""

    token: str
    scheme: str = "Bearer"

    def __repr__(self) -> str:
        return f"BearerAuth(token='****', scheme={self.scheme!r})"

    @property
    def value(self) -> str:
        """The ``Authorization`` header's value: ``Bearer <token>``, ``Token <key>``."""
        return f"{self.scheme} {self.token}"


@dataclass(frozen=True)
class BasicAuth:
    """``Authorization: Basic base64(user:password)`` (RFC 7617)."""

    user: str
    password: str

    def __repr__(self) -> str:
        return f"BasicAuth(user={self.user!r}, password='****')"


@dataclass(frozen=True)
class CookieSession:
    """Cookies sent with every request, as a server-side session expects."""

    cookies: tuple[tuple[str, str], ...]

    def __repr__(self) -> str:
        names = ", ".join(name for name, _ in self.cookies)
        return f"CookieSession(cookies=[{names}])"


#: Where a login's JSON answer has its token, unless told (OAuth 2.0's name, RFC 6749).
DEFAULT_TOKEN_FIELD = "access_token"


@dataclass(frozen=True)
class LoginFlow:
    """Log in first with a user name and password, then use the token as Bearer.

    ``style`` is how the credentials travel: a JSON body
    ``{"username", "password"}``, an HTML-form body, or Basic auth. The token is
    read from the field ``token_field`` of the JSON answer (the default, ``access_token``,
    falls back to ``token``: Django REST Framework's ``obtain_auth_token`` answers so), and
    sent under ``scheme`` (``Token`` for Django REST Framework).
    """

    url: str
    user: str
    password: str
    style: LoginStyle = "json"
    token_field: str = DEFAULT_TOKEN_FIELD
    scheme: str = "Bearer"

    def __repr__(self) -> str:
        return (
            f"LoginFlow(url={self.url!r}, user={self.user!r}, password='****', "
            f"style={self.style!r}, token_field={self.token_field!r}, scheme={self.scheme!r})"
        )


@dataclass(frozen=True)
class OAuthBearer:
    """``Authorization: Bearer`` with the token of the OAuth 2.0 login named ``login``.

    The login (:mod:`explorer.core.oauth`) keeps its token fresh; the client asks it
    for the token each time it sends the request, and once more after a 401. The
    name is a ``[oauth.NAME]`` of config.toml, a ``.http`` environment's
    ``Security.Auth`` entry, or the URL a login was discovered from: no secret.
    """

    login: str


Auth: TypeAlias = "BearerAuth | BasicAuth | CookieSession | LoginFlow | OAuthBearer"


@dataclass(frozen=True)
class RequestSpec:
    """Everything a person says about one request, before it is sent.

    ``query`` pairs are added to any query already in ``url``. ``body`` is sent
    as given (``str`` as UTF-8) with ``content_type`` unless a ``Content-Type``
    header is among ``headers``. Instead of ``body``, ``body_file`` names a file
    whose bytes are the body, and ``form`` the parts of a ``multipart/form-data``
    body (:mod:`explorer.core.http.upload`); files are read when the request is built.
    ``base_path`` is the part of the path before the version segment, for
    ``uri`` versioning (e.g. ``/api``).
    """

    method: str = "GET"
    url: str = ""
    query: tuple[tuple[str, str], ...] = ()
    headers: tuple[tuple[str, str], ...] = ()
    body: bytes | str | None = None
    content_type: str | None = None
    api_version: Version | None = None
    version_style: VersionStyle = "none"
    base_path: str = ""
    #: How ``version_style`` names the version (see the module docstring); empty: the spec's.
    version_name: str = ""
    auth: Auth | None = None
    body_file: str | None = None
    form: tuple[FormPart, ...] = ()

    @property
    def has_body(self) -> bool:
        """Whether a body is sent: text or bytes, a file, or a form."""
        return self.body is not None or self.body_file is not None or bool(self.form)

    @property
    def body_bytes(self) -> bytes:
        """The body as bytes (empty when there is none)."""
        if self.body is None:
            return b""
        return self.body.encode("utf-8") if isinstance(self.body, str) else self.body

    def with_auth(self, auth: Auth | None) -> RequestSpec:
        """A copy with another credential."""
        return replace(self, auth=auth)


def guess_content_type(body: bytes | str) -> str:
    """A Content-Type for a body typed by hand: JSON, a form, or plain text."""
    raw = body.encode("utf-8") if isinstance(body, str) else body
    try:
        orjson.loads(raw)
    except orjson.JSONDecodeError:
        pass
    else:
        return "application/json"
    text = raw.decode("utf-8", errors="replace").strip()
    if text and re.fullmatch(r"[^=&\s]+=[^&\s]*(&[^=&\s]+=[^&\s]*)*", text):
        return "application/x-www-form-urlencoded"
    return "text/plain; charset=utf-8"


def with_scheme(text: str) -> str:
    """``text`` as a URL: ``http://`` put in front of ``host``, ``host:port/path`` and
    ``user:pw@host``; a ``mailto:``, ``javascript:``... URL is kept as it is, so
    :func:`check_url` names its scheme rather than a bad port."""
    if "://" in text:
        return text
    scheme, colon, _ = text.partition(":")
    if colon and scheme.lower() in _OPAQUE_SCHEMES:
        return text
    return f"http://{text}"


def check_url(url: str) -> httpx.URL:
    """``url`` as httpx takes it; :class:`~explorer.core.http.errors.InvalidURL` when it is no
    absolute http(s) URL with a host and a possible port."""
    if _SURROGATE.search(url):  # bytes that are not UTF-8, as a .http file keeps them
        shown = url.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        raise InvalidURL(
            f"The URL {quoted(shown)} holds bytes that are not UTF-8.",
            hint="Write it in UTF-8, and other bytes percent-encoded (%FF).",
        )
    authority = _AUTHORITY.match(url)
    host = authority.group(1).rpartition("@")[2] if authority else ""
    if host.startswith("[") and "]" not in host:  # httpx says "Invalid port: ':1'"
        raise InvalidURL(
            f"The URL {quoted(url)} is not valid: the [ of its IPv6 address is never closed.",
            hint="Write an IPv6 address in brackets: http://[::1]:8000/.",
        )
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, TypeError, ValueError) as exc:
        raise InvalidURL(f"The URL {quoted(url)} is not valid.", detail=str(exc)) from exc
    if parsed.scheme not in ("http", "https"):
        if not parsed.scheme:
            raise InvalidURL(
                f"The URL {quoted(url)} has no scheme.", hint="Start it with http:// or https://."
            )
        raise InvalidURL(
            f"The URL {quoted(url)} has the {parsed.scheme}: scheme; restwalk sends requests to "
            "http:// and https:// URLs only.",
        )
    if not parsed.host:
        raise InvalidURL(f"The URL {quoted(url)} has no host.")
    if ":" not in parsed.host and _NOT_IN_HOST.search(parsed.host):  # IPv6 zones keep their %
        raise InvalidURL(
            f"The URL {quoted(url)} is not valid: its host holds a space or a character no "
            "host name has."
        )
    if parsed.port is not None and not 0 < parsed.port <= _MAX_PORT:
        raise InvalidURL(f"The URL {quoted(url)} is not valid: port {parsed.port} is out of range.")
    return parsed


def _check_headers(headers: tuple[tuple[str, str], ...]) -> None:
    for name, value in headers:
        if not is_token(name):
            raise InvalidHeader(f"The header name {name!r} is not valid (one token, no spaces).")
        if breaks_a_line(value):
            raise InvalidHeader(
                f"The value of header {name!r} holds a line break or NUL character."
            )


def mark_version(
    spec: RequestSpec,
    url: httpx.URL,
    headers: list[tuple[str, str]],
    query: list[tuple[str, str]],
) -> httpx.URL:
    """``spec``'s API version marked as its style says: the URL returned holds a path
    segment; ``query`` or ``headers`` (changed in place) a field, replacing any other of
    its name. ``spec`` without a version gives ``url`` back as it is."""
    if spec.api_version is None or spec.version_style == "none":
        return url
    return apply_version(
        url,
        headers,
        query,
        spec.api_version,
        spec.version_style,
        spec.base_path,
        spec.version_name,
    )


def place_query_and_version(
    spec: RequestSpec, url: httpx.URL, headers: list[tuple[str, str]]
) -> httpx.URL:
    """``url`` as ``spec`` goes: its own query pairs, then ``spec.query``, then the API
    version (:func:`mark_version`: ``headers`` may gain its field). The query is written
    again, form-encoded, only when it changed: a URL's own query goes as it was typed.

    The one recipe of the request sent (:func:`build_request`) and of a command line that
    says it (:func:`explorer.core.carry.flat.flatten`).
    """
    own = parse_qsl(url.query.decode("ascii", errors="replace"), keep_blank_values=True)
    query = [*own, *spec.query]
    url = mark_version(spec, url, headers, query)
    if query != own:
        url = url.copy_with(query=urlencode(query).encode("ascii") or None)
    return url


def credential_headers(auth: Auth | None) -> list[tuple[str, str]]:
    """The header ``auth`` puts on the wire (``Authorization``, ``Cookie``); none for a
    login flow, whose token comes from logging in first."""
    if isinstance(auth, BearerAuth):
        return [("Authorization", auth.value)]
    if isinstance(auth, BasicAuth):
        raw = f"{auth.user}:{auth.password}".encode()
        return [("Authorization", f"Basic {base64.b64encode(raw).decode('ascii')}")]
    if isinstance(auth, CookieSession) and auth.cookies:
        return [("Cookie", "; ".join(f"{name}={value}" for name, value in auth.cookies))]
    return []


def _auth_headers(auth: Auth | None) -> list[tuple[str, str]]:
    if isinstance(auth, BearerAuth) and not is_token(auth.scheme):
        raise InvalidRequest(
            f"The credential's scheme {visible_line(auth.scheme)!r} is not one word.",
            hint="Name it as the server's WWW-Authenticate does: Bearer, or Token.",
        )
    if isinstance(auth, LoginFlow | OAuthBearer):
        raise InvalidRequest(
            "A login flow (a token login or OAuth) must log in before the request is built.",
            hint="Send it through the client, which asks the login for its token first.",
        )
    return credential_headers(auth)


def _has(headers: list[tuple[str, str]], name: str) -> bool:
    lname = name.lower()
    return any(k.lower() == lname for k, _ in headers)


def _body_of(spec: RequestSpec, read: FileReader | None) -> tuple[bytes | None, str | None]:
    """The body ``spec`` sends and the Content-Type that goes with it (None: guess); files
    are read with ``read`` (None: :func:`~explorer.core.http.upload.read_body_file`)."""
    given = [spec.body is not None, spec.body_file is not None, bool(spec.form)]
    if sum(given) > 1:
        raise InvalidBody(
            "A request has one body: text, a file or a multipart form, not several.",
            hint="Keep one of them.",
        )
    if spec.form or spec.body_file is not None:
        from explorer.core.http import upload

        read = read or upload.read_body_file
        if spec.body_file is not None:
            # Typed by its name, as HTTPie does: the same file always goes the same way.
            return read(spec.body_file), spec.content_type or upload.guess_file_type(spec.body_file)
        for part in spec.form:
            if not part.name:
                raise InvalidBody("A multipart form field has no name.", hint="Name every field.")
        return upload.encode_multipart(spec.form, read)
    if spec.body is None:
        return None, None
    return spec.body_bytes, spec.content_type


def build_request(spec: RequestSpec, *, read: FileReader | None = None) -> httpx.Request:
    """Check ``spec`` and turn it into the httpx request that will be sent.

    Files (``body_file``, a form's file parts) are read with ``read`` (default:
    :func:`~explorer.core.http.upload.read_body_file`). Raises an
    :class:`~explorer.core.http.errors.InvalidRequest` subclass for a bad method
    token, URL, header, a file that cannot be read, or an unresolved
    :class:`LoginFlow` or :class:`OAuthBearer`.
    """
    if not is_token(spec.method):
        raise InvalidMethod(f"The method {spec.method!r} is not a valid HTTP method token.")
    url = check_url(spec.url)
    _check_headers(spec.headers)
    headers: list[tuple[str, str]] = []
    if url.userinfo and spec.auth is None:
        auth: Auth | None = BasicAuth(url.username, url.password)
        url = url.copy_with(username=None, password=None)
    else:
        auth = spec.auth
    headers += [("User-Agent", USER_AGENT), ("Accept", "*/*"), ("Accept-Encoding", "gzip, deflate")]
    user_names = {k.lower() for k, _ in spec.headers}
    headers = [(k, v) for k, v in headers if k.lower() not in user_names]
    headers.extend(spec.headers)
    for name, value in _auth_headers(auth):
        if name.lower() == "cookie" and _has(headers, "cookie"):
            headers = [(k, f"{v}; {value}" if k.lower() == "cookie" else v) for k, v in headers]
        elif not _has(headers, name):
            headers.append((name, value))
    body, given_type = _body_of(spec, read)
    if body is not None and spec.form:
        # The boundary is the encoder's: a Content-Type header given by hand gives way.
        headers = [(k, v) for k, v in headers if k.lower() != "content-type"]
        headers.append(("Content-Type", given_type or ""))
    elif body is not None and not _has(headers, "content-type"):
        content_type = given_type or (guess_content_type(body) if body else None)
        if content_type:
            headers.append(("Content-Type", content_type))
    url = place_query_and_version(spec, url, headers)
    # Field values are sent as UTF-8 bytes: httpx would refuse anything not ASCII.
    raw_headers = [(k.encode("ascii"), v.encode("utf-8")) for k, v in headers]
    request = httpx.Request(
        spec.method,
        url,
        headers=raw_headers,
        content=body,
    )
    request.method = spec.method  # methods are case-sensitive; httpx upper-cases them
    return request
