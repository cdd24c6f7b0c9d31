"""Origins: the ``scheme://host:port`` a credential, a version or a kept header is for.

A browser scopes what it remembers (cookies, credentials, permissions) to an
origin (RFC 6454); the session does the same, so a token given to one server is
never sent to another.
"""

from __future__ import annotations

# One definition, beside the rule that reads it (which origin may receive a secret).
from explorer.core.http.secret_rules import origin_of

__all__ = ["origin_of"]
