"""Logging in and out: ``/auth`` (index), ``/auth/token``, ``/auth/session``, ``/auth/whoami``.

- ``POST /auth/token`` takes JSON ``{"username", "password"}``, a form
  ``username=&password=``, or Basic credentials, and answers 200 with
  ``{"access_token", "token_type": "Bearer", "expires_in"}`` (the OAuth 2.0
  shape of RFC 6749 section 5.1, with ``Cache-Control: no-store``).
- ``DELETE /auth/token`` with the token as Bearer credential revokes it in
  ``--token-mode stored`` (204). A signed token cannot be revoked: it is valid
  wherever its signature checks until it expires, and the server keeps nothing
  to forget. So in signed mode the resource does not support DELETE, and the
  answer is **405** with ``Allow`` (RFC 9110 section 15.5.6: a method known to
  the server but not supported by the target resource), given by the method
  policy layer from these routes; 400 would blame the request's syntax, which
  is fine.
- ``POST /auth/session`` takes the same credentials and answers 204 with
  ``Set-Cookie: session=...; HttpOnly; SameSite=Lax; Path=/`` (and ``Secure`` over
  HTTPS, so the browser never sends it in cleartext); ``DELETE
  /auth/session`` ends the session and clears the cookie (204 even without
  one: logging out is idempotent).
- ``GET /auth/whoami`` says who the credential sent belongs to.

Every answer here carries ``Cache-Control: no-store``: none of it may be cached.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any
from urllib.parse import parse_qs

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from mock_server.auth import Principal
from mock_server.auth.challenge import unauthorized
from mock_server.auth.credentials import Basic, Bearer, parse_authorization
from mock_server.auth.sessions import COOKIE_NAME, clear_cookie, set_cookie
from mock_server.auth.users import User
from mock_server.http.problems import Problem
from mock_server.http.request_body import JSON, has_framing, media_type_of, not_utf8, parse_json
from mock_server.representations.model import Action, Field, Link, Resource
from mock_server.representations.respond import json_body, respond
from mock_server.representations.urls import href
from mock_server.service import Service

FORM = "application/x-www-form-urlencoded"
LOGIN_TYPES: tuple[str, ...] = (JSON, FORM)
#: Credentials are never cached. No ``Pragma: no-cache``: it is a request field
#: (RFC 9111 section 5.4), meaningless in a response.
NO_STORE = {"Cache-Control": "no-store"}


def _login_problem(detail: str, status: int = HTTPStatus.UNPROCESSABLE_ENTITY) -> Problem:
    return Problem(status, detail, headers=NO_STORE)


def _fields_from(document: Any) -> tuple[str, str]:
    if not isinstance(document, dict):
        raise _login_problem("The body must be an object with 'username' and 'password'.")
    errors = [
        {"field": name, "message": f"'{name}' is required and must be a string."}
        for name in ("username", "password")
        if not isinstance(document.get(name), str)
    ]
    if errors:
        raise Problem(
            HTTPStatus.UNPROCESSABLE_ENTITY,
            "The credentials need a 'username' and a 'password', both strings.",
            errors=errors,
            headers=NO_STORE,
        )
    return document["username"], document["password"]


async def read_credentials(request: Request) -> tuple[str, str]:
    """(username, password) from Basic credentials, a JSON body, or a form body."""
    authorization = request.headers.get("authorization")
    if authorization is not None:
        credential = parse_authorization(authorization)
        if isinstance(credential, Basic):
            return credential.username, credential.password
        if isinstance(credential, Bearer):
            raise _login_problem(
                "Log in with a user name and password (JSON, form or Basic), not a token.",
                HTTPStatus.BAD_REQUEST,
            )
        raise unauthorized(credential.reason)
    raw = await request.body() if has_framing(request) else b""
    if not raw.strip():
        raise unauthorized(
            f"{request.method} {request.url.path} needs a user name and password: JSON "
            '{"username", "password"}, a form username=&password=, or Basic credentials.'
        )
    media_type = media_type_of(request)
    if media_type == JSON:
        return _fields_from(parse_json(raw))
    if media_type == FORM:
        bad = not_utf8(raw, "The form body")
        if bad is not None:
            raise Problem(HTTPStatus.BAD_REQUEST, bad.detail, headers=NO_STORE, extra=bad.extra)
        try:
            form = parse_qs(
                raw.decode("utf-8"), keep_blank_values=True, strict_parsing=True, errors="strict"
            )
        except UnicodeDecodeError as error:  # a %xx escape that is no UTF-8
            raise Problem(
                HTTPStatus.BAD_REQUEST,
                "The form body is not UTF-8 once its %-escapes are decoded (byte "
                f"0x{error.object[error.start]:02x}).",
                headers=NO_STORE,
            ) from None
        except ValueError:
            raise _login_problem("The form body is not URL-encoded (name=value&...).") from None
        return _fields_from({name: values[0] for name, values in form.items()})
    got = f"'{media_type}'" if media_type else "no Content-Type"
    raise Problem(
        HTTPStatus.UNSUPPORTED_MEDIA_TYPE,
        f"{request.url.path} takes {', '.join(LOGIN_TYPES)}; the request sent {got}.",
        headers={"Accept-Post": ", ".join(LOGIN_TYPES), **NO_STORE},
    )


async def login(service: Service, request: Request) -> User:
    """The user whose credentials the request carries; a 401 problem if they are wrong."""
    username, password = await read_credentials(request)
    user = await service.auth.check_password(username, password)
    if user is None:
        raise unauthorized("The user name or password is wrong.")
    return user


def _https(request: Request) -> bool:
    """True when the request came over TLS: its session cookie is then ``Secure``."""
    return request.url.scheme == "https"


def _login_fields() -> tuple[Field, ...]:
    return (
        Field("username", required=True, prompt="User name"),
        Field("password", type="password", required=True, prompt="Password"),
    )


async def issue_token(service: Service, request: Request) -> Response:
    """``POST /auth/token``: a new access token."""
    user = await login(service, request)
    token, lifetime = service.auth.issue_token(user, service.clock())
    document = {
        "access_token": token,
        "token_type": "Bearer",
        "expires_in": lifetime,
        "_links": {
            "self": {"href": href(request, "/auth/token")},
            "rw:whoami": {"href": href(request, "/auth/whoami")},
            "rw:root": {"href": href(request, "/")},
        },
    }
    return Response(json_body(document), media_type=JSON, headers=NO_STORE)


async def revoke_token(service: Service, request: Request) -> Response:
    """``DELETE /auth/token`` (stored mode): revoke the token sent as Bearer credential."""
    credential = parse_authorization(request.headers.get("authorization", ""))
    if not isinstance(credential, Bearer):
        raise unauthorized("Send the token to revoke as the Bearer credential.")
    checked = service.auth.check_token(credential.token, service.clock())
    if not isinstance(checked, Principal):
        raise unauthorized(checked.detail, invalid_token=True)
    service.auth.revoke(credential.token)
    return Response(status_code=HTTPStatus.NO_CONTENT, headers=NO_STORE)


def routes(service: Service) -> list[BaseRoute]:
    """The login and logout routes."""

    async def index(request: Request) -> Response:
        resource = Resource(
            kind="auth",
            properties={
                "description": "Log in for a Bearer token or a cookie session. Users: "
                "alice (editor), bob (viewer), admin (admin).",
                "tokenMode": service.auth.mode,
            },
            links=[
                Link("self", href(request, "/auth"), title="Authentication"),
                Link("rw:whoami", href(request, "/auth/whoami"), title="Who am I?"),
                Link("rw:root", href(request, "/"), title="Entry point"),
            ],
            actions=[
                Action(
                    "token",
                    "POST",
                    href(request, "/auth/token"),
                    "Get a Bearer token",
                    fields=_login_fields(),
                ),
                Action(
                    "login",
                    "POST",
                    href(request, "/auth/session"),
                    "Start a cookie session",
                    fields=_login_fields(),
                ),
                Action("logout", "DELETE", href(request, "/auth/session"), "End the session"),
            ],
        )
        return respond(request, resource, headers=NO_STORE)

    async def start_session(request: Request) -> Response:
        user = await login(service, request)
        session_id = service.auth.open_session(user, service.clock())
        return Response(
            status_code=HTTPStatus.NO_CONTENT,
            headers={"Set-Cookie": set_cookie(session_id, secure=_https(request)), **NO_STORE},
        )

    async def end_session(request: Request) -> Response:
        session_id = request.cookies.get(COOKIE_NAME)
        if session_id:
            service.auth.close_session(session_id)
        return Response(
            status_code=HTTPStatus.NO_CONTENT,
            headers={"Set-Cookie": clear_cookie(secure=_https(request)), **NO_STORE},
        )

    async def session(request: Request) -> Response:
        if request.method == "DELETE":
            return await end_session(request)
        return await start_session(request)

    async def whoami(request: Request) -> Response:
        principal = request.scope.get("state", {}).get("principal")
        if not isinstance(principal, Principal):
            raise unauthorized("GET /auth/whoami needs a credential.")
        resource = Resource(
            kind="principal",
            properties={
                "username": principal.user,
                "role": principal.role,
                "authenticatedBy": principal.scheme,
            },
            links=[
                Link("self", href(request, "/auth/whoami")),
                Link("rw:auth", href(request, "/auth"), title="Authentication"),
            ],
        )
        return respond(request, resource, headers=NO_STORE)

    async def token(request: Request) -> Response:
        if request.method == "DELETE":
            return await revoke_token(service, request)
        return await issue_token(service, request)

    # Signed tokens cannot be revoked, so in signed mode the resource has no DELETE:
    # the method policy layer answers it with 405 and Allow.
    token_methods = ["POST", "DELETE"] if service.auth.mode == "stored" else ["POST"]
    return [
        Route("/auth", index, methods=["GET"]),
        Route("/auth/token", token, methods=token_methods),
        Route("/auth/session", session, methods=["POST", "DELETE"]),
        Route("/auth/whoami", whoami, methods=["GET"]),
    ]
