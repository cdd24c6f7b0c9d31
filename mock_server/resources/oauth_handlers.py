"""The OAuth routes' handlers (:mod:`mock_server.resources.oauth` is their table).

The protocol is Authlib's (:mod:`mock_server.oauth`); these read the request,
set the issuer for its duration, and send what the server answers. A form is
refused (403) unless it carries the CSRF token made for the browser it was
shown to (:mod:`mock_server.oauth.csrf`) and, when the browser says where it
was sent from (``Origin``, ``Sec-Fetch-Site``), it was sent from this
server's own page. This module loads Authlib: it is imported with the first
OAuth request.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from http import HTTPStatus
from typing import Any

from authlib.oauth2.rfc6749 import OAuth2Error
from starlette.requests import Request
from starlette.responses import Response

from mock_server.auth.users import User
from mock_server.http import negotiation
from mock_server.oauth import csrf, metadata, pages
from mock_server.oauth.adapter import Answer, OAuth2Request, read_json_request, read_request
from mock_server.oauth.endpoints import user_code_of
from mock_server.oauth.grants import ResourceOwner
from mock_server.oauth.metadata import origin
from mock_server.oauth.scopes import SCOPES
from mock_server.oauth.server import OAuthServer
from mock_server.oauth.state import DeviceRecord
from mock_server.representations.model import Link, Resource
from mock_server.representations.respond import json_body, respond
from mock_server.service import Service

JSON = "application/json"
#: The authorization request's parameters the consent form carries on (RFC 6749, RFC 7636).
AUTHORIZATION_FIELDS = (
    "response_type",
    "client_id",
    "redirect_uri",
    "scope",
    "state",
    "code_challenge",
    "code_challenge_method",
)
AUTHORIZE_PATH = metadata.ENDPOINTS["authorization_endpoint"]
DEVICE_PATH = metadata.DEVICE_VERIFICATION_PATH
WRONG_PASSWORD = "The user name or password is wrong."
CHOOSE = "Choose Approve or Deny."
UNKNOWN_CODE = "This code is unknown, has expired, or was used already."


def _json(document: dict[str, Any]) -> Response:
    return Response(json_body(document), media_type=JSON)


class OAuthHandlers:
    """The handlers, sharing the server, the service and the forms' key."""

    def __init__(self, service: Service, server: OAuthServer) -> None:
        self.service = service
        self.server = server
        self.key = csrf.derive_key(service.auth.secret)

    # Documents -------------------------------------------------------------------------

    async def server_metadata(self, request: Request) -> Response:
        """RFC 8414 metadata."""
        return _json(metadata.authorization_server(origin(request)))

    async def resource_metadata(self, request: Request) -> Response:
        """RFC 9728 metadata."""
        return _json(metadata.protected_resource(origin(request)))

    async def jwks(self, request: Request) -> Response:
        """The public JWK Set."""
        return _json(self.server.keys.jwks())

    async def index(self, request: Request) -> Response:
        """The clients, scopes and endpoints, as a hypermedia resource."""
        base = origin(request)
        clients = [
            {
                "clientId": client.client_id,
                "name": client.name,
                "type": "public" if client.public else "confidential",
                "grantTypes": sorted(client.grant_types),
                "redirectUris": list(client.redirect_uris),
                "scopes": list(client.scopes),
                "roleForItself": client.role,
            }
            for client in self.server.clients.fixed()
        ]
        resource = Resource(
            kind="oauth",
            properties={
                "description": "An OAuth 2.0 authorization server: authorization code with "
                "PKCE (S256), client credentials, refresh tokens (rotated), device code. "
                "Users log in on the consent page: alice/wonderland, bob/builder, "
                "admin/admin. The seeded confidential client's secret is reports-secret. "
                "A token can do what both its scopes and its user's role allow.",
                "endpoints": {name: base + path for name, path in metadata.ENDPOINTS.items()},
                "clients": clients,
                "scopes": dict(SCOPES),
            },
            links=[
                Link("self", metadata.DOCS_PATH, title="OAuth 2.0"),
                Link(
                    "describedby",
                    metadata.AUTHORIZATION_SERVER_PATH,
                    title="Authorization server metadata (RFC 8414)",
                    type=JSON,
                ),
                Link(
                    "related",
                    metadata.PROTECTED_RESOURCE_PATH,
                    title="Protected resource metadata (RFC 9728)",
                    type=JSON,
                ),
                Link("up", "/", title="Entry point"),
            ],
        )
        return respond(request, resource, headers={"Cache-Control": "max-age=60"})

    # The JSON endpoints ----------------------------------------------------------------

    async def _endpoint(
        self,
        request: Request,
        call: Callable[[Any], Answer],
        reader: Callable[[Request], Awaitable[Any]] = read_request,
    ) -> Response:
        with self.server.serving(origin(request)):
            try:
                oauth_request = await reader(request)
            except OAuth2Error as error:
                return self.server.error_answer(error).response()
            return call(oauth_request).response()

    async def token(self, request: Request) -> Response:
        """The token endpoint (RFC 6749 section 3.2)."""
        return await self._endpoint(request, self.server.create_token_response)

    async def device_start(self, request: Request) -> Response:
        """The device authorization endpoint (RFC 8628 section 3.1)."""
        return await self._endpoint(
            request, lambda r: self.server.create_endpoint_response("device_authorization", r)
        )

    async def introspect(self, request: Request) -> Response:
        """The introspection endpoint (RFC 7662)."""
        return await self._endpoint(
            request, lambda r: self.server.create_endpoint_response("introspection", r)
        )

    async def revoke(self, request: Request) -> Response:
        """The revocation endpoint (RFC 7009)."""
        return await self._endpoint(
            request, lambda r: self.server.create_endpoint_response("revocation", r)
        )

    async def register(self, request: Request) -> Response:
        """The client registration endpoint (RFC 7591)."""
        return await self._endpoint(
            request,
            lambda r: self.server.create_endpoint_response("client_registration", r),
            read_json_request,
        )

    # The authorization endpoint --------------------------------------------------------

    async def authorize(self, request: Request) -> Response:
        """GET: the login and consent page for a valid request; POST: the decision."""
        with self.server.serving(origin(request)):
            try:
                oauth_request = await read_request(request)
                if request.method == "POST":
                    return await self._decide(request, oauth_request.payload.data)
                grant = self.server.get_consent_grant(oauth_request)
            except OAuth2Error as error:
                answer = self.server.error_answer(error)
                if answer.location is None and _reads_pages(request):
                    return _refused(answer)
                return answer.response(see_other=request.method == "POST")
            return self._consent(request, grant)

    def _consent(
        self,
        request: Request,
        grant: Any,
        *,
        error: str | None = None,
        username: str = "",
    ) -> Response:
        oauth_request = grant.request
        fields = {
            name: value
            for name in AUTHORIZATION_FIELDS
            if (value := oauth_request.payload.data.get(name)) is not None
        }
        nonce, set_cookie = self._nonce(request)
        fields[csrf.FIELD] = csrf.form_token(
            self.key, nonce, "authorize", fields, self.service.clock()
        )
        client = oauth_request.client
        body = pages.consent(
            action=AUTHORIZE_PATH,
            client_name=client.name,
            client_id=client.client_id,
            scope=oauth_request.scope,
            fields=fields,
            error=error,
            username=username,
        )
        return pages.page(
            "Log in and authorize",
            body,
            redirect_uri=grant.redirect_uri,
            set_cookie=set_cookie,
        )

    def _nonce(self, request: Request) -> tuple[str, str | None]:
        """The browser's CSRF nonce, and the cookie to set when it has none yet."""
        nonce = request.cookies.get(csrf.COOKIE)
        if nonce:
            return nonce, None
        nonce = csrf.new_nonce()
        return nonce, csrf.cookie(nonce, secure=request.url.scheme == "https")

    def _form_holds(
        self, request: Request, form: dict[str, str], purpose: str, fields: dict[str, str]
    ) -> bool:
        return csrf.same_site(request) and csrf.check(
            self.key,
            request.cookies.get(csrf.COOKIE),
            purpose,
            fields,
            form.get(csrf.FIELD, ""),
            self.service.clock(),
        )

    async def _decide(self, request: Request, form: dict[str, str]) -> Response:
        fields = {name: form[name] for name in AUTHORIZATION_FIELDS if name in form}
        if not self._form_holds(request, form, "authorize", fields):
            return _forged()
        # The authorization request again, as the page showed it: its fields, read as a
        # GET's query (what Authlib validates), without the login and the decision.
        oauth_request = OAuth2Request(
            "GET", str(request.url), request.headers, list(fields.items()), []
        )
        grant = self.server.get_consent_grant(oauth_request)
        decision = form.get("decision")
        if decision == "deny":
            answer = self.server.authorization_answer(oauth_request, None, grant)
            return answer.response(see_other=True)
        username = form.get("username", "")
        if decision != "approve":
            return self._consent(request, grant, error=CHOOSE, username=username)
        user = await self._login(username, form.get("password", ""))
        if user is None:
            return self._consent(request, grant, error=WRONG_PASSWORD, username=username)
        owner = ResourceOwner(user.name, user.role)
        answer = self.server.authorization_answer(oauth_request, owner, grant)
        return answer.response(see_other=True)

    async def _login(self, username: str, password: str) -> User | None:
        if not username or not password:
            return None
        return await self.service.auth.check_password(username, password)

    # The device verification page ------------------------------------------------------

    async def device(self, request: Request) -> Response:
        """GET: type the code, then see who asks for what; POST: the decision."""
        with self.server.serving(origin(request)):
            if request.method == "POST":
                try:
                    oauth_request = await read_request(request)
                except OAuth2Error as error:
                    return self.server.error_answer(error).response()
                return await self._device_decide(request, oauth_request.payload.data)
            typed = request.query_params.get("user_code")
            if typed is None:
                return pages.page("Connect a device", pages.device_entry(DEVICE_PATH))
            return self._device_consent(request, typed)

    def _pending(self, user_code: str | None) -> DeviceRecord | None:
        if user_code is None:
            return None
        record = self.server.state.device_by_user_code(user_code)
        if record is None or record.approved is not None:
            return None
        if self.service.clock() >= record.expires:
            return None
        return record

    def _device_consent(
        self,
        request: Request,
        typed: str,
        *,
        error: str | None = None,
        username: str = "",
    ) -> Response:
        user_code = user_code_of(typed)
        record = self._pending(user_code)
        if user_code is None or record is None:
            body = pages.device_entry(DEVICE_PATH, typed, UNKNOWN_CODE)
            return pages.page("Connect a device", body, status=HTTPStatus.NOT_FOUND)
        client = self.server.clients.get(record.client_id)
        nonce, set_cookie = self._nonce(request)
        fields = {"user_code": user_code}
        fields[csrf.FIELD] = csrf.form_token(
            self.key, nonce, "device", fields, self.service.clock()
        )
        body = pages.consent(
            action=DEVICE_PATH,
            client_name=client.name if client is not None else record.client_id,
            client_id=record.client_id,
            scope=record.scope,
            fields=fields,
            error=error,
            username=username,
        )
        return pages.page("Connect a device", body, set_cookie=set_cookie)

    async def _device_decide(self, request: Request, form: dict[str, str]) -> Response:
        user_code = form.get("user_code", "")
        if not self._form_holds(request, form, "device", {"user_code": user_code}):
            return _forged()
        if self._pending(user_code) is None:
            body = pages.device_entry(DEVICE_PATH, user_code, UNKNOWN_CODE)
            return pages.page("Connect a device", body, status=HTTPStatus.NOT_FOUND)
        username = form.get("username", "")
        decision = form.get("decision")
        if decision == "deny":
            self.server.state.decide_device(user_code, None, approved=False)
            text = "Denied: the device gets no access. You may close this page."
            return pages.page("Connect a device", pages.message(text))
        user = await self._login(username, form.get("password", "")) if decision else None
        if user is None:
            error = WRONG_PASSWORD if decision == "approve" else CHOOSE
            return self._device_consent(request, user_code, error=error, username=username)
        if not self.server.state.decide_device(user_code, user.name, approved=True):
            body = pages.device_entry(DEVICE_PATH, user_code, UNKNOWN_CODE)
            return pages.page("Connect a device", body, status=HTTPStatus.NOT_FOUND)
        text = "Approved: go back to your device, it is connected. You may close this page."
        return pages.page("Connect a device", pages.message(text))


def _reads_pages(request: Request) -> bool:
    """True when a browser opened the page (its ``Accept`` wants HTML above JSON)."""
    ranges = negotiation.parse_accept(request.headers.get("accept", ""))
    return negotiation.wants_a_page(ranges, (JSON,))


def _refused(answer: Answer) -> Response:
    """An error that is not redirected to the client, as a page for the person who
    opened it (RFC 6749 section 4.1.2.1: "inform the resource owner"), not raw JSON."""
    body = answer.body if isinstance(answer.body, dict) else {}
    error = str(body.get("error", "invalid_request"))
    description = str(body.get("error_description", ""))
    return pages.page(
        "Authorization refused", pages.refusal(error, description), status=answer.status
    )


def _forged() -> Response:
    text = (
        "This form was not the one this server showed this browser, or it is over "
        f"{csrf.MAX_AGE // 60} minutes old. Start again from the application."
    )
    return pages.page("Form refused", pages.message(text), status=HTTPStatus.FORBIDDEN)
