"""Secrets masked before an exchange is kept: credentials, cookies and token fields.

What is kept at rest (the history, a HAR file) must not hand a stolen laptop's
disk a working credential. :func:`mask_exchange` replaces, in every request and
response of an exchange (redirect hops included):

=====================================  =============================================
``Authorization``,                     the credential; the scheme stays
``Proxy-Authorization``                (``Bearer ****``, ``Basic ****``)
``Cookie``                             each cookie's value (``session=****``)
``Set-Cookie``                         the cookie's value; its attributes stay
a JSON body's secret fields            the value (a string, number or boolean), at
                                       any depth: ``"access_token": "****"`` (see
                                       :data:`SECRET_FIELDS`); the rest of the text
                                       is kept byte for byte
a form body's secret fields            the value (``password=****``)
the URL's secret query parameters      the value (``?api_key=****``), and the
                                       password of ``user:password@``
=====================================  =============================================

A name is secret when, lower-cased with ``-`` as ``_``, it is one of
:data:`SECRET_FIELDS` or ends with ``_token``, ``_secret`` or ``_password``
(``github_token``, ``client_secret``, ``new_password``). Everything else is kept
as it was: names, the order of headers, other fields.

A kept request sent again must not send the masks: :func:`masked_fields`,
:func:`masked_parameters` and :func:`is_masked_credential` find where this
module put them (a secret's name whose value is :data:`MASK`).
"""

from __future__ import annotations

import re
from dataclasses import replace
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from explorer.core.exchange import Exchange, Hop, ReceivedResponse, SentRequest

__all__ = [
    "MASK",
    "SECRET_FIELDS",
    "SECRET_HEADERS",
    "is_masked_credential",
    "is_secret_name",
    "mask_body",
    "mask_exchange",
    "mask_headers",
    "mask_url",
    "masked_fields",
    "masked_parameters",
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
# Every secret's name holds one of these words (lower-cased).
_WORDS = (b"token", b"secret", b"passw", b"passphrase", b"key", b"otp", b"verifier")
_LONGEST_NAME = 64
_MASKED = b'"' + MASK.encode() + b'"'
# A JSON name that may be a secret's (checked by is_secret_name) and its scalar value.
_SECRET_PAIR = re.compile(
    rb'(?i)("((?:[a-z0-9]+[_-])*(?:token|secret|password|passwd|passphrase|api[_-]?key|apikey'
    rb'|private[_-]key|otp|code[_-]verifier))"\s*:\s*)'
    rb'("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false)'
)
_FORM = "application/x-www-form-urlencoded"
# A JSON name whose value is the mask (a secret's name is short: see _LONGEST_NAME).
_MASKED_PAIR = re.compile(rb'"((?:[^"\\]|\\.){1,64})"\s*:\s*"\*\*\*\*"')


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


def _mask_json(body: bytes) -> bytes:
    """``body`` (JSON text) with the values of its secret names masked, the rest as it is.

    The pairs are found in the text, not by parsing: each place a secret's word
    appears (lower-cased, found by ``bytes.find``) is tried as a ``"name": value``
    pair; a body without such a word costs one scan.
    """
    lowered = body.lower()
    starts: set[int] = set()
    for word in _WORDS:
        at = lowered.find(word)
        while at >= 0:
            quote = lowered.rfind(b'"', max(0, at - _LONGEST_NAME), at)
            if quote >= 0:
                starts.add(quote)
            at = lowered.find(word, at + len(word))
    parts: list[bytes] = []
    position = 0
    for start in sorted(starts):
        if start < position:
            continue
        match = _SECRET_PAIR.match(body, start)
        if match is None or not is_secret_name(match.group(2).decode("ascii")):
            continue
        parts += [body[position : match.start(3)], _MASKED]
        position = match.end()
    if not parts:
        return body
    parts.append(body[position:])
    return b"".join(parts)


def mask_body(body: bytes, content_type: str | None) -> bytes:
    """``body`` with the values of its secret fields masked (JSON and HTML-form bodies).

    A JSON body keeps every byte but the masked values (its layout too): the
    pairs are found in the text, not by parsing, so a 10 MB page costs one scan.
    Any other body is returned as it is.
    """
    if not body:
        return body
    media = (content_type or "").split(";", 1)[0].strip().lower()
    if media == _FORM:
        return _mask_form(body)
    if not (_JSON_TYPES.match(media) or (not media and body.lstrip()[:1] in (b"{", b"["))):
        return body
    return _mask_json(body)


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
    """``exchange`` with every secret masked, in each request and response it holds
    (:attr:`~explorer.core.exchange.Exchange.masked` when that changed anything)."""
    masked = replace(
        exchange,
        request=_mask_request(exchange.request),
        final=_mask_request(exchange.final),
        response=_mask_response(exchange.response),
        hops=tuple(
            Hop(_mask_request(h.request), _mask_response(h.response)) for h in exchange.hops
        ),
    )
    return masked if masked == exchange else replace(masked, masked=True)


# --- where the masks are -----------------------------------------------------------------------


def _media(content_type: str | None) -> str:
    return (content_type or "").split(";", 1)[0].strip().lower()


def masked_fields(body: bytes, content_type: str | None) -> list[str]:
    """The secret fields of ``body`` (JSON or an HTML form) whose value is :data:`MASK`, in
    the order they come: what :func:`mask_body` put in place of their values."""
    media = _media(content_type)
    if media == _FORM:
        try:
            pairs = parse_qsl(body.decode("utf-8"), keep_blank_values=True)
        except UnicodeDecodeError:
            return []
        return [name for name, value in pairs if value == MASK and is_secret_name(name)]
    if not (_JSON_TYPES.match(media) or (not media and body.lstrip()[:1] in (b"{", b"["))):
        return []
    names = (match.group(1).decode("utf-8", "replace") for match in _MASKED_PAIR.finditer(body))
    return [name for name in names if is_secret_name(name)]


def masked_parameters(url: str) -> list[str]:
    """The secret query parameters of ``url`` whose value is :data:`MASK`."""
    try:
        query = urlsplit(url).query
    except ValueError:
        return []
    pairs = parse_qsl(query, keep_blank_values=True)
    return [name for name, value in pairs if value == MASK and is_secret_name(name)]


def is_masked_credential(value: str) -> bool:
    """True for an ``Authorization`` value :func:`mask_headers` made (``Bearer ****``)."""
    return value.strip() == MASK or value.strip().endswith(f" {MASK}")
