"""Our Starlette adapter for Authlib's framework-agnostic server classes.

Authlib ships adapters for Flask and Django (``authlib.integrations``): each
turns the framework's request into an :class:`~authlib.oauth2.OAuth2Request`
and Authlib's ``(status, body, headers)`` answers back into a response. This
is the same for Starlette, with one difference: Starlette reads a body with
``await``, and Authlib's classes are synchronous, so :func:`read_request`
reads and parses the whole request first and the grants then run without
waiting on anything, which also makes each grant's check-then-write one step
on the event loop.

What every OAuth endpoint refuses before any grant sees the request (RFC 6749
section 3.1 and 3.2, as ``invalid_request``): a body that is not
``application/x-www-form-urlencoded`` (or not UTF-8), a parameter sent more
than once, and a ``response_type``, ``grant_type``, ``redirect_uri`` or
``scope`` holding a character its syntax (RFC 6749 Appendix A) does not allow
(Authlib repeats some of them in its error descriptions, which may not hold a
quote or a backslash). Over plain HTTP, only loopback addresses are served: OAuth
needs TLS (RFC 6749 section 3.1; RFC 8252 section 8.3 for loopback).
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl

import orjson
from authlib.common.security import is_secure_transport
from authlib.oauth2.rfc6749 import InvalidRequestError, JsonPayload, JsonRequest, OAuth2Payload
from authlib.oauth2.rfc6749 import OAuth2Request as AuthlibRequest
from starlette.requests import Request
from starlette.responses import Response

FORM = "application/x-www-form-urlencoded"
JSON = "application/json"

Pairs = list[tuple[str, str]]

_NQCHAR = r"[!#-\[\]-~]"
#: RFC 6749 Appendix A: what these parameters may hold (a superset, for the URI forms).
SYNTAX: dict[str, re.Pattern[str]] = {
    "response_type": re.compile(r"^[A-Za-z0-9_]+( [A-Za-z0-9_]+)*$"),
    "grant_type": re.compile(rf"^{_NQCHAR}+$"),
    "redirect_uri": re.compile(rf"^{_NQCHAR}+$"),
    "scope": re.compile(rf"^{_NQCHAR}+( {_NQCHAR}+)*$"),
}


class Payload(OAuth2Payload):  # type: ignore[misc]
    """The parameters of one request: the query of a GET, the form of a POST."""

    def __init__(self, pairs: Pairs) -> None:
        self._data = dict(pairs)
        self._datalist: defaultdict[str, list[str]] = defaultdict(list)
        for name, value in pairs:
            self._datalist[name].append(value)

    @property
    def data(self) -> dict[str, str]:
        """Each parameter's value."""
        return self._data

    @property
    def datalist(self) -> defaultdict[str, list[str]]:
        """Each parameter's values, in order."""
        return self._datalist


class OAuth2Request(AuthlibRequest):  # type: ignore[misc]
    """An :class:`authlib.oauth2.OAuth2Request` made from a Starlette request, already read."""

    def __init__(self, method: str, uri: str, headers: Any, query: Pairs, form: Pairs) -> None:
        super().__init__(method, uri, headers=headers)
        self._args = dict(query)
        self._form = dict(form)
        self.payload = Payload(form if method == "POST" else query)

    @property
    def args(self) -> dict[str, str]:
        """The query's parameters."""
        return self._args

    @property
    def form(self) -> dict[str, str]:
        """The form body's parameters."""
        return self._form


class OAuth2JsonRequest(JsonRequest):  # type: ignore[misc]
    """A JSON request (client registration, RFC 7591), already read."""

    def __init__(self, method: str, uri: str, headers: Any, document: Any) -> None:
        super().__init__(method, uri, headers)
        self.payload = _JsonPayload(document)


class _JsonPayload(JsonPayload):  # type: ignore[misc]
    def __init__(self, document: Any) -> None:
        self._document = document

    @property
    def data(self) -> Any:
        return self._document


