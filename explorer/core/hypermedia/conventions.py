"""Item links a collection's convention implies where its body spells none out.

JSON APIs without hypermedia (json-server's, Django Ninja's, Litestar's,
flask-smorest's, and many written by hand) follow a convention a person using
one relies on: the objects of a page (:func:`~explorer.core.hypermedia.items.page_items_at`)
that carry an ``id`` and no URL of their own live at the collection's path plus
``/{id}`` (``/books?_page=2`` → ``/books/11``).

Each such link is a guess (``guess=True``): the body does not say it, the
convention does, and ``made_from`` says so ("the id 11 of an item of /books").
It is made only where the convention holds: from a collection that is not itself
nested under a member (json-server's ``/authors/3/books`` lists books whose URLs
are ``/books/{id}``; ``/authors/3/books/8`` is a 404) nor named like a method or
a file (Slack's ``/api/conversations.list``, Shopify's ``/products.json``), and for
ids one would type in a path. Nothing is guessed for a body with links of its own besides its
paging (``next``, ``self``...): it says where things are.
"""

from __future__ import annotations

import re
from urllib.parse import quote, urlsplit

from explorer.core.hypermedia.collector import Collector
from explorer.core.hypermedia.items import page_items_at
from explorer.core.hypermedia.link import Link
from explorer.core.hypermedia.vocabulary import PAGING_RELATIONS
from explorer.core.text.lazy_pattern import LazyPattern

__all__ = ["add_convention_links", "nested_under_member"]

#: Members that give an object a URL of its own: then it needs no conventional one.
_OWN_URL = ("url", "href", "_links", "links", "@odata.id", "@id", "self", "resource_uri")
#: Item ids longer than this are not path segments anyone would type.
_MAX_ID = 200
#: A path segment that names one member: a number, a UUID, a MongoDB ObjectId.
_MEMBER_SEGMENT = LazyPattern(
    r"\d+|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{24}",
    re.IGNORECASE,
)


def _names_a_collection(path: str) -> bool:
    """False for a path whose last segment is a method or a file (Slack's
    ``/api/conversations.list``, Shopify's ``/products.json``): no item lives under it."""
    return "." not in path.rstrip("/").rpartition("/")[2]


def nested_under_member(path: str) -> bool:
    """True when the collection at ``path`` sits under one member of another
    (``/authors/3/books``: its items' own URLs are not ``/authors/3/books/{id}``)."""
    segments = [segment for segment in path.split("/") if segment]
    return any(_MEMBER_SEGMENT.fullmatch(segment) for segment in segments[:-1])


def _names_a_place(link: Link) -> bool:
    """True for a link of the body other than its paging (``next``, ``self``...)."""
    if link.source.startswith("header:"):
        return False
    return link.rel not in PAGING_RELATIONS and link.rel != "self"


def add_convention_links(doc: object, collector: Collector) -> None:
    """Add the item links the convention implies (see the module docstring)."""
    links = collector.links
    if any(map(_names_a_place, links.recorded())) or any(
        rel != "self" and rel not in PAGING_RELATIONS for rel in links.skipped
    ):  # (a link only counted, a bounded search's, names a place unless paging)
        return  # the body has links of its own: it says where things are
    try:
        parts = urlsplit(collector.resolver.base)
    except ValueError:
        return
    if not parts.scheme or not parts.netloc:
        return
    if nested_under_member(parts.path) or not _names_a_collection(parts.path):
        return
    found = page_items_at(doc)
    if found is None:
        return
    pointer, items = found
    collection = collector.resolver.resolve(parts.path.rstrip("/") or "/").rstrip("/")
    shown = parts.path.rstrip("/") or "/"
    for index, item in enumerate(items):
        if not isinstance(item, dict) or any(key in item for key in _OWN_URL):
            continue
        ident = item.get("id")
        if isinstance(ident, bool) or not isinstance(ident, (str, int)):
            continue
        segment = str(ident)
        if not segment or len(segment) > _MAX_ID:
            continue
        collector.add(
            Link(
                rel="item",
                href=f"{collection}/{quote(segment, safe='')}",
                source=f"{pointer}/{index}/id",
                guess=True,
                made_from=f"the id {segment} of an item of {shown}",
            ),
            claim=False,
        )
