"""HEAD, answered as GET: what a resource that never ends needs to know about it.

The method policy layer passes a HEAD request on as a GET and drops the
body it gets back, so every resource gives HEAD exactly the headers of GET.
A body that never ends (an event stream) would keep such a HEAD waiting, so
the GET it becomes is marked, and :func:`asked_head` lets such a resource
answer with its headers alone.
"""

from __future__ import annotations

from starlette.types import Scope

#: Where in ``scope["state"]`` the mark is.
HEAD = "head"


def as_get(scope: Scope) -> Scope:
    """``scope`` of a HEAD request as the GET it is answered as, marked as such."""
    return {**scope, "method": "GET", "state": {**scope.get("state", {}), HEAD: True}}


def asked_head(scope: Scope) -> bool:
    """True when this GET stands for a HEAD request."""
    state = scope.get("state")
    return isinstance(state, dict) and state.get(HEAD) is True
