"""One OAuth 2.0 login: its settings, what discovery found, its tokens, kept fresh.

A :class:`Login` is what an :class:`~explorer.core.http.request.OAuthBearer` request
names: registered in the client's ``token_sources`` (:meth:`Login.attach`), it gives
the token each request sends (:meth:`Login.token`), renewing it a little before it
expires and once more after a 401 (:meth:`Login.renewed`): with the refresh token,
or for client credentials by asking again. A login that needs the person (a
browser, a device code) is started only by :meth:`Login.log_in`, never in the
middle of a request: a request without a usable token fails with
:class:`~explorer.core.oauth.errors.NotLoggedIn`, saying how to log in.

The token goes to the login's API only: the origin of its ``server``
(:meth:`Login.token` refuses any other, as :mod:`explorer.core.session.derived`
keeps every credential to its origin). A login from a ``.http`` environment names
no server: its ``{{$auth.token("name")}}`` goes where the person wrote it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from explorer.core.http.errors import RestwalkError
from explorer.core.http.secret_rules import may_receive, origin_of
from explorer.core.oauth.claims import TokenView, token_view
from explorer.core.oauth.discovery import Discovery, ServerMetadata, discover
from explorer.core.oauth.errors import (
    NotLoggedIn,
    OAuthFailed,
    OAuthRefused,
    OAuthSettingsError,
    TokenNotForOrigin,
)
from explorer.core.oauth.flows import Grants, Presenter
from explorer.core.oauth.registration import Registered, register
from explorer.core.oauth.settings import Grant, OAuthSettings, choose_grant
from explorer.core.oauth.store import Kept, TokenFile

if TYPE_CHECKING:
    from explorer.core.http.client import Client
    from explorer.core.oauth.tokens import Tokens

__all__ = ["Login"]


class Login:
    """One login (see the module docstring). ``store`` keeps its tokens between runs
    when its settings say ``keep``; ``challenges`` are the ``WWW-Authenticate`` values
    of the 401 it starts from, when one came."""

    def __init__(
        self,
        settings: OAuthSettings,
        client: Client,
        *,
        store: TokenFile | None = None,
        challenges: Sequence[str] = (),
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.settings = settings
        self.client = client
        self.store = store
        self.challenges = tuple(challenges)
        self.clock = clock
        self.sleep = sleep
        self.tokens: Tokens | None = None
        self.discovery: Discovery | None = None
        self.registered: Registered | None = None
        self._server: ServerMetadata | None = None
        self._grants: Grants | None = None
        self._grant: Grant | None = settings.grant
        self._lock = asyncio.Lock()
        self._kept_read = False

    @property
    def name(self) -> str:
        """The login's name."""
        return self.settings.name

    @property
    def origin(self) -> str:
        """The origin its token goes to (empty: where the person writes it)."""
        return origin_of(self.settings.server) if self.settings.server else ""

    def attach(self) -> Login:
        """Register this login in its client's token sources, under its name."""
        self.client.token_sources[self.name] = self
        return self

    # --- what the server says -------------------------------------------------------------

    def _given(self) -> ServerMetadata:
        """The endpoints the settings give."""
        return ServerMetadata(
            authorization_endpoint=self.settings.auth_url,
            token_endpoint=self.settings.token_url,
            device_authorization_endpoint=self.settings.device_url,
        )

    async def server(self) -> ServerMetadata:
        """The authorization server's endpoints: discovered, the settings' own winning."""
        if self._server is not None:
            return self._server
        given = self._given()
        settings = self.settings
        complete = settings.token_url and (
            settings.auth_url or settings.device_url or settings.grant == "client_credentials"
        )
        if complete or not settings.server:
            if not settings.token_url:
                raise OAuthSettingsError(
                    f"The login {self.name!r} names neither its server nor its token endpoint.",
                    hint="Give server (the API's URL) or token_url.",
                )
            self._server = given
            return given
        self.discovery = await discover(self.client, settings.server, self.challenges)
        found = self.discovery.server
        self._server = replace(
            found,
            authorization_endpoint=settings.auth_url or found.authorization_endpoint,
            token_endpoint=settings.token_url or found.token_endpoint,
            device_authorization_endpoint=settings.device_url
            or found.device_authorization_endpoint,
        )
        return self._server

    async def grants(self) -> Grants:
        """The grants, with a client id: the settings', else one the server registers."""
        if self._grants is not None:
            return self._grants
        server = await self.server()
        client_id, secret = self.settings.client_id, self.settings.client_secret
        if not client_id and self.registered is None and server.registration_endpoint:
            self.registered = await register(
                self.client,
                server.registration_endpoint,
                device=bool(server.device_authorization_endpoint),
            )
        if not client_id and self.registered is not None:
            client_id, secret = self.registered.client_id, self.registered.client_secret
        self._grants = Grants(
            self.client,
            self.settings,
            server,
            client_id=client_id,
            client_secret=secret,
            clock=self.clock,
            sleep=self.sleep,
        )
        return self._grants

    # --- logging in and out -----------------------------------------------------------------

    async def log_in(
        self,
        presenter: Presenter,
        *,
        grant: Grant | None = None,
        open_browser: Callable[[str], bool] | None = None,
        why_not: str = "",
    ) -> Tokens:
        """Log in now, by ``grant`` (None: the settings', else :func:`choose_grant`'s).

        ``open_browser`` opens the system browser for the authorization code grant
        (None: none opens here, ``why_not`` says why).
        """
        grants = await self.grants()
        server = grants.server
        chosen = grant or choose_grant(
            self.settings,
            can_authorize=bool(server.authorization_endpoint),
            can_device=bool(server.device_authorization_endpoint),
            browser_opens=open_browser is not None,
        )
        if chosen == "client_credentials":
            tokens = await grants.client_credentials()
        elif chosen == "device_code":
            opens = self.settings.open_complete_uri and open_browser is not None
            tokens = await grants.device_code(
                presenter, open_browser=open_browser if opens else None
            )
        else:
            tokens = await grants.authorization_code(
                presenter, open_browser=open_browser, why_not=why_not
            )
        self._grant = chosen
        self._hold(tokens)
        return tokens

    async def log_out(self) -> list[str]:
        """Forget the tokens (revoking them where the server can): what was done, in words."""
        done: list[str] = []
        self._read_kept()
        tokens, self.tokens = self.tokens, None
        if tokens is not None:
            done.append(await self._revoke(tokens))
        if self.store is not None and self.store.drop(self.name):
            done.append(f"the kept tokens were removed from {self.store.path}")
        return [line for line in done if line]

    async def _revoke(self, tokens: Tokens) -> str:
        """Revoke ``tokens`` (RFC 7009) when the server has a revocation endpoint."""
        try:
            grants = await self.grants()
            url = await grants.revoke(tokens)
        except RestwalkError as exc:  # forgotten all the same
            return f"the tokens were forgotten, but revoking them failed: {exc.message}"
        if not url:
            return "the tokens were forgotten (the server names no revocation endpoint)"
        return f"the tokens were revoked at {url} and forgotten"

    # --- the token, kept fresh ------------------------------------------------------------------

    def _hold(self, tokens: Tokens) -> None:
        """Hold new tokens, and keep them when the settings say so."""
        self.tokens = tokens
        if self.settings.keep and self.store is not None and self._grants is not None:
            server = self._grants.server
            self.store.put(
                self.name,
                Kept(
                    tokens=tokens,
                    server=self.settings.server,
                    token_url=server.token_endpoint,
                    client_id=self._grants.client_id,
                    issuer=server.issuer,
                    revocation_url=server.revocation_endpoint,
                ),
            )

    def _read_kept(self) -> None:
        """The kept tokens of this login, when it has some for the same server and client."""
        if self._kept_read or self.store is None:
            return
        self._kept_read = True
        kept = self.store.get(self.name)
        if kept is None or kept.server != self.settings.server:
            return
        if self.settings.client_id and kept.client_id != self.settings.client_id:
            return
        self.tokens = kept.tokens
        if self._server is None:
            self._server = ServerMetadata(
                issuer=kept.issuer,
                token_endpoint=self.settings.token_url or kept.token_url,
                revocation_endpoint=kept.revocation_url,
            )
        if not self.settings.client_id:
            self.registered = Registered(kept.client_id)
        self.settings = replace(self.settings, keep=True)

    def _automatic(self) -> bool:
        """True when a token can be had without the person: client credentials."""
        if not self.settings.acquire_automatically:
            return False
        grant = self._grant
        return grant == "client_credentials" or (
            grant is None and bool(self.settings.client_secret)
        )

    async def _renew(self, tokens: Tokens | None) -> Tokens:
        """New tokens for ``tokens`` (None: none yet) without the person, or NotLoggedIn."""
        if tokens is not None and tokens.refresh_token:
            grants = await self.grants()
            try:
                return await grants.refresh(tokens)
            except OAuthRefused as refused:
                self.tokens = None
                if self.store is not None:
                    self.store.drop(self.name)
                raise NotLoggedIn(
                    f"The login {self.name!r} expired, and its refresh token was refused "
                    f"({refused.error}).",
                    hint=f"Log in again: restwalk auth login {self.name}",
                ) from refused
        if self._automatic():
            return await (await self.grants()).client_credentials()
        raise NotLoggedIn(
            f"Not logged in as {self.name!r}"
            + (": its token expired and nothing renews it." if tokens is not None else "."),
            hint=f"Log in: restwalk auth login {self.name}",
        )

    async def token(self, url: str) -> str:
        """The access token for a request to ``url`` (see the module docstring)."""
        if self.origin and not may_receive(self.origin, url):
            raise TokenNotForOrigin(
                f"The login {self.name!r} is for {self.origin}: its token is not sent to "
                f"{origin_of(url) or url}."
            )
        async with self._lock:
            self._read_kept()
            tokens = self.tokens
            if tokens is None or tokens.due(self.clock()):
                try:
                    self._hold(await self._renew(tokens))
                except NotLoggedIn:
                    if tokens is None or tokens.expired(self.clock()):
                        raise
                    # Due soon, but still good and nothing renews it: send it.
                    self.tokens = tokens
            assert self.tokens is not None
            return self.tokens.access_token

    async def renewed(self, rejected: str) -> str | None:
        """A new token after a 401 refused ``rejected``; None when none can be had."""
        async with self._lock:
            current = self.tokens
            if current is not None and current.access_token != rejected:
                return current.access_token  # renewed meanwhile
            try:
                self._hold(await self._renew(current))
            except (NotLoggedIn, OAuthFailed):
                return None
            return self.tokens.access_token if self.tokens else None

    async def value(self, *, id_token: bool = False) -> str:
        """``{{$auth.token("name")}}``'s value (``id_token``: ``$auth.idToken``'s): the token
        held, renewed first when it is due (no origin to check: see the module docstring)."""
        async with self._lock:
            self._read_kept()
            tokens = self.tokens
            if tokens is None or tokens.due(self.clock()):
                self._hold(await self._renew(tokens))
            assert self.tokens is not None
            if id_token or self.settings.use_id_token:
                if not self.tokens.id_token:
                    raise OAuthFailed(
                        f"The login {self.name!r} has no ID token: the server gave none.",
                        hint='Ask for the "openid" scope to get one.',
                    )
                return self.tokens.id_token
            return self.tokens.access_token

    def view(self, *, show_token: bool = False) -> TokenView | None:
        """What the tokens say, each claim explained (None: not logged in)."""
        self._read_kept()
        if self.tokens is None:
            return None
        return token_view(self.name, self.tokens, self.clock(), show_token=show_token)
