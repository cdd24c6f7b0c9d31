"""The values a request sent as secrets, masked wherever they appear again.

Masking by name (:mod:`explorer.core.http.masking`) hides a secret where its
name says so. A server may say it again under another name: an echo
(``/anything``, ``/headers``, ``/cookies``) returns the request's
``Authorization`` and ``Cookie`` in its body, a login redirects to a URL that
holds the code it was given. :func:`sent_secrets` lists what a request sent as
secrets; :class:`SecretValues` masks each of them in any text or bytes, as it
was sent and as JSON or a URL would write it again (escaped, percent-encoded).

:func:`sent_secrets` serves every view: the journal and history of what was sent
(:mod:`explorer.core.http.masking`, from the request on the wire) and the copy menu's
preview of a request written for another tool (:func:`spec_secrets`, from the request
as a person said it, read as the wire would carry it), so both mask the same values.

A value shorter than :data:`MIN_LENGTH` (4) characters is not looked for: masking is
by value, everywhere in a text, and a one to three character value is everywhere (a
password ``pw`` or ``a`` would mask every ``pw`` or ``a`` of a page, a URL, a curl
line, making each unreadable), while such a value protects nothing worth it (it is
guessed at once). Where a name says a value is secret, it is masked whatever its length
by name (:mod:`explorer.core.http.masking`). A cookie's value is looked for from
:data:`MIN_COOKIE_LENGTH` (8) characters: a cookie may hold ``theme=dark``, a session
id is long.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Iterable
from urllib.parse import parse_qsl, quote, quote_plus, urlencode, urlsplit

from explorer.core.http.request import LoginFlow, RequestSpec, credential_headers
from explorer.core.http.secret_rules import CREDENTIAL_HEADERS, is_secret_header, is_secret_name

__all__ = ["MIN_COOKIE_LENGTH", "MIN_LENGTH", "SecretValues", "sent_secrets", "spec_secrets"]

#: Characters a secret value has at least to be looked for elsewhere.
MIN_LENGTH = 4
#: Characters a cookie's value has at least to be looked for elsewhere.
MIN_COOKIE_LENGTH = 8


def _basic_password(credential: str) -> str:
    """The password of a Basic credential (``base64(user:password)``), or ``""``."""
    try:
        decoded = base64.b64decode(credential, validate=True).decode("utf-8", "replace")
    except (binascii.Error, ValueError):
        return ""
    return decoded.partition(":")[2]


def _from_headers(headers: Iterable[tuple[str, str]]) -> list[str]:
    values = []
    for name, value in headers:
        lname = name.lower()
        if lname in CREDENTIAL_HEADERS:
            scheme, _, credential = value.strip().partition(" ")
            values.append(credential.strip() or scheme)
            if scheme.lower() == "basic":
                values.append(_basic_password(credential.strip()))
        elif lname == "cookie":
            for part in value.split(";"):
                cookie = part.strip().partition("=")[2]
                if len(cookie) >= MIN_COOKIE_LENGTH:
                    values.append(cookie)
        elif is_secret_header(name):
            values.append(value.strip())
    return values


def _from_url(url: str) -> list[str]:
    try:
        parts = urlsplit(url)
        values = [parts.password or ""]
    except ValueError:
        return []
    for text in (parts.query, parts.fragment):
        pairs = parse_qsl(text, keep_blank_values=True)
        values += [value for name, value in pairs if is_secret_name(name, in_url=True)]
    return values


def sent_secrets(url: str, headers: Iterable[tuple[str, str]], fields: Iterable[str]) -> list[str]:
    """What a request to ``url`` with ``headers`` sent as secrets: the credential (and a
    Basic one's password), cookie values, secret headers, the URL's password and secret
    parameters, and ``fields``, the values of its body's secret fields."""
    values = [*_from_headers(headers), *_from_url(url), *fields]
    return [value for value in values if len(value) >= MIN_LENGTH and value.strip("*")]


def spec_secrets(spec: RequestSpec) -> list[str]:
    """What ``spec`` will send as secrets, by :func:`sent_secrets`: its URL with its query
    pairs, its headers with the credential as the wire carries it (``Authorization``,
    ``Cookie``), and a login flow's password (sent to its login URL, not here)."""
    headers = [*spec.headers, *credential_headers(spec.auth)]
    fields = [spec.auth.password] if isinstance(spec.auth, LoginFlow) else []
    url = spec.url
    if spec.query:
        url += ("&" if "?" in url else "?") + urlencode(spec.query)
    return sent_secrets(url, headers, fields)


def _written(value: str) -> set[str]:
    """``value`` as a text may hold it: as it is, JSON-escaped, percent-encoded."""
    forms = {
        value,
        json.dumps(value)[1:-1],
        json.dumps(value, ensure_ascii=False)[1:-1],
        quote(value, safe=""),
        quote(value),
        quote_plus(value),
    }
    forms.add(json.dumps(value)[1:-1].replace("/", "\\/"))  # PHP's json_encode
    return {form for form in forms if len(form) >= MIN_LENGTH}


class SecretValues:
    """Secret values to mask (with ``mask``) wherever they appear, the longest first."""

    def __init__(self, values: Iterable[str], mask: str = "****") -> None:
        forms = {form for value in set(values) for form in _written(value)}
        self.mask = mask
        self._texts = tuple(sorted(forms, key=len, reverse=True))
        self._bytes = tuple(form.encode("utf-8") for form in self._texts)

    def __bool__(self) -> bool:
        return bool(self._texts)

    def mask_text(self, text: str) -> str:
        """``text`` with every secret value masked."""
        for form in self._texts:
            if form in text:
                text = text.replace(form, self.mask)
        return text

    def mask_bytes(self, data: bytes) -> bytes:
        """``data`` with every secret value (as UTF-8) masked."""
        mask = self.mask.encode()
        for form in self._bytes:
            if form in data:
                data = data.replace(form, mask)
        return data

    def mask_headers(self, headers: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
        """``headers`` with every secret value masked in their values."""
        if not self._texts:
            return headers
        return tuple((name, self.mask_text(value)) for name, value in headers)
