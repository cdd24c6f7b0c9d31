"""HAL (draft-kelly-json-hal) and HAL-FORMS ``_templates``.

A resource's ``_links``, ``_embedded`` and ``_templates`` are read in the
order the document has them, and ``_embedded`` resources at any depth are read
where they stand, so links come out in document order.

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

from explorer.core.hypermedia.collector import Collector, child, form_value, is_template, text
from explorer.core.link import FormField, Link
from explorer.core.templates import TemplateError, expand_template

_MAX_DEPTH = 400


def looks_like_hal(doc: object) -> bool:
    """True when ``doc`` is an object with a HAL reserved member."""
    return isinstance(doc, dict) and ("_links" in doc or "_embedded" in doc or "_templates" in doc)


def add_hal_links(doc: object, collector: Collector) -> None:
    """Add every link, embedded link and HAL-FORMS template of a HAL document."""
    if isinstance(doc, dict):
        _resource(doc, "", {}, collector, 0)


def _resource(
    resource: dict[str, object],
    pointer: str,
    curies: dict[str, str],
    collector: Collector,
    depth: int,
) -> None:
    links = resource.get("_links")
    if isinstance(links, dict):
        curies = _curies(links.get("curies"), curies)
    for key, value in resource.items():
        if key == "_links" and isinstance(value, dict):
            collector.claim(f"{pointer}/_links")
            _links(value, f"{pointer}/_links", curies, collector)
        elif key == "_embedded" and isinstance(value, dict) and depth < _MAX_DEPTH:
            base = f"{pointer}/_embedded"
            for name, embedded in value.items():
                here = child(base, name)
                if isinstance(embedded, dict):
                    _resource(embedded, here, curies, collector, depth + 1)
                elif isinstance(embedded, list):
                    for index, item in enumerate(embedded):
                        if isinstance(item, dict):
                            _resource(item, f"{here}/{index}", curies, collector, depth + 1)
        elif key == "_templates" and isinstance(value, dict):
            collector.claim(f"{pointer}/_templates")
            self_href = _self_href(links)
            _templates(value, f"{pointer}/_templates", self_href, collector)


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
    return text(self_link.get("href")) if isinstance(self_link, dict) else None


def _expand_curie(rel: str, curies: dict[str, str], collector: Collector) -> str | None:
    prefix, _, reference = rel.partition(":")
    template = curies.get(prefix)
    if template is None or reference.startswith("//"):
        return None
    try:
        return collector.resolver.resolve(expand_template(template, {"rel": reference}))
    except TemplateError:
        return None


def _links(links: dict[str, object], pointer: str, curies: dict[str, str], c: Collector) -> None:
    for rel, value in links.items():
        here = child(pointer, rel)
        rel_uri = _expand_curie(rel, curies, c) if curies and ":" in rel else None
        if isinstance(value, dict):
            _link(rel, value, here, rel_uri, c)
        elif isinstance(value, list):
            for index, item in enumerate(value):
                if isinstance(item, dict):
                    _link(rel, item, f"{here}/{index}", rel_uri, c)


def _link(rel: str, obj: dict[str, object], source: str, rel_uri: str | None, c: Collector) -> None:
    href = obj.get("href")
    if not isinstance(href, str):
        return
    templated = obj.get("templated") is True
    attributes: tuple[tuple[str, str], ...] = ()
    profile = obj.get("profile")
    if isinstance(profile, str):
        attributes = (("profile", profile),)
    if rel_uri is not None:
        attributes = (*attributes, ("rel-uri", rel_uri))
    deprecation = obj.get("deprecation")
    if deprecation is not None and not isinstance(deprecation, str):
        deprecation = "true" if deprecation else None
    title = obj.get("title")
    media_type = obj.get("type")
    name = obj.get("name")
    hreflang = obj.get("hreflang")
    c.add(
        Link(
            rel=rel,
            href=c.resolver.resolve(href, templated),
            title=title if isinstance(title, str) else None,
            media_type=media_type if isinstance(media_type, str) else None,
            templated=templated,
            deprecation=c.resolver.resolve(deprecation) if deprecation else None,
            source=source,
            name=name if isinstance(name, str) else None,
            hreflang=hreflang if isinstance(hreflang, str) else None,
            attributes=attributes,
        )
    )


def _templates(
    templates: dict[str, object], pointer: str, self_href: str | None, c: Collector
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
        c.add(
            Link(
                rel=key,
                href=href,
                method=method.upper() if isinstance(method, str) and method else "GET",
                title=title if isinstance(title, str) else None,
                templated=templated,
                source=child(pointer, key),
                fields=_properties(template.get("properties")),
                content_type=content_type if isinstance(content_type, str) else "application/json",
                name=key,
            )
        )


def _properties(value: object) -> tuple[FormField, ...]:
    if not isinstance(value, list):
        return ()
    fields = []
    for prop in value:
        if not isinstance(prop, dict) or not isinstance(prop.get("name"), str):
            continue
        kind = prop.get("type")
        prompt = prop.get("prompt")
        fields.append(
            FormField(
                name=prop["name"],
                type=kind if isinstance(kind, str) and kind else "text",
                required=prop.get("required") is True,
                value=form_value(prop.get("value")),
                prompt=prompt if isinstance(prompt, str) else None,
                options=_options(prop.get("options")),
            )
        )
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
