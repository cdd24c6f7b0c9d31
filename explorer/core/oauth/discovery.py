"""Discovery: from a 401, or any URL of an API, to its authorization server's endpoints.

Every step is a standard one, so a server that follows them needs nothing configured:

1. A 401's ``WWW-Authenticate: Bearer ... resource_metadata="..."`` names the API's
   metadata (RFC 9728 section 5.1); without one, it is looked for at the well-known
   URL of the API's origin, ``/.well-known/oauth-protected-resource`` with the URL's
   path after it, then alone (RFC 9728 section 3.1); not there, the URL itself is
   asked, for the 401 that names it.
2. That document names the API's authorization servers (``authorization_servers``)
   and its scopes.
3. Each authorization server (its *issuer* URL) publishes its endpoints at
   ``/.well-known/oauth-authorization-server`` (RFC 8414 section 3.1, the issuer's
   path after it) or as an OpenID Provider at ``/.well-known/openid-configuration``
   (OpenID Connect Discovery 1.0 section 4: appended to the issuer, and inserted
   the RFC 8414 way). Without an API's document the URL itself, then its origin,
   is taken for the issuer.

What a document says is checked before it is used: its ``issuer`` must be the
issuer asked for (RFC 8414 section 3.3; another is a mix-up attack), an API's
``resource`` must be on the origin it was fetched for (RFC 9728 sections 3.3 and
7.3), every endpoint must be an ``https`` URL, or ``http`` on a loopback address
(RFC 6749 section 3.1 and 3.2 ask for TLS; RFC 8252 section 8.3 allows loopback).
A document is at most :data:`MAX_DOCUMENT` bytes; one that breaks a rule is not
used, and the error says which rule and which URL.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import TYPE_CHECKING, Any

import httpx
import orjson

from explorer.core.http.errors import RequestError
from explorer.core.http.request import RequestSpec
from explorer.core.http.secret_rules import origin_of
from explorer.core.knowledge.field_values import parse_challenges
from explorer.core.oauth.errors import DiscoveryFailed, OAuthFailed

if TYPE_CHECKING:
    from explorer.core.http.client import Client

__all__ = [
    "LOOPBACK_HOSTS",
    "MAX_DOCUMENT",
    "Discovery",
    "ResourceMetadata",
    "ServerMetadata",
    "asked_scope",
    "check_endpoint",
    "discover",
    "is_loopback",
    "json_object",
    "read_resource_metadata",
    "read_server_metadata",
    "resource_metadata_of",
    "resource_metadata_urls",
    "server_metadata_urls",
]

#: The most bytes of one metadata document read (they are a few kilobytes).
MAX_DOCUMENT = 1_000_000
#: Host names of the loopback interface (RFC 8252 section 8.3).
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
_RESOURCE = "/.well-known/oauth-protected-resource"
_AUTHORIZATION_SERVER = "/.well-known/oauth-authorization-server"
_OPENID = "/.well-known/openid-configuration"


@dataclass(frozen=True)
class ResourceMetadata:
    """An API's metadata (RFC 9728 section 2): what it is and who issues its tokens."""

    resource: str
    authorization_servers: tuple[str, ...] = ()
    scopes_supported: tuple[str, ...] = ()
    resource_name: str = ""
    #: Where the document was read.
    url: str = ""


@dataclass(frozen=True)
class ServerMetadata:
    """An authorization server's metadata (RFC 8414 section 2), the parts restwalk uses.

    Built from a document, or from endpoints given in a login's settings (then
    ``issuer`` is empty and ``url`` too).
    """

    issuer: str = ""
    authorization_endpoint: str = ""
    token_endpoint: str = ""
    device_authorization_endpoint: str = ""
    registration_endpoint: str = ""
    revocation_endpoint: str = ""
    scopes_supported: tuple[str, ...] = ()
    grant_types_supported: tuple[str, ...] = ()
    code_challenge_methods_supported: tuple[str, ...] = ()
    token_endpoint_auth_methods_supported: tuple[str, ...] = ()
    #: The server puts ``iss`` in its authorization responses (RFC 9207).
    iss_parameter_supported: bool = False
    #: Where the document was read.
    url: str = ""


@dataclass(frozen=True)
class Discovery:
    """What discovery found: the API's metadata (when it has some) and its server's."""

    server: ServerMetadata
    resource: ResourceMetadata | None = None
    #: Every URL asked, in order, for the person to see.
    tried: tuple[str, ...] = field(default=(), compare=False)


