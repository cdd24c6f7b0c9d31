"""Resolving hrefs against a base URL, URI templates included.

Plain references follow RFC 3986 section 5 through :func:`urllib.parse.urljoin`,
with two fast paths for the common shapes (an absolute ``http(s)`` URL, a
root-relative path) and a small cache, because one large document repeats the
same base thousands of times. What comes out holds no character a terminal would
obey: an href's control characters are taken out or percent-encoded as a browser
does (:func:`~explorer.core.hypermedia.href_cleaning.clean_href`).

A URI template (RFC 6570) cannot be resolved as a whole: its ``{...}``
expressions are not URI characters and their expansion may add path segments,
a query or a fragment. The rule used here:

* the literal prefix (everything before the first ``{``) is resolved, and the
  rest is appended unchanged: ``/customers{?name}`` on ``http://h/x`` gives
  ``http://h/customers{?name}``; ``orders/{id}`` gives ``http://h/orders/{id}``;
* a template that starts with an expression is resolved only when the operator
  tells where its expansion lands: ``{?...}`` and ``{&...}`` replace the query
  (base without query and fragment), ``{#...}`` replaces the fragment (base
  without fragment), ``{/...}`` starts a path (the base's origin); any other
  leading expression (``{var}``, ``{+var}``, ``{.var}``, ``{;var}``) may expand
  to anything, so the template is kept exactly as written.
"""

from __future__ import annotations

from urllib.parse import urljoin, urlsplit, urlunsplit

from explorer.core.hypermedia.href_cleaning import clean_href

_CACHE_LIMIT = 4096


class Resolver:
    """Resolves references against one base URL, caching repeated answers."""

    __slots__ = ("_cache", "base", "origin")

    def __init__(self, base: str) -> None:
        self.base = base
        self._cache: dict[str, str] = {}
        try:
            parts = urlsplit(base)
        except ValueError:
            parts = urlsplit("")
        #: ``scheme://authority`` of the base, or "" when it has none: a root-relative
        #: path with nothing to normalise resolves to this plus itself (see
        #: :meth:`resolve`).
        self.origin = f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else ""

    def with_base(self, href: str) -> Resolver:
        """A resolver whose base is ``href`` resolved against this one."""
        return Resolver(self.resolve(href))

    def resolve(self, href: str, templated: bool = False) -> str:
        """``href`` made absolute; templates per the module's rule."""
        if templated and "{" in href:
            return clean_href(self._resolve_template(href))
        # The commonest shape, a root-relative path with nothing to normalise (no dot
        # segment, no backslash, no trailing space: urljoin would change those; no
        # control character, which isprintable() rules out with every other white
        # space) is joined here: cheaper than the cache, which one-off paths would
        # fill. Indexed rather than sliced (a slice makes a new object): the HAL
        # reader calls this once per link.
        origin = self.origin
        if (
            origin
            and len(href) > 1
            and href[0] == "/"
            and href[1] != "/"
            and "/." not in href
            and "\\" not in href
            and href[-1] != " "
            and href.isprintable()
        ):
            return origin + href
        cached = self._cache.get(href)
        if cached is not None:
            return cached
        result = clean_href(self._join(href))
        if len(self._cache) < _CACHE_LIMIT:
            self._cache[href] = result
        return result

    def _join(self, href: str) -> str:
        href = href.strip()
        if not href:  # RFC 3986 5.2.2: the base itself, without its fragment
            return self.base.split("#", 1)[0]
        if "/." not in href and "\\" not in href:
            if href.startswith(("http://", "https://")):
                return href
            if self.origin and href.startswith("/") and not href.startswith("//"):
                return self.origin + href
        try:
            return urljoin(self.base, href)
        except ValueError:
            return href

    def _resolve_template(self, href: str) -> str:
        brace = href.index("{")
        prefix, rest = href[:brace], href[brace:]
        if prefix:
            if has_scheme(prefix):
                return href
            joined = self._join(prefix)
            if prefix[-1] in "?#" and not joined.endswith(prefix[-1]):
                joined += prefix[-1]
            return joined + rest
        operator = rest[1:2]
        if operator in ("?", "&"):
            return _without(self.base, query=True) + rest
        if operator == "#":
            return _without(self.base, query=False) + rest
        if operator == "/" and self.origin:
            return self.origin + rest
        return href


def has_scheme(reference: str) -> bool:
    """True when ``reference`` starts with a URI scheme (it is already absolute)."""
    colon = reference.find(":")
    if colon <= 0:
        return False
    scheme = reference[:colon]
    return scheme[0].isalpha() and all(c.isalnum() or c in "+-." for c in scheme)


def _without(base: str, query: bool) -> str:
    try:
        parts = urlsplit(base)
    except ValueError:
        return base
    return urlunsplit((parts.scheme, parts.netloc, parts.path, "" if query else parts.query, ""))
