"""The items of a collection page: what ``--follow next --all``, ``+`` and ``|`` read.

Each format and framework keeps a page's items in its own place; the first of
these that the document has is its list of items:

==============================  ==================================================
where                           who writes it
==============================  ==================================================
the body itself, an array       json-server, flask-smorest, most hand-written APIs
``_embedded``: its array, or    HAL (halson, Spring), drf-hal-json
its first member's array
``results``                     Django REST Framework, PokeAPI, Django Ninja's
                                cursor pages
``_items``                      Eve
``value``                       OData, Azure
``data`` (an array)             JSON:API, json-server 1.x, Laravel, Stripe, Twitter
``objects``                     django-tastypie
``records``, ``entries``        Airtable, and many hand-written APIs
``entities``                    Siren (each sub-entity as written)
``member``, ``hydra:member``    JSON-LD / Hydra
``items``                       fastapi-pagination, Django Ninja, Litestar,
                                Spotify, Google APIs, GitHub search
``collection.items``            Collection+JSON
==============================  ==================================================

Failing those, a page that says it is one of a series (a ``next``, a page token, a
cursor, ``has_more``, a total... or, for a walk, its place in one: Shopify pages in
its ``Link`` header alone) and holds one array of objects has that array as its
items: Slack's ``channels``, Google Drive's ``files``, Shopify's ``products``,
Spring Data's ``content``. None when the document is not a page of items (a
single resource).
"""

from __future__ import annotations

from explorer.core.hypermedia.collector import child

__all__ = ["ITEM_LISTS", "page_items", "page_items_at"]

#: Top-level members that hold a page's items, in the order they are looked for.
ITEM_LISTS = (
    "results",
    "_items",
    "value",
    "data",
    "objects",
    "records",
    "entries",
    "entities",
    "member",
    "hydra:member",
    "items",
)

#: Members that say a document is one page of a series (for a list under another name).
_PAGING_SIGNS = frozenset(
    {
        "next",
        "previous",
        "prev",
        "nextPageToken",
        "next_page_token",
        "response_metadata",
        "has_more",
        "hasMore",
        "cursor",
        "next_cursor",
        "total",
        "count",
        "total_count",
        "totalCount",
        "totalElements",
        "totalPages",
        "total_pages",
        "pageable",
        "page",
        "offset",
        "paging",
        "pagination",
        "meta",
        "links",
    }
)


def page_items(doc: object, *, in_series: bool = False) -> list[object] | None:
    """The items of the page ``doc`` (parsed JSON), or None when it is not a page of items.
    ``in_series``: the page is known to be one of a series (a walk reached it, or its
    headers page it), so one array of objects is its items whatever the body says."""
    found = page_items_at(doc, in_series=in_series)
    return found[1] if found is not None else None


def page_items_at(doc: object, *, in_series: bool = False) -> tuple[str, list[object]] | None:
    """The items of the page ``doc`` and the JSON Pointer to their array (``""`` for a
    body that is one, ``/results``, ``/_embedded/orders``...), or None."""
    if isinstance(doc, list):
        return "", doc
    if not isinstance(doc, dict):
        return None
    embedded = doc.get("_embedded")
    if isinstance(embedded, list):
        return "/_embedded", embedded
    if isinstance(embedded, dict):
        for name, value in embedded.items():
            if isinstance(value, list):
                return child("/_embedded", name), value
    for member in ITEM_LISTS:
        value = doc.get(member)
        if isinstance(value, list):
            return f"/{member}", value
    collection = doc.get("collection")
    if isinstance(collection, dict) and isinstance(collection.get("items"), list):
        return "/collection/items", collection["items"]
    return _lone_list(doc, in_series)


def _lone_list(doc: dict[str, object], in_series: bool) -> tuple[str, list[object]] | None:
    """The one array of objects of a page of a series, if it has one."""
    if not in_series and _PAGING_SIGNS.isdisjoint(doc):
        return None
    lists = [
        (name, value)
        for name, value in doc.items()
        if isinstance(value, list) and value and isinstance(value[0], dict)
    ]
    if len(lists) != 1:
        return None
    name, value = lists[0]
    return child("", name), value