def is_loopback(url: str | httpx.URL) -> bool:
    """True when ``url``'s host is a loopback address or ``localhost``."""
    try:
        host = httpx.URL(url).host
    except (httpx.InvalidURL, TypeError, ValueError):
        return False
    return host in LOOPBACK_HOSTS or host.startswith("127.")


def check_endpoint(url: str, what: str) -> str:
    """``url`` when an OAuth endpoint may be there: https, or http on loopback.

    Raises :class:`DiscoveryFailed` naming ``what`` otherwise.
    """
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, TypeError, ValueError):
        raise DiscoveryFailed(f"The {what} {url!r} is not a URL.") from None
    if parsed.scheme == "https" and parsed.host:
        return url
    if parsed.scheme == "http" and is_loopback(parsed):
        return url
    raise DiscoveryFailed(
        f"The {what} {url} is not https: tokens and codes would cross the network in clear.",
        hint="OAuth endpoints need TLS (RFC 6749 section 3.1); plain http is for loopback.",
    )


# --- where to look ----------------------------------------------------------------------------


def resource_metadata_of(challenges: Iterable[str]) -> str | None:
    """The ``resource_metadata`` URL a 401's ``WWW-Authenticate`` values name, if any."""
    for challenge in parse_challenges(challenges):
        if challenge.scheme.lower() == "bearer":
            found = challenge.param("resource_metadata")
            if found:
                return found
    return None


def asked_scope(challenges: Iterable[str]) -> str | None:
    """The ``scope`` a Bearer challenge asks for (RFC 6750 section 3: ``insufficient_scope``)."""
    for challenge in parse_challenges(challenges):
        if challenge.scheme.lower() == "bearer":
            found = challenge.param("scope")
            if found:
                return found
    return None


def _split(url: str) -> tuple[str, str]:
    """``url``'s origin and its path without a trailing slash (no query, no fragment)."""
    parsed = httpx.URL(url)
    return origin_of(url), parsed.path.rstrip("/")


def resource_metadata_urls(url: str) -> list[str]:
    """Where an API at ``url`` publishes its metadata (RFC 9728 section 3.1), in order."""
    origin, path = _split(url)
    urls = [origin + _RESOURCE + path] if path else []
    return [*urls, origin + _RESOURCE]


def server_metadata_urls(issuer: str) -> list[str]:
    """Where the authorization server ``issuer`` publishes its metadata, in order."""
    origin, path = _split(issuer)
    urls = [origin + _AUTHORIZATION_SERVER + path, origin + _OPENID + path]
    if path:
        urls.append(origin + path + _OPENID)
    return urls


# --- reading documents ------------------------------------------------------------------------


def json_object(
    body: bytes, what: str, *, limit: int = MAX_DOCUMENT, error: type[OAuthFailed] = DiscoveryFailed
) -> dict[str, Any]:
    """``body`` as a JSON object; ``error`` saying why not (``what`` names the body, as
    in ``the metadata at URL``), and for one of more than ``limit`` bytes."""
    if len(body) > limit:
        raise error(f"{what[:1].upper()}{what[1:]} is larger than {limit:,} bytes.")
    try:
        document = orjson.loads(body)
    except orjson.JSONDecodeError:
        raise error(f"{what[:1].upper()}{what[1:]} is not JSON.") from None
    if not isinstance(document, dict):
        raise error(f"{what[:1].upper()}{what[1:]} is not a JSON object.")
    return document


def _document(body: bytes, url: str) -> dict[str, Any]:
    return json_object(body, f"the metadata at {url}")


def _text(document: dict[str, Any], name: str, url: str) -> str:
    value = document.get(name, "")
    if not isinstance(value, str):
        raise DiscoveryFailed(f"The metadata at {url}: {name} is not a string.")
    return value


def _texts(document: dict[str, Any], name: str, url: str) -> tuple[str, ...]:
    value = document.get(name, [])
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise DiscoveryFailed(f"The metadata at {url}: {name} is not a list of strings.")
    return tuple(value)


def read_resource_metadata(body: bytes, url: str, requested: str) -> ResourceMetadata:
    """The API metadata ``body`` read at ``url``, for a request to ``requested``.

    Its ``resource`` must be on ``requested``'s origin: a document naming another
    API would have restwalk send that API's token here (RFC 9728 section 7.3).
    """
    document = _document(body, url)
    resource = _text(document, "resource", url)
    if not resource or origin_of(resource) != origin_of(requested):
        raise DiscoveryFailed(
            f"The metadata at {url} is for the resource {resource or '(none named)'}, "
            f"not for {origin_of(requested)}: it is not used (RFC 9728 section 3.3)."
        )
    servers = _texts(document, "authorization_servers", url)
    for server in servers:
        check_endpoint(server, "authorization server")
    return ResourceMetadata(
        resource=resource,
        authorization_servers=servers,
        scopes_supported=_texts(document, "scopes_supported", url),
        resource_name=_text(document, "resource_name", url),
        url=url,
    )


