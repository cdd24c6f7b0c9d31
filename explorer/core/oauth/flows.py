"""The grants, run with Authlib's client: how a login gets and renews its tokens.

:class:`Grants` holds what every grant needs (restwalk's client, the server's
endpoints, the client id and how it authenticates) and runs each one:

- :meth:`Grants.authorization_code`: PKCE (RFC 7636, S256 unless told otherwise),
  the browser sent to the authorization endpoint with a fresh ``state``, the answer
  taken at the loopback redirect URI (:mod:`.loopback`) or pasted back, its ``state``
  and ``iss`` (RFC 9207) checked, then the code exchanged;
- :meth:`Grants.device_code`: RFC 8628: the code shown, the token endpoint polled at
  the server's interval (five seconds more after each ``slow_down``) until the person
  approves, denies, or the code expires;
- :meth:`Grants.client_credentials` (RFC 6749 section 4.4) and :meth:`Grants.refresh`
  (section 6);
and a server that lets restwalk register itself when no client id is given is
registered first (:mod:`.registration`, RFC 7591).

How a grant talks to the person is a :class:`Presenter`'s business (the command
line prints, the TUI shows a dialog); a flow never touches a terminal. The time a
flow waits is bounded: a device code by its ``expires_in`` (at most
:data:`MAX_WAIT`), the browser by :data:`MAX_WAIT`.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import httpx

from explorer.core.http.errors import RequestError
from explorer.core.http.request import USER_AGENT
from explorer.core.oauth.answers import json_answer, refusal
from explorer.core.oauth.discovery import check_endpoint
from explorer.core.oauth.errors import (
    AccessDenied,
    LoginExpired,
    OAuthFailed,
    OAuthRefused,
    OAuthSettingsError,
)
from explorer.core.oauth.loopback import (
    Callback,
    LoopbackRedirect,
    loopback_target,
    read_pasted,
)
from explorer.core.oauth.settings import CLIENT_AUTHENTICATIONS, DEVICE_GRANT, OAuthSettings
from explorer.core.oauth.tokens import MAX_TOKEN, Tokens
from explorer.core.oauth.transport import ClientTransport, oauth_client_class, oauth_error_class

if TYPE_CHECKING:
    from explorer.core.http.client import Client
    from explorer.core.oauth.discovery import ServerMetadata

__all__ = [
    "MAX_WAIT",
    "AuthorizationStep",
    "DeviceCode",
    "Grants",
    "Presenter",
]

#: The longest a login waits for the person, in seconds.
MAX_WAIT = 900.0
#: The device flow's polling interval when the server names none (RFC 8628 section 3.2).
DEFAULT_INTERVAL = 5.0
#: The bounds of a server's polling interval.
_INTERVALS = (1.0, 60.0)
#: What a ``slow_down`` answer adds to the interval (RFC 8628 section 3.5).
SLOW_DOWN = 5.0
#: Token endpoint requests ask for JSON (GitHub answers a form otherwise).
_FORM_HEADERS = (
    ("Accept", "application/json"),
    ("Content-Type", "application/x-www-form-urlencoded;charset=UTF-8"),
)


@dataclass(frozen=True)
class AuthorizationStep:
    """The browser's part of the authorization code grant, for the person."""

    url: str
    #: True when the system browser was opened on ``url``.
    opened: bool
    #: Why it was not (SSH, --no-browser, no display, none found).
    why_not: str = ""
    #: The redirect URI the browser comes back to.
    redirect_uri: str = ""
    #: True when restwalk listens there (else the redirected URL must be pasted).
    listening: bool = True


@dataclass(frozen=True)
class DeviceCode:
    """What the device authorization endpoint gave (RFC 8628 section 3.2)."""

    device_code: str
    user_code: str
    verification_uri: str
    verification_uri_complete: str
    #: Unix time the codes expire at.
    expires_at: float
    #: Seconds between two polls.
    interval: float

    def __repr__(self) -> str:
        return f"DeviceCode(user_code='****', verification_uri={self.verification_uri!r})"

    @property
    def qr_target(self) -> str:
        """What a QR code should open: the complete URI when there is one."""
        return self.verification_uri_complete or self.verification_uri


