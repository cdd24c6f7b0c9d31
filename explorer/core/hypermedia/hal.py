"""HAL (draft-kelly-json-hal): ``_links``, ``_embedded`` resources, curies.

A resource's ``_links``, ``_embedded`` and ``_templates`` are read in the
order the document has them, and ``_embedded`` resources at any depth are read
where they stand, so links come out in document order.

Two shapes outside the draft are read too, because a popular server writes
them (drf-hal-json): a link given as its bare URL (``"self": "http://..."``,
``null`` for none), and ``_embedded`` as an array of resources rather than an
object of named ones; and Eve's documents: its top-level ``_items`` (the page of
resources), its ``related`` links grouped by field (``"related": {"author":
{...}}``: each a ``related`` link named by the field), and its relative hrefs,
written against the API root (the ``parent`` link titled ``home``) rather than
the page.

Curies: a compact relation such as ``rw:orders`` stays the link's ``rel`` (it
is what the document says and what a person types to follow it); its expansion
through the ``curies`` link (``/docs/rels/{rel}`` → ``http://host/docs/rels/orders``)
is kept in ``Link.attributes`` as ``("rel-uri", ...)``. Embedded resources
inherit their ancestors' curies; their own ``curies`` win.

HAL-FORMS ``_templates`` are read by :mod:`~explorer.core.hypermedia.hal_forms`.

Read through :func:`~explorer.core.hypermedia.find_links`, the reader also hands
every member it does not read itself (a resource's own data) to the generic
passes' :class:`~explorer.core.hypermedia.walk.Candidates`, so a large HAL
page is walked once rather than twice.
"""

from __future__ import annotations

from explorer.core.hypermedia.collector import (
    Collector,
    child,
    link_from,
    plain_link,
)
from explorer.core.hypermedia.hal_forms import FieldCache, add_templates
from explorer.core.hypermedia.walk import Candidates
from explorer.core.link import Link
from explorer.core.templates import TemplateError, expand_template

_MAX_DEPTH = 400
Attributes = tuple[tuple[str, str], ...]


class _Caches:
    """What one document repeats (curie expansions, HAL-FORMS properties), and where
    the members the reader does not read go (``strings``, or None)."""

    __slots__ = ("curies", "extras", "fields", "strings")

    def __init__(self, strings: Candidates | None) -> None:
        self.curies: dict[tuple[str, str], str | None] = {}
        #: Per curies mapping (by identity; the mapping is kept alive with its entry,
        #: so the identity is not reused): each relation's ``rel-uri`` attribute.
        self.extras: dict[int, tuple[dict[str, str], dict[str, Attributes]]] = {}
        self.fields = FieldCache()
        self.strings = strings


def looks_like_hal(doc: object) -> bool:
    """True when ``doc`` is an object with a HAL reserved member."""
    return isinstance(doc, dict) and ("_links" in doc or "_embedded" in doc or "_templates" in doc)


def add_hal_links(doc: object, collector: Collector, strings: Candidates | None = None) -> None:
    """Add every link, embedded link and HAL-FORMS template of a HAL document.

    With ``strings``, every member of ``doc`` that is not read here goes there (in
    document order, as :func:`~explorer.core.hypermedia.walk.url_candidates` would
    find them), so the generic passes need not walk ``doc`` again.
    """
    if not isinstance(doc, dict):
        return
    resolver = collector.resolver
    api_root = _eve_api_root(doc)
    if api_root is not None:
        collector.resolver = resolver.with_base(api_root)
    try:
        _resource(doc, "", {}, collector, _Caches(strings), 0)
    finally:
        collector.resolver = resolver
    collector.added()


def _eve_api_root(doc: dict[str, object]) -> str | None:
    """The API root Eve's relative hrefs are written against, for an Eve document.

    Eve writes ``books/5`` on the page of book 5 itself, meaning the API's
    ``/books/5``, not a path relative to the page; its documents say so with a
    ``parent`` link titled ``home`` (the API root).
    """
    links = doc.get("_links")
    parent = links.get("parent") if isinstance(links, dict) else None
    if not isinstance(parent, dict) or parent.get("title") != "home":
        return None
    href = parent.get("href")
    if not isinstance(href, str) or not href.startswith("/"):
        return None
    return href if href.endswith("/") else f"{href}/"


