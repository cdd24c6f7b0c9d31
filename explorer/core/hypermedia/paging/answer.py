"""What the paging readers read of one answer, and how they write the URL of another page.

A reader that makes a link (from a page number, an offset, a cursor) writes the
request's own URL with one or two query parameters set: the other parameters
stay exactly as the request wrote them (their order, their percent-encoding), a
parameter it already had takes its new value where it stood, and a new one goes
at the end. The fragment is dropped (a server never sees it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import NamedTuple
from urllib.parse import quote, unquote_plus, urlsplit, urlunsplit

from explorer.core.hypermedia.link import Link

__all__ = ["Answer", "Made", "number", "text"]


class Made(NamedTuple):
    """A page link a reader made: its relation, URL, where it came from (a JSON Pointer
    or ``header:NAME``) and what it was made from, in words that follow "made from"."""

    rel: str
    href: str
    source: str
    made_from: str

    def link(self) -> Link:
        """The :class:`Link` of it, marked as made."""
        return Link(rel=self.rel, href=self.href, source=self.source, made_from=self.made_from)


class Answer(NamedTuple):
    """One answer as the paging readers see it: the request URL, the response headers
    (names lower-cased, the first field of each), and the body's JSON (None when the
    body is not JSON)."""

    url: str
    headers: Mapping[str, str] = MappingProxyType({})
    doc: object = None

    @classmethod
    def of(cls, url: str, headers: Sequence[tuple[str, str]], doc: object) -> Answer:
        """The answer to ``url`` with ``headers`` in wire order and ``doc``."""
        first: dict[str, str] = {}
        for name, value in headers:
            first.setdefault(name.lower(), value)
        return cls(url, first, doc)

    @property
    def body(self) -> dict[str, object]:
        """The body's top-level object ({} when the body is no JSON object)."""
        return self.doc if isinstance(self.doc, dict) else {}

    def member(self, *path: str) -> object:
        """The body's member at ``path`` (``member("meta", "next_token")``), or None."""
        value: object = self.doc
        for name in path:
            if not isinstance(value, dict):
                return None
            value = value.get(name)
        return value

    def query(self) -> list[tuple[str, str]]:
        """The request's query parameters, decoded, in order."""
        pairs = []
        for part in _query_parts(self.url):
            name, _, value = part.partition("=")
            pairs.append((unquote_plus(name), unquote_plus(value)))
        return pairs

    def parameter(self, *names: str) -> str | None:
        """The first of ``names`` that the request's query has (as written), or None."""
        present = {name for name, _ in self.query()}
        return next((name for name in names if name in present), None)

    def value(self, name: str) -> str | None:
        """The value of the request's query parameter ``name``, or None."""
        return next((value for key, value in self.query() if key == name), None)

    def with_query(self, **values: str) -> str:
        """The request URL with each of ``values`` set as a query parameter (see the
        module docstring): ``with_query(page="3")``."""
        try:
            parts = urlsplit(self.url)
        except ValueError:
            return self.url
        wanted = dict(values)
        out = []
        for part in _query_parts(self.url):
            name = unquote_plus(part.partition("=")[0])
            if name in wanted:
                out.append(f"{part.partition('=')[0]}={quote(wanted.pop(name), safe='')}")
            else:
                out.append(part)
        out += [f"{quote(name, safe='')}={quote(value, safe='')}" for name, value in wanted.items()]
        return urlunsplit((parts.scheme, parts.netloc, parts.path, "&".join(out), ""))


def _query_parts(url: str) -> list[str]:
    query = url.partition("#")[0].partition("?")[2]
    return [part for part in query.split("&") if part]


def number(value: object) -> int | None:
    """``value`` as a whole number (JSON ``3``, or ``"3"`` as headers and some bodies
    write it), or None; never a boolean, never negative."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value >= 0 else None
    if isinstance(value, str):
        digits = value.strip()
        if digits.isascii() and digits.isdigit() and len(digits) < 20:
            return int(digits)
    return None


def text(value: object) -> str | None:
    """``value`` if it is a non-empty string (a cursor, a token), else None."""
    return value if isinstance(value, str) and value.strip() else None
