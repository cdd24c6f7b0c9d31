"""HAL (draft-kelly-json-hal) and HAL-FORMS ``_templates``.

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

HAL-FORMS: each ``_templates`` member becomes an action Link whose ``rel`` and
``name`` are the member's key, with the method (default GET), ``contentType``
(default ``application/json``), and the ``properties`` as form fields. A
template without ``target`` targets the resource's ``self`` link (the request
URL when there is none).
"""

from __future__ import annotations

import orjson

from explorer.core.hypermedia.collector import (
    Collector,
    child,
    fast_field,
    fast_link,
    form_value,
    is_template,
    plain_link,
    text,
)
from explorer.core.link import FormField, Link
from explorer.core.templates import TemplateError, expand_template

_MAX_DEPTH = 400
_FIELD_CACHE_LIMIT = 10_000


class _Caches:
    """What one document repeats: curie expansions and HAL-FORMS properties."""

    __slots__ = ("curies", "fields")

    def __init__(self) -> None:
        self.curies: dict[tuple[str, str], str | None] = {}
        self.fields: dict[bytes, FormField] = {}


def looks_like_hal(doc: object) -> bool:
    """True when ``doc`` is an object with a HAL reserved member."""
    return isinstance(doc, dict) and ("_links" in doc or "_embedded" in doc or "_templates" in doc)


def add_hal_links(doc: object, collector: Collector) -> None:
    """Add every link, embedded link and HAL-FORMS template of a HAL document."""
    if not isinstance(doc, dict):
        return
    resolver = collector.resolver
    api_root = _eve_api_root(doc)
    if api_root is not None:
        collector.resolver = resolver.with_base(api_root)
    try:
        _resource(doc, "", {}, collector, _Caches(), 0)
    finally:
        collector.resolver = resolver


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
    if isinstance(links, dict):
        curies = _curies(links.get("curies"), curies)
    for key, value in resource.items():
        if key == "_links" and isinstance(value, dict):
            collector.claim(f"{pointer}/_links")
            _links(value, f"{pointer}/_links", curies, collector, cache)
        elif key == "_embedded" and depth < _MAX_DEPTH:
            base = f"{pointer}/_embedded"
            if isinstance(value, dict):
                for name, embedded in value.items():
                    here = child(base, name)
                    if isinstance(embedded, dict):
                        _resource(embedded, here, curies, collector, cache, depth + 1)
                    elif isinstance(embedded, list):
                        _resources(embedded, here, curies, collector, cache, depth + 1)
            elif isinstance(value, list):  # drf-hal-json: the items, unnamed
                _resources(value, base, curies, collector, cache, depth + 1)
        elif key == "_items" and depth == 0 and isinstance(value, list):
            _resources(value, "/_items", curies, collector, cache, 1)  # Eve's page of items
        elif key == "_templates" and isinstance(value, dict):
            collector.claim(f"{pointer}/_templates")
            self_href = _self_href(links)
            _templates(value, f"{pointer}/_templates", self_href, collector, cache)


def _resources(
    items: list[object],
    pointer: str,
    curies: dict[str, str],
    collector: Collector,
    cache: _Caches,
    depth: int,
) -> None:
    for index, item in enumerate(items):
        if isinstance(item, dict):
            _resource(item, f"{pointer}/{index}", curies, collector, cache, depth)


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


def _self_href(links: object) -> str | None:
    if not isinstance(links, dict):
        return None
    self_link = links.get("self")
    if isinstance(self_link, list) and self_link:
        self_link = self_link[0]
    if isinstance(self_link, str):
        return self_link or None
    return text(self_link.get("href")) if isinstance(self_link, dict) else None


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


