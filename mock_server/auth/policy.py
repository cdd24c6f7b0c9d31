"""Who may do what: the role each path and method needs, as one table.

The design's rules: reads of customers and products are public; every write,
and all of orders, need a credential; writes need an editor (a viewer gets
403); ``/admin`` is for the admin only. Paths here are without a ``/vN``
segment. The first rule whose prefix matches decides; paths no rule names
follow :data:`DEFAULT_RULE` (public reads, editor writes), so a resource added
later is never writable anonymously by accident.

An OAuth access token (:mod:`mock_server.oauth`) is also limited by its scopes:
each rule names the scope reading and writing need (``read_scope``,
``write_scope``). What needs a role but names no scope (the admin's actions,
writes of products) is not delegated: no token reaches it, only the user's own
credentials. :data:`ANY_TOKEN` marks what any token may do (``/auth/whoami``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from mock_server.auth.users import Role

#: Methods that only read. Everything else is a write.
READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})


@dataclass(frozen=True)
class Rule:
    """The roles a path prefix needs to be read and written (None: anyone).

    ``inspect`` False leaves credentials to the resource itself: the login and
    logout endpoints read the credentials they are given, and a wrong password
    sent to them must not be refused before they can explain it.
    """

    prefix: str
    read: Role | None
    write: Role | None
    inspect: bool = True
    read_scope: str | None = None
    write_scope: str | None = None

    def matches(self, path: str) -> bool:
        """True when ``path`` is the prefix or lies under it."""
        return path == self.prefix or path.startswith(self.prefix.rstrip("/") + "/")

    def needs(self, method: str) -> Role | None:
        """The least role ``method`` needs here (None: no credential needed)."""
        return self.read if method.upper() in READ_METHODS else self.write

    def scope(self, method: str) -> str | None:
        """The OAuth scope ``method`` needs here (None: none names it)."""
        return self.read_scope if method.upper() in READ_METHODS else self.write_scope


@dataclass(frozen=True)
class ScopeRefusal:
    """Why a token's scopes do not reach an operation: ``scope`` is the one missing,
    or None when no scope grants the operation (it is not delegated)."""

    scope: str | None


#: The scope value of an operation any access token may do, whatever its scopes.
ANY_TOKEN = "*"


#: First match wins; more specific prefixes first.
RULES: tuple[Rule, ...] = (
    Rule("/auth/token", read=None, write=None, inspect=False),
    Rule("/auth/session", read=None, write=None, inspect=False),
    Rule("/auth/whoami", read="viewer", write="viewer", read_scope=ANY_TOKEN),
    # The authorization server judges the credentials sent to it (client secrets in Basic).
    Rule("/oauth", read=None, write=None, inspect=False),
    Rule("/admin", read="admin", write="admin"),
    # The request journal holds credentials as they were sent.
    Rule("/_journal", read="admin", write="admin"),
    Rule("/orders", "viewer", "editor", read_scope="orders:read", write_scope="orders:write"),
    Rule("/customers", None, "editor", read_scope="customers:read", write_scope="customers:write"),
    Rule("/products", read=None, write="editor"),
    # The demos answer any method to anyone: they show statuses, they change nothing.
    Rule("/status", read=None, write=None),
    Rule("/redirect", read=None, write=None),
    Rule("/clients", read=None, write=None),
    Rule("/echo", read=None, write=None),
    Rule("/redirect-to", read=None, write=None),
    Rule("/faults", read=None, write=None),
    # Served only with --allow-reset, which opens it to anyone on purpose.
    Rule("/_reset", read=None, write=None),
    # httpbin's endpoints: credentials sent to /basic-auth or /bearer are theirs to judge.
    *(
        Rule(prefix, read=None, write=None, inspect=False)
        for prefix in (
            "/anything",
            "/headers",
            "/ip",
            "/user-agent",
            "/cookies",
            "/basic-auth",
            "/bearer",
            "/cache",
            "/etag",
            "/response-headers",
            "/delay",
            "/drip",
            "/bytes",
            "/stream",
        )
    ),
    # A subscription's callback and attempts are a credential-holder's to see; making one
    # is a write. (The event streams follow the rules of what they carry: /orders/events
    # is under /orders; /events leaves out what the client may not read.)
    Rule("/webhooks", read="viewer", write="editor"),
    # Reports summarize orders, so they are as protected as orders.
    Rule("/reports", "viewer", "editor", read_scope="reports:read", write_scope="reports:read"),
    Rule("/jobs", "viewer", "editor", read_scope="reports:read", write_scope="reports:read"),
)

DEFAULT_RULE = Rule("/", read=None, write="editor")


@lru_cache(maxsize=4096)
def rule_for(path: str) -> Rule:
    """The rule for ``path`` (unversioned). Cached: every request asks, twice."""
    for rule in RULES:
        if rule.matches(path):
            return rule
    return DEFAULT_RULE


def required_role(method: str, path: str) -> Role | None:
    """The least role ``method`` on ``path`` needs; None when it is public."""
    return rule_for(path).needs(method)


def scope_refusal(method: str, path: str, scopes: frozenset[str]) -> ScopeRefusal | None:
    """Why a token with ``scopes`` may not do ``method`` on ``path``; None when it may.

    A public operation that names no scope is open to any token, as to anyone.
    """
    rule = rule_for(path)
    scope = rule.scope(method)
    if scope is None:
        return ScopeRefusal(None) if rule.needs(method) is not None else None
    if scope == ANY_TOKEN or scope in scopes:
        return None
    return ScopeRefusal(scope)
