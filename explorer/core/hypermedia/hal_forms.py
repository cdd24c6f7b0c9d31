"""HAL-FORMS ``_templates``: each member an action Link with its form fields.

Each ``_templates`` member becomes an action Link whose ``rel`` and ``name``
are the member's key, with the method (default GET), ``contentType`` (default
``application/json``), the ``title``, and the ``properties`` as form fields. A
template without ``target`` targets the resource's ``self`` link (the request
URL when there is none).

A collection page repeats the same templates in every item, differing in their
target at most: the fields of a ``properties`` array are therefore made once
per distinct array (keyed by its exact JSON) and shared, as are the fields of
each distinct property.
"""

from __future__ import annotations

from typing import Any

import orjson

from explorer.core.hypermedia.collector import (
    Collector,
    child,
    fast_field,
    form_value,
    is_template,
    new_tuple,
)
from explorer.core.hypermedia.found import NOT_KEPT, Deferred
from explorer.core.hypermedia.link import FormField, Link

#: Distinct properties (and ``properties`` arrays) remembered per document at most.
_FIELD_CACHE_LIMIT = 10_000
#: Methods as templates write them, upper-cased once.
_METHODS = {name: name for name in ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD")}
_DEFAULT_CONTENT_TYPE = "application/json"


class FieldCache:
    """The form fields of the ``properties`` one document repeats, by exact JSON.

    ``true`` and ``1`` differ in JSON and here alike; a property becomes the
    same :class:`~explorer.core.hypermedia.link.FormField` wherever its JSON is the same.
    """

    __slots__ = ("arrays", "properties")

    def __init__(self) -> None:
        self.arrays: dict[bytes, tuple[FormField, ...]] = {}
        self.properties: dict[str, FormField] = {}


def add_templates(
    templates: dict[str, Any],
    pointer: str,
    links: object,
    c: Collector,
    cache: FieldCache,
    own: str | None = None,
    inner: bool = False,
) -> None:
    """An action Link per template of ``templates`` (the ``_templates`` at ``pointer``,
    already claimed by the caller); ``links`` is the resource's ``_links``, ``own`` its
    ``self`` link's href as written when the HAL reader read it already (a template
    without a ``target`` goes there); ``inner``: they fall in a run of embedded links,
    whose links but ``self`` ones are recorded while there is room
    (:attr:`~explorer.core.hypermedia.found.FoundLinks.room`), and only counted past it."""
    # Some 30,000 templates on a 10 MB HAL page, nearly all of embedded resources, which
    # a page's reader does not keep: each is deferred (see
    # :mod:`~explorer.core.hypermedia.found`), its Link made by _build() if it is read.
    # What it is made from is the template object itself, and the resource's own URL
    # (its target when it names none), worked out now while the resource's links are
    # at hand. A search bounded for a page's reading records no more than it may keep.
    found = c.links
    append = found.entries.append
    resolver = c.resolver
    eager = c.eager
    skipped = found.skipped
    fallback = own if own is not None else _self_href(links)
    for key, template in templates.items():
        if type(template) is not dict:
            continue
        if key == "self":  # (its relation: where each self link is, for the session's order)
            found.selfs.append(len(found.entries))
        elif inner:
            if not found.room:
                append(NOT_KEPT)
                if key not in skipped:
                    skipped.add(key)
                continue
            found.room -= 1
        entry = (key, _build, key, pointer, resolver, cache, fallback, template)
        append(_build(entry) if eager else entry)


def _build(entry: Deferred) -> Link:
    """The action Link of a deferred template (see :func:`add_templates`)."""
    key, _, _, pointer, resolver, cache, fallback, template = entry
    get = template.get
    target, method, title = get("target"), get("method"), get("title")
    content_type, properties = get("contentType"), get("properties")
    if type(target) is not str or not target:
        target = fallback
    # Its target resolved by the one rule (Resolver.resolve(), whose fast path joins a
    # root-relative target to the origin at once), and its Link built positionally
    # (LINK_FIELDS).
    templated = False
    if target:
        templated = "{" in target and is_template(target)
        href = resolver.resolve(target, templated)
    else:
        href = resolver.base
    method = (_METHODS.get(method) or method.upper()) if type(method) is str and method else "GET"
    # fmt: off
    return new_tuple(Link, (
        key,  # rel
        href,
        method,
        title if type(title) is str else None,
        None, templated, None,  # media_type, templated, deprecation
        f"{pointer}/{key}" if "/" not in key and "~" not in key else child(pointer, key),
        _fields(properties, cache) if type(properties) is list and properties else (),
        content_type if type(content_type) is str else _DEFAULT_CONTENT_TYPE,
        key, False, None, None, (),  # name, guess, hreflang, anchor, attributes
        None, None, (),  # label, made_from, also
    ))
    # fmt: on


def _self_href(links: object) -> str:
    """The href of the ``self`` link of a resource's ``_links`` ("" for none)."""
    if type(links) is not dict:
        return ""
    self_link = links.get("self")
    if type(self_link) is list and self_link:
        self_link = self_link[0]
    if type(self_link) is dict:
        self_link = self_link.get("href")
    return self_link if type(self_link) is str else ""


def _fields(properties: list[object], cache: FieldCache) -> tuple[FormField, ...]:
    """The form fields of a ``properties`` array, made once per distinct array."""
    try:
        exact = orjson.dumps(properties)  # (the bytes are a key as good as their text)
    except orjson.JSONEncodeError:  # (nested too deep to serialise: read it property by property)
        return _properties(properties, cache.properties)
    fields = cache.arrays.get(exact)
    if fields is None:
        fields = _properties(properties, cache.properties)
        if len(cache.arrays) < _FIELD_CACHE_LIMIT:
            cache.arrays[exact] = fields
    return fields


def _properties(value: list[object], cache: dict[str, FormField]) -> tuple[FormField, ...]:
    fields = []
    for prop in value:
        if type(prop) is not dict or type(prop.get("name")) is not str:
            continue
        # The same property recurs in every item of a collection; its JSON is an
        # exact key, and far cheaper than a new field.
        exact = orjson.dumps(prop).decode()
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
