"""What the authorization server remembers between requests, behind one small interface.

Four kinds of records, each keyed by the SHA-256 digest of its secret (a code
or token is never kept itself, as in :mod:`mock_server.auth.tokens`):

- **authorization codes** (:class:`CodeRecord`), single use: a used code is kept
  until it expires, so a second use is recognised and the tokens the first
  one got are revoked (RFC 6749 section 4.1.2);
- **grants** (:class:`GrantRecord`): what a user granted a client, with its
  refresh token family. The refresh token rotates on every use; the digests of
  the former ones stay known, so presenting one again revokes the whole family
  (RFC 9700 section 4.14.2) with every access token issued in it;
- **revoked access tokens**, by ``jti``, until they would have expired anyway;
- **device authorizations** (:class:`DeviceRecord`, RFC 8628): pending until the
  user approves or denies them on ``/oauth/device``, with the polling pace;
- **clients registered** at ``/oauth/register`` (:class:`ClientRecord`, by id,
  their secret as a digest too).

:class:`OAuthState` is the interface; :class:`MemoryState` keeps it in memory,
per server instance. A store's persistence that has an ``oauth_state``
(:class:`OAuthStateKeeper`) keeps them instead: ``--db`` and ``--store
postgresql://`` do (:mod:`mock_server.store.sqlite_oauth`,
:mod:`mock_server.store.postgresql.oauth`), so every worker and instance on
the database carries on a flow another began. Each method is one step a
database can do atomically (``use_code``, ``rotate``, ``decide_device`` and
``poll_device`` compare and set), so another store can back it without
changing the grants. Time is passed in, never read here.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field, replace
from typing import Protocol, TypeVar, runtime_checkable

#: The most records of each kind kept; a new one beyond forgets the oldest.
MAX_RECORDS = 10_000
#: RFC 8628 section 3.5: each ``slow_down`` adds this many seconds to the interval.
SLOW_DOWN_STEP = 5
#: The most clients ``/oauth/register`` keeps; one more forgets the oldest registered.
MAX_CLIENTS = 1000

K = TypeVar("K")
V = TypeVar("V")


class HasClientId(Protocol):
    """A client, as far as the records need to know it."""

    def get_client_id(self) -> str:
        """The client's id."""


@dataclass(frozen=True)
class CodeRecord:
    """An authorization code: who asked, for what, and whether it was exchanged."""

    digest: str
    client_id: str
    user: str
    scope: str
    #: The ``redirect_uri`` of the authorization request (None when it named none).
    redirect_uri: str | None
    code_challenge: str | None
    code_challenge_method: str | None
    expires: float
    used: bool = False
    #: The grant the exchange started: revoked if the code comes back.
    grant_id: str | None = None

    def get_redirect_uri(self) -> str | None:
        """The redirect URI the token request must repeat (Authlib's code interface)."""
        return self.redirect_uri

    def get_scope(self) -> str:
        """The scope granted (Authlib's code interface)."""
        return self.scope


@dataclass(frozen=True)
class GrantRecord:
    """What a user (or None: a client for itself) granted a client, and its refresh family."""

    grant_id: str
    client_id: str
    user: str | None
    scope: str
    #: The digest of the one refresh token that is valid now (None: none was issued).
    refresh_digest: str | None
    #: When the current refresh token expires.
    expires: float
    revoked: bool = False
    #: The access tokens issued in this grant: jti -> expiry (revoked with it).
    access_tokens: dict[str, float] = field(default_factory=dict)

    def check_client(self, client: HasClientId) -> bool:
        """True when the grant is ``client``'s (Authlib's refresh token interface)."""
        return client.get_client_id() == self.client_id

    def get_scope(self) -> str:
        """The scope granted (Authlib's refresh token interface)."""
        return self.scope


@dataclass(frozen=True)
class DeviceRecord:
    """A device authorization request (RFC 8628) and where it stands."""

    digest: str
    user_code: str
    client_id: str
    scope: str
    expires: float
    interval: int
    last_poll: float | None = None
    #: Who decided, and how (None: still pending).
    user: str | None = None
    approved: bool | None = None


@dataclass(frozen=True)
class ClientRecord:
    """A client registered at run time (RFC 7591), as kept: its secret only as a digest."""

    client_id: str
    name: str
    #: The SHA-256 digest of its secret (None: a public client).
    secret_digest: str | None
    redirect_uris: tuple[str, ...]
    grant_types: tuple[str, ...]
    scopes: tuple[str, ...]


