"""Which parts of a request are secrets, and how they show masked.

What the mock shows of a request (``/_journal``, ``TRACE``) must not hand a
reader the credentials other clients sent: with the documented ``admin:admin``,
anyone who can reach the journal could otherwise log in as every user of it.
Masked, a value becomes :data:`MASK`; everything around it stays as sent:

=====================================  ============================================
``Authorization``,                     the credential; the scheme stays
``Proxy-Authorization``                (``Bearer ****``, ``Basic ****``)
``Cookie``                             each cookie's value (``session=****``)
``Set-Cookie``                         the cookie's value; its attributes stay
a header with a secret name            the whole value (``X-Api-Key: ****``)
a query parameter with a secret name   the value (``?access_token=****``)
a JSON body's secret members           the value (``"password": "****"``), at any
                                       depth, the rest of the bytes as they were
a form or multipart body's secret      the value (``password=****``), the part's
fields                                 content
httpbin's ``/basic-auth/USER/PASSWD``  the password segment (``/basic-auth/u/****``)
=====================================  ============================================

The access log masks the same way (:func:`mask_target` on each request line):
a log is copied into bug reports and chat far more often than a journal is read.

A name is secret (:func:`is_secret_name`) when, lower-cased with ``-`` as
``_``, it is one of :data:`SECRET_NAMES` or ends with one of
:data:`SECRET_ENDINGS`: the words GitHub's and GitLab's secret scanners look
for next to a value (``X-Api-Key``, ``Private-Token``, ``X-Auth-Token``,
``X-Amz-Signature``, ``client_secret``, ``new_password``, ``code``, ``sig``);
or when, cut into words (``accessToken`` → ``access token``,
``X-Hub-Signature-256`` → ``x hub signature``), a word is a password's
(``password_confirmation``) or its last word is one of :data:`SECRET_WORDS`
(:func:`is_named_secret`: ``clientSecret``, ``X-Jwt-Assertion``, ``X-OTP``). A
header is also secret when its name ends as :data:`HEADER_ENDINGS` say
(``X-Auth``, ``X-Session-Id``).
The explorer's history masks by the same rule; the two packages share no code
(they are independent by design), so each keeps its own copy of it.
"""

from __future__ import annotations

import re
from urllib.parse import unquote_plus

#: What a masked value becomes.
MASK = "****"
_MASK = MASK.encode("ascii")

#: Headers whose value is a credential after an auth scheme.
CREDENTIAL_HEADERS = frozenset({"authorization", "proxy-authorization"})

#: Names whose values are secrets (compared lower-case, ``-`` as ``_``).
SECRET_NAMES = frozenset(
    {
        "access_token",
        "api_key",
        "apikey",
        "auth",
        "auth_token",
        "client_secret",
        "code",
        "code_verifier",
        "credential",
        "credentials",
        "device_code",
        "id_token",
        "id_token_hint",
        "key",
        "otp",
        "pass",
        "passphrase",
        "passwd",
        "password",
        "private_key",
        "refresh_token",
        "secret",
        "session_id",
        "sessionid",
        "sig",
        "signature",
        "token",
        "user_code",
        "x_amz_credential",
        "x_amz_signature",
    }
)
#: Endings that make a name secret (``x_api_key``, ``private_token``, ``new_password``).
SECRET_ENDINGS = (
    "_token",
    "_secret",
    "_password",
    "_passwd",
    "_key",
    "_apikey",
    "_signature",
    "_credential",
)

#: Last words that make a name secret, however it is spelled (``accessToken``, ``X-OTP``).
SECRET_WORDS = frozenset(
    {
        "token",
        "secret",
        "password",
        "passwd",
        "pwd",
        "passphrase",
        "passcode",
        "signature",
        "credential",
        "credentials",
        "apikey",
        "otp",
        "jwt",
        "assertion",
        "authorization",
        "authentication",
    }
)
#: Words that make a name secret wherever they are in it (``password_confirmation``).
PASSWORD_WORDS = frozenset({"password", "passwd", "passphrase", "passcode"})
#: Last words of a header's name that make it secret: it carries a credential.
HEADER_ENDINGS = (("auth",), ("session", "id"), ("session",), ("key",))
#: Headers named like a key's that carry none (a WebSocket nonce, an idempotency key).
HEADER_NOT_SECRETS = frozenset(
    {"sec_websocket_key", "sec_web_socket_key", "idempotency_key", "x_idempotency_key"}
)
#: Names that end like a secret's but say a rule (CORS's ``...-Allow-Credentials: true``).
POLICY_NAMES = frozenset({"access_control_allow_credentials"})
# A name glued into one word still ends with what it is: "githubtoken", "xapikey".
_GLUED = ("token", "secret", "password", "passwd", "apikey")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_NOT_WORD = re.compile(r"[^a-z0-9]+")

_FORM = "application/x-www-form-urlencoded"
_MULTIPART = "multipart/form-data"
# A JSON member whose value is a scalar: its name (still escaped) and the value.
_JSON_MEMBER = re.compile(
    rb'"((?:[^"\\]|\\.){1,128})"(\s*:\s*)'
    rb'("(?:[^"\\]|\\.)*"|-?[0-9][0-9.eE+-]*|true|false|null)'
)
_BOUNDARY = re.compile(r'boundary=(?:"([^"]+)"|([^;\s]+))', re.IGNORECASE)
_PART_NAME = re.compile(rb'(?i)(?<![a-z*])name="([^"]*)"|(?<![a-z*])name=([^;\s]+)')


def _words(name: str) -> list[str]:
    """``X-Hub-Signature-256`` → ``[x, hub, signature]``; ``accessToken`` → ``[access, token]``."""
    words = [w for w in _NOT_WORD.split(_CAMEL.sub("_", name.strip()).lower()) if w]
    while len(words) > 1 and words[-1].isdigit():
        words.pop()
    return words


