"""The OAuth scopes: what each grants, said once for the consent page, metadata and docs.

A scope is a capability a user delegates to a client. It never raises a user's
role: an access token can do what both its scopes and its user's role allow
(:mod:`mock_server.auth.policy` names the scope each path and method needs).
"""

from __future__ import annotations

#: Scope -> what it lets the client do, as the consent page says it.
SCOPES: dict[str, str] = {
    "customers:read": "Read customers",
    "customers:write": "Create, change and delete customers",
    "orders:read": "Read orders",
    "orders:write": "Create, change, place and cancel orders",
    "reports:read": "Make and read order reports",
}

#: Every scope, in the order above.
ALL_SCOPES: tuple[str, ...] = tuple(SCOPES)
#: What a client that does not say gets: every scope it is allowed (RFC 6749 section 3.3).
READ_SCOPES: tuple[str, ...] = ("customers:read", "orders:read", "reports:read")


def scope_list(scope: str | None) -> list[str]:
    """The scopes in a space-separated ``scope`` value, each once, in the order given."""
    return list(dict.fromkeys((scope or "").split()))
