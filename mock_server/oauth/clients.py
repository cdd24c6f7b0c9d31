"""The OAuth clients this server knows: seeded, from ``--oauth-client``, and registered.

- ``restwalk-cli``: public (no secret), authorization code with PKCE on a
  loopback redirect, the device flow, refresh tokens; every scope;
- ``reports-service`` / ``reports-secret``: confidential, client credentials
  (``client_secret_basic`` or ``client_secret_post``), read scopes, and what
  it does for itself it does as a viewer;
- ``--oauth-client ID:SECRET:REDIRECT``: confidential with a secret, public
  without; every grant its kind allows, every scope, an editor for itself;
- clients registered at ``/oauth/register`` (RFC 7591), at most
  :data:`MAX_REGISTERED`, kept in the server's records
  (:mod:`mock_server.oauth.state`: shared by every instance on a database),
  their secret only as a digest.

Redirect URIs match exactly as registered (RFC 9700 section 4.1.3), except
the port of a loopback one, which the client picks at run time (RFC 8252
section 7.3).
"""

from __future__ import annotations

import hmac
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import SplitResult, urlsplit

from authlib.oauth2.rfc6749 import ClientMixin

from mock_server.auth.tokens import digest
from mock_server.auth.users import Role
from mock_server.oauth.metadata import (
    AUTHORIZATION_CODE,
    CLIENT_CREDENTIALS,
    DEVICE_CODE,
    REFRESH_TOKEN,
    check_client_ids,
)
from mock_server.oauth.scopes import ALL_SCOPES, READ_SCOPES, scope_list
from mock_server.oauth.state import MAX_CLIENTS, ClientRecord, MemoryState, OAuthState
from mock_server.settings import OAuthClientSpec

PUBLIC_AUTH = frozenset({"none"})
SECRET_AUTH = frozenset({"client_secret_basic", "client_secret_post"})
#: Host names of the loopback interface (RFC 8252 sections 7.3 and 8.3).
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "::1", "localhost"})
#: The most clients ``/oauth/register`` keeps; one more forgets the oldest registered.
MAX_REGISTERED = MAX_CLIENTS


def _is_loopback(parts: SplitResult) -> bool:
    return parts.scheme == "http" and parts.hostname in LOOPBACK_HOSTS


def redirect_matches(registered: str, asked: str) -> bool:
    """True when ``asked`` is the ``registered`` redirect URI (any port on loopback)."""
    if asked == registered:
        return True
    try:
        want, got = urlsplit(registered), urlsplit(asked)
        got.port  # noqa: B018 - a port that is no number raises here
    except ValueError:
        return False
    if not _is_loopback(want) or not _is_loopback(got) or got.hostname != want.hostname:
        return False
    if got.username is not None or got.password is not None or got.fragment:
        return False
    return (got.path, got.query) == (want.path, want.query)


@dataclass(frozen=True)
class Client(ClientMixin):  # type: ignore[misc]
    """One registered client, as Authlib's grants ask about it."""

    client_id: str
    name: str
    #: None: a public client, which cannot keep a secret (a CLI, a browser app).
    secret: str | None
    redirect_uris: tuple[str, ...]
    grant_types: frozenset[str]
    scopes: tuple[str, ...]
    #: What the client may do for itself (client credentials), as a user of this role.
    role: Role = "viewer"
    #: A registered client's secret, as its SHA-256 digest (``secret`` is then None).
    secret_digest: str | None = None

    @property
    def public(self) -> bool:
        """True for a client without a secret."""
        return self.secret is None and self.secret_digest is None

    @property
    def auth_methods(self) -> frozenset[str]:
        """How the client authenticates at the token endpoint."""
        return PUBLIC_AUTH if self.public else SECRET_AUTH

    def get_client_id(self) -> str:
        """The client's id."""
        return self.client_id

    def get_default_redirect_uri(self) -> str | None:
        """The one redirect URI when the client has exactly one that needs no port."""
        if len(self.redirect_uris) == 1 and not _is_loopback(urlsplit(self.redirect_uris[0])):
            return self.redirect_uris[0]
        return None

    def get_allowed_scope(self, scope: str | None) -> str | None:
        """The scope to grant: all the client may have when none is asked; None
        (invalid_scope) when one asked is not the client's."""
        asked = scope_list(scope)
        if not asked:
            return " ".join(self.scopes)
        if any(name not in self.scopes for name in asked):
            return None
        return " ".join(asked)

    def check_redirect_uri(self, redirect_uri: str) -> bool:
        """True when ``redirect_uri`` is one registered (any port on loopback)."""
        return any(redirect_matches(uri, redirect_uri) for uri in self.redirect_uris)

    def check_client_secret(self, client_secret: str) -> bool:
        """True when ``client_secret`` is the secret (compared in constant time)."""
        if self.secret_digest is not None:
            return hmac.compare_digest(self.secret_digest, digest(client_secret))
        if self.secret is None:
            return False
        return hmac.compare_digest(self.secret.encode(), client_secret.encode())

    def check_endpoint_auth_method(self, method: str, endpoint: str) -> bool:
        """True when the client authenticates with ``method`` (at any endpoint)."""
        return method in self.auth_methods

    def check_response_type(self, response_type: str) -> bool:
        """Only ``code``, for clients with the authorization code grant."""
        return response_type == "code" and AUTHORIZATION_CODE in self.grant_types

    def check_grant_type(self, grant_type: str) -> bool:
        """True for the grants this client may use."""
        return grant_type in self.grant_types


