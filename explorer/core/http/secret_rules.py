"""Secrets: which names hold one, and which origin may receive one.

One list, read by everything that treats secrets: the history and HAR masking
(:mod:`explorer.core.http.masking`), the printed exchange
(:mod:`explorer.core.http.wire`), redirects (:mod:`explorer.core.http.redirects`) and every
request derived from another (:mod:`explorer.core.session.derived`).

**Which names.** A value is a secret by the name it travels under, as the
secret scanners read names when a value has no shape of its own:

- GitHub's secret scanning, "Supported secret scanning patterns", generic
  patterns (https://docs.github.com/en/code-security/reference/secret-security/supported-secret-scanning-patterns):
  ``http_basic_authentication_header``, ``http_bearer_authentication_header``
  and ``password``: the ``Authorization`` header and what is named a password;
- GitLab's pipeline secret detection, "Detected secrets"
  (https://docs.gitlab.com/ee/user/application_security/secret_detection/pipeline/detected_secrets.html),
  whose generic rule is gitleaks' ``generic-api-key``: a value assigned to a name
  holding ``access``, ``api``, ``auth``, ``key``, ``credential``, ``creds``,
  ``passwd``/``password``, ``secret`` or ``token`` (GitLab's analyzer took it from
  gitleaks' default configuration); GitLab also looks for passwords "in specific
  contexts like URLs" (https://docs.gitlab.com/17.2/ee/user/application_security/secret_detection/pipeline).

The scanners weigh a value's entropy too; restwalk has only the name, so a name
is cut into words (``X-Amz-Security-Token``, ``accessToken``, ``client_secret``
→ ``x amz security token``...) and is a secret when

- its last word is one of :data:`SECRET_WORDS` (``token``, ``secret``,
  ``signature``, ``credential``, ``jwt``, ``assertion``, ``authorization``...):
  ``x_auth_token``, ``private_token``, ``x_amz_signature``; a paging cursor is not
  (``next_token``, ``pageToken``);
- a word is a password (``password``, ``passwd``, ``passphrase``, ``passcode``), anywhere:
  ``password_confirmation``;
- its last two words are a kind of key (``api_key``, ``private_key``,
  ``subscription_key``: :data:`KEY_KINDS`), not any key (``Idempotency-Key``,
  ``Sec-WebSocket-Key``);
- it is one of :data:`SECRET_NAMES` (``authorization``, ``cookie``, OAuth 2.0's
  ``code_verifier``, ``device_code``, ``user_code``, ``id_token_hint``...);
- it is not one of :data:`POLICY_NAMES`, names that end like a secret's but say a
  rule, not a value (CORS's ``Access-Control-Allow-Credentials: true``);
- in a URL's query or an HTML form only, one of :data:`URL_SECRET_NAMES`:
  ``key`` (Google's API keys), ``code`` (an OAuth authorization code), ``sig``
  (an Azure SAS signature), ``auth``. In JSON these name error codes and
  dictionary entries, and are kept.
- in a header's name, those of a URL too, and a name ending in ``auth``, ``key`` or a
  session's id (:data:`HEADER_SECRET_ENDINGS`: ``X-Auth``, ``X-Key``, ``X-Session-Id``);
  a header named so carries a credential, but for :data:`HEADER_NOT_SECRETS`
  (``Idempotency-Key``, ``Sec-WebSocket-Key``).

**Which origin.** A secret given for one origin (``scheme://host:port``, RFC
6454) goes to that origin only (:func:`may_receive`). The one exception is
httpx's and requests': from ``http`` to ``https`` on the same host and the
default ports, where nothing new can read it.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import httpx

from explorer.core.text.lazy_pattern import LazyPattern

__all__ = [
    "CREDENTIAL_HEADERS",
    "HEADER_NOT_SECRETS",
    "HEADER_SECRET_ENDINGS",
    "KEY_KINDS",
    "NAME_WORDS",
    "POLICY_NAMES",
    "SECRET_NAMES",
    "SECRET_WORDS",
    "URL_SECRET_NAMES",
    "is_secret_header",
    "is_secret_name",
    "may_receive",
    "origin_of",
    "withheld_note",
]

#: Headers whose value is a scheme and a credential (``Bearer abc``): the scheme is no secret.
CREDENTIAL_HEADERS = frozenset({"authorization", "proxy-authorization"})

#: A name whose last word is one of these holds a secret.
SECRET_WORDS = frozenset(
    {
        "token",
        "secret",
        "password",
        "passwd",
        "pwd",
        "passphrase",
        "signature",
        "credential",
        "credentials",
        "apikey",
        "otp",
        "passcode",
        "jwt",
        "assertion",
        "authorization",
    }
)
#: Words that make any name a secret's, wherever they are in it.
_PASSWORD_WORDS = frozenset({"password", "passwd", "passphrase", "passcode"})

#: ``<kind>_key`` is a secret for these kinds (``api_key``, ``x_goog_api_key``).
KEY_KINDS = frozenset(
    {
        "api",
        "access",
        "private",
        "secret",
        "client",
        "auth",
        "master",
        "signing",
        "subscription",
        "app",
        "consumer",
        "encryption",
        "session",
    }
)

#: Whole names (words joined by ``_``) that are secrets wherever they are.
SECRET_NAMES = frozenset(
    {
        "authorization",
        "proxy_authorization",
        "authentication",
        "cookie",
        "set_cookie",
        # OAuth 2.0 (RFC 7636, RFC 8628, OpenID Connect): a token's "token" and a
        # client's "secret" end their names already.
        "code_verifier",
        "device_code",
        "user_code",
        "id_token_hint",
        "client_assertion",
        "assertion",
        "sessionid",
        "session_id",
        "jsessionid",
        "phpsessid",
    }
)

#: Names that end like a secret's but say a rule, not a value: never secrets (a masked
#: ``Access-Control-Allow-Credentials: true`` hides what CORS allows, and nothing else).
POLICY_NAMES = frozenset({"access_control_allow_credentials"})

#: Names that are secrets in a URL's query or an HTML form, not in JSON.
URL_SECRET_NAMES = frozenset({"key", "code", "sig", "auth"})

#: The last words that make a header's name a secret's, and no JSON member's: a header
#: named so carries a credential (``X-Auth``, a session's ``X-Session-Id``), where a JSON
#: ``auth`` or ``session_id`` may be a setting or a reference.
HEADER_SECRET_ENDINGS = frozenset({("auth",), ("session", "id"), ("session",), ("key",)})

#: Headers named like a key's that carry none: a nonce of the WebSocket handshake and
#: a request's idempotency key (RFC 6455 section 4.1; the IETF httpapi draft).
HEADER_NOT_SECRETS = frozenset(
    {"sec_websocket_key", "sec_web_socket_key", "idempotency_key", "x_idempotency_key"}
)

#: The first words of a paging cursor's name: ``next_token`` is where a list goes on.
_CURSORS = frozenset({"page", "next", "prev", "previous", "continuation", "sync", "cursor"})

#: A piece of every secret's name (lower-cased), for a search of a text that has many names.
NAME_WORDS = (
    "token",
    "secret",
    "passw",
    "pwd",
    "passphrase",
    "signature",
    "credential",
    "key",
    "otp",
    "authori",
    "authenti",
    "cookie",
    "verifier",
    "code",
    "assertion",
    "sess",
    "passc",
    "jwt",
)

_CAMEL = LazyPattern(r"(?<=[a-z0-9])(?=[A-Z])")
_NOT_WORD = LazyPattern(r"[^a-z0-9]+")
# A name glued into one word still ends with what it is: "githubtoken", "xapikey".
_GLUED = ("token", "secret", "password", "passwd", "apikey")


def _words(name: str) -> list[str]:
    """``X-Hub-Signature-256`` → ``[x, hub, signature]``; ``accessToken`` → ``[access, token]``."""
    words = [w for w in _NOT_WORD.split(_CAMEL.sub("_", name.strip()).lower()) if w]
    while len(words) > 1 and words[-1].isdigit():
        words.pop()
    return words


@lru_cache(maxsize=4096)  # a few names (headers, fields) come again and again
def is_secret_name(name: str, *, in_url: bool = False) -> bool:
    """True when a header, field, parameter or cookie named ``name`` holds a secret (see the
    module docstring); ``in_url`` for a URL's query parameter or an HTML form's field."""
    words = _words(name)
    if not words:
        return False
    joined = "_".join(words)
    if joined in POLICY_NAMES:
        return False
    if joined in SECRET_NAMES or (in_url and joined in URL_SECRET_NAMES):
        return True
    if any(word in _PASSWORD_WORDS for word in words):
        return True
    last = words[-1]
    if last in SECRET_WORDS:
        return not (last == "token" and len(words) > 1 and words[0] in _CURSORS)
    if last == "key" and len(words) > 1 and words[-2] in KEY_KINDS:
        return True
    return len(words) == 1 and last.endswith(_GLUED) and not last.startswith(tuple(_CURSORS))


@lru_cache(maxsize=1024)
def is_secret_header(name: str) -> bool:
    """True when request or response header ``name`` carries a secret: a credential, cookies,
    or a secret's name (``X-Api-Key``, ``Private-Token``, ``X-Amz-Security-Token``), a URL's
    secret names among them (``Key``, ``Sig``: a header is no JSON member), and a name
    ending as :data:`HEADER_SECRET_ENDINGS` say (``X-Auth``, ``X-Session-Id``)."""
    if is_secret_name(name, in_url=True):
        return True
    words = tuple(_words(name))
    if "_".join(words) in HEADER_NOT_SECRETS:
        return False
    return any(words[-len(ending) :] == ending for ending in HEADER_SECRET_ENDINGS)


_DEFAULT_PORTS = {"http": 80, "https": 443}


@lru_cache(maxsize=1024)
def _parsed(url: str) -> httpx.URL | None:
    """``url`` parsed by httpx (None: not a URL), kept for the last URLs asked: a page
    shown asks about its URL some ten times (the breadcrumb's every page, the badges, the
    credential, the links' origin; a followed link whether the page's secrets may go
    with it), and httpx parses a URL in some 60 us. An ``httpx.URL`` is immutable."""
    try:
        return httpx.URL(url)
    except (httpx.InvalidURL, TypeError, ValueError):
        return None


@lru_cache(maxsize=1024)
def origin_of(url: str) -> str:
    """``scheme://host:port`` of ``url`` (empty when it is not an absolute URL)."""
    parsed = _parsed(url)
    if parsed is None or not parsed.scheme or not parsed.host:
        return ""
    port = f":{parsed.port}" if parsed.port else ""
    host = f"[{parsed.host}]" if ":" in parsed.host else parsed.host  # IPv6 (RFC 3986 3.2.2)
    return f"{parsed.scheme}://{host}{port}"


