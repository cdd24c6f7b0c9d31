"""A request derived from another: its secrets keep to the origin they were given for.

A followed link, the next page, a bookmark's step, a crawl's page, a ``.http``
request whose URL a server's answer gave: each is a new request made from one the
person gave, to a URL a server chose. :func:`derive` makes it, once for every one
of them: the headers, the version and the connection's choices go on; a body,
its query pairs and its form do not. The secrets go only where they were given
for, the origin (``scheme://host:port``, RFC 6454) of the request derived from:

- the credential (Basic, Bearer, a login's token, a cookie session, the
  ``user:password@`` of the URL);
- the ``Cookie`` header;
- every header whose name is a secret's (``Authorization``, ``X-Api-Key``,
  ``Private-Token``...: :func:`explorer.core.http.secret_rules.is_secret_header`, the
  list the history's masking reads).

A step to another origin goes without them, and :attr:`Derived.note` says so in
one line (``Authorization and X-Api-Key not sent to http://b.test: given for
http://a.test only``); a step back to the origin they were given for sends them
again. Redirects follow the same rule (:mod:`explorer.core.http.redirects`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import httpx

from explorer.core.http.request import Auth, BasicAuth, CookieSession, RequestSpec
from explorer.core.http.secret_rules import is_secret_header, may_receive, withheld_note

__all__ = ["Derived", "derive", "scoped_to", "withheld_by"]


@dataclass(frozen=True)
class Derived:
    """The request a step sends, and what it went without (header names, in order)."""

    spec: RequestSpec
    #: The URL whose origin the secrets were given for.
    given_for: str
    #: What was not sent: ``Authorization``, ``Cookie``, ``X-Api-Key``...
    withheld: tuple[str, ...] = ()

    @property
    def note(self) -> str:
        """One line saying what was not sent and why (empty when nothing was left out)."""
        if not self.withheld:
            return ""
        return withheld_note(self.withheld, self.spec.url, self.given_for)


def _auth_header(auth: Auth | None) -> str:
    """The header ``auth`` is sent as."""
    return "Cookie" if isinstance(auth, CookieSession) else "Authorization"


def _userinfo(url: str) -> tuple[str, BasicAuth | None]:
    """``url`` without its ``user:password@``, and that as Basic credentials."""
    if "@" not in url:  # (no userinfo: a followed link's two asks, unparsed)
        return url, None
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, TypeError, ValueError):
        return url, None
    if not parsed.userinfo:
        return url, None
    return str(parsed.copy_with(username=None, password=None)), BasicAuth(
        parsed.username, parsed.password
    )


def withheld_by(spec: RequestSpec, target: str) -> tuple[tuple[str, ...], RequestSpec]:
    """What of ``spec``'s secrets ``target`` may not receive, and ``spec`` without them.

    Nothing is withheld when ``target`` may receive the secrets given for ``spec``'s
    origin (:func:`~explorer.core.http.secret_rules.may_receive`).
    """
    _, from_url = _userinfo(spec.url)
    auth = spec.auth or from_url
    if may_receive(spec.url, target):
        return (), spec if spec.auth is not None else replace(spec, auth=from_url)
    withheld = [_auth_header(auth)] if auth is not None else []
    kept = []
    for name, value in spec.headers:
        if not is_secret_header(name):
            kept.append((name, value))
        elif name.lower() not in (w.lower() for w in withheld):
            withheld.append(name)
    return tuple(withheld), replace(spec, auth=None, headers=tuple(kept))


def derive(source: RequestSpec, target: str, *, method: str = "GET") -> Derived:
    """The ``method`` request to ``target`` made from ``source`` (see the module docstring)."""
    withheld, scoped = withheld_by(source, target)
    spec = replace(
        scoped,
        method=method,
        url=target,
        query=(),
        body=None,
        body_file=None,
        form=(),
        content_type=None,
    )
    return Derived(spec, source.url, withheld)


def scoped_to(spec: RequestSpec, given_for: str) -> Derived:
    """``spec`` as it may go to its own URL when its secrets were given for ``given_for``'s
    origin (a ``.http`` request whose URL an earlier answer chose)."""
    withheld, scoped = withheld_by(replace(spec, url=given_for), spec.url)
    return Derived(replace(scoped, url=spec.url), given_for, withheld)