def _resource(
    resource: dict[str, object],
    pointer: str,
    curies: dict[str, str],
    collector: Collector,
    cache: _Caches,
    depth: int,
) -> None:
    links = resource.get("_links")
    if type(links) is dict and "curies" in links:
        curies = _curies(links["curies"], curies)
    strings = cache.strings
    for key, value in resource.items():
        if key == "_links" and type(value) is dict:
            here = f"{pointer}/_links"
            collector.claim(here)
            _links(value, here, curies, collector, cache)
        elif key == "_embedded" and depth < _MAX_DEPTH and type(value) in (dict, list):
            _embedded(value, f"{pointer}/_embedded", curies, collector, cache, depth + 1)  # type: ignore[arg-type]
        elif key == "_items" and depth == 0 and type(value) is list:  # Eve's page of items
            _resources(value, "/_items", "_items", curies, collector, cache, 1)
        elif key == "_templates" and type(value) is dict:
            here = f"{pointer}/_templates"
            collector.claim(here)
            add_templates(value, here, links, collector, cache.fields)
        elif strings is not None and type(value) in (str, dict, list):
            strings.member(pointer, key, value, key)  # (numbers, booleans, null: nothing)


def _embedded(
    value: dict[str, object] | list[object],
    base: str,
    curies: dict[str, str],
    collector: Collector,
    cache: _Caches,
    depth: int,
) -> None:
    """The resources of an ``_embedded`` object (or drf-hal-json's array of them)."""
    if type(value) is list:  # drf-hal-json: the items, unnamed
        _resources(value, base, "_embedded", curies, collector, cache, depth)
        return
    for name, embedded in value.items():  # type: ignore[union-attr]
        if type(embedded) is dict:
            _resource(embedded, child(base, name), curies, collector, cache, depth)
        elif type(embedded) is list:
            _resources(embedded, child(base, name), name, curies, collector, cache, depth)
        elif cache.strings is not None:
            cache.strings.member(base, name, embedded, name)


def _resources(
    items: list[object],
    pointer: str,
    name: str,
    curies: dict[str, str],
    collector: Collector,
    cache: _Caches,
    depth: int,
) -> None:
    """The resources of an array (``name`` is the array's key)."""
    for index, item in enumerate(items):
        if type(item) is dict:
            _resource(item, f"{pointer}/{index}", curies, collector, cache, depth)
            if not index % 64:
                collector.added()  # the bounds, now and then
        elif cache.strings is not None:
            cache.strings.member(pointer, index, item, name)


def _curies(value: object, inherited: dict[str, str]) -> dict[str, str]:
    entries = value if isinstance(value, list) else [value]
    found = {
        entry["name"]: entry["href"]
        for entry in entries
        if isinstance(entry, dict)
        and isinstance(entry.get("name"), str)
        and isinstance(entry.get("href"), str)
    }
    if not found:
        return inherited
    return {**inherited, **found}


def _expand_curie(
    rel: str, curies: dict[str, str], collector: Collector, cache: _Caches
) -> str | None:
    prefix, _, reference = rel.partition(":")
    template = curies.get(prefix)
    if template is None or reference.startswith("//"):
        return None
    key = (template, reference)
    if key in cache.curies:
        return cache.curies[key]
    try:
        expanded: str | None = collector.resolver.resolve(
            expand_template(template, {"rel": reference})
        )
    except TemplateError:
        expanded = None
    cache.curies[key] = expanded
    return expanded


def _rel_extras(curies: dict[str, str], cache: _Caches) -> dict[str, Attributes]:
    """The ``rel-uri`` attribute of each relation seen under ``curies``, filled as met."""
    entry = cache.extras.get(id(curies))
    if entry is None:
        entry = cache.extras[id(curies)] = (curies, {})
    return entry[1]


