"""Siren (https://github.com/kevinswiber/siren): links, actions and sub-entities.

* ``links``: each link has several relations (``"rel": ["next", "page"]``);
  each relation gives one Link, all with the link's pointer as source. Siren
  has no template flag: an ``href`` with ``{...}`` expressions is taken as an
  RFC 6570 template (our mock also marks it with the class ``templated``).
* ``actions``: each becomes an action Link: ``rel`` and ``name`` are the
  action's name; ``method`` defaults to GET; ``type`` (the body's media type)
  defaults to ``application/x-www-form-urlencoded``; ``fields`` become form
  fields (``title`` is the prompt, a list ``value`` becomes the options; the
  non-standard ``required`` and ``options`` members are read too).
* ``entities``: an *embedded link* (it has ``href``) gives one Link per
  relation; an *embedded representation* is an entity itself, read
  recursively where it stands, so the output keeps document order.
"""

from __future__ import annotations

from explorer.core.hypermedia.collector import Collector, form_value, is_template
from explorer.core.hypermedia.link import FormField, Link

_MAX_DEPTH = 400
_DEFAULT_ACTION_TYPE = "application/x-www-form-urlencoded"


def looks_like_siren(doc: object) -> bool:
    """True when ``doc`` has Siren's shape: ``class``/``properties``/``entities``/``actions``,
    or ``links`` as a list of objects whose ``rel`` is a list."""
    if not isinstance(doc, dict):
        return False
    if isinstance(doc.get("entities"), list) or isinstance(doc.get("actions"), list):
        return True
    links = doc.get("links")
    if isinstance(links, list) and links:
        first = links[0]
        return isinstance(first, dict) and isinstance(first.get("rel"), list)
    return isinstance(doc.get("class"), list) and isinstance(doc.get("properties"), dict)


def add_siren_links(doc: object, collector: Collector) -> None:
    """Add the links, actions and sub-entity links of a Siren entity."""
    if isinstance(doc, dict):
        _entity(doc, "", collector, 0)


def _rels(value: object) -> list[str]:
    if isinstance(value, str):
        value = value.split()
    if isinstance(value, list):
        return list(dict.fromkeys(rel for rel in value if isinstance(rel, str) and rel))
    return []


def _entity(entity: dict[str, object], pointer: str, c: Collector, depth: int) -> None:
    for key, value in entity.items():
        if not isinstance(value, list):
            continue
        here = f"{pointer}/{key}"
        if key == "links":
            for index, link in enumerate(value):
                if isinstance(link, dict):
                    _link(link, f"{here}/{index}", c)
        elif key == "actions":
            for index, action in enumerate(value):
                if isinstance(action, dict):
                    _action(action, f"{here}/{index}", c)
        elif key == "entities" and depth < _MAX_DEPTH:
            for index, sub in enumerate(value):
                if not isinstance(sub, dict):
                    continue
                if "href" in sub:
                    _link(sub, f"{here}/{index}", c)
                else:
                    c.claim(f"{here}/{index}/rel")  # relation types, not places to go
                    _entity(sub, f"{here}/{index}", c, depth + 1)


def _link(link: dict[str, object], source: str, c: Collector) -> None:
    href = link.get("href")
    if not isinstance(href, str):
        return
    title = link.get("title")
    media_type = link.get("type")
    templated = is_template(href)
    resolved = c.resolver.resolve(href, templated)
    for rel in _rels(link.get("rel")) or ["related"]:
        c.add(
            Link(
                rel=rel,
                href=resolved,
                title=title if isinstance(title, str) else None,
                media_type=media_type if isinstance(media_type, str) else None,
                templated=templated,
                source=source,
            )
        )


def _action(action: dict[str, object], source: str, c: Collector) -> None:
    href = action.get("href")
    name = action.get("name")
    if not isinstance(href, str):
        return
    method = action.get("method")
    title = action.get("title")
    body_type = action.get("type")
    templated = is_template(href)
    c.add(
        Link(
            rel=name if isinstance(name, str) and name else "action",
            href=c.resolver.resolve(href, templated),
            method=method.upper() if isinstance(method, str) and method else "GET",
            title=title if isinstance(title, str) else None,
            templated=templated,
            source=source,
            fields=_fields(action.get("fields")),
            content_type=body_type if isinstance(body_type, str) else _DEFAULT_ACTION_TYPE,
            name=name if isinstance(name, str) else None,
        )
    )


def _fields(value: object) -> tuple[FormField, ...]:
    if not isinstance(value, list):
        return ()
    fields = []
    for field in value:
        if not isinstance(field, dict) or not isinstance(field.get("name"), str):
            continue
        kind = field.get("type")
        title = field.get("title")
        preset = field.get("value")
        options: tuple[str, ...] = ()
        listed = field.get("options")  # not Siren's, but common (and our mock's)
        if isinstance(listed, list):
            options = tuple(str(o) for o in listed if isinstance(o, (str, int, float)))
        if isinstance(preset, list):
            options = tuple(
                str(option.get("value")) if isinstance(option, dict) else str(option)
                for option in preset
                if isinstance(option, (dict, str, int, float))
            )
            chosen = [o for o in preset if isinstance(o, dict) and o.get("selected") is True]
            preset = chosen[0].get("value") if chosen else None
        fields.append(
            FormField(
                name=field["name"],
                type=kind if isinstance(kind, str) and kind else "text",
                required=field.get("required") is True,
                value=form_value(preset),
                prompt=title if isinstance(title, str) else None,
                options=options,
            )
        )
    return tuple(fields)