class Presenter(Protocol):
    """How a grant talks to the person (the command line's, or the TUI's)."""

    def show_authorization(self, step: AuthorizationStep) -> None:
        """Say where to log in: the URL, whether a browser opened, what to paste."""
        ...

    def show_device_code(self, code: DeviceCode) -> None:
        """Show the user code and where to type it (and a QR code, where it fits)."""
        ...

    async def read_pasted(self, problem: str = "") -> str:
        """A line the person pasted: the redirected URL or the code (``problem``: why the
        last one was not taken). Waits for ever: the flow cancels it when the browser
        comes back to the loopback redirect URI first."""
        ...


class Grants:
    """The grants of one login, with its server and client (see the module docstring)."""

    def __init__(
        self,
        client: Client,
        settings: OAuthSettings,
        server: ServerMetadata,
        *,
        client_id: str,
        client_secret: str = "",
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        if not client_id:
            raise OAuthSettingsError(
                f"The login {settings.name!r} has no client id, and the server lets no "
                "client register itself.",
                hint="Register restwalk with the server and give its client_id in the "
                "login's settings.",
            )
        self.client = client
        self.settings = settings
        self.server = server
        self.client_id = client_id
        self.client_secret = client_secret
        self.clock = clock
        self.sleep = sleep

    # --- the conversation with the token endpoint --------------------------------------------

    def _auth_method(self) -> str:
        """How the client authenticates: as told, else by what the server supports."""
        given = self.settings.client_authentication
        if given is not None:
            return CLIENT_AUTHENTICATIONS[given]
        if not self.client_secret:
            return "none"
        supported = self.server.token_endpoint_auth_methods_supported
        if not supported or "client_secret_basic" in supported:
            return "client_secret_basic"
        return "client_secret_post"

    def _oauth(self, **kwargs: Any) -> Any:
        """Authlib's client, on restwalk's (see :mod:`.transport`)."""
        return oauth_client_class()(
            client_id=self.client_id,
            client_secret=self.client_secret or None,
            token_endpoint_auth_method=self._auth_method(),
            scope=self.settings.scope or None,
            transport=ClientTransport(self.client),
            headers={"User-Agent": USER_AGENT, "Accept-Encoding": "gzip, deflate"},
            trust_env=False,
            **kwargs,
        )

    @property
    def token_url(self) -> str:
        """The token endpoint; :class:`OAuthSettingsError` when there is none."""
        if not self.server.token_endpoint:
            raise OAuthSettingsError(
                f"The login {self.settings.name!r} has no token endpoint.",
                hint="Give token_url in the login's settings.",
            )
        return check_endpoint(self.server.token_endpoint, "token endpoint")

    @contextlib.contextmanager
    def _answered(self, at: str) -> Iterator[None]:
        """Authlib's and httpx's errors at the endpoint ``at`` as ours."""
        try:
            yield
        except RequestError:
            raise
        except oauth_error_class() as exc:
            error = str(getattr(exc, "error", "") or "error")
            description = str(getattr(exc, "description", "") or "")
            kind = AccessDenied if error == "access_denied" else OAuthRefused
            raise kind(error, description, at=at) from None
        except httpx.HTTPStatusError as exc:
            status = exc.response.status_code
            raise OAuthFailed(
                f"The endpoint {at} answered {status} without an OAuth error."
            ) from None
        except (ValueError, KeyError, TypeError) as exc:
            raise OAuthFailed(f"The endpoint {at} answered what is no token: {exc}.") from None

    async def _token(self, previous: Tokens | None = None, **params: Any) -> Tokens:
        """A token request with ``params`` (and the login's own), its answer as tokens."""
        url = self.token_url
        extra = dict(self.settings.token_params)
        async with self._oauth() as oauth:
            with self._answered(url):
                document = await oauth.fetch_token(
                    url, headers=dict(_FORM_HEADERS), **extra, **params
                )
        return Tokens.from_response(document, self.clock(), previous)

    async def revoke(self, tokens: Tokens) -> str:
        """Revoke ``tokens`` at the revocation endpoint (RFC 7009): its refresh token, which
        takes the access token with it at most servers, else the access token. Returns the
        endpoint (empty: the server names none)."""
        url = self.server.revocation_endpoint
        if not url:
            return ""
        url = check_endpoint(url, "revocation endpoint")
        token, hint = (
            (tokens.refresh_token, "refresh_token")
            if tokens.refresh_token
            else (tokens.access_token, "access_token")
        )
        async with self._oauth() as oauth:
            with self._answered(url):
                response = await oauth.revoke_token(url, token=token, token_type_hint=hint)
        if response.status_code >= 400:
            document = json_answer(response.content, "revocation endpoint")
            refused = refusal(document, url)
            raise refused or OAuthFailed(
                f"The revocation endpoint answered {response.status_code}."
            )
        return url

    # --- the grants -----------------------------------------------------------------------

    async def client_credentials(self) -> Tokens:
        """The application's own token (RFC 6749 section 4.4)."""
        if not self.client_secret and self._auth_method() != "none":
            raise OAuthSettingsError(
                f"The login {self.settings.name!r} uses client credentials but has no "
                "client secret."
            )
        return await self._token(grant_type="client_credentials")

    async def refresh(self, tokens: Tokens) -> Tokens:
        """New tokens for ``tokens``' refresh token (RFC 6749 section 6)."""
        if not tokens.refresh_token:
            raise OAuthFailed("There is no refresh token to renew the access token with.")
        url = self.token_url
        async with self._oauth() as oauth:
            with self._answered(url):
                document = await oauth.refresh_token(
                    url,
                    refresh_token=tokens.refresh_token,
                    headers=dict(_FORM_HEADERS),
                    **dict(self.settings.token_params),
                )
        return Tokens.from_response(document, self.clock(), tokens)

    async def device_code(
        self, presenter: Presenter, *, open_browser: Callable[[str], bool] | None = None
    ) -> Tokens:
        """The device grant (RFC 8628): see the module docstring. ``open_browser`` opens
        the verification page, its code filled in (JetBrains' "Open Complete URI")."""
        code = await self._device_authorization()
        presenter.show_device_code(code)
        if open_browser is not None:
            open_browser(code.qr_target)
        interval = code.interval
        while True:
            if self.clock() + interval > code.expires_at:
                raise LoginExpired("The device code expired before the login was approved.")
            await self.sleep(interval)
            try:
                return await self._token(grant_type=DEVICE_GRANT, device_code=code.device_code)
            except OAuthRefused as refused:
                if refused.error == "authorization_pending":
                    continue
                if refused.error == "slow_down":
                    interval = min(interval + SLOW_DOWN, _INTERVALS[1])
                    continue
                if refused.error == "expired_token":
                    raise LoginExpired(
                        "The device code expired before the login was approved."
                    ) from None
                raise

    async def _device_authorization(self) -> DeviceCode:
        endpoint = self.server.device_authorization_endpoint
        if not endpoint:
            raise OAuthSettingsError(
                f"The login {self.settings.name!r} has no device authorization endpoint.",
                hint="Give device_url in the login's settings, or use another grant.",
            )
        endpoint = check_endpoint(endpoint, "device authorization endpoint")
        data = {"scope": self.settings.scope, **dict(self.settings.auth_params)}
        async with self._oauth() as oauth:
            with self._answered(endpoint):
                response = await oauth.post(
                    endpoint,
                    data={name: value for name, value in data.items() if value},
                    headers=dict(_FORM_HEADERS),
                    auth=oauth.client_auth(self._auth_method()),
                )
        document = json_answer(response.content, "device authorization endpoint")
        refused = refusal(document, endpoint)
        if refused is not None:
            raise refused
        return self._device_code(document, endpoint)

    def _device_code(self, document: Mapping[str, Any], endpoint: str) -> DeviceCode:
        def text(*names: str) -> str:
            for name in names:
                value = document.get(name)
                if isinstance(value, str) and value and len(value) <= MAX_TOKEN:
                    return value
            return ""

        device_code, user_code = text("device_code"), text("user_code")
        # Google calls it verification_url (as an early draft of RFC 8628 did).
        verification = text("verification_uri", "verification_url")
        if not device_code or not user_code or not verification:
            raise OAuthFailed(
                f"The device authorization endpoint {endpoint} answered without a "
                "device_code, user_code or verification_uri."
            )
        complete = text("verification_uri_complete")
        for url in (verification, complete):
            if url and not url.startswith(("https://", "http://")):
                raise OAuthFailed(f"The verification URI {url!r} is not a web address.")
        lifetime, interval = document.get("expires_in"), document.get("interval")
        lifetime = (
            float(lifetime) if isinstance(lifetime, int | float) and lifetime > 0 else MAX_WAIT
        )
        interval = float(interval) if isinstance(interval, int | float) else DEFAULT_INTERVAL
        return DeviceCode(
            device_code=device_code,
            user_code=user_code,
            verification_uri=verification,
            verification_uri_complete=complete,
            expires_at=self.clock() + min(lifetime, MAX_WAIT),
            interval=min(max(interval, _INTERVALS[0]), _INTERVALS[1]),
        )

    async def authorization_code(
        self,
        presenter: Presenter,
        *,
        open_browser: Callable[[str], bool] | None,
        why_not: str = "",
        verifier: str = "",
    ) -> Tokens:
        """The authorization code grant with PKCE: see the module docstring.

        ``open_browser`` opens the system browser (None: none is opened, ``why_not``
        says why); ``verifier`` is a PKCE code verifier of the person's (empty: a new one).
        """
        from authlib.common.security import generate_token
        from authlib.oauth2.rfc7636 import create_s256_code_challenge

        endpoint = self.server.authorization_endpoint
        if not endpoint:
            raise OAuthSettingsError(
                f"The login {self.settings.name!r} has no authorization endpoint.",
                hint="Give auth_url in the login's settings, or use the device grant.",
            )
        check_endpoint(endpoint, "authorization endpoint")
        verifier = verifier or self.settings.code_verifier or generate_token(64)
        plain = self.settings.pkce_method == "plain"
        challenge = {
            "code_challenge": verifier if plain else create_s256_code_challenge(verifier),
            "code_challenge_method": "plain" if plain else "S256",
        }
        listener = None
        if loopback_target(self.settings.redirect_url) is not None:
            listener = await LoopbackRedirect.start(self.settings.redirect_url)
        try:
            redirect_uri = listener.redirect_uri if listener else self.settings.redirect_url
            async with self._oauth(redirect_uri=redirect_uri) as oauth:
                url, state = oauth.create_authorization_url(
                    endpoint, **challenge, **dict(self.settings.auth_params)
                )
            opened = open_browser(url) if open_browser is not None else False
            if open_browser is not None and not opened:
                why_not = why_not or "no browser could be opened"
            presenter.show_authorization(
                AuthorizationStep(url, opened, why_not, redirect_uri, listener is not None)
            )
            callback = await self._callback(presenter, listener, state)
        finally:
            if listener is not None:
                await listener.aclose()
        self._check_callback(callback, endpoint)
        return await self._token(
            grant_type="authorization_code",
            code=callback.code,
            code_verifier=verifier,
            redirect_uri=redirect_uri,
        )

    async def _callback(
        self, presenter: Presenter, listener: LoopbackRedirect | None, state: str
    ) -> Callback:
        """The browser's answer: at the loopback listener, or pasted; whichever comes first."""

        def ours(callback: Callback) -> bool:
            return callback.bare or callback.state == state

        async def pasted() -> Callback:
            problem = ""
            while True:
                callback = read_pasted(await presenter.read_pasted(problem))
                if callback is not None and ours(callback):
                    return callback
                problem = (
                    "That is not for this login: its state is another one."
                    if callback is not None
                    else "That is neither the URL the browser was sent to nor a code."
                )

        waits = [asyncio.ensure_future(pasted())]
        if listener is not None:
            waits.append(asyncio.ensure_future(listener.wait(ours)))
        try:
            done, _ = await asyncio.wait(waits, timeout=MAX_WAIT, return_when="FIRST_COMPLETED")
        finally:
            for wait in waits:
                wait.cancel()
            await asyncio.gather(*waits, return_exceptions=True)
        if not done:
            raise LoginExpired("The browser did not come back within 15 minutes.")
        return done.pop().result()

    def _check_callback(self, callback: Callback, endpoint: str) -> None:
        """The answer's error, and its issuer against the server's (RFC 9207 section 2.4)."""
        if callback.error:
            kind = AccessDenied if callback.error == "access_denied" else OAuthRefused
            raise kind(callback.error, callback.error_description, at=endpoint)
        issuer = self.server.issuer
        if callback.bare or not issuer:
            return
        if callback.iss is not None and callback.iss != issuer:
            raise OAuthFailed(
                f"The browser came back from the issuer {callback.iss}, not {issuer}: the "
                "code is not used (RFC 9207: a mix-up attack looks so)."
            )
        if callback.iss is None and self.server.iss_parameter_supported:
            raise OAuthFailed(
                f"The browser came back without the issuer {issuer} promises to name: the "
                "code is not used (RFC 9207)."
            )
