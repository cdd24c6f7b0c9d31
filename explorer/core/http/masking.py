"""Secrets masked before an exchange is kept: credentials, cookies and every secret's value.

What is kept at rest (the history, a HAR file) must not hand a stolen laptop's
disk a working credential. :func:`mask_exchange` masks, in every request and
response of an exchange (redirect hops included), first by name:

=====================================  =============================================
``Authorization``,                     the credential; the scheme stays
``Proxy-Authorization``                (``Bearer ****``, ``Basic ****``)
``Cookie``                             each cookie's value (``session=****``)
``Set-Cookie``                         the cookie's value; its attributes stay
any other secret's header              the whole value (``X-Api-Key: ****``,
                                       ``Private-Token``, ``X-Amz-Security-Token``)
``Location``, ``Content-Location``     as a URL (below)
a JSON body's secret fields            the value (a string, number or boolean), at
                                       any depth: ``"access_token": "****"``; the
                                       rest of the text is kept byte for byte
an HTML form's, a multipart form's     the value (``password=****``); a file part
secret fields                          is kept
the URL's secret query parameters      the value (``?api_key=****``, ``sig``,
(and its fragment's)                   ``X-Amz-Signature``, ``code``), and the
                                       password of ``user:password@``
=====================================  =============================================

What a secret's name is (``X-Api-Key``, ``client_secret``, ``sig``...) is
:mod:`explorer.core.http.secret_rules`' list, the one the scanners of GitHub and
GitLab follow, and the one redirects and followed links read.

Then by value: each secret a request of the exchange sent (a credential, a
cookie, a secret header, parameter or field) is masked wherever else it
appears, in what was sent and what came back: a server that echoes the
request (``/anything``, ``/headers``) or puts a token in a redirect's URL
keeps it no more (:mod:`explorer.core.http.secret_values`).

A kept request sent again must not send the masks: :func:`masked_fields`,
:func:`masked_parameters` and :func:`is_masked_credential` find where this
module put them (a secret's name whose value is :data:`MASK`).
"""

from __future__ import annotations

import re
from dataclasses import replace
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import orjson

from explorer.core.http.exchange import Exchange, Hop, ReceivedResponse, SentRequest
from explorer.core.http.secret_rules import (
    CREDENTIAL_HEADERS,
    NAME_WORDS,
    is_secret_header,
    is_secret_name,
)
from explorer.core.http.secret_values import SecretValues, sent_secrets

__all__ = [
    "MASK",
    "is_masked_credential",
    "is_secret_name",
    "mask_body",
    "mask_exchange",
    "mask_header",
    "mask_headers",
    "mask_url",
    "masked_fields",
    "masked_parameters",
]

#: What a masked value becomes.
MASK = "****"

_JSON_TYPES = re.compile(r"^application/(?:[\w.+-]*\+)?json$")
_FORM = "application/x-www-form-urlencoded"
_MULTIPART = "multipart/form-data"
_WORDS = tuple(word.encode("ascii") for word in NAME_WORDS)
_LONGEST_NAME = 64
_MASKED = b'"' + MASK.encode() + b'"'
# A JSON name (checked by is_secret_name) and its scalar value.
_PAIR = re.compile(
    rb'("((?:[^"\\]|\\.){1,64})"\s*:\s*)'
    rb'("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false)'
)
# A JSON name whose value is the mask (a secret's name is short: see _LONGEST_NAME).
_MASKED_PAIR = re.compile(rb'"((?:[^"\\]|\\.){1,64})"\s*:\s*"\*\*\*\*"')
_BOUNDARY = re.compile(r'boundary="?([^";]+)"?', re.IGNORECASE)
_PART_NAME = re.compile(rb'(?i)content-disposition:[^\r\n]*?\bname="([^"]*)"')
_PART_FILE = re.compile(rb"(?i)content-disposition:[^\r\n]*?\bfilename\*?=")


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


def mask_header(name: str, value: str) -> str:
    """``value`` of header ``name`` with its secret part masked (see the module docstring)."""
    lname = name.lower()
    if lname in CREDENTIAL_HEADERS:
        return _mask_credential(value)
    if lname == "cookie":
        return _mask_cookie_header(value)
    if lname == "set-cookie":
        return _mask_set_cookie(value)
    if lname in ("location", "content-location"):
        return mask_url(value)
    return MASK if is_secret_header(name) else value


