"""Cross-origin protection layer: a state-changing request a page on another origin
made a browser send without asking gets 403.

The rule is :func:`mock_server.http.cross_origin.refused_origin` (Fetch Metadata,
then ``Origin`` against ``Host``, then ``--cors``'s trusted origins). Right
inside the CORS layer, which answers the preflights of the requests browsers do
ask about; outside the rate limit and the credentials, so a forged request
costs no one's rate and is refused before any credential is looked at.

The OAuth endpoints a client application calls (token, device authorization,
introspection, revocation, registration) pass from any origin: a browser app
on its own origin posts a form to them, as RFC 8252 and the browser-app BCP
have it, and they act only on what the request carries (a code, a client's
secret, a token), never on the browser's cookies.
"""

from __future__ import annotations

from http import HTTPStatus

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from mock_server.http.cross_origin import SAFE_METHODS, refused_origin
from mock_server.http.problems import Problem
from mock_server.oauth.metadata import ENDPOINTS
from mock_server.service import Service

#: The OAuth endpoints for client applications (see the module's docstring).
CLIENT_ENDPOINTS = frozenset(
    ENDPOINTS[name]
    for name in (
        "token_endpoint",
        "device_authorization_endpoint",
        "introspection_endpoint",
        "revocation_endpoint",
        "registration_endpoint",
    )
)


class CrossOriginLayer:
    """Refuses (403) unsafe requests a browser sent from a page on another origin."""

    def __init__(self, app: ASGIApp, service: Service) -> None:
        self.app = app
        origins = service.settings.cors_origins
        self.trusted = tuple(origins) if origins is not None else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or scope["method"] in SAFE_METHODS
            or scope["path"] in CLIENT_ENDPOINTS
        ):
            await self.app(scope, receive, send)
            return
        origin = refused_origin(scope["method"], Headers(scope=scope), self.trusted)
        if origin is None:
            await self.app(scope, receive, send)
            return
        hint = (
            f"start the mock with --cors {origin} to let that origin's pages use it"
            if origin.startswith(("http://", "https://"))
            else "send it from this server's own pages, or from a script or client that "
            "is not a web page"
        )
        problem = Problem(
            HTTPStatus.FORBIDDEN,
            f"A page from {origin} made the browser send this {scope['method']} without "
            "asking first (a form, or a fetch without a CORS preflight): the mock refuses "
            "such requests from other origins, since they would act with the browser's "
            f"cookies and credentials (cross-site request forgery); {hint}.",
            title="Cross-origin request refused",
            extra={"origin": origin},
        )
        await problem.response(scope)(scope, receive, send)
