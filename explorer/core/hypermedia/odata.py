"""OData JSON format (OData 4.0/4.01, and the ``odata.`` form of older services).

Control information is a member named ``@odata.<name>`` (or ``odata.<name>``),
either on an object or on a property as ``Orders@odata.navigationLink``.
Relations:

========================  =============================================
annotation                relation
========================  =============================================
``nextLink``              ``next``
``deltaLink``             ``delta``
``id``                    ``self``
``editLink``              ``edit``
``readLink``              ``read``
``context``               ``context`` (the metadata URL)
``mediaReadLink``         ``media``
``mediaEditLink``         ``edit-media``
``P@odata.navigationLink``  ``P`` (the navigation property)
``P@odata.associationLink`` ``P/$ref`` (the reference to it)
========================  =============================================

A service document (the service root's answer: a context URL ending in
``$metadata``, and a ``value`` array of ``{"name", "kind", "url"}``) lists the
entity sets, singletons and function imports: each is a link whose relation is
its name (``Books``), titled by its ``title`` when it has one.

Relative URLs in a payload are relative to the context URL of their object, or
of the nearest enclosing object that has one (OData JSON format, section 4.6),
and that context URL to the request URL. Objects are read at any depth
(expanded navigation properties, ``value`` arrays), in document order.
"""

from __future__ import annotations

from collections.abc import Iterator

from explorer.core.hypermedia.collector import Collector, child
from explorer.core.hypermedia.link import Link
from explorer.core.hypermedia.resolve import Resolver

_RELATIONS: dict[str, str] = {
    "nextLink": "next",
    "deltaLink": "delta",
    "id": "self",
    "editLink": "edit",
    "readLink": "read",
    "context": "context",
    "mediaReadLink": "media",
    "mediaEditLink": "edit-media",
}


def looks_like_odata(doc: object) -> bool:
    """True when the top object has an ``@odata.`` (or ``odata.``) member."""
    return isinstance(doc, dict) and any(
        key.startswith(("@odata.", "odata.")) for key in doc if isinstance(key, str)
    )


def _annotation(key: str) -> tuple[str, str] | None:
    """``(property, name)`` for an OData link annotation key, else None."""
    at = key.find("odata.")
    if at < 0:
        return None
    if at == 0:
        prop = ""
    elif key[at - 1] == "@":
        prop = key[: at - 1]
    else:
        return None
    name = key[at + 6 :]
    if prop:
        if name == "navigationLink":
            return prop, prop
        if name == "associationLink":
            return prop, f"{prop}/$ref"
        return None
    relation = _RELATIONS.get(name)
    return (prop, relation) if relation else None


def add_odata_links(doc: object, collector: Collector) -> None:
    """Add the link annotations of every object, resolved against their context URLs,
    and the entity sets of a service document."""
    if not isinstance(doc, (dict, list)):
        return
    if isinstance(doc, dict):
        _service_document(doc, collector)
    stack: list[tuple[Iterator[tuple[str | int, object]], str, Resolver]] = []
    _enter(doc, "", collector.resolver, stack)
    while stack:
        members, pointer, resolver = stack[-1]
        for key, value in members:
            if isinstance(value, str):
                if isinstance(key, str) and "odata." in key and value:
                    found = _annotation(key)
                    if found is not None:
                        collector.add(
                            Link(
                                rel=found[1],
                                href=resolver.resolve(value),
                                source=child(pointer, key),
                            )
                        )
            elif isinstance(value, (dict, list)):
                _enter(value, child(pointer, key), resolver, stack)
                break
        else:
            stack.pop()


def _service_document(doc: dict[str, object], collector: Collector) -> None:
    context = doc.get("@odata.context", doc.get("odata.context"))
    entries = doc.get("value")
    if not isinstance(context, str) or not isinstance(entries, list):
        return
    if not context.split("?", 1)[0].endswith("$metadata"):
        return  # a context with a fragment describes a payload, not the service
    resolver = collector.resolver.with_base(context)
    for index, entry in enumerate(entries):
        if not isinstance(entry, dict):
            continue
        name, url = entry.get("name"), entry.get("url")
        if not isinstance(name, str) or not name or not isinstance(url, str) or not url:
            continue
        title = entry.get("title")
        collector.add(
            Link(
                rel=name,
                href=resolver.resolve(url),
                title=title if isinstance(title, str) and title else None,
                source=f"/value/{index}/url",
            )
        )


def _enter(
    value: dict[str, object] | list[object],
    pointer: str,
    resolver: Resolver,
    stack: list[tuple[Iterator[tuple[str | int, object]], str, Resolver]],
) -> None:
    if isinstance(value, list):
        stack.append((enumerate(value), pointer, resolver))
        return
    context = value.get("@odata.context", value.get("odata.context"))
    if isinstance(context, str) and context:
        resolver = resolver.with_base(context)
    stack.append((iter(value.items()), pointer, resolver))
