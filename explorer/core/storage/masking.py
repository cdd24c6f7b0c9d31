"""Secrets masked before an exchange is kept: credentials, cookies and token fields.

What is kept at rest (the history, a HAR file) must not hand a stolen laptop's
disk a working credential. :func:`mask_exchange` replaces, in every request and
response of an exchange (redirect hops included):

=====================================  =============================================
``Authorization``,                     the credential; the scheme stays
``Proxy-Authorization``                (``Bearer ****``, ``Basic ****``)
``Cookie``                             each cookie's value (``session=****``)
``Set-Cookie``                         the cookie's value; its attributes stay
a JSON body's secret fields            the value, at any depth (``"access_token":
                                       "****"``): see :data:`SECRET_FIELDS`
a form body's secret fields            the value (``password=****``)
the URL's secret query parameters      the value (``?api_key=****``), and the
                                       password of ``user:password@``
=====================================  =============================================

A name is secret when, lower-cased with ``-`` as ``_``, it is one of
:data:`SECRET_FIELDS` or ends with ``_token``, ``_secret`` or ``_password``
(``github_token``, ``client_secret``, ``new_password``). Everything else is kept
as it was: names, the order of headers, other fields.
"""

from __future__ import annotations

import re
from dataclasses import replace
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import orjson

from explorer.core.exchange import Exchange, Hop, ReceivedResponse, SentRequest

__all__ = [
    "MASK",
    "SECRET_FIELDS",
    "SECRET_HEADERS",
    "is_secret_name",
    "mask_body",
    "mask_exchange",
    "mask_headers",
    "mask_url",
]

#: What a masked value becomes.
MASK = "****"

#: Headers whose whole value (after an auth scheme) is a credential.
SECRET_HEADERS = frozenset({"authorization", "proxy-authorization"})

#: Field and parameter names whose values are secrets (compared lower-case, ``-`` as ``_``).
SECRET_FIELDS = frozenset(
    {
        "access_token",
        "refresh_token",
        "id_token",
        "token",
        "password",
        "passwd",
        "passphrase",
        "client_secret",
        "secret",
        "api_key",
        "apikey",
        "private_key",
        "session_token",
        "auth_token",
        "otp",
        "code_verifier",
    }
)
_SECRET_ENDINGS = ("_token", "_secret", "_password", "_apikey", "_api_key")

_JSON_TYPES = re.compile(r"^application/(?:[\w.+-]*\+)?json$")
# A body none of whose keys can be secret is not parsed (a 100 MB page is scanned once).
_MAYBE_SECRET = re.compile(rb"(?i)token|secret|passw|passphrase|api.?key|otp|verifier")
_FORM = "application/x-www-form-urlencoded"


def is_secret_name(name: str) -> bool:
    """True when a field, parameter or cookie attribute named ``name`` holds a secret."""
    key = name.strip().lower().replace("-", "_")
    return key in SECRET_FIELDS or key.endswith(_SECRET_ENDINGS)


def _mask_credential(value: str) -> str:
    """``Bearer abc`` → ``Bearer ****``: the scheme says what it was, the rest goes."""
    scheme, space, _credential = value.strip().partition(" ")
    return f"{scheme} {MASK}" if space else MASK


def _mask_cookie_header(value: str) -> str:
    """``a=1; b=2`` → ``a=****; b=****``."""
    parts = []
    for part in value.split(";"):
        name, eq, _ = part.strip().partition("=")
        parts.append(f"{name}={MASK}" if eq else name)
    return "; ".join(p for p in parts if p)


def _mask_set_cookie(value: str) -> str:
    """``sid=abc; Path=/; HttpOnly`` → ``sid=****; Path=/; HttpOnly``."""
    first, sep, attributes = value.partition(";")
    name, eq, _ = first.strip().partition("=")
    masked = f"{name}={MASK}" if eq else first.strip()
    return masked + (sep + attributes if sep else "")


