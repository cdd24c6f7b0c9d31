"""The items of a collection page: what ``restwalk request --follow next --all`` prints.

Each format and framework keeps a page's items in its own place; the first of
these that the document has is its list of items:

==============================  ==========================================
where                           who writes it
==============================  ==========================================
the body itself, an array       json-server, most hand-written APIs
``_embedded``: its array, or    HAL (halson, Spring), drf-hal-json
its first member's array
``results``                     Django REST Framework
``_items``                      Eve
``value``                       OData
``data`` (an array)             JSON:API, json-server 1.x
``entities``                    Siren (each sub-entity as written)
``collection.items``            Collection+JSON
``member``, ``hydra:member``    JSON-LD / Hydra
``items``                       many others (GitHub search, Google APIs)
==============================  ==========================================

None when the document is not a page of items (a single resource).
"""

from __future__ import annotations

__all__ = ["page_items"]

#: Members that hold a page's items, in the order they are looked for.
_ITEM_MEMBERS = (
    "results",
    "_items",
    "value",
    "data",
    "entities",
    "member",
    "hydra:member",
    "items",
)


def page_items(doc: object) -> list[object] | None:
    """The items of the page ``doc`` (parsed JSON), or None when it is not a page of items."""
    if isinstance(doc, list):
        return doc
    if not isinstance(doc, dict):
        return None
    embedded = doc.get("_embedded")
    if isinstance(embedded, list):
        return embedded
    if isinstance(embedded, dict):
        for value in embedded.values():
            if isinstance(value, list):
                return value
    for member in _ITEM_MEMBERS:
        value = doc.get(member)
        if isinstance(value, list):
            return value
    collection = doc.get("collection")
    if isinstance(collection, dict) and isinstance(collection.get("items"), list):
        return collection["items"]  # type: ignore[no-any-return]
    return None