def mask_headers(headers: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """``headers`` with credentials, cookies and secret headers masked, names and order kept."""
    return tuple((name, mask_header(name, value)) for name, value in headers)


def _mask_pairs(text: str) -> str:
    """A query (or fragment) with its secret parameters' values masked, else as it was."""
    try:
        pairs = parse_qsl(text, keep_blank_values=True)
    except ValueError:
        return text
    if not any(is_secret_name(name, in_url=True) for name, _ in pairs):
        return text
    masked = [(n, MASK if is_secret_name(n, in_url=True) else v) for n, v in pairs]
    return urlencode(masked, safe="*")


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
    query = _mask_pairs(parts.query) if parts.query else ""
    fragment = _mask_pairs(parts.fragment) if "=" in parts.fragment else parts.fragment
    if (netloc, query, fragment) == (parts.netloc, parts.query, parts.fragment):
        return url
    return urlunsplit(parts._replace(netloc=netloc, query=query, fragment=fragment))


def _json_pairs(body: bytes) -> list[re.Match[bytes]]:
    """The ``"name": value`` pairs of ``body`` (JSON text) whose name is a secret's.

    The pairs are found in the text, not by parsing: each place a secret's word
    appears (lower-cased, found by ``bytes.find``) is tried as a pair; a body
    without such a word costs one scan per word.
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
    pairs: list[re.Match[bytes]] = []
    end = 0
    for start in sorted(starts):
        if start < end:
            continue
        match = _PAIR.match(body, start)
        if match is None or not is_secret_name(match.group(2).decode("utf-8", "replace")):
            continue
        pairs.append(match)
        end = match.end()
    return pairs


def _mask_json(body: bytes) -> bytes:
    """``body`` (JSON text) with the values of its secret names masked, the rest as it is."""
    parts: list[bytes] = []
    position = 0
    for match in _json_pairs(body):
        parts += [body[position : match.start(3)], _MASKED]
        position = match.end()
    if not parts:
        return body
    parts.append(body[position:])
    return b"".join(parts)


def _form_pairs(body: bytes) -> list[tuple[str, str]] | None:
    try:
        return parse_qsl(body.decode("utf-8"), keep_blank_values=True)
    except (UnicodeDecodeError, ValueError):
        return None


def _mask_form(body: bytes) -> bytes:
    pairs = _form_pairs(body)
    if pairs is None or not any(is_secret_name(name, in_url=True) for name, _ in pairs):
        return body
    masked = [(n, MASK if is_secret_name(n, in_url=True) else v) for n, v in pairs]
    return urlencode(masked, safe="*").encode("ascii")


def _multipart_fields(body: bytes, content_type: str | None) -> list[tuple[str, int, int]]:
    """Each field of a ``multipart/form-data`` body that is no file: its name, and where
    its value starts and ends in ``body``."""
    found = _BOUNDARY.search(content_type or "")
    if found is None:
        return []
    delimiter = b"--" + found.group(1).strip().encode("latin-1", "replace")
    fields = []
    at = body.find(delimiter)
    while at >= 0:
        head_start = at + len(delimiter)
        following = body.find(delimiter, head_start)
        head_end = body.find(b"\r\n\r\n", head_start, following if following >= 0 else None)
        if following < 0 or head_end < 0:
            break
        head = body[head_start:head_end]
        name = _PART_NAME.search(head)
        end = following - 2 if body[following - 2 : following] == b"\r\n" else following
        if name is not None and _PART_FILE.search(head) is None:
            fields.append((name.group(1).decode("utf-8", "replace"), head_end + 4, end))
        at = following
    return fields


def _mask_multipart(body: bytes, content_type: str | None) -> bytes:
    parts: list[bytes] = []
    position = 0
    for name, start, end in _multipart_fields(body, content_type):
        if is_secret_name(name, in_url=True):
            parts += [body[position:start], MASK.encode()]
            position = end
    if not parts:
        return body
    parts.append(body[position:])
    return b"".join(parts)


def _media(content_type: str | None) -> str:
    return (content_type or "").split(";", 1)[0].strip().lower()


def _is_json(media: str, body: bytes) -> bool:
    return bool(_JSON_TYPES.match(media)) or (not media and body.lstrip()[:1] in (b"{", b"["))


def mask_body(body: bytes, content_type: str | None) -> bytes:
    """``body`` with the values of its secret fields masked (JSON, HTML-form and multipart
    bodies); any other body is returned as it is.

    A JSON body keeps every byte but the masked values (its layout too): the
    pairs are found in the text, not by parsing, so a 10 MB page costs one scan.
    """
    if not body:
        return body
    media = _media(content_type)
    if media == _FORM:
        return _mask_form(body)
    if media == _MULTIPART:
        return _mask_multipart(body, content_type)
    return _mask_json(body) if _is_json(media, body) else body


def _content_type(headers: tuple[tuple[str, str], ...]) -> str | None:
    return next((v for k, v in headers if k.lower() == "content-type"), None)


def _json_string(literal: bytes) -> str:
    """The text of a JSON string literal (``""`` for a number, a boolean or a broken one)."""
    try:
        value = orjson.loads(literal)
    except orjson.JSONDecodeError:
        return ""
    return value if isinstance(value, str) else ""


def _secrets_of(request: SentRequest) -> list[str]:
    """What ``request`` sent as secrets, by name (for :mod:`.secret_values` to mask)."""
    body = request.body
    content_type = _content_type(request.headers)
    media = _media(content_type)
    fields: list[str] = []
    if media == _FORM:
        fields = [v for n, v in _form_pairs(body) or [] if is_secret_name(n, in_url=True)]
    elif media == _MULTIPART:
        fields = [
            body[start:end].decode("utf-8", "replace")
            for name, start, end in _multipart_fields(body, content_type)
            if is_secret_name(name, in_url=True)
        ]
    elif body and _is_json(media, body):
        fields = [_json_string(match.group(3)) for match in _json_pairs(body)]
    return sent_secrets(request.url, request.headers, fields)


def _mask_request(request: SentRequest, values: SecretValues) -> SentRequest:
    return replace(
        request,
        url=values.mask_text(mask_url(request.url)),
        headers=values.mask_headers(mask_headers(request.headers)),
        body=values.mask_bytes(mask_body(request.body, _content_type(request.headers))),
    )


def _mask_response(response: ReceivedResponse, values: SecretValues) -> ReceivedResponse:
    body = values.mask_bytes(mask_body(response.body, _content_type(response.headers)))
    return replace(
        response,
        url=values.mask_text(mask_url(response.url)),
        headers=values.mask_headers(mask_headers(response.headers)),
        body=body,
        # The body as it came (compressed) would hold what was masked.
        wire_body=response.wire_body if body == response.body else None,
    )


def mask_exchange(exchange: Exchange) -> Exchange:
    """``exchange`` with every secret masked, in each request and response it holds
    (:attr:`~explorer.core.http.exchange.Exchange.masked` when that changed anything)."""
    sent = {exchange.request, exchange.final, *(hop.request for hop in exchange.hops)}
    values = SecretValues(secret for request in sent for secret in _secrets_of(request))
    masked = replace(
        exchange,
        request=_mask_request(exchange.request, values),
        final=_mask_request(exchange.final, values),
        response=_mask_response(exchange.response, values),
        hops=tuple(
            Hop(_mask_request(h.request, values), _mask_response(h.response, values))
            for h in exchange.hops
        ),
    )
    return masked if masked == exchange else replace(masked, masked=True)


# --- where the masks are -----------------------------------------------------------------------


def masked_fields(body: bytes, content_type: str | None) -> list[str]:
    """The secret fields of ``body`` (JSON, an HTML or a multipart form) whose value is
    :data:`MASK`, in the order they come: what :func:`mask_body` put in place of their values."""
    media = _media(content_type)
    if media == _FORM:
        pairs = _form_pairs(body) or []
        return [n for n, v in pairs if v == MASK and is_secret_name(n, in_url=True)]
    if media == _MULTIPART:
        return [
            name
            for name, start, end in _multipart_fields(body, content_type)
            if body[start:end] == MASK.encode() and is_secret_name(name, in_url=True)
        ]
    if not _is_json(media, body):
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
    return [name for name, value in pairs if value == MASK and is_secret_name(name, in_url=True)]


def is_masked_credential(value: str) -> bool:
    """True for an ``Authorization`` value :func:`mask_headers` made (``Bearer ****``)."""
    return value.strip() == MASK or value.strip().endswith(f" {MASK}")
