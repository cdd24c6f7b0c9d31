"""URL fields in the body: a plain JSON page that writes its neighbours' URLs.

No hypermedia format, but members whose names say what they are. Where each
framework writes them, and under which names (each read as the IANA relation
it means, the server's name kept as the link's label):

=====================================  =========================================
where                                  who writes it
=====================================  =========================================
``next``, ``previous`` at the top      Django REST Framework
                                       (https://www.django-rest-framework.org/api-guide/pagination/),
                                       PokeAPI (https://pokeapi.co/docs/v2#resource-listspagination-section),
                                       Spotify's paging object, Django Ninja's
                                       ``CursorPagination``
``links.first/last/self/next/prev``    fastapi-pagination's ``links.Page``
                                       (https://uriyyo-fastapi-pagination.netlify.app/),
                                       Laravel's API resources
``meta.next``, ``meta.previous``       django-tastypie
                                       (https://django-tastypie.readthedocs.io/en/latest/interacting.html)
``paging.next``, ``paging.previous``   Facebook's Graph API
                                       (https://developers.facebook.com/docs/graph-api/results)
``pagination.next``...                 many hand-written APIs
=====================================  =========================================

Laravel's ``next_page_url`` and the like are URL fields by their suffix
(:mod:`~explorer.core.hypermedia.url_fields`); Azure's ``nextLink`` and
Google's ``selfLink`` are read here by their meaning. A value is read only when
it looks like a URL (absolute, or a path, or a query): a ``next`` that holds a
bare token is a cursor, not a place. ``null`` says there is no such page
(:func:`said_none`), and no reader then makes one.
"""

from __future__ import annotations

from explorer.core.hypermedia.collector import Collector, child
from explorer.core.hypermedia.link import Link
from explorer.core.hypermedia.vocabulary import PAGING_RELATIONS, STANDARD

__all__ = ["PLACES", "add_body_page_links", "said_none"]

#: Where a plain JSON body writes its paging URLs: the top, and these members.
PLACES = ((), ("links",), ("meta",), ("paging",), ("pagination",))
_RELATIONS = PAGING_RELATIONS | {"self"}


def _relation(key: str) -> str | None:
    rel = STANDARD.get(key, key)
    return rel if rel in _RELATIONS else None


def _url_field_relation(key: str) -> str | None:
    """The paging relation of a ``*_url`` field (Laravel's ``next_page_url``), or None."""
    for suffix in ("_url", "Url"):
        if key.endswith(suffix) and len(key) > len(suffix):
            return _relation(key[: -len(suffix)])
    return None


def _looks_like_a_place(value: str) -> bool:
    if not value or any(ch.isspace() for ch in value):
        return False
    return value.startswith(("http://", "https://", "/", "?", "./", "../"))


def add_body_page_links(doc: object, collector: Collector) -> None:
    """Add the paging links a plain JSON body writes (see the module docstring)."""
    if not isinstance(doc, dict):
        return
    for path in PLACES:
        holder = _holder(doc, path)
        if holder is None:
            continue
        pointer = "".join(child("", name) for name in path)
        for key, value in holder.items():
            if not isinstance(value, str) or not isinstance(key, str):
                continue
            rel = _relation(key)
            if rel is None:
                continue
            href = value.strip()
            if not _looks_like_a_place(href):
                continue
            collector.add(
                Link(
                    rel=rel,
                    href=collector.resolver.resolve(href),
                    source=child(pointer, key),
                    label=key if key != rel else None,
                )
            )


def said_none(doc: object) -> frozenset[str]:
    """The paging relations a plain JSON body says it has none of (``"next": null``)."""
    if not isinstance(doc, dict):
        return frozenset()
    found = set()
    for path in PLACES:
        holder = _holder(doc, path)
        if holder is not None:
            for key, value in holder.items():
                if value is None and isinstance(key, str):
                    rel = _relation(key) or _url_field_relation(key)
                    if rel in PAGING_RELATIONS:
                        found.add(rel)
    return frozenset(found)


def _holder(doc: dict[str, object], path: tuple[str, ...]) -> dict[str, object] | None:
    holder: object = doc
    for name in path:
        holder = holder.get(name) if isinstance(holder, dict) else None
    return holder if isinstance(holder, dict) else None