class OAuthState(Protocol):
    """The authorization server's records: codes, grants, revocations, devices."""

    def add_code(self, code: CodeRecord) -> None:
        """Remember a new authorization code."""

    def code(self, digest: str) -> CodeRecord | None:
        """The code with this digest, used or not, expired or not."""

    def use_code(self, digest: str, grant_id: str | None) -> bool:
        """Mark the code used by ``grant_id``; False when it was used already."""

    def add_grant(self, grant: GrantRecord) -> None:
        """Remember a new grant (and its first refresh token, if any)."""

    def grant(self, grant_id: str) -> GrantRecord | None:
        """The grant with this id."""

    def grant_of_refresh(self, refresh_digest: str) -> GrantRecord | None:
        """The grant a refresh token was issued in, whether it is the current one or not."""

    def rotate(self, grant_id: str, old_digest: str, new_digest: str, expires: float) -> bool:
        """Replace the grant's refresh token ``old_digest`` by ``new_digest``.

        False (and nothing changed) when ``old_digest`` is no longer the current one
        or the grant is revoked: the caller then treats the old token as reused.
        """

    def add_access_token(self, grant_id: str, jti: str, expires: float) -> None:
        """Record an access token issued in a grant (revoked with the grant, or at once
        when the grant was revoked meanwhile)."""

    def revoke_grant(self, grant_id: str) -> None:
        """Revoke the grant: its refresh tokens and its access tokens."""

    def revoke_access_token(self, jti: str, expires: float) -> None:
        """Revoke one access token until it would have expired."""

    def access_token_revoked(self, jti: str) -> bool:
        """True when the access token ``jti`` was revoked."""

    def add_device(self, device: DeviceRecord) -> None:
        """Remember a new device authorization request."""

    def device(self, digest: str) -> DeviceRecord | None:
        """The device authorization with this device code digest."""

    def device_by_user_code(self, user_code: str) -> DeviceRecord | None:
        """The device authorization a user code names."""

    def decide_device(self, user_code: str, user: str | None, approved: bool) -> bool:
        """Record the decision (and who approved); False when the code is not pending."""

    def poll_device(self, digest: str, now: float) -> int | None:
        """Note a poll; the new, longer interval when it came too soon (``slow_down``)."""

    def remove_device(self, digest: str) -> None:
        """Forget a device authorization (its token was issued)."""

    def add_client(self, client: ClientRecord) -> None:
        """Remember a registered client (the oldest registered go past :data:`MAX_CLIENTS`)."""

    def client(self, client_id: str) -> ClientRecord | None:
        """The registered client with this id."""

    def purge(self, now: float) -> None:
        """Forget whatever expired before ``now``."""


@runtime_checkable
class OAuthStateKeeper(Protocol):
    """A persistence that keeps the OAuth records too (shared by every instance on it)."""

    oauth_state: OAuthState


def _remember(table: OrderedDict[K, V], key: K, value: V) -> None:
    table[key] = value
    table.move_to_end(key)
    while len(table) > MAX_RECORDS:
        table.popitem(last=False)