def _links(
    links: dict[str, object],
    pointer: str,
    curies: dict[str, str],
    c: Collector,
    cache: _Caches,
) -> None:
    # The whole ``_links`` object is claimed by the caller, so links are appended
    # directly, without claiming each one: this loop runs once per link.
    append = c.links.append
    resolve = c.resolver.resolve
    for rel, value in links.items():
        # child() inlined: this line runs once per relation of every resource.
        here = f"{pointer}/{rel}" if "/" not in rel and "~" not in rel else child(pointer, rel)
        extra: tuple[tuple[str, str], ...] = ()
        if curies and ":" in rel:
            rel_uri = _expand_curie(rel, curies, c, cache)
            if rel_uri is not None:
                extra = (("rel-uri", rel_uri),)
        if type(value) is dict:
            objects: list[tuple[str, object]] | tuple[tuple[str, object]] = ((here, value),)
        elif type(value) is list:
            objects = [(f"{here}/{index}", item) for index, item in enumerate(value)]
        elif type(value) is str:
            objects = ((here, value),)
        else:
            continue
        for source, obj in objects:
            if type(obj) is str:  # drf-hal-json writes a link as its bare URL
                if obj:
                    append(plain_link(rel, resolve(obj), source, extra))
                continue
            if type(obj) is not dict:
                continue
            href = obj.get("href")
            if type(href) is not str:
                if href is None and rel == "related":
                    _named_links(obj, source, c)
                continue
            if len(obj) == 1:  # the common {"href": ...}: nothing else to read
                append(plain_link(rel, resolve(href), source, extra))
            else:
                append(_link(rel, obj, href, source, extra, c))


def _named_links(named: dict[str, object], pointer: str, c: Collector) -> None:
    """Eve's ``"related": {"author": {"href": ...}}``: one ``related`` link per field, named."""
    for name, obj in named.items():
        if type(obj) is dict and type(obj.get("href")) is str:
            link = _link("related", obj, obj["href"], child(pointer, name), (), c)
            c.links.append(link if link.name else fast_link(**{**vars(link), "name": name}))


#: HAL link object members that map one to one onto Link fields.
_LINK_MEMBERS = {"title": "title", "type": "media_type", "name": "name", "hreflang": "hreflang"}


def _link(
    rel: str,
    obj: dict[str, object],
    href: str,
    source: str,
    extra: tuple[tuple[str, str], ...],
    c: Collector,
) -> Link:
    values: dict[str, object] = {"rel": rel, "source": source}
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
    values["templated"] = templated
    values["href"] = c.resolver.resolve(href, templated)
    values["attributes"] = attributes
    return fast_link(**values)


def _templates(
    templates: dict[str, object],
    pointer: str,
    self_href: str | None,
    c: Collector,
    cache: _Caches,
) -> None:
    for key, template in templates.items():
        if not isinstance(template, dict):
            continue
        target = text(template.get("target")) or self_href
        templated = target is not None and is_template(target)
        href = c.resolver.resolve(target, templated) if target else c.resolver.base
        method = template.get("method")
        content_type = template.get("contentType")
        title = template.get("title")
        c.links.append(  # the whole ``_templates`` object is claimed by the caller
            fast_link(
                rel=key,
                href=href,
                method=method.upper() if isinstance(method, str) and method else "GET",
                title=title if isinstance(title, str) else None,
                templated=templated,
                source=child(pointer, key),
                fields=_properties(template.get("properties"), cache.fields),
                content_type=content_type if isinstance(content_type, str) else "application/json",
                name=key,
            )
        )


def _properties(value: object, cache: dict[bytes, FormField]) -> tuple[FormField, ...]:
    if not isinstance(value, list):
        return ()
    fields = []
    for prop in value:
        if type(prop) is not dict or type(prop.get("name")) is not str:
            continue
        # The same property recurs in every item of a collection; its JSON is an
        # exact key (``true`` and ``1`` differ), and far cheaper than a new field.
        exact = orjson.dumps(prop)
        cached = cache.get(exact)
        if cached is not None:
            fields.append(cached)
            continue
        values: dict[str, object] = {}
        for key, member in prop.items():
            if key == "name" or (key == "prompt" and type(member) is str):
                values[key] = member
            elif key == "type":
                if type(member) is str and member:
                    values["type"] = member
            elif key == "required":
                values["required"] = member is True
            elif key == "value":
                values["value"] = form_value(member)
            elif key == "options":
                values["options"] = _options(member)
        made = fast_field(**values)
        if len(cache) < _FIELD_CACHE_LIMIT:
            cache[exact] = made
        fields.append(made)
    return tuple(fields)


def _options(value: object) -> tuple[str, ...]:
    if not isinstance(value, dict) or not isinstance(value.get("inline"), list):
        return ()
    options = []
    for option in value["inline"]:
        if isinstance(option, dict):
            option = option.get("value")
        if isinstance(option, (str, int, float)) and not isinstance(option, bool):
            options.append(str(option))
    return tuple(options)
