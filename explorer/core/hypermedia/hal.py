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

A 10 MB collection page holds some 12,000 resources and 100,000 links, and
what a page repeats is worked out once: each relation name's pointer token and
``rel-uri`` (per curies mapping), and, in the HAL-FORMS reader, each distinct
``properties`` array's form fields. The loops over ``_links`` and over a
resource's members are written for the shapes nearly every link and member has,
without a call per link (see the comments there).
"""

from __future__ import annotations

from typing import Any

from explorer.core.hypermedia.collector import Collector, child, new_tuple, plain_link
from explorer.core.hypermedia.embedded import is_embedded_source
from explorer.core.hypermedia.found import NOT_KEPT, Deferred
from explorer.core.hypermedia.hal_forms import add_templates
from explorer.core.hypermedia.hal_relations import (
    Attributes,
    ReadCaches,
    read_curies,
    read_relation,
    relations_under,
)
from explorer.core.hypermedia.link import Link
from explorer.core.hypermedia.resolve import Resolver
from explorer.core.hypermedia.walk import URL_STARTS, Candidates, may_hold_candidates

_MAX_DEPTH = 400
#: ``/0`` to ``/63``, the pointer tokens of an array's first items, made once (an
#: f-string would format the number anew for every link of every array).
_INDEX_TOKENS = tuple(f"/{index}" for index in range(64))


def looks_like_hal(doc: object) -> bool:
    """True when ``doc`` is an object with a HAL reserved member."""
    return isinstance(doc, dict) and ("_links" in doc or "_embedded" in doc or "_templates" in doc)


def add_hal_links(
    doc: object, collector: Collector, strings: Candidates | None = None, *, consume: bool = False
) -> None:
    """Add every link, embedded link and HAL-FORMS template of a HAL document.

    With ``strings``, every member of ``doc`` that is not read here goes there (in
    document order, as :func:`~explorer.core.hypermedia.walk.url_candidates` would
    find them), so the generic passes need not walk ``doc`` again. Without it, each
    ``_links`` and ``_templates`` object is claimed (see
    :class:`~explorer.core.hypermedia.collector.Collector`) for their walk to skip.

    With ``consume``, for a caller that owns ``doc`` and reads it no further, each
    resource of an ``_embedded`` (or Eve ``_items``) array is replaced by None in
    its array once read. Its objects are then freed at once, and the links made
    next take their memory: on a 10 MB page the search touches a third fewer new
    pages, and holds the document and its links at once no longer.
    """
    if not isinstance(doc, dict):
        return
    resolver = collector.resolver
    api_root = _eve_api_root(doc)
    if api_root is not None:
        collector.resolver = resolver.with_base(api_root)
    try:
        _resource(doc, "", {}, collector, ReadCaches(strings, consume), 0, False)
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
    resource: dict[str, Any],
    pointer: str,
    curies: dict[str, str],
    collector: Collector,
    cache: ReadCaches,
    depth: int,
    inner: bool,
) -> None:
    """A resource's links; ``inner``: they fall in a run of embedded links (see
    :meth:`~explorer.core.hypermedia.found.FoundLinks.mark_embedded`)."""
    links = resource.get("_links")
    if type(links) is dict and "curies" in links:
        curies = read_curies(links["curies"], curies)
    strings = cache.strings
    own: str | None = None  # the resource's self link's href (HAL-FORMS' default target)
    # Dispatched on the member's type first: HAL reads its reserved members only as
    # objects or arrays, so a string always goes to the generic passes, tested here
    # as Candidates.member() would (a page has tens of thousands of them); a
    # number, a boolean or null holds nothing to find.
    for key, value in resource.items():
        kind = type(value)
        if kind is str:
            if strings is not None:
                if value and value[0] in URL_STARTS:  # (startswith parses a tuple of args)
                    strings.hits.append((pointer, key, value, key))
                else:
                    named = strings.url_keys.get(key)
                    if named is None:
                        named = strings.names_url(key)
                    if named:
                        strings.hits.append((pointer, key, value, key))
        elif kind is dict:
            # (claimed for the generic passes' own walk; with ``strings`` there is none)
            if key == "_links":
                here = pointer + "/_links"
                if strings is None:
                    collector.claimed.add(here)
                own = _links(value, here, curies, collector, cache, inner)
            elif key == "_templates":
                here = pointer + "/_templates"
                if strings is None:
                    collector.claimed.add(here)
                add_templates(value, here, links, collector, cache.fields, own, inner)
            elif key == "_embedded" and depth < _MAX_DEPTH:
                _embedded(value, f"{pointer}/_embedded", curies, collector, cache, depth + 1)
            elif strings is not None and may_hold_candidates(value):
                strings.container(pointer, key, value, key)
        elif kind is list:
            if key == "_embedded" and depth < _MAX_DEPTH:  # drf-hal-json: the items, unnamed
                here = f"{pointer}/_embedded"
                _resources(value, here, key, curies, collector, cache, depth + 1, inner)
            elif key == "_items" and depth == 0:  # Eve's page of items
                _resources(value, "/_items", key, curies, collector, cache, 1, inner)
            elif strings is not None and may_hold_candidates(value):
                strings.container(pointer, key, value, key)


def _embedded(
    value: dict[str, Any],
    base: str,
    curies: dict[str, str],
    collector: Collector,
    cache: ReadCaches,
    depth: int,
) -> None:
    """The resources of an ``_embedded`` object."""
    start = len(collector.links)
    try:
        for name, embedded in value.items():
            if type(embedded) is dict:
                _resource(embedded, child(base, name), curies, collector, cache, depth, True)
            elif type(embedded) is list:
                here = child(base, name)
                _resources(embedded, here, name, curies, collector, cache, depth, True)
            elif cache.strings is not None:
                cache.strings.member(base, name, embedded, name)
    finally:
        collector.links.mark_embedded(start)  # (every source here has "/_embedded/")


def _resources(
    items: list[Any],
    pointer: str,
    name: str,
    curies: dict[str, str],
    collector: Collector,
    cache: ReadCaches,
    depth: int,
    inner: bool,
) -> None:
    """The resources of an array (``name`` is the array's key)."""
    consume = cache.consume
    start = len(collector.links)
    # (whether an item's links are embedded ones does not hang on its index)
    embedded = is_embedded_source(f"{pointer}/0/")
    inner = inner or embedded
    try:
        for index, item in enumerate(items):
            if type(item) is dict:
                _resource(item, f"{pointer}/{index}", curies, collector, cache, depth, inner)
                if consume:
                    items[index] = None
                if not index % 64:
                    collector.added()  # the bounds, now and then
            elif cache.strings is not None:
                cache.strings.member(pointer, index, item, name)
    finally:
        if embedded:
            collector.links.mark_embedded(start)


def _links(
    links: dict[str, Any],
    pointer: str,
    curies: dict[str, str],
    c: Collector,
    cache: ReadCaches,
    inner: bool,
) -> str | None:
    """The links of a ``_links`` object; returns its ``self`` link's href as written, when
    that link is a plain ``{"href": ...}`` and no template (None otherwise). ``inner``:
    they fall in a run of embedded links, whose links but ``self`` ones are recorded
    while there is room (:attr:`~explorer.core.hypermedia.found.FoundLinks.room`), and
    only counted past it."""
    # The hottest loop of link finding: a 10 MB HAL page holds 100,000 link objects,
    # nearly all ``{"href": "/a/root/relative/path"}``. Such a link, and one with more
    # members, is deferred (see :mod:`~explorer.core.hypermedia.found`): what it is
    # made from is kept in one small tuple, and the Link (its href resolved by the one
    # rule, Resolver.resolve(), and built positionally: LINK_FIELDS) is made only if it
    # is read; a page's reader keeps a tenth of them (a search whose every link is read,
    # ``c.eager``, builds each at once), and a search bounded for it records no more of
    # them than it may keep: the rest are counted, each the shared entry NOT_KEPT.
    # Links are appended unclaimed: the caller claims the whole ``_links`` object if
    # need be.
    found = c.links
    entries = found.entries
    append = entries.append
    add_self = found.selfs.append  # (where each self link is, for the session's order)
    resolver = c.resolver
    eager = c.eager
    last = cache.last
    relations = last[1] if last[0] is curies else relations_under(curies, cache)
    own = None
    room = found.room
    skipped = found.skipped
    for key, value in links.items():
        try:
            relation = relations[key]
        except KeyError:
            relation = relations[key] = read_relation(key, curies, c, cache)
        if type(value) is dict:
            try:  # (a subscript, which the interpreter specialises, beats a .get() call)
                href = value["href"]
            except KeyError:
                href = None
            if type(href) is str:
                rel = relation[2]
                if rel == "self":
                    add_self(len(entries))
                    if "{" not in href and len(value) == 1:
                        own = href
                elif inner:
                    if room:
                        room -= 1
                    else:
                        append(NOT_KEPT)
                        if rel not in skipped:  # (a look: a call costs more)
                            skipped.add(rel)
                        continue
                if len(value) == 1:
                    if eager:  # (every link read: built now, as _build_plain would)
                        token, extra, _, label = relation
                        # fmt: off
                        append(new_tuple(Link, (rel, resolver.resolve(href), "GET", None, None,
                                                False, None, pointer + token, (), None, None,
                                                False, None, None, extra, label, None, ())))
                        # fmt: on
                    else:
                        append((rel, _build_plain, None, pointer, relation, resolver, href))
                    continue
                if eager:
                    token, extra, _, label = relation
                    append(_link(rel, label, value, href, pointer + token, extra, resolver))
                else:
                    name = value.get("name")
                    name = name if type(name) is str else None
                    append((rel, _build_link, name, pointer, relation, resolver, href, value))
                continue
        elif value is None:
            continue
        # (an array of links, a bare URL, no link: every one appended is a ``rel`` one)
        token, extra, rel, label = relation
        at = len(entries)
        if type(value) is list:
            found.room = room
            _link_array(rel, label, value, pointer + token, extra, c, inner)
            room = found.room
        else:
            _link_value(rel, label, value, pointer + token, extra, c)
        if rel == "self":
            found.selfs.extend(range(at, len(entries)))
    found.room = room
    return own


def _build_plain(entry: Deferred) -> Link:
    """The Link of a deferred ``{"href": ...}`` (see :func:`_links`)."""
    _, _, _, pointer, (token, extra, rel, label), resolver, href = entry
    # fmt: off
    return new_tuple(Link, (rel, resolver.resolve(href), "GET", None, None, False, None,
                            pointer + token, (), None, None, False, None, None, extra,
                            label, None, ()))
    # fmt: on


def _build_item(entry: Deferred) -> Link:
    """The Link of a deferred ``{"href": ...}`` in an array (see :func:`_link_array`)."""
    rel, _, _, here, token, resolver, href, extra, label = entry
    # fmt: off
    return new_tuple(Link, (rel, resolver.resolve(href), "GET", None, None, False, None,
                            here + token, (), None, None, False, None, None, extra,
                            label, None, ()))
    # fmt: on


def _build_link(entry: Deferred) -> Link:
    """The Link of a deferred link object with members beyond ``href``."""
    _, _, _, pointer, (token, extra, rel, label), resolver, href, obj = entry
    return _link(rel, label, obj, href, pointer + token, extra, resolver)


def _plain(rel: str, label: str | None, href: str, source: str, extra: Attributes) -> Link:
    """:func:`plain_link`, with the server's name for a relation when it is not ``rel``."""
    link = plain_link(rel, href, source, extra)
    return link if label is None else link._replace(label=label)


def _link_array(
    rel: str,
    label: str | None,
    objects: list[Any],
    here: str,
    extra: Attributes,
    c: Collector,
    inner: bool,
) -> None:
    """The link objects of an array (``"rw:products": [{"href": ...}, ...]``)."""
    # As the loop of _links() above, for each item of an array of link objects.
    found = c.links
    append = found.entries.append
    resolver = c.resolver
    eager = c.eager
    bounded = inner and rel != "self"
    for index, item in enumerate(objects):
        if type(item) is dict and len(item) == 1:
            href = item.get("href")
            if type(href) is str:
                if bounded:
                    if not found.room:
                        append(NOT_KEPT)
                        if rel not in found.skipped:
                            found.skipped.add(rel)
                        continue
                    found.room -= 1
                token = _INDEX_TOKENS[index] if index < 64 else f"/{index}"
                entry = (rel, _build_item, None, here, token, resolver, href, extra, label)
                append(_build_item(entry) if eager else entry)
                continue
        if type(item) is not list:  # (an array in the array is no link)
            _link_value(rel, label, item, f"{here}/{index}", extra, c)
        if index and not index % 4096:
            c.added()  # the bounds, now and then: an array may be long


def _link_value(
    rel: str, label: str | None, value: object, source: str, extra: Attributes, c: Collector
) -> None:
    """A member of ``_links`` (or an item of an array of them) other than ``{"href":
    ...}``: a link object with more members, drf-hal-json's bare URL (``null`` for
    none), Eve's ``related`` links grouped by field, or nothing to read."""
    if type(value) is str:
        if value:
            c.links.append(_plain(rel, label, c.resolver.resolve(value), source, extra))
        return
    if type(value) is not dict:
        return
    href = value.get("href")
    if type(href) is str:
        c.links.append(_link(rel, label, value, href, source, extra, c.resolver))
    elif href is None and rel == "related":
        _named_links(value, source, c)


def _named_links(named: dict[str, object], pointer: str, c: Collector) -> None:
    """Eve's ``"related": {"author": {"href": ...}}``: one ``related`` link per field, named."""
    for name, obj in named.items():
        if type(obj) is dict and type(obj.get("href")) is str:
            link = _link("related", None, obj, obj["href"], child(pointer, name), (), c.resolver)
            c.links.append(link if link.name else link._replace(name=name))


def _link(
    rel: str,
    label: str | None,
    obj: dict[str, object],
    href: str,
    source: str,
    extra: Attributes,
    resolver: Resolver,
) -> Link:
    """A link object with members beyond ``href`` (a title, a type...)."""
    title = media_type = name = hreflang = deprecation = None
    attributes = extra
    templated = False
    for key, value in obj.items():
        if key == "href":
            continue  # (read by the caller; every link object has one)
        if key == "title":
            if type(value) is str:
                title = value
        elif key == "type":
            if type(value) is str:
                media_type = value
        elif key == "templated":
            templated = value is True
        elif key == "name":
            if type(value) is str:
                name = value
        elif key == "hreflang":
            if type(value) is str:
                hreflang = value
        elif key == "profile":
            if type(value) is str:
                attributes = (("profile", value), *attributes)
        elif key == "deprecation" and value:
            deprecation = resolver.resolve(value) if type(value) is str else "true"
    # fmt: off
    return new_tuple(Link, (rel, resolver.resolve(href, templated), "GET", title, media_type,
                            templated, deprecation, source, (), None, name, False, hreflang, None,
                            attributes, label, None, ()))
    # fmt: on
