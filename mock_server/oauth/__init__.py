"""The OAuth 2.0 authorization server (on by default; ``--no-oauth`` turns it off).

Built on Authlib's framework-agnostic server classes, with a Starlette
adapter of our own, and joserfc for the signing key:

- :mod:`~mock_server.oauth.server`: Authlib's ``AuthorizationServer`` with our
  grants, endpoints and records; issues RFC 9068 JWT access tokens;
- :mod:`~mock_server.oauth.grants`: authorization code + PKCE (S256), refresh
  (rotated, reuse revokes the grant), client credentials, device code;
- :mod:`~mock_server.oauth.endpoints`: device authorization, introspection,
  revocation, dynamic client registration;
- :mod:`~mock_server.oauth.adapter`: Starlette requests in, Authlib's answers out;
- :mod:`~mock_server.oauth.clients`, :mod:`~mock_server.oauth.scopes`: who may
  ask, and for what; :mod:`~mock_server.oauth.keys`: the signing key and JWKS;
- :mod:`~mock_server.oauth.state`: codes, grants, revocations, device
  requests and registered clients, behind one small interface (in memory
  here; in the database with ``--db`` or ``--store postgresql://``, for every
  worker and instance);
- :mod:`~mock_server.oauth.tokens`: reading the tokens back (resources,
  introspection, revocation);
- :mod:`~mock_server.oauth.metadata`: RFC 8414 and RFC 9728 documents;
- :mod:`~mock_server.oauth.pages`, :mod:`~mock_server.oauth.csrf`: the login and
  consent pages and their forms' protection.

Not here: the routes (:mod:`mock_server.resources.oauth`) and where a token's
scopes are enforced (:mod:`mock_server.auth.policy`, applied by
:mod:`mock_server.layers.authentication`).

Authlib and joserfc load with the server's first OAuth request or token
(``Service.oauth`` makes the server then), not at every start: of this package
only :mod:`~mock_server.oauth.metadata`, :mod:`~mock_server.oauth.scopes`,
:mod:`~mock_server.oauth.csrf` and :mod:`~mock_server.oauth.pages` load before.
"""