#: The clients every server starts with.
RESTWALK_CLI = Client(
    client_id="restwalk-cli",
    name="restwalk (command line and TUI)",
    secret=None,
    redirect_uris=(
        "http://127.0.0.1/callback",
        "http://[::1]/callback",
        "http://localhost/callback",
    ),
    grant_types=frozenset({AUTHORIZATION_CODE, REFRESH_TOKEN, DEVICE_CODE}),
    scopes=ALL_SCOPES,
)
REPORTS_SERVICE = Client(
    client_id="reports-service",
    name="Reports service",
    secret="reports-secret",
    redirect_uris=(),
    grant_types=frozenset({CLIENT_CREDENTIALS}),
    scopes=READ_SCOPES,
    role="viewer",
)
SEEDED: tuple[Client, ...] = (RESTWALK_CLI, REPORTS_SERVICE)


def from_spec(spec: OAuthClientSpec) -> Client:
    """The client ``--oauth-client ID:SECRET:REDIRECT`` describes."""
    grants = {REFRESH_TOKEN}
    if spec.redirect_uri:
        grants.add(AUTHORIZATION_CODE)
    grants.add(CLIENT_CREDENTIALS if spec.secret else DEVICE_CODE)
    return Client(
        client_id=spec.client_id,
        name=spec.client_id,
        secret=spec.secret or None,
        redirect_uris=(spec.redirect_uri,) if spec.redirect_uri else (),
        grant_types=frozenset(grants),
        scopes=ALL_SCOPES,
        role="editor",
    )


def registered(
    client_id: str,
    name: str,
    secret: str | None,
    redirect_uris: tuple[str, ...],
    grant_types: frozenset[str],
    scopes: tuple[str, ...],
) -> Client:
    """A client registered at run time: its secret kept only as a digest."""
    return Client(
        client_id=client_id,
        name=name,
        secret=None,
        redirect_uris=redirect_uris,
        grant_types=grant_types,
        scopes=scopes,
        secret_digest=None if secret is None else digest(secret),
    )


class ClientBook:
    """Every client this server knows, by id: those given at start, and those registered
    (in ``state``, where every instance sharing it finds them)."""

    def __init__(
        self,
        extra: tuple[OAuthClientSpec, ...] = (),
        user_names: Iterable[str] = (),
        state: OAuthState | None = None,
    ) -> None:
        """The seeded clients and ``extra``; a ValueError names an ``extra`` id that is
        taken (:func:`~mock_server.oauth.metadata.check_client_ids`)."""
        check_client_ids((spec.client_id for spec in extra), user_names)
        self._fixed: dict[str, Client] = {client.client_id: client for client in SEEDED}
        for spec in extra:
            self._fixed[spec.client_id] = from_spec(spec)
        self._state: OAuthState = state if state is not None else MemoryState()

    def get(self, client_id: str) -> Client | None:
        """The client with this id, if there is one."""
        found = self._fixed.get(client_id)
        if found is not None:
            return found
        record = self._state.client(client_id)
        if record is None:
            return None
        return Client(
            client_id=record.client_id,
            name=record.name,
            secret=None,
            redirect_uris=record.redirect_uris,
            grant_types=frozenset(record.grant_types),
            scopes=record.scopes,
            secret_digest=record.secret_digest,
        )

    def fixed(self) -> list[Client]:
        """The clients given at start (seeded and ``--oauth-client``), in order."""
        return list(self._fixed.values())

    def register(self, client: Client) -> None:
        """Keep a client registered at run time (the oldest goes beyond the limit)."""
        self._state.add_client(
            ClientRecord(
                client_id=client.client_id,
                name=client.name,
                secret_digest=client.secret_digest,
                redirect_uris=client.redirect_uris,
                grant_types=tuple(sorted(client.grant_types)),
                scopes=client.scopes,
            )
        )
