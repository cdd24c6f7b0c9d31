"""Cross-site request forgery protection of the consent forms (RFC 6749 section 10.12).

A form is accepted only from the browser it was shown to, for the request it
was shown for, within :data:`MAX_AGE` seconds:

- the page sets a random nonce in a cookie (``HttpOnly``, ``SameSite=Lax``,
  ``Path=/oauth``), which a page on another site can neither read nor have the
  browser send with its own cross-site POST (``Lax`` rather than ``Strict``: the
  browser arrives at the page by a cross-site redirect from the client, and a
  second tab must not replace the first one's nonce);
- the form carries ``issued.HMAC(key, nonce, purpose, the request's fields,
  issued)``: it ties the form to that cookie and to what the page asked the
  user (the client, redirect URI, scopes, state, PKCE challenge; or the user
  code). Another site cannot compute it, and a form altered after it was shown
  no longer matches;
- when the browser says where the form was sent from (``Sec-Fetch-Site``,
  ``Origin``), it was sent from this server's own page (:func:`same_site`, the
  rule every state-changing request meets:
  :func:`mock_server.http.cross_origin.refused_origin`). The pages are sent with
  ``Referrer-Policy: same-origin``, so a browser posting the form says
  ``Origin: http://127.0.0.1:8000``; under ``no-referrer`` it said
  ``Origin: null`` and the form was refused.

Pure functions: the key and the time are passed in.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Mapping

from starlette.requests import Request

from mock_server.http.cross_origin import refused_origin

COOKIE = "oauth_csrf"
FIELD = "csrf_token"
#: How long a shown form stays good.
MAX_AGE = 600


def derive_key(secret: bytes) -> bytes:
    """The forms' HMAC key, from the server's secret (a key of its own)."""
    return hmac.new(secret, b"restwalk-mock OAuth consent forms", hashlib.sha256).digest()


def new_nonce() -> str:
    """A fresh random nonce for the cookie."""
    return secrets.token_urlsafe(24)


def cookie(nonce: str, *, secure: bool = False) -> str:
    """The ``Set-Cookie`` value carrying ``nonce``; ``Secure`` when ``secure`` (the page came
    over HTTPS: the nonce then never goes over plain http, to any port of the host)."""
    attributes = f"Path=/oauth; HttpOnly; SameSite=Lax; Max-Age={MAX_AGE}"
    return f"{COOKIE}={nonce}; {attributes}" + ("; Secure" if secure else "")


def _mac(key: bytes, nonce: str, purpose: str, fields: Mapping[str, str], issued: int) -> str:
    message = "\x00".join(
        [nonce, purpose, str(issued), *(f"{k}={fields[k]}" for k in sorted(fields))]
    )
    digest = hmac.new(key, message.encode("utf-8"), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def form_token(key: bytes, nonce: str, purpose: str, fields: Mapping[str, str], now: float) -> str:
    """The token a form shown now for ``fields`` carries."""
    issued = int(now)
    return f"{issued}.{_mac(key, nonce, purpose, fields, issued)}"


def check(
    key: bytes, nonce: str | None, purpose: str, fields: Mapping[str, str], token: str, now: float
) -> bool:
    """True when ``token`` was made for this browser's ``nonce`` and ``fields``, recently."""
    issued_text, dot, mac = token.partition(".")
    if not nonce or not dot or not issued_text.isdigit():
        return False
    issued = int(issued_text)
    if not 0 <= now - issued <= MAX_AGE:
        return False
    return hmac.compare_digest(mac, _mac(key, nonce, purpose, fields, issued))


def same_site(request: Request) -> bool:
    """False when the browser says the form came from another origin (Sec-Fetch-Site, Origin)."""
    return refused_origin("POST", request.headers, trusted=None) is None