_HEADER_MASKS = {
    "authorization": _mask_credential,
    "proxy-authorization": _mask_credential,
    "cookie": _mask_cookie_header,
    "set-cookie": _mask_set_cookie,
}


def mask_headers(headers: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """``headers`` with credentials and cookie values masked, names and order kept."""
    masked = []
    for name, value in headers:
        mask = _HEADER_MASKS.get(name.lower())
        masked.append((name, mask(value) if mask else value))
    return tuple(masked)


def mask_url(url: str) -> str:
    """``url`` with the password of its user info and its secret query values masked."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    netloc = parts.netloc
    if "@" in netloc:
        userinfo, _, host = netloc.rpartition("@")
        user, colon, _password = userinfo.partition(":")
        netloc = f"{user}:{MASK}@{host}" if colon else netloc
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        if any(is_secret_name(name) for name, _ in pairs):
            query = urlencode([(n, MASK if is_secret_name(n) else v) for n, v in pairs], safe="*")
    if netloc == parts.netloc and query == parts.query:
        return url
    return urlunsplit(parts._replace(netloc=netloc, query=query))


def _mask_json_value(value: object) -> tuple[object, bool]:
    """``value`` with the values of secret keys masked, and whether any was."""
    if isinstance(value, dict):
        changed = False
        out: dict[str, object] = {}
        for key, item in value.items():
            if is_secret_name(str(key)) and item is not None and not isinstance(item, dict | list):
                out[key] = MASK
                changed = True
            else:
                out[key], inner = _mask_json_value(item)
                changed = changed or inner
        return out, changed
    if isinstance(value, list):
        items = [_mask_json_value(item) for item in value]
        return [item for item, _ in items], any(changed for _, changed in items)
    return value, False


def mask_body(body: bytes, content_type: str | None) -> bytes:
    """``body`` with the values of its secret fields masked (JSON and HTML-form bodies).

    A JSON body is written back compact when a field was masked (the key order
    is kept); any other body, or one that does not parse, is returned as it is.
    """
    if not body:
        return body
    media = (content_type or "").split(";", 1)[0].strip().lower()
    if media == _FORM:
        return _mask_form(body)
    if not (_JSON_TYPES.match(media) or (not media and body.lstrip()[:1] in (b"{", b"["))):
        return body
    if _MAYBE_SECRET.search(body) is None:
        return body
    try:
        document = orjson.loads(body)
    except orjson.JSONDecodeError:
        return body
    masked, changed = _mask_json_value(document)
    return orjson.dumps(masked) if changed else body


def _mask_form(body: bytes) -> bytes:
    try:
        pairs = parse_qsl(body.decode("utf-8"), keep_blank_values=True)
    except UnicodeDecodeError:
        return body
    if not any(is_secret_name(name) for name, _ in pairs):
        return body
    masked = [(n, MASK if is_secret_name(n) else v) for n, v in pairs]
    return urlencode(masked, safe="*").encode("ascii")


def _content_type(headers: tuple[tuple[str, str], ...]) -> str | None:
    return next((v for k, v in headers if k.lower() == "content-type"), None)


def _mask_request(request: SentRequest) -> SentRequest:
    return replace(
        request,
        url=mask_url(request.url),
        headers=mask_headers(request.headers),
        body=mask_body(request.body, _content_type(request.headers)),
    )


def _mask_response(response: ReceivedResponse) -> ReceivedResponse:
    return replace(
        response,
        url=mask_url(response.url),
        headers=mask_headers(response.headers),
        body=mask_body(response.body, _content_type(response.headers)),
    )


def mask_exchange(exchange: Exchange) -> Exchange:
    """``exchange`` with every secret masked, in each request and response it holds."""
    return replace(
        exchange,
        request=_mask_request(exchange.request),
        final=_mask_request(exchange.final),
        response=_mask_response(exchange.response),
        hops=tuple(
            Hop(_mask_request(h.request), _mask_response(h.response)) for h in exchange.hops
        ),
    )
