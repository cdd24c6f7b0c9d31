"""Authentication: users and roles, signed tokens, cookie sessions, the access policy.

- :mod:`~mock_server.auth.users`: the seeded users, salted password hashes, roles;
- :mod:`~mock_server.auth.password_checks`: checking passwords off the event loop,
  fairly between users, slower for a user whose logins keep failing;
- :mod:`~mock_server.auth.credentials`: parsing the ``Authorization`` header;
- :mod:`~mock_server.auth.tokens`: signed tokens (:func:`~mock_server.auth.tokens.verify`
  is pure) and the registry of the stored mode;
- :mod:`~mock_server.auth.sessions`: the server-side session store and its cookie;
- :mod:`~mock_server.auth.policy`: which role each path and method needs;
- :mod:`~mock_server.auth.challenge`: the ``WWW-Authenticate`` value of a 401;
- :mod:`~mock_server.auth.authenticator`: all of it as one service, ``service.auth``.
"""

from __future__ import annotations

from mock_server.auth.authenticator import Authenticator, Principal, Refusal

__all__ = ["Authenticator", "Principal", "Refusal"]