def _port(url: httpx.URL) -> int | None:
    return url.port or _DEFAULT_PORTS.get(url.scheme)


def may_receive(given_for: str | httpx.URL, target: str | httpx.URL) -> bool:
    """True when secrets given for ``given_for``'s origin may go to ``target``: the same
    origin, or the https of the same host on the default ports (an upgrade)."""
    old = given_for if isinstance(given_for, httpx.URL) else _parsed(given_for)
    new = target if isinstance(target, httpx.URL) else _parsed(target)
    if old is None or new is None:
        return False
    if not old.host or not new.host or old.host != new.host:
        return False
    if old.scheme == new.scheme:
        return _port(old) == _port(new)
    return (
        (old.scheme, new.scheme) == ("http", "https")
        and _port(old) == _DEFAULT_PORTS["http"]
        and _port(new) == _DEFAULT_PORTS["https"]
    )


def withheld_note(names: Sequence[str], to: str, given_for: str) -> str:
    """The one line that says what a request to ``to`` went without, given for ``given_for``
    (URLs, said by their origins)."""
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    # A URL with no origin (not absolute, not valid) is named as it is: "not sent to :" says
    # nothing.
    where = origin_of(to) or repr(to)
    return f"{listed} not sent to {where}: given for {origin_of(given_for) or given_for} only"
