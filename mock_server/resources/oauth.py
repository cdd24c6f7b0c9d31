"""The OAuth 2.0 authorization server's routes (on unless ``--no-oauth``).

- ``GET /.well-known/oauth-authorization-server``: RFC 8414 metadata;
- ``GET /.well-known/oauth-protected-resource``: RFC 9728 metadata;
- ``GET /oauth``: the clients, scopes and endpoints, for people (the metadata's
  ``service_documentation``);
- ``GET /oauth/authorize``: the login and consent page; ``POST`` is its form
  (Approve or Deny), answered 303 to the client's redirect URI;
- ``POST /oauth/token``, ``/oauth/device_authorization``, ``/oauth/introspect``,
  ``/oauth/revoke``, ``/oauth/register``: the RFCs' endpoints, JSON answers;
- ``GET /oauth/device``: where a person types a device's user code, then logs
  in and decides (``POST``);
- ``GET /oauth/jwks``: the public key that signs access tokens.

The handlers are in :mod:`mock_server.resources.oauth_handlers`, which loads
Authlib and joserfc: it is imported, and the server made, with the first
request to one of these routes, so a start that never sees one does not pay
for them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from mock_server.oauth import metadata
from mock_server.service import Service

if TYPE_CHECKING:
    from mock_server.resources.oauth_handlers import OAuthHandlers

Handler = Callable[[Request], Awaitable[Response]]
_ENDS = metadata.ENDPOINTS
#: (path, handler name, methods), for each route.
TABLE: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    (metadata.AUTHORIZATION_SERVER_PATH, "server_metadata", ("GET",)),
    (metadata.PROTECTED_RESOURCE_PATH, "resource_metadata", ("GET",)),
    (metadata.DOCS_PATH, "index", ("GET",)),
    (_ENDS["authorization_endpoint"], "authorize", ("GET", "POST")),
    (_ENDS["token_endpoint"], "token", ("POST",)),
    (_ENDS["device_authorization_endpoint"], "device_start", ("POST",)),
    (_ENDS["introspection_endpoint"], "introspect", ("POST",)),
    (_ENDS["revocation_endpoint"], "revoke", ("POST",)),
    (_ENDS["registration_endpoint"], "register", ("POST",)),
    (metadata.DEVICE_VERIFICATION_PATH, "device", ("GET", "POST")),
    (_ENDS["jwks_uri"], "jwks", ("GET",)),
)


class _LateHandlers:
    """The handlers, made with the first request that needs them."""

    def __init__(self, service: Service) -> None:
        self.service = service
        self._handlers: OAuthHandlers | None = None

    def get(self) -> OAuthHandlers:
        """The handlers (importing them, and making the server, the first time)."""
        if self._handlers is None:
            from mock_server.resources.oauth_handlers import OAuthHandlers  # late: see above

            server = self.service.oauth
            assert server is not None, "the routes exist only with the OAuth server on"
            self._handlers = OAuthHandlers(self.service, server)
        return self._handlers

    def handler(self, name: str) -> Handler:
        """The route endpoint that calls the handler ``name``."""

        async def call(request: Request) -> Response:
            handler: Handler = getattr(self.get(), name)
            return await handler(request)

        call.__name__ = name
        return call


def routes(service: Service) -> list[BaseRoute]:
    """The authorization server's routes; none with ``--no-oauth``."""
    if not service.settings.oauth:
        return []
    late = _LateHandlers(service)
    return [Route(path, late.handler(name), methods=list(m)) for path, name, m in TABLE]
