"""Authentication layer: who is asking (401), and may they (403).

The credential comes from the ``Authorization`` header (Bearer token or Basic
credentials) or else from the ``session`` cookie. The principal found is put
in ``scope["state"]["principal"]`` for the resources. Then the policy table
(:mod:`mock_server.auth.policy`) decides:

- no credential where one is needed: 401 with the challenges;
- an ``Authorization`` header that does not hold: 401 anywhere, public reads
  included, so a client learns at once that its token expired (RFC 6750
  section 3.1); the Bearer challenge then carries ``error="invalid_token"``;
- a stale session cookie: ignored on public paths (browsers send cookies
  unasked), 401 on protected ones, with a ``Set-Cookie`` that clears it;
- a role too low: 403;
- an OAuth access token whose scopes do not reach the operation: 403, with
  ``WWW-Authenticate: Bearer error="insufficient_scope", scope="..."`` naming
  the scope it needs (RFC 6750 section 3.1), or saying no scope grants it.

With the OAuth server on, every 401 names the protected resource metadata in
its Bearer challenge (RFC 9728 section 5.1).

This layer sits outside version selection, so it matches paths without their
``/vN`` segment itself. Your API's paths (:mod:`mock_server.guest`) are left to
it: it enforces its own security requirements.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from starlette.requests import Request, cookie_parser
from starlette.types import ASGIApp, Receive, Scope, Send

from mock_server.auth import Principal, Refusal
from mock_server.auth.challenge import insufficient_scope, unauthorized
from mock_server.auth.policy import ScopeRefusal, rule_for, scope_refusal
from mock_server.auth.sessions import COOKIE_NAME
from mock_server.auth.users import Role, role_allows
from mock_server.guest import guest_path
from mock_server.http import versions
from mock_server.http.problems import Problem
from mock_server.oauth.metadata import PROTECTED_RESOURCE_PATH, origin
from mock_server.service import Service


def forbidden(principal: Principal, method: str, path: str, needed: Role) -> Problem:
    """The 403 problem: authenticated, but the role is too low."""
    return Problem(
        HTTPStatus.FORBIDDEN,
        f"{principal.user} has the {principal.role} role; {method} {path} needs {needed}.",
        extra={"role": principal.role, "requiredRole": needed},
    )


def out_of_scope(
    principal: Principal, refusal: ScopeRefusal, method: str, path: str, metadata: str | None
) -> Problem:
    """The 403 problem: the token's scopes do not reach the operation."""
    held = " ".join(sorted(principal.scopes or ())) or "none"
    if refusal.scope is None:
        return Problem(
            HTTPStatus.FORBIDDEN,
            f"No OAuth scope grants {method} {path}: it needs the user's own credentials "
            "(a token from /auth/token, Basic credentials, or a session).",
            extra={"scopes": held},
        )
    return insufficient_scope(
        f"The access token's scopes ({held}) do not include {refusal.scope}, "
        f"which {method} {path} needs.",
        refusal.scope,
        resource_metadata=metadata,
    )


class AuthenticationLayer:
    """Identifies the client and enforces the access policy."""

    def __init__(self, app: ASGIApp, service: Service) -> None:
        self.app = app
        self.service = service

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        method: str = scope["method"]
        if guest_path(self.service.guest, scope["path"]):
            await self.app(scope, receive, send)
            return
        _, path = versions.split_segment(scope["path"])
        rule = rule_for(path)
        if not rule.inspect:
            await self.app(scope, receive, send)
            return
        needed = rule.needs(method)
        outcome = await self._identify(scope)
        problem: Problem | None = None
        principal: Principal | None = None
        if isinstance(outcome, Principal):
            principal = outcome
            if needed is not None and not role_allows(principal.role, needed):
                problem = forbidden(principal, method, scope["path"], needed)
            elif principal.scopes is not None:
                refused = scope_refusal(method, path, principal.scopes)
                if refused is not None:
                    problem = out_of_scope(
                        principal, refused, method, scope["path"], self._resource_metadata(scope)
                    )
        elif isinstance(outcome, Refusal):
            problem = unauthorized(
                outcome.detail,
                invalid_token=outcome.invalid_token,
                resource_metadata=self._resource_metadata(scope),
            )
        elif outcome == "stale-session" and needed is not None:
            problem = unauthorized(
                "The session has ended or expired; log in again at /auth/session.",
                clear_session=True,
                resource_metadata=self._resource_metadata(scope),
                secure=scope.get("scheme") == "https",
            )
        elif needed is not None:
            problem = unauthorized(
                f"{method} {scope['path']} needs a credential: a Bearer token from "
                "/auth/token, Basic credentials, or a session cookie from /auth/session.",
                resource_metadata=self._resource_metadata(scope),
            )
        if problem is not None:
            await problem.response(scope)(scope, receive, send)
            return
        if principal is not None:
            scope = dict(scope)
            scope["state"] = {**scope.get("state", {}), "principal": principal}
        await self.app(scope, receive, send)

    def _resource_metadata(self, scope: Scope) -> str | None:
        """Where the protected resource metadata is, when the OAuth server is on."""
        if not self.service.settings.oauth:
            return None
        return origin(Request(scope)) + PROTECTED_RESOURCE_PATH

    async def _identify(self, scope: Scope) -> Principal | Refusal | str | None:
        """The principal, a refusal, ``"stale-session"``, or None when nothing was sent."""
        authorization: bytes | None = None
        cookie_fields: list[bytes] = []
        for name, value in scope["headers"]:
            if name == b"authorization":
                if authorization is None:
                    authorization = value
            elif name == b"cookie":
                cookie_fields.append(value)
        if authorization is None and not cookie_fields:
            return None
        now = self.service.clock()
        if authorization is not None:
            return await self.service.auth.check_authorization(authorization.decode("latin-1"), now)
        cookies: dict[str, Any] = {}
        for value in cookie_fields:
            cookies.update(cookie_parser(value.decode("latin-1")))
        session_id = cookies.get(COOKIE_NAME)
        if not session_id:
            return None
        found = self.service.auth.check_session(str(session_id), now)
        return found if found is not None else "stale-session"
