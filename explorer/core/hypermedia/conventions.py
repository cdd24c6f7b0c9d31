"""Links a collection's conventions imply where its body spells none out.

JSON APIs without hypermedia (json-server's, and many written by hand) still
follow two conventions that a person using one relies on:

* **items**: the objects of a page, a body that is an array or the array under
  ``data``, that carry an ``id`` and no URL of their own live at the
  collection's path plus ``/{id}`` (``/books?_page=2`` → ``/books/11``);
* **page numbers**: a body whose ``first``, ``prev``, ``next`` and ``last`` are
  integers (json-server 1.x: ``{"first": 1, "next": 3, ...}``) names pages by
  the number that the request's ``_page`` or ``page`` query parameter carries.

Each such link is a guess (``guess=True``, so shown as one): the body does not
say it, the convention does; its attributes hold :data:`CONVENTION`, which tells
it from a URL string the body did write. An ``id`` found, item link; a page number found,
the request URL with that parameter set to it.
"""

from __future__ import annotations

from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

from explorer.core.hypermedia.collector import Collector
from explorer.core.hypermedia.link import Link

#: The attribute of a link made by a convention, not written in the body.
CONVENTION = ("convention", "restwalk")
#: Members that give an object a URL of its own: then it needs no conventional one.
_OWN_URL = ("url", "href", "_links", "links", "@odata.id", "@id", "self")
#: Body members that number pages, and the relation each gives.
_PAGE_NUMBERS = {"first": "first", "prev": "prev", "next": "next", "last": "last"}
_PAGE_PARAMETERS = ("_page", "page")
#: Item ids longer than this are not path segments anyone would type.
_MAX_ID = 200


def add_convention_links(doc: object, collector: Collector) -> None:
    """Add the item and page links the conventions imply (see the module docstring)."""
    if collector.links and any(not link.source.startswith("header:") for link in collector.links):
        return  # the body has links of its own: it says where things are
    base = collector.resolver.base
    try:
        parts = urlsplit(base)
    except ValueError:
        return
    if not parts.scheme or not parts.netloc:
        return
    if isinstance(doc, list):
        _items(doc, "", parts.path, collector)
    elif isinstance(doc, dict) and isinstance(doc.get("data"), list):
        _items(doc["data"], "/data", parts.path, collector)
        _pages(doc, parts.query, collector)


def _items(items: list[object], pointer: str, path: str, c: Collector) -> None:
    collection = c.resolver.resolve(path.rstrip("/") or "/")
    if collection.endswith("/"):
        collection = collection[:-1]
    for index, item in enumerate(items):
        if not isinstance(item, dict) or any(key in item for key in _OWN_URL):
            continue
        ident = item.get("id")
        if isinstance(ident, bool) or not isinstance(ident, (str, int)):
            continue
        segment = str(ident)
        if not segment or len(segment) > _MAX_ID:
            continue
        c.add(
            Link(
                rel="item",
                href=f"{collection}/{quote(segment, safe='')}",
                source=f"{pointer}/{index}/id",
                guess=True,
                attributes=(CONVENTION,),
            ),
            claim=False,
        )


def _pages(doc: dict[str, object], query: str, c: Collector) -> None:
    pairs = parse_qsl(query, keep_blank_values=True)
    names = {name for name, _ in pairs}
    parameter = next((name for name in _PAGE_PARAMETERS if name in names), None)
    if parameter is None:
        return
    base = urlsplit(c.resolver.base)
    for member, rel in _PAGE_NUMBERS.items():
        number = doc.get(member)
        if isinstance(number, bool) or not isinstance(number, int) or number < 1:
            continue
        new_query = urlencode(
            [(name, str(number) if name == parameter else value) for name, value in pairs]
        )
        c.add(
            Link(
                rel=rel,
                href=urlunsplit((base.scheme, base.netloc, base.path, new_query, "")),
                source=f"/{member}",
                guess=True,
                attributes=(CONVENTION,),
            ),
            claim=False,
        )