def _links(
    links: dict[str, object],
    pointer: str,
    curies: dict[str, str],
    c: Collector,
    cache: _Caches,
) -> None:
    # The hottest loop of link finding: a 10 MB HAL page holds 100,000 link objects,
    # most of them ``{"href": ...}``. The whole ``_links`` object is claimed by the
    # caller, so links are appended without claiming each.
    append = c.links.append
    resolve = c.resolver.resolve
    extras = _rel_extras(curies, cache) if curies else None
    for rel, value in links.items():
        # child() inlined: this line runs once per relation of every resource.
        here = f"{pointer}/{rel}" if "/" not in rel and "~" not in rel else child(pointer, rel)
        extra: Attributes = ()
        if extras is not None and ":" in rel:
            found = extras.get(rel)
            if found is None:
                rel_uri = _expand_curie(rel, curies, c, cache)
                found = extras[rel] = (("rel-uri", rel_uri),) if rel_uri is not None else ()
            extra = found
        if type(value) is dict and len(value) == 1:  # the common {"href": ...}
            href = value.get("href")
            if type(href) is str:
                append(plain_link(rel, resolve(href), here, extra))
                continue
        elif type(value) is list and len(value) < 4096:  # (a longer one checks the bounds)
            for index, item in enumerate(value):
                href = item.get("href") if type(item) is dict and len(item) == 1 else None
                if type(href) is str:
                    append(plain_link(rel, resolve(href), f"{here}/{index}", extra))
                elif type(item) is not list:  # (an array in the array is no link)
                    _link_value(rel, item, f"{here}/{index}", extra, c)
            continue
        _link_value(rel, value, here, extra, c)


def _link_value(rel: str, value: object, source: str, extra: Attributes, c: Collector) -> None:
    """A member of ``_links`` other than ``{"href": ...}``: a link object with more
    members, an array of link objects, drf-hal-json's bare URL (``null`` for none),
    Eve's ``related`` links grouped by field, or nothing to read."""
    if type(value) is list:
        for index, item in enumerate(value):
            if type(item) is not list:  # (an array in the array is no link)
                _link_value(rel, item, f"{source}/{index}", extra, c)
                if not index % 4096:
                    c.added()  # the bounds, now and then: an array may be long
        return
    if type(value) is str:
        if value:
            c.links.append(plain_link(rel, c.resolver.resolve(value), source, extra))
        return
    if type(value) is not dict:
        return
    href = value.get("href")
    if type(href) is str:
        if len(value) == 1:
            c.links.append(plain_link(rel, c.resolver.resolve(href), source, extra))
        else:
            c.links.append(_link(rel, value, href, source, extra, c))
    elif href is None and rel == "related":
        _named_links(value, source, c)


def _named_links(named: dict[str, object], pointer: str, c: Collector) -> None:
    """Eve's ``"related": {"author": {"href": ...}}``: one ``related`` link per field, named."""
    for name, obj in named.items():
        if type(obj) is dict and type(obj.get("href")) is str:
            link = _link("related", obj, obj["href"], child(pointer, name), (), c)
            c.links.append(link if link.name else link._replace(name=name))


#: HAL link object members that map one to one onto Link fields.
_LINK_MEMBERS = {"title": "title", "type": "media_type", "name": "name", "hreflang": "hreflang"}


def _link(
    rel: str,
    obj: dict[str, object],
    href: str,
    source: str,
    extra: Attributes,
    c: Collector,
) -> Link:
    values: dict[str, object] = {"rel": rel, "href": href, "source": source}
    attributes = extra
    templated = False
    for key, value in obj.items():
        if key == "templated":
            templated = value is True
        elif key in _LINK_MEMBERS:
            if type(value) is str:
                values[_LINK_MEMBERS[key]] = value
        elif key == "profile":
            if type(value) is str:
                attributes = (("profile", value), *attributes)
        elif key == "deprecation" and value:
            values["deprecation"] = c.resolver.resolve(value) if type(value) is str else "true"
    values["href"] = c.resolver.resolve(href, templated)
    if templated:
        values["templated"] = True
    if attributes:
        values["attributes"] = attributes
    return link_from(values)
