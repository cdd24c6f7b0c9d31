"""Secrets masked before an exchange goes on the tape: a tape is shared, a token is not.

The rules of restwalk's history (the explorer masks what it keeps the same
way), and of the mock's own TRACE echo (:func:`mock_server.http.masking.mask_header`):

- ``Authorization`` and ``Proxy-Authorization``: the credential, the scheme stays
  (``Bearer ****``);
- ``Cookie``: each value (``session=****``); ``Set-Cookie``: the value, the
  attributes stay;
- header fields named like a key or token (``X-API-Key``, ``X-Auth-Token``...),
  query parameters and JSON or form fields whose names are secrets
  (``api_key``, ``access_token``, ``password``, ``client_secret``...,
  :func:`is_secret_name`, and ``Authorization`` or ``Cookie`` as an echo service
  shows them in a body): the value; a URL in a JSON string, its secret parameters;
  a JSON document in a JSON string (an echoed body), its secret fields.

A secret inside other text (a form echoed as one string, say) is not found.

A masked value is :data:`MASK`; a replay takes it as "any value" when matching.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import orjson

from mock_server.http.masking import MASK, is_named_secret, is_secret_header, mask_header
from mock_server.tape.har import Exchange, Headers

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
        # Header names, as an echo service (httpbin) shows them in a JSON body.
        "authorization",
        "proxy_authorization",
        "cookie",
    }
)
_SECRET_ENDINGS = ("_token", "_secret", "_password", "_apikey", "_api_key")
_CREDENTIAL_HEADERS = frozenset({"authorization", "proxy-authorization", "cookie"})


def is_secret_name(name: str) -> bool:
    """True when a field, parameter or header named ``name`` holds a secret."""
    key = name.strip().lower().replace("-", "_")
    key = key.removeprefix("x_")
    return key in SECRET_FIELDS or key.endswith(_SECRET_ENDINGS) or is_named_secret(name)


def _set_cookie(value: str) -> str:
    cookie, semicolon, attributes = value.partition(";")
    name, eq, _ = cookie.partition("=")
    return f"{name.strip()}={MASK}{semicolon}{attributes}" if eq else value


def mask_headers(headers: Headers) -> Headers:
    """``headers`` with every credential, cookie and secret-named field masked."""
    masked = []
    for name, value in headers:
        lowered = name.lower()
        if lowered in _CREDENTIAL_HEADERS:
            value = mask_header(lowered, value)
        elif lowered == "set-cookie":
            value = _set_cookie(value)
        elif is_secret_name(lowered) or is_secret_header(lowered):
            value = MASK
        masked.append((name, value))
    return tuple(masked)


def mask_url(url: str) -> str:
    """``url`` with secret query parameters and any password masked."""
    parts = urlsplit(url)
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    netloc = parts.netloc
    if parts.password is not None:
        netloc = netloc.replace(f":{parts.password}@", f":{MASK}@", 1)
    if not any(is_secret_name(name) for name, _ in pairs) and netloc == parts.netloc:
        return url
    query = urlencode([(n, MASK if is_secret_name(n) else v) for n, v in pairs], safe="*")
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def _mask_json(value: Any) -> Any:
    if isinstance(value, dict):
        return {
            key: MASK
            if is_secret_name(key) and not isinstance(inner, (dict, list))
            else _mask_json(inner)
            for key, inner in value.items()
        }
    if isinstance(value, list):
        return [_mask_json(inner) for inner in value]
    if isinstance(value, str) and value.startswith(("http://", "https://")):
        return mask_url(value)
    if isinstance(value, str) and value.startswith(("{", "[")):
        return _mask_embedded(value)
    return value


def _mask_embedded(text: str) -> str:
    """A JSON document inside a string (an echo of a request body), masked the same way."""
    try:
        parsed = orjson.loads(text)
    except orjson.JSONDecodeError:
        return text
    masked = _mask_json(parsed)
    return text if masked == parsed else orjson.dumps(masked).decode()


def mask_body(body: bytes, media_type: str | None) -> bytes:
    """A JSON or form body with its secret fields masked; any other body as it is."""
    essence = (media_type or "").partition(";")[0].strip().lower()
    if essence == "application/x-www-form-urlencoded":
        try:
            pairs = parse_qsl(body.decode("utf-8"), keep_blank_values=True)
        except UnicodeDecodeError:
            return body
        if not any(is_secret_name(name) for name, _ in pairs):
            return body
        return urlencode(
            [(n, MASK if is_secret_name(n) else v) for n, v in pairs], safe="*"
        ).encode()
    if essence.endswith("json"):
        try:
            parsed = orjson.loads(body)
        except orjson.JSONDecodeError:
            return body
        masked = _mask_json(parsed)
        return body if masked == parsed else orjson.dumps(masked)
    return body


def mask_exchange(exchange: Exchange) -> Exchange:
    """The exchange as it goes on the tape."""
    return Exchange(
        method=exchange.method,
        url=mask_url(exchange.url),
        request_headers=mask_headers(exchange.request_headers),
        request_body=mask_body(exchange.request_body, exchange.header("content-type")),
        status=exchange.status,
        reason=exchange.reason,
        response_headers=mask_headers(exchange.response_headers),
        response_body=mask_body(
            exchange.response_body, exchange.header("content-type", response=True)
        ),
        started=exchange.started,
        time_ms=exchange.time_ms,
    )