def check_transport(request: Request) -> None:
    """``invalid_request`` when the request came over plain HTTP to a non-loopback name."""
    if not is_secure_transport(str(request.url)):
        raise InvalidRequestError(
            "OAuth 2.0 needs TLS: serve with --tls, or use a loopback address "
            "(127.0.0.1, [::1], localhost) over plain HTTP."
        )


def _media_type(request: Request) -> str:
    return request.headers.get("content-type", "").split(";", 1)[0].strip().lower()


def _checked(pairs: Pairs) -> Pairs:
    """``pairs``, each name once and each value in its syntax; else ``invalid_request``."""
    seen: set[str] = set()
    for name, value in pairs:
        if name in seen:
            raise InvalidRequestError(f"The parameter '{_shown(name)}' is sent more than once.")
        seen.add(name)
        syntax = SYNTAX.get(name)
        if syntax is not None and value and not syntax.match(value):
            raise InvalidRequestError(
                f"The parameter '{name}' holds a character RFC 6749 (Appendix A) does not "
                "allow there."
            )
    return pairs


def _shown(name: str) -> str:
    """A parameter name as an error description may say it (RFC 6749's ASCII subset)."""
    clean = "".join(c for c in name if 0x20 <= ord(c) <= 0x7E and c not in '"\\')
    return clean[:40]


def _form_pairs(raw: bytes) -> Pairs:
    try:
        text = raw.decode("utf-8")
        return parse_qsl(text, keep_blank_values=True, strict_parsing=bool(text), errors="strict")
    except (UnicodeDecodeError, ValueError):
        raise InvalidRequestError(
            "The body is not a UTF-8 application/x-www-form-urlencoded form."
        ) from None


async def read_request(request: Request) -> OAuth2Request:
    """The whole request as Authlib reads it: the query, and for POST the form body."""
    check_transport(request)
    try:
        query = parse_qsl(request.url.query, keep_blank_values=True, errors="strict")
    except UnicodeDecodeError:
        raise InvalidRequestError("The query is not UTF-8 once decoded.") from None
    form: Pairs = []
    if request.method == "POST":
        if _media_type(request) != FORM:
            raise InvalidRequestError(f"This endpoint takes {FORM} (RFC 6749 section 3.2).")
        form = _form_pairs(await request.body())
    pairs = form if request.method == "POST" else query
    return OAuth2Request(request.method, str(request.url), request.headers, query, _checked(pairs))


async def read_json_request(request: Request) -> OAuth2JsonRequest:
    """A JSON request (client registration) as Authlib reads it."""
    check_transport(request)
    if _media_type(request) != JSON:
        raise InvalidRequestError(f"This endpoint takes {JSON} (RFC 7591 section 3.1).")
    try:
        document = orjson.loads(await request.body())
    except orjson.JSONDecodeError:
        raise InvalidRequestError("The body is not JSON.") from None
    return OAuth2JsonRequest(request.method, str(request.url), request.headers, document)


@dataclass
class Answer:
    """Authlib's ``(status, body, headers)``, until a route sends it as a Starlette response.

    ``location`` is what Authlib's extensions (RFC 9207's ``iss``) read and change.
    """

    status: int
    body: Any
    headers: list[tuple[str, str]] = field(default_factory=list)

    @property
    def location(self) -> str | None:
        """The redirect target, if any."""
        return next((v for k, v in self.headers if k.lower() == "location"), None)

    @location.setter
    def location(self, value: str) -> None:
        self.headers = [(k, v) for k, v in self.headers if k.lower() != "location"]
        self.headers.append(("Location", value))

    def response(self, *, see_other: bool = False) -> Response:
        """The Starlette response; ``see_other`` answers a redirect after a POST with 303
        (RFC 9700 section 4.12: the form's password must not be sent on)."""
        status = 303 if see_other and self.status == 302 else self.status
        if isinstance(self.body, dict):
            content = orjson.dumps(self.body)
        else:
            content = (self.body or "").encode("utf-8") if isinstance(self.body, str) else b""
        response = Response(content, status_code=status)
        for name, value in self.headers:
            response.headers.append(name, value)
        return response
