"""The document's security requirements, enforced with the mock's own credentials.

An operation lists alternatives; each names schemes that must all hold. A
request passes when one alternative holds whole. What holds, per scheme:

==================  ==========================================================
``http`` basic      Basic credentials of one of the mock's users (alice/wonderland...)
``http`` bearer     a Bearer token the mock issued (``POST /auth/token``)
``http`` other      an ``Authorization`` header of that scheme
``apiKey``          in its header, query parameter or cookie: a token the mock
                    issued, or a key given with ``--api-key``
``oauth2``,         a Bearer token accepted by :data:`bearer_check` (today: one the
``openIdConnect``   mock issued; scopes are not checked yet)
==================  ==========================================================

A client that sends nothing, or something that does not hold, gets a 401 whose
``WWW-Authenticate`` names every scheme of every alternative (RFC 9110 section
11.6.1): ``Basic realm=...``, ``Bearer realm=...`` (with ``error="invalid_token"``
when a token was sent and refused, and the scopes an OAuth 2.0 requirement
lists, RFC 6750 section 3), and for an API key a challenge of scheme ``ApiKey``
naming where the key goes (no RFC names one; the parameters say what to send).

**The OAuth 2.0 hook.** The mock's own OAuth 2.0 server is being written: when it
issues JWT access tokens, pass a :data:`BearerCheck` that verifies them and their
scopes to :class:`Guard` (``ContractApi`` builds it in :mod:`.api`), and nothing
else here changes.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from http import HTTPStatus

from mock_server.auth import Authenticator, Principal
from mock_server.contract.operations import Security, SecurityScheme
from mock_server.contract.params import RequestParts
from mock_server.http.problems import Problem
from mock_server.representations.link_header import quoted

#: ``(token, scopes the requirement lists, now)`` → None when it holds, else why not.
BearerCheck = Callable[[str, tuple[str, ...], float], Awaitable[str | None]]
_BEARER_SCHEMES = frozenset({"oauth2", "openIdConnect"})


@dataclass(frozen=True)
class Verdict:
    """Why one scheme did not hold: nothing sent, or something sent that was refused."""

    scheme: SecurityScheme
    scopes: tuple[str, ...]
    sent: bool
    reason: str


def mock_tokens(auth: Authenticator) -> BearerCheck:
    """The check of today: the token is one the mock issued (signed or stored)."""

    async def check(token: str, scopes: tuple[str, ...], now: float) -> str | None:
        found = auth.check_token(token, now)
        return None if isinstance(found, Principal) else found.detail

    return check


class Guard:
    """Decides whether a request meets an operation's security requirements."""

    def __init__(
        self,
        auth: Authenticator,
        realm: str,
        *,
        api_keys: frozenset[str] = frozenset(),
        bearer_check: BearerCheck | None = None,
    ) -> None:
        self.auth = auth
        self.realm = realm
        self.api_keys = api_keys
        self.bearer_check = bearer_check or mock_tokens(auth)

    async def refusal(self, security: Security, parts: RequestParts, now: float) -> Problem | None:
        """The 401 for a request that meets none of the alternatives; None when one holds."""
        if not security or any(not alternative for alternative in security):
            return None
        verdicts: list[Verdict] = []
        for alternative in security:
            failed = [
                verdict
                for scheme, scopes in alternative
                if (verdict := await self._holds(scheme, scopes, parts, now)) is not None
            ]
            if not failed:
                return None
            verdicts.extend(failed)
        return self._unauthorized(verdicts)

    async def _holds(
        self, scheme: SecurityScheme, scopes: tuple[str, ...], parts: RequestParts, now: float
    ) -> Verdict | None:
        def refused(sent: bool, reason: str) -> Verdict:
            return Verdict(scheme, scopes, sent, reason)

        authorization = parts.headers.get("authorization")
        if scheme.type == "apiKey":
            if scheme.scheme == "query":
                key = next((v for k, v in parts.query if k == scheme.name), None)
            elif scheme.scheme == "cookie":
                key = parts.cookies.get(scheme.name)
            else:
                key = parts.headers.get(scheme.name.lower())
            if not key:
                return refused(False, f"the API key {scheme.name} ({scheme.scheme}) is missing")
            if key in self.api_keys or await self.bearer_check(key, (), now) is None:
                return None
            return refused(True, f"the API key {scheme.name} is not one this mock issued")
        if authorization is None:
            return refused(False, "no Authorization header")
        kind, _, credential = authorization.strip().partition(" ")
        credential = credential.strip()
        wanted = "bearer" if scheme.type in _BEARER_SCHEMES else scheme.scheme
        if kind.lower() != wanted:
            return refused(False, f"the Authorization header is not {wanted.capitalize()}")
        if wanted == "basic":
            return await self._basic(credential, refused)
        if wanted == "bearer":
            reason = await self.bearer_check(credential, scopes, now) if credential else "empty"
            return None if reason is None else refused(True, f"the token is refused: {reason}")
        return None if credential else refused(True, f"the {kind} credentials are empty")

    async def _basic(
        self, credential: str, refused: Callable[[bool, str], Verdict]
    ) -> Verdict | None:
        try:
            decoded = base64.b64decode(credential, validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError):
            return refused(True, "the Basic credentials are not base64 of user:password")
        user, colon, password = decoded.partition(":")
        if not colon:
            return refused(True, "the Basic credentials are not base64 of user:password")
        if await self.auth.check_password(user, password) is None:
            return refused(True, "the user name or password is wrong")
        return None

    def _unauthorized(self, verdicts: list[Verdict]) -> Problem:
        challenges: list[str] = []
        realm = f"realm={quoted(self.realm)}"
        for verdict in verdicts:
            scheme = verdict.scheme
            if scheme.type == "apiKey":
                challenge = (
                    f"ApiKey {realm}, name={quoted(scheme.name)}, in={quoted(scheme.scheme)}"
                )
            elif scheme.type in _BEARER_SCHEMES or scheme.scheme == "bearer":
                params = [realm]
                if verdict.sent:
                    params.append('error="invalid_token"')
                if verdict.scopes:
                    params.append(f"scope={quoted(' '.join(verdict.scopes))}")
                challenge = "Bearer " + ", ".join(params)
            else:
                challenge = f"{scheme.scheme.capitalize()} {realm}"
            if challenge not in challenges:
                challenges.append(challenge)
        reasons = "; ".join(dict.fromkeys(f"{v.scheme.key}: {v.reason}" for v in verdicts))
        return Problem(
            HTTPStatus.UNAUTHORIZED,
            f"This operation needs credentials ({reasons}).",
            headers={"WWW-Authenticate": ", ".join(challenges)},
            extra={"schemes": list(dict.fromkeys(v.scheme.key for v in verdicts))},
        )