_ENDPOINTS = (
    "authorization_endpoint",
    "token_endpoint",
    "device_authorization_endpoint",
    "registration_endpoint",
    "revocation_endpoint",
)


def read_server_metadata(body: bytes, url: str, issuer: str) -> ServerMetadata:
    """The authorization server metadata ``body`` read at ``url`` for ``issuer``.

    Raises :class:`DiscoveryFailed` when it names another issuer (RFC 8414 section
    3.3) or an endpoint restwalk would not send a secret to.
    """
    document = _document(body, url)
    named = _text(document, "issuer", url)
    if named.rstrip("/") != issuer.rstrip("/"):
        raise DiscoveryFailed(
            f"The metadata at {url} is the issuer {named or '(none named)'}'s, not "
            f"{issuer}'s: it is not used (RFC 8414 section 3.3: a mix-up attack looks so)."
        )
    endpoints = {name: _text(document, name, url) for name in _ENDPOINTS}
    for name, endpoint in endpoints.items():
        if endpoint:
            check_endpoint(endpoint, name.replace("_", " "))
    flag = document.get("authorization_response_iss_parameter_supported", False)
    return ServerMetadata(
        issuer=named,
        scopes_supported=_texts(document, "scopes_supported", url),
        grant_types_supported=_texts(document, "grant_types_supported", url),
        code_challenge_methods_supported=_texts(document, "code_challenge_methods_supported", url),
        token_endpoint_auth_methods_supported=_texts(
            document, "token_endpoint_auth_methods_supported", url
        ),
        iss_parameter_supported=flag is True,
        url=url,
        **endpoints,
    )


# --- asking -----------------------------------------------------------------------------------


async def _ask(client: Client, url: str, tried: list[str]) -> tuple[int, bytes, list[str]]:
    """GET ``url``: its status, body and ``WWW-Authenticate`` values."""
    tried.append(url)
    spec = RequestSpec("GET", url, headers=(("Accept", "application/json"),))
    try:
        exchange = await client.send(spec, follow_redirects=False)
    except RequestError as exc:
        raise DiscoveryFailed(f"Reading {url} failed: {exc.message}", hint=exc.hint) from exc
    response = exchange.response
    challenges = [value for name, value in response.headers if name.lower() == "www-authenticate"]
    return response.status, response.body, challenges


async def _get(client: Client, url: str, tried: list[str]) -> bytes | None:
    """The body of a 200 answer to GET ``url`` (None for any other status)."""
    status, body, _ = await _ask(client, url, tried)
    return body if status == HTTPStatus.OK else None


async def _resource(
    client: Client, url: str, challenges: Sequence[str], tried: list[str]
) -> ResourceMetadata | None:
    named = resource_metadata_of(challenges)
    for candidate in [named] if named else resource_metadata_urls(url):
        body = await _get(client, candidate, tried)
        if body is not None:
            return read_resource_metadata(body, candidate, url)
    if named or challenges:
        return None
    status, _, asked = await _ask(client, url, tried)  # its 401 may name the metadata
    named = resource_metadata_of(asked) if status == HTTPStatus.UNAUTHORIZED else None
    if named is None:
        return None
    body = await _get(client, named, tried)
    return read_resource_metadata(body, named, url) if body is not None else None


async def discover(client: Client, url: str, challenges: Sequence[str] = ()) -> Discovery:
    """What the API at ``url`` (with its 401's ``WWW-Authenticate`` values, when one
    came) says of logging in: see the module docstring.

    Raises :class:`DiscoveryFailed` naming every URL asked when nothing usable is found.
    """
    tried: list[str] = []
    resource = await _resource(client, url, challenges, tried)
    if resource is not None and resource.authorization_servers:
        issuers: list[str] = list(resource.authorization_servers)
    else:
        origin, path = _split(url)
        issuers = [origin + path, origin] if path else [origin]
    problems: list[DiscoveryFailed] = []
    for issuer in issuers:
        for candidate in server_metadata_urls(issuer):
            body = await _get(client, candidate, tried)
            if body is None:
                continue
            try:
                server = read_server_metadata(body, candidate, issuer)
            except DiscoveryFailed as exc:
                problems.append(exc)
                continue
            return Discovery(server, resource, tuple(tried))
    if problems:
        raise problems[0]
    raise DiscoveryFailed(
        f"{url} publishes no OAuth 2.0 metadata: nothing at {', '.join(tried)}.",
    )
