"""Your API in place of the teaching one: what the layers ask of it.

With ``--openapi`` (:mod:`mock_server.contract`), ``--replay`` or ``--record``
(:mod:`mock_server.tape`), the mock serves someone else's API. Its answers
still pass every layer (limits, rate limit, methods, faults, CORS, ETags and
304, preconditions, compression, journal), but the rules that are the
teaching API's own stay off its paths: the access policy (the guest enforces
its own security), versions (``/v1`` in a document's path is part of the
path) and the choice among HAL, Siren, JSON:API and XML (the guest answers in
its own media types). The mock keeps a few paths of its own beside the guest's
(:data:`KEPT_PREFIXES`): its tokens at ``/auth/token``, the request journal,
``/_reset``, and the pages its problem documents link (``/problems/404``).
The app factory (:func:`mock_server.app.create_app`) opens the guest the
settings ask for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from starlette.requests import Request
from starlette.routing import BaseRoute

if TYPE_CHECKING:
    from mock_server.http.problems import Problem

#: The mock's own paths, kept beside a guest's (a guest's path of the same name wins).
KEPT_PREFIXES = ("/auth", "/_journal", "/_reset", "/problems")


class GuestApi(Protocol):
    """An API the mock serves in place of the teaching one."""

    def routes(self) -> list[BaseRoute]:
        """The guest's routes, tried before the mock's kept ones."""
        ...

    def write_target(self, method: str, path: str) -> str | None:
        """The member a write's preconditions refer to (an internal GET reads its ETag)."""
        ...

    def needs_credentials(self, path: str) -> bool:
        """True when reading ``path`` needs credentials (its answers are cached privately)."""
        ...

    def not_found(self, request: Request) -> Problem | None:
        """The guest's own 404 for a request no route took (None: the mock's plain one)."""
        ...

    def reset(self) -> None:
        """Forget what requests changed (``POST /_reset``)."""
        ...


class Guests:
    """Several guests as one, the first one asked first (a tape before its document)."""

    def __init__(self, *guests: GuestApi) -> None:
        self.guests = guests

    def routes(self) -> list[BaseRoute]:
        return [route for guest in self.guests for route in guest.routes()]

    def write_target(self, method: str, path: str) -> str | None:
        return next(
            (t for g in self.guests if (t := g.write_target(method, path)) is not None), None
        )

    def needs_credentials(self, path: str) -> bool:
        return any(guest.needs_credentials(path) for guest in self.guests)

    def not_found(self, request: Request) -> Problem | None:
        return next((p for g in self.guests if (p := g.not_found(request)) is not None), None)

    def reset(self) -> None:
        for guest in self.guests:
            guest.reset()


def is_kept(path: str) -> bool:
    """True for the mock's own paths that stay served beside a guest."""
    return any(path == prefix or path.startswith(prefix + "/") for prefix in KEPT_PREFIXES)


def guest_path(guest: GuestApi | None, path: str) -> bool:
    """True when ``path`` is the guest's: the teaching API's rules stay off it."""
    return guest is not None and not is_kept(path)