def is_named_secret(name: str) -> bool:
    """True when ``name``, cut into words, is a secret's: a password's word anywhere, one of
    :data:`SECRET_WORDS` last, or one glued word ending as a secret's (``githubtoken``)."""
    words = _words(name)
    if not words or "_".join(words) in POLICY_NAMES:
        return False
    if any(word in PASSWORD_WORDS for word in words) or words[-1] in SECRET_WORDS:
        return True
    return len(words) == 1 and words[0].endswith(_GLUED)


def is_secret_name(name: str) -> bool:
    """True when a header, parameter or field called ``name`` holds a secret."""
    key = name.strip().lower().replace("-", "_")
    if key in POLICY_NAMES:
        return False
    return key in SECRET_NAMES or key.endswith(SECRET_ENDINGS) or is_named_secret(name)


def is_secret_header(name: str) -> bool:
    """True when header ``name``'s value is (or holds) a secret."""
    lowered = name.lower()
    if lowered in CREDENTIAL_HEADERS or lowered in ("cookie", "set-cookie"):
        return True
    words = tuple(_words(lowered))
    if "_".join(words) in HEADER_NOT_SECRETS:
        return False
    return is_secret_name(lowered) or any(
        words[-len(ending) :] == ending for ending in HEADER_ENDINGS
    )


def mask_credential(value: str) -> str:
    """``Bearer abc`` → ``Bearer ****``: the scheme says what it was, the rest goes."""
    scheme, space, _ = value.strip().partition(" ")
    return f"{scheme} {MASK}" if space else MASK


def mask_cookies(value: str) -> str:
    """``a=1; b=2`` → ``a=****; b=****``: the names stay."""
    pairs = [pair.strip() for pair in value.split(";") if pair.strip()]
    return "; ".join(f"{pair.partition('=')[0]}={MASK}" for pair in pairs)


def mask_header(name: str, value: str) -> str:
    """``value`` of header ``name`` as shown masked (unchanged when it is no secret)."""
    lowered = name.lower()
    if lowered in CREDENTIAL_HEADERS:
        return mask_credential(value)
    if lowered == "cookie":
        return mask_cookies(value)
    if lowered == "set-cookie":
        first, semicolon, attributes = value.partition(";")
        return f"{first.partition('=')[0].strip()}={MASK}{semicolon}{attributes}"
    return MASK if is_secret_header(lowered) else value


#: httpbin's paths whose last segment is a password: ``/basic-auth/{user}/{passwd}``.
_PASSWORD_PATH = re.compile(r"^(/(?:hidden-)?basic-auth/[^/]*/)[^/]+")


def mask_path(path: str) -> str:
    """``path`` with a password it carries masked (httpbin's ``/basic-auth/u/p``)."""
    return _PASSWORD_PATH.sub(lambda found: found.group(1) + MASK, path)


def mask_target(target: str) -> str:
    """A request target (``path?query``) as shown masked: its path, then its query."""
    path, question, query = target.partition("?")
    return mask_path(path) + (question + mask_query(query) if question else "")


def mask_query(query: str) -> str:
    """A query string with the values of its secret parameters masked, the rest as sent."""
    if not query:
        return query
    pairs = []
    for pair in query.split("&"):
        name, equals, _ = pair.partition("=")
        pairs.append(f"{name}={MASK}" if equals and is_secret_name(unquote_plus(name)) else pair)
    return "&".join(pairs)


def _json_member(match: re.Match[bytes]) -> bytes:
    name = match.group(1).decode("utf-8", "replace")
    if not is_secret_name(name.replace("\\", "")):
        return match.group(0)
    return b'"' + match.group(1) + b'"' + match.group(2) + b'"' + _MASK + b'"'


def mask_json_members(body: bytes) -> bytes:
    """``body`` with every ``"secret-name": scalar`` member's value masked, at any depth.

    Read as text, not parsed, so a body cut short (the journal keeps 16 KiB) or
    not quite JSON is masked too; the other bytes stay as they were.
    """
    return _JSON_MEMBER.sub(_json_member, body)


def mask_form(body: bytes) -> bytes:
    """A form body with its secret fields' values masked."""
    fields = []
    for field in body.split(b"&"):
        name, equals, _ = field.partition(b"=")
        secret = equals and is_secret_name(unquote_plus(name.decode("latin-1")))
        fields.append(name + b"=" + _MASK if secret else field)
    return b"&".join(fields)


def mask_multipart(content_type: str, body: bytes) -> bytes:
    """A ``multipart/form-data`` body with the content of its secret fields masked."""
    found = _BOUNDARY.search(content_type)
    if found is None:
        return body
    delimiter = b"--" + (found.group(1) or found.group(2)).encode("latin-1")
    parts = body.split(delimiter)
    for index, part in enumerate(parts):
        head, blank, content = part.partition(b"\r\n\r\n")
        named = _PART_NAME.search(head) if blank else None
        if named is None:
            continue
        name = (named.group(1) or named.group(2) or b"").decode("utf-8", "replace")
        if is_secret_name(name):
            ending = b"\r\n" if content.endswith(b"\r\n") else b""
            parts[index] = head + blank + _MASK + ending
    return delimiter.join(parts)


def mask_body(content_type: str, body: bytes) -> bytes:
    """A request body with its secrets masked, by its media type (JSON members always)."""
    media_type = content_type.partition(";")[0].strip().lower()
    if media_type == _FORM:
        body = mask_form(body)
    elif media_type == _MULTIPART:
        body = mask_multipart(content_type, body)
    return mask_json_members(body)