class MemoryState:
    """:class:`OAuthState` in memory: one server instance's own records, bounded."""

    def __init__(self) -> None:
        self._codes: OrderedDict[str, CodeRecord] = OrderedDict()
        self._grants: OrderedDict[str, GrantRecord] = OrderedDict()
        #: Every refresh token digest ever issued -> its grant (for reuse detection).
        self._refresh: OrderedDict[str, str] = OrderedDict()
        self._revoked: OrderedDict[str, float] = OrderedDict()
        self._devices: OrderedDict[str, DeviceRecord] = OrderedDict()
        self._user_codes: dict[str, str] = {}
        self._clients: OrderedDict[str, ClientRecord] = OrderedDict()

    # Codes -----------------------------------------------------------------------------

    def add_code(self, code: CodeRecord) -> None:
        """Remember a new authorization code."""
        _remember(self._codes, code.digest, code)

    def code(self, digest: str) -> CodeRecord | None:
        """The code with this digest, used or not, expired or not."""
        return self._codes.get(digest)

    def use_code(self, digest: str, grant_id: str | None) -> bool:
        """Mark the code used by ``grant_id``; False when it was used already."""
        code = self._codes.get(digest)
        if code is None or code.used:
            return False
        self._codes[digest] = replace(code, used=True, grant_id=grant_id)
        return True

    # Grants ----------------------------------------------------------------------------

    def add_grant(self, grant: GrantRecord) -> None:
        """Remember a new grant (and its first refresh token, if any)."""
        _remember(self._grants, grant.grant_id, grant)
        if grant.refresh_digest is not None:
            _remember(self._refresh, grant.refresh_digest, grant.grant_id)

    def grant(self, grant_id: str) -> GrantRecord | None:
        """The grant with this id."""
        return self._grants.get(grant_id)

    def grant_of_refresh(self, refresh_digest: str) -> GrantRecord | None:
        """The grant a refresh token was issued in, whether it is the current one or not."""
        grant_id = self._refresh.get(refresh_digest)
        return None if grant_id is None else self._grants.get(grant_id)

    def rotate(self, grant_id: str, old_digest: str, new_digest: str, expires: float) -> bool:
        """Replace the current refresh token, if ``old_digest`` still is it."""
        grant = self._grants.get(grant_id)
        if grant is None or grant.revoked or grant.refresh_digest != old_digest:
            return False
        self._grants[grant_id] = replace(grant, refresh_digest=new_digest, expires=expires)
        _remember(self._refresh, new_digest, grant_id)
        return True

    def add_access_token(self, grant_id: str, jti: str, expires: float) -> None:
        """Record an access token issued in a grant (revoked with the grant, at once if
        the grant is revoked already)."""
        grant = self._grants.get(grant_id)
        if grant is not None:
            self._grants[grant_id] = replace(
                grant, access_tokens={**grant.access_tokens, jti: expires}
            )
            if grant.revoked:
                self.revoke_access_token(jti, expires)

    def revoke_grant(self, grant_id: str) -> None:
        """Revoke the grant: its refresh tokens and its access tokens."""
        grant = self._grants.get(grant_id)
        if grant is None:
            return
        self._grants[grant_id] = replace(grant, revoked=True, refresh_digest=None)
        for jti, expires in grant.access_tokens.items():
            self.revoke_access_token(jti, expires)

    def revoke_access_token(self, jti: str, expires: float) -> None:
        """Revoke one access token until it would have expired."""
        _remember(self._revoked, jti, expires)

    def access_token_revoked(self, jti: str) -> bool:
        """True when the access token ``jti`` was revoked."""
        return jti in self._revoked

    # Devices ---------------------------------------------------------------------------

    def add_device(self, device: DeviceRecord) -> None:
        """Remember a new device authorization request."""
        if len(self._devices) >= MAX_RECORDS:
            oldest, _ = self._devices.popitem(last=False)
            self._user_codes = {u: d for u, d in self._user_codes.items() if d != oldest}
        self._devices[device.digest] = device
        self._user_codes[device.user_code] = device.digest

    def device(self, digest: str) -> DeviceRecord | None:
        """The device authorization with this device code digest."""
        return self._devices.get(digest)

    def device_by_user_code(self, user_code: str) -> DeviceRecord | None:
        """The device authorization a user code names."""
        digest = self._user_codes.get(user_code)
        return None if digest is None else self._devices.get(digest)

    def decide_device(self, user_code: str, user: str | None, approved: bool) -> bool:
        """Record the decision (and who approved); False when the code is not pending."""
        device = self.device_by_user_code(user_code)
        if device is None or device.approved is not None:
            return False
        self._devices[device.digest] = replace(device, user=user, approved=approved)
        return True

    def poll_device(self, digest: str, now: float) -> int | None:
        """Note a poll; the new, longer interval when it came too soon (``slow_down``)."""
        device = self._devices.get(digest)
        if device is None:
            return None
        too_soon = device.last_poll is not None and now - device.last_poll < device.interval
        interval = device.interval + SLOW_DOWN_STEP if too_soon else device.interval
        self._devices[digest] = replace(device, last_poll=now, interval=interval)
        return interval if too_soon else None

    def remove_device(self, digest: str) -> None:
        """Forget a device authorization (its token was issued)."""
        device = self._devices.pop(digest, None)
        if device is not None:
            self._user_codes.pop(device.user_code, None)

    # Clients ---------------------------------------------------------------------------

    def add_client(self, client: ClientRecord) -> None:
        """Remember a registered client (the oldest registered go past :data:`MAX_CLIENTS`)."""
        self._clients[client.client_id] = client
        self._clients.move_to_end(client.client_id)
        while len(self._clients) > MAX_CLIENTS:
            self._clients.popitem(last=False)

    def client(self, client_id: str) -> ClientRecord | None:
        """The registered client with this id."""
        return self._clients.get(client_id)

    # Housekeeping ----------------------------------------------------------------------

    def purge(self, now: float) -> None:
        """Forget whatever expired before ``now``."""
        self._codes = OrderedDict((d, c) for d, c in self._codes.items() if c.expires > now)
        self._revoked = OrderedDict((j, e) for j, e in self._revoked.items() if e > now)
        live = OrderedDict((g, r) for g, r in self._grants.items() if r.expires > now)
        self._grants = live
        self._refresh = OrderedDict((d, g) for d, g in self._refresh.items() if g in live)
        for digest, device in list(self._devices.items()):
            if device.expires <= now:
                self.remove_device(digest)
