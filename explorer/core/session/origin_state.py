"""What a session keeps for one origin, and what that adds to a request sent there.

An :class:`OriginState` holds the credential given for the origin, the API version
asked of it and the headers the person chose to keep; :meth:`OriginState.prepared`
puts them on a request, :meth:`OriginState.unprepared` takes them off again for the
person to edit. Which origin is which is :class:`~explorer.core.session.session.Session`'s.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from explorer.core.http.request import Auth, LoginFlow, RequestSpec

if TYPE_CHECKING:
    from explorer.core.session.version import VersionChoice

__all__ = ["OriginState"]

#: Headers never kept for a server: the session sets them itself, or they belong
#: to one body.
_NOT_KEPT = frozenset({"authorization", "cookie", "content-type", "content-length", "host"})


class OriginState:
    """What the session keeps for one origin: changed in place, never compared (a plain
    class: a dataclass's generated methods would go unused, and cost the TUI's start)."""

    __slots__ = ("auth", "dropped", "headers", "version")

    def __init__(self) -> None:
        self.auth: Auth | None = None
        self.version: VersionChoice | None = None
        #: Headers sent with every request to the origin, as the person chose them.
        self.headers: dict[str, tuple[str, str]] = {}
        #: Kept headers forgotten since (lower-cased name, value): a page sent with one
        #: is sent again without it (:meth:`unprepared`).
        self.dropped: set[tuple[str, str]] = set()

    def keep(self, headers: tuple[tuple[str, str], ...]) -> list[str]:
        """Keep ``headers``; returns the names kept (credentials, cookies and a body's own
        headers never are: the session sends the first two itself, the others belong to
        one body)."""
        names = []
        for name, value in headers:
            if name.lower() in _NOT_KEPT:
                continue
            self.headers[name.lower()] = (name, value)
            self.dropped.discard((name.lower(), value))
            names.append(name)
        return names

    def drop(self, name: str) -> bool:
        """Stop sending kept header ``name``; False if it was not kept."""
        dropped = self.headers.pop(name.lower(), None)
        if dropped is not None:
            self.dropped.add((name.lower(), dropped[1]))
        return dropped is not None

    def prepared(self, spec: RequestSpec, *, typed: bool = False) -> RequestSpec:
        """``spec`` with what is kept here: the credential (not on a request to where a
        login gets its token) and the kept headers; the API version too, unless the
        person ``typed`` the URL in full."""
        if spec.auth is None and self.auth is not None and not _logs_in_at(self.auth, spec.url):
            spec = spec.with_auth(self.auth)
        if self.headers:
            present = {name.lower() for name, _ in spec.headers}
            extra = tuple(pair for key, pair in self.headers.items() if key not in present)
            spec = replace(spec, headers=spec.headers + extra)
        choice = self.version
        if not typed and choice is not None and spec.api_version is None:
            spec = replace(
                spec,
                api_version=choice.version,
                version_style=choice.style,
                version_name=choice.name,
                base_path=spec.base_path or choice.base_path,
            )
        return spec

    def unprepared(self, spec: RequestSpec) -> RequestSpec:
        """``spec`` without the kept headers forgotten since (the credential is the
        session's to take off)."""
        if not self.dropped:
            return spec
        headers = tuple(
            (name, value)
            for name, value in spec.headers
            if (name.lower(), value) not in self.dropped
        )
        return replace(spec, headers=headers)


def _logs_in_at(auth: Auth, url: str) -> bool:
    """True when ``url`` is where ``auth``, a login flow, gets its token: a request there
    is a login of its own (sent again from the history, say), and goes without the
    token it is to get (a token endpoint refuses one)."""
    if not isinstance(auth, LoginFlow):
        return False
    return url.partition("#")[0].partition("?")[0] == auth.url.partition("#")[0].partition("?")[0]
